/** Errors of the crawler library: a stable `code`, a message naming the option or call. */

export type CrawlerErrorCode =
  /** An option of `new Crawler(…)` that cannot be used; the message names it. */
  | "HEED_BAD_CRAWLER_OPTION"
  /** A call from a page handler with an argument that cannot be used. */
  | "HEED_BAD_ARGUMENT"
  /** A page handler past its bound (URLs queued, records pushed). */
  | "HEED_TOO_MANY"
  /** A call on a page's context after its handler ended. */
  | "HEED_CONTEXT_CLOSED"
  /** A handler that did not end within `handlerTimeoutMs`. */
  | "HEED_HANDLER_TIMEOUT"
  /** `run()` called while the crawler runs. */
  | "HEED_ALREADY_RUNNING";

export class CrawlerError extends Error {
  override readonly name = "CrawlerError";

  constructor(
    readonly code: CrawlerErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
