/**
 * The few parts of Crawlee that `heed/crawlee` touches, written out so that Crawlee need not be a
 * dependency of heed: a real Crawlee request, context and crawler fit them.
 */
import type { Verdict } from "../crawler/verdict.js";

/** The part of a Crawlee request heed reads and sets. */
export interface CrawleeRequestLike {
  readonly url: string;
  /** Set when robots.txt refuses the URL for good: Crawlee does not try it again. */
  noRetry: boolean;
  /** Carried over to a redirect's target (its label included). */
  readonly userData?: Record<string, unknown>;
}

/** The part of the answer a post-navigation hook sees. */
export interface CrawleeResponseLike {
  readonly statusCode?: number;
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
}

export interface CrawleeContextLike {
  readonly request: CrawleeRequestLike;
  readonly response?: CrawleeResponseLike;
  /** Crawlee's `context.addRequests`: where a redirect's target is enqueued. */
  addRequests?(
    requests: readonly { url: string; userData: Record<string, unknown> }[],
  ): Promise<unknown>;
}

/** The part of Crawlee's HTTP options (got) a pre-navigation hook may set. */
export interface RequestOptionsLike {
  headers?: Record<string, string | string[] | undefined>;
  followRedirect?: boolean;
}

/** What `attach` puts into a crawler: the hooks and the robots.txt reading. */
export interface HeedHooks {
  before(context: CrawleeContextLike, requestOptions?: RequestOptionsLike): Promise<void>;
  after(context: CrawleeContextLike): Promise<void>;
  redirected(request: CrawleeRequestLike): boolean;
  check(url: string): Promise<Verdict>;
}
