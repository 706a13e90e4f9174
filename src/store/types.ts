/**
 * What the crawler keeps, behind small interfaces with two implementations: an SQLite file
 * (the embedded default) and Redis (many crawler processes on many machines). The crawler
 * sees only these interfaces (DESIGN §2). Every method is async so that both fit; every
 * moment is an argument (ms since the epoch), never read from a clock inside a store.
 */

/** A URL to add to the frontier. */
export interface NewUrl {
  /** Absolute and already normalised: the dedup key. */
  readonly url: string;
  /** `scheme://host[:port]`: the unit of politeness. */
  readonly origin: string;
  readonly depth: number;
  /** Higher is fetched first within its origin. */
  readonly priority: number;
  /** Not before this moment (ms); 0 for now. */
  readonly notBefore: number;
  readonly referrer: string | null;
  /** Opaque JSON text for later stages (sitemap type, srcloc …), or null. */
  readonly meta: string | null;
}

/** A URL in the frontier. */
export interface QueuedUrl extends NewUrl {
  /** How many times it was tried and sent back (5xx, network errors). */
  readonly attempts: number;
}

/** A URL handed to one fetcher; until `until`, no other fetcher gets it. */
export interface Lease {
  readonly id: string;
  readonly entry: QueuedUrl;
  readonly until: number;
}

/** How a leased URL ended. */
export type Outcome =
  | { readonly kind: "done"; readonly status: number; readonly at: number }
  /** Refused by robots.txt or out of scope: never to be fetched in this crawl. */
  | { readonly kind: "skipped"; readonly reason: string; readonly at: number }
  /** Given up after its last attempt, or a permanent error. */
  | { readonly kind: "failed"; readonly reason: string; readonly at: number }
  /** Back to the queue with one more attempt, not before `notBefore`. */
  | { readonly kind: "retry"; readonly reason: string; readonly notBefore: number }
  /**
   * Back to the queue as it was (attempts unchanged), not before `notBefore`: the site is
   * closed for now (outside its Visit-time, robots.txt unreachable), not the URL at fault.
   */
  | { readonly kind: "defer"; readonly reason: string; readonly notBefore: number };

export interface FrontierCounts {
  readonly queued: number;
  readonly leased: number;
  readonly done: number;
  readonly skipped: number;
  readonly failed: number;
  /** Origins with at least one queued URL. */
  readonly origins: number;
}

export interface Frontier {
  /** Adds the URLs never seen before (in any state); returns how many were new. */
  add(urls: readonly NewUrl[]): Promise<number>;
  /**
   * Origins that have a queued URL due at `now` and whose next request is due (see
   * {@link setNextAt}), soonest first, at most `limit`, none of `exclude`.
   */
  readyOrigins(
    now: number,
    limit: number,
    exclude: ReadonlySet<string>,
  ): Promise<readonly string[]>;
  /**
   * The moment the next origin becomes ready (the smallest due time over origins with queued
   * URLs, none of `exclude`), or null when nothing is queued.
   */
  nextReadyAt(exclude: ReadonlySet<string>): Promise<number | null>;
  /**
   * Leases the best due URL of `origin` (highest priority, then oldest) and, in the same
   * step, sets the origin's next request moment to `nextAt`; null when none is due, and null
   * while the origin's next request moment is after `now` (another fetcher or process has
   * just asked it: the politeness gap holds across processes sharing the store).
   */
  lease(origin: string, now: number, leaseMs: number, nextAt: number): Promise<Lease | null>;
  /** Ends a lease. Settling a lease that expired and was recovered is a no-op. */
  settle(lease: Lease, outcome: Outcome): Promise<void>;
  /** Sets when the origin's next request is due (politeness, time windows, robots back-off). */
  setNextAt(origin: string, at: number): Promise<void>;
  /** When the origin's next request is due (0 when never set). */
  nextAt(origin: string): Promise<number>;
  /**
   * Queues again URLs that were done (a re-crawl, or a revisit from sitemap or REGP
   * guidance), not before `notBefore`; URLs never seen are added. Returns how many were queued.
   */
  revisit(urls: readonly NewUrl[]): Promise<number>;
  /** Puts every lease that ended before `now` back in the queue (a crashed run); returns how many. */
  recover(now: number): Promise<number>;
  counts(): Promise<FrontierCounts>;
}

/** A robots.txt as last fetched for an origin. */
export interface CachedRobots {
  readonly origin: string;
  readonly fetchedAt: number;
  /** Fresh until then (DESIGN §3: Cache-Control, Expires, else 24 h). */
  readonly expiresAt: number;
  /** The HTTP status, or null after a network error. */
  readonly status: number | null;
  /** `robotsFetchVerdict(...).action`: parse, allow-all, disallow-all, unreachable. */
  readonly action: "parse" | "allow-all" | "disallow-all" | "unreachable";
  /** The body when `action` is `parse`. */
  readonly body: Uint8Array | null;
  /** The last body that parsed, kept through outages (RFC 9309 §2.3.1.4). */
  readonly lastGoodBody: Uint8Array | null;
  /** While unreachable: when it first failed, and how many tries since. */
  readonly firstFailureAt: number | null;
  readonly attempts: number;
}

export interface RobotsCache {
  get(origin: string): Promise<CachedRobots | null>;
  put(entry: CachedRobots): Promise<void>;
}

/** Rate-window and delay bookkeeping of one origin, kept so a restarted crawl keeps its gaps. */
export interface HostState {
  readonly origin: string;
  /** When the last exchange with the origin ended: gaps count from the answer, as Yandex reads Crawl-delay. */
  readonly lastRequestAt: number | null;
  /** Request-rate / Ip-rate windows: start of the current window and requests in it (seeds/003 §3.2.7). */
  readonly windows: readonly RateWindowState[];
}

export interface RateWindowState {
  readonly scope: "agent" | "ip";
  readonly start: number;
  readonly count: number;
}

export interface HostStore {
  get(origin: string): Promise<HostState | null>;
  put(state: HostState): Promise<void>;
}

/** One fetch, as the crawl report and later stages read it. */
export interface CrawlRecord {
  readonly url: string;
  readonly origin: string;
  /** When the request was sent and how long it took. */
  readonly at: number;
  readonly ms: number;
  /** HTTP status, or null when no answer came. */
  readonly status: number | null;
  readonly bytes: number;
  /** `fetched`, `not-modified`, `disallowed`, `error`, `redirect` … */
  readonly outcome: string;
  /** Why, for a person: the robots.txt line that allowed or refused, the error. */
  readonly detail: string | null;
  /** The page's canonical URL (`<link rel=canonical>`, REGP Host), when it names one. */
  readonly canonical?: string | null;
  /** How the URL was found. */
  readonly via?: Discovery | null;
  /** The gap the site's rules required before this request, and the gap kept, in ms. */
  readonly requiredGapMs?: number | null;
  readonly gapMs?: number | null;
  /** Time this request waited on delays, rates and time windows, in ms. */
  readonly waitedMs?: number | null;
}

/** How a URL came into the crawl. */
export type Discovery = "seed" | "link" | "sitemap" | "srcloc" | "redirect" | "revisit" | "mirror";

export interface CrawlLog {
  /** Adds a record at the end; an optional field left out is stored as null. */
  append(record: CrawlRecord): Promise<void>;
  /**
   * Records in the order they were appended, bounded by `limit`. Read back, every optional field
   * is present: null where the crawler gave none (and in records written before it existed).
   */
  list(limit: number, offset: number): Promise<readonly CrawlRecord[]>;
  /**
   * Every record, in the order appended, `batch` at a time (the last batch may be shorter):
   * for reports and exports over millions of records, in memory of one batch and at a cost
   * that does not grow with the position (unlike a large `offset`). Records appended while
   * the scan runs may or may not be included. Shaped as {@link list}'s.
   */
  scan(batch: number): AsyncIterable<readonly CrawlRecord[]>;
  count(): Promise<number>;
}

/**
 * What a fetched page said about itself, for conditional requests on a re-crawl, and when the
 * site's guidance brings it back.
 */
export interface PageValidators {
  readonly url: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly fetchedAt: number;
  readonly status: number;
  /**
   * When to fetch it again (changefreq, Index-page, Change-*), or null when nothing asks for a
   * revisit. Left out on `put`, it is stored as null; read back, it is always present.
   */
  readonly revisitAt?: number | null;
}

export interface PageStore {
  get(url: string): Promise<PageValidators | null>;
  put(page: PageValidators): Promise<void>;
  /**
   * URLs whose revisit moment is at or before `now`, soonest first, `batch` at a time (the last
   * batch may be shorter). Pages put while the scan runs may or may not be included.
   */
  due(now: number, batch: number): AsyncIterable<readonly string[]>;
}

/** Everything a crawl keeps; `close` flushes and releases the back end. */
export interface CrawlStore {
  /**
   * True when other crawler processes may share the store (Redis): their leases are alive.
   * False for a local file, where any lease left at start belongs to a run that died.
   */
  readonly shared: boolean;
  readonly frontier: Frontier;
  readonly robots: RobotsCache;
  readonly hosts: HostStore;
  readonly log: CrawlLog;
  readonly pages: PageStore;
  close(): Promise<void>;
}
