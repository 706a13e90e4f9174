/**
 * Total deadlines. A site may answer one byte at a time, just often enough that no silence
 * timeout fires, and hold a request for hours: every fetch heed makes also has a total deadline,
 * which ends it however far it got and says which deadline that was.
 */

/** Longest a robots.txt exchange may take in all, redirects included (the crawler's too). */
export const ROBOTS_DEADLINE_MS = 30_000;
/** Longest one sitemap may take in all: 50 MB (sitemaps.org's cap) at under 1 MB/s is too slow. */
export const SITEMAP_DEADLINE_MS = 60_000;

/** A fetch ended by its total deadline; `code` HEED_DEADLINE. */
export class DeadlineError extends Error {
  readonly code = "HEED_DEADLINE";
  constructor(
    /** What the deadline was for: `robots.txt`, `the sitemap https://…`. */
    readonly what: string,
    readonly ms: number,
  ) {
    super(`the total deadline for ${what} (${seconds(ms)}) ended`);
    this.name = "DeadlineError";
  }
}

/**
 * A signal aborted with a {@link DeadlineError} `ms` from now, or when `outer` aborts (with its
 * reason). The timer does not keep the process alive.
 */
export function deadlineSignal(what: string, ms: number, outer?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineError(what, ms)), ms);
  timer.unref();
  controller.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  return outer === undefined ? controller.signal : AbortSignal.any([outer, controller.signal]);
}

/** `30 s`, `1.5 s`. */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
