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
   * Up to `limit` origins ready at `now`, none of `exclude` (as {@link readyOrigins}), claimed
   * for this caller: a store shared by processes hands each to one of them only, until the
   * visit's next step in the store about that origin (its reservation, lease or next moment)
   * or a while after. `nextAt`: when to look again: `now` when `limit` were claimed (more may
   * be ready), else when the next of the others becomes ready (as {@link nextReadyAt}), null
   * when no other is queued.
   */
  claimReady(
    now: number,
    limit: number,
    exclude: ReadonlySet<string>,
  ): Promise<{ readonly origins: readonly string[]; readonly nextAt: number | null }>;
  /**
   * Leases the best due URL of `origin` (highest priority, then oldest) and, in the same
   * step, moves the origin's next request moment to `nextAt` (never earlier); null when none is
   * due, and null while the origin's next request moment is after `now` (another fetcher or
   * process has just asked it: the politeness gap holds across processes sharing the store).
   * With `nextAt` null the caller holds the site's reservation ({@link Reservations.take}): the
   * next moment is neither checked nor moved. `owner` ties the lease to a process, so that
   * {@link Reservations.reap} gives it back when that process dies.
   */
  lease(
    origin: string,
    now: number,
    leaseMs: number,
    nextAt: number | null,
    owner?: string,
  ): Promise<Lease | null>;
  /** Ends a lease. Settling a lease that expired and was recovered is a no-op. */
  settle(lease: Lease, outcome: Outcome): Promise<void>;
  /**
   * Moves when the origin's next request is due (politeness, time windows, robots back-off) to
   * `at`, or leaves it when it is already later: a site's next moment only moves later.
   */
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
  /** The page whose link (or redirect, or sitemap) brought the URL into the crawl; null for a seed. */
  readonly referrer?: string | null;
  /** The gap the site's rules required before this request, and the gap kept, in ms. */
  readonly requiredGapMs?: number | null;
  readonly gapMs?: number | null;
  /** Time this request waited on delays, rates and time windows, in ms. */
  readonly waitedMs?: number | null;
  /**
   * The usage preferences that applied to the page, as JSON text: each category's value and
   * where it was stated (docs/usage-preferences.md); null when none was read.
   */
  readonly usage?: string | null;
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

/**
 * What a page's settle writes in the same step as the settle itself: one script call on Redis,
 * one transaction on SQLite. Each part is optional.
 */
export interface SettleWrites {
  /** URLs the page brought (its links), added as {@link Frontier.add} adds them. */
  readonly links?: readonly NewUrl[];
  /** The page's validators, as {@link PageStore.put} keeps them. */
  readonly page?: PageValidators;
  /** The page's crawl log line, as {@link CrawlLog.append} keeps it. */
  readonly record?: CrawlRecord;
}

/** The answer to {@link PageSteps.leaseReserved}. */
export type ReservedLease =
  | Extract<Reservation, { granted: false }>
  | {
      readonly granted: true;
      /** The reservation taken: give it back with {@link Reservations.release}. */
      readonly id: string;
      readonly lease: Lease;
      /** What the store keeps of the URL's last fetch ({@link PageStore.get}). */
      readonly validators: PageValidators | null;
    }
  /** The reservation was free but no URL of the site was due: it is given back unused already. */
  | { readonly granted: true; readonly id: string; readonly lease: null };

/**
 * A page's path through the store in few steps, so that a fleet of processes costs the store
 * little a page: the site's reservation, the lease and the URL's validators in one step; the
 * settle with the page's links, validators and log line in another. Each is what the separate
 * calls would do, in one atomic step.
 */
export interface PageSteps {
  /**
   * {@link Reservations.take} under `rule` with the origin as key; when granted,
   * {@link Frontier.lease} of the origin's best due URL (the caller now holding the
   * reservation) and {@link PageStore.get} of that URL; when no URL is due, the reservation is
   * released unused in the same step.
   */
  leaseReserved(
    origin: string,
    owner: string,
    now: number,
    rule: PaceRule,
    leaseMs: number,
  ): Promise<ReservedLease>;
  /** {@link Frontier.settle}, with `writes` made in the same step (even when the lease was lost). */
  settle(lease: Lease, outcome: Outcome, writes: SettleWrites): Promise<void>;
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
  /** Each site's shared reservation, the processes' heartbeats, sitemaps read, the crawl's identity. */
  readonly reservations: Reservations;
  readonly log: CrawlLog;
  readonly pages: PageStore;
  /** Each host's /data.txt catalog, kept by `heed crawl --datasets`. */
  readonly datasets: DatasetCatalogs;
  /** What page handlers pushed: the crawl's own records (`heed export --items`). */
  readonly items: ItemLog;
  /** A page's reservation, lease and settle in few round trips. */
  readonly steps: PageSteps;
  /**
   * The store's time, ms since the epoch (Redis `TIME`; the SQLite file's machine clock), read
   * without a round trip (sampled, ./clock.ts). Every moment a crawl hands the store and every
   * wait it computes comes from here, so that processes whose clocks differ keep a site's gaps
   * and each other's heartbeats (DESIGN §2).
   */
  readonly now: () => number;
  /** The store's count of leases and settles, to notice a store that went back. */
  readonly writes: WriteCount;
  /**
   * Why the store was given up, when it was: a server unreachable for longer than its bounded
   * wait. Calls made since then fail; this says why, for a person. Null while it works.
   */
  failure(): Error | null;
  close(): Promise<void>;
}

/**
 * The store counts every lease and every settle; each process keeps the highest count it
 * saw (./write-counter.ts). A count that comes back not above it means the store went back to
 * an older state (a restored snapshot or copy): the call that shows it throws a StoreError with
 * code `HEED_STORE_WENT_BACK`, before a leased URL is fetched, and {@link CrawlStore.failure}
 * says so from then on.
 */
export interface WriteCount {
  /** The highest count this process saw (0 before any). */
  highest(): number;
  /** Reads the store's count, writing nothing; the highest seen becomes at least it. */
  read(): Promise<number>;
  /**
   * Reads the count of each part of the store (a Redis shard), writing nothing: one below the
   * highest this process saw of it means the store went back, and {@link CrawlStore.failure}
   * says so from then on (nothing is thrown). For a part no lease reaches any more.
   */
  check(): Promise<void>;
}

/**
 * The records a crawl's page handlers pushed (`ctx.push` in the library, `heed export --items`),
 * each one JSON text, kept in the order they were appended. The store checks only that each is
 * text no longer than `MAX_ITEM_CHARS` (./items.ts); what the JSON holds is the crawler author's.
 */
export interface ItemLog {
  /** Adds the records at the end, in order, all or none. */
  append(items: readonly string[]): Promise<void>;
  /** Every record, in the order appended, `batch` at a time (the last batch may be shorter). */
  scan(batch: number): AsyncIterable<readonly string[]>;
  count(): Promise<number>;
}

/** A host's dataset catalog as one robot read it (seeds/002; `heed crawl --datasets`). */
export interface StoredCatalog {
  readonly origin: string;
  /** The robot's name token the catalog was read for: data.txt and robots.txt may differ per robot. */
  readonly agent: string;
  /** When it was read (ms since the epoch). */
  readonly at: number;
  /** What `GET /data.txt` gave: read, 404 (guesses instead), an error, or forbidden by robots.txt. */
  readonly outcome: "found" | "missing" | "failed" | "forbidden";
  /** The /data.txt status, or null when it was not asked or did not answer. */
  readonly status: number | null;
  /** The form read, when found. */
  readonly form: "yaml" | "draft" | "empty" | null;
  /** Datasets listed, those with a fetchable file, and those that are guesses. */
  readonly datasets: number;
  readonly fetchable: number;
  readonly guesses: number;
  /**
   * The catalog as JSON text: `{ "robots", "dataTxt", "datasets": [...], "notes": [...] }`, the
   * datasets shaped as `heed datasets --json` prints them.
   */
  readonly body: string;
}

export interface DatasetCatalogs {
  /** Keeps the catalog, replacing the one of the same origin and agent. */
  put(catalog: StoredCatalog): Promise<void>;
  get(origin: string, agent: string): Promise<StoredCatalog | null>;
  /** Every catalog, by origin then agent. */
  list(): Promise<readonly StoredCatalog[]>;
}

/**
 * What one request to a site must respect, whoever asks (DESIGN §2, one reservation per site).
 * The rule travels with each reservation: a robots.txt request, made before the rules are
 * known, passes the rules it knows (or none), and the gaps other requests left still hold.
 */
export interface PaceRule {
  /** Least time from the end of one request to the start of the next, in ms; 0 for none. */
  readonly gapMs: number;
  /**
   * At most `requests` requests start within any `windowMs` (REGP Request-rate, seeds/003
   * §3.2.7), counted over every process of the crawl; null for none.
   */
  readonly rate: { readonly requests: number; readonly windowMs: number } | null;
  /** Most requests in flight at once to the site, over every process sharing the store. */
  readonly inFlight: number;
}

/** The answer to a reservation: taken (then released after the request), or when to ask again. */
export type Reservation =
  | { readonly granted: true; readonly id: string }
  | {
      readonly granted: false;
      /** When the site's gap or window allows the next request; `now` when only in-flight requests keep it. */
      readonly retryAt: number;
      readonly why: "gap" | "rate" | "in-flight";
    };

/** One key's reservation as the store holds it (see {@link Reservations.pace}). */
export interface PaceState {
  /** When the key's next request may start at the earliest, as last moved (0 when never set). */
  readonly nextAt: number;
  /** When the last exchange under the key ended, or null when none has. */
  readonly endedAt: number | null;
  /** Reservations taken and not given back. */
  readonly inFlight: number;
  /**
   * The moments the rate window counts, latest first: each request's start, its end once it was
   * given back as used.
   */
  readonly recent: readonly number[];
}

/** A crawler process sharing the store: alive while its heartbeat is renewed. */
export interface ProcessBeat {
  readonly id: string;
  /** The machine's name and the process id, so that a process on the same machine can tell a dead one at once. */
  readonly host: string;
  readonly pid: number;
  /** Alive until then, unless renewed (ms since the epoch). */
  readonly until: number;
}

/** The sitemaps of a site as read in this crawl: claimed by one process, read once. */
export interface SitemapsClaim {
  readonly origin: string;
  readonly owner: string;
  readonly claimedAt: number;
  /** When the reading ended, or null while it runs. */
  readonly readAt: number | null;
}

/**
 * Every request to a site takes its reservation here first (DESIGN §2): the gap since the last
 * exchange ended, the rate window and the requests in flight are kept in the store, so that every
 * process sharing it, and a process restarted after a crash, keeps them. A key is an origin (the
 * name token's pace) or an origin and IP address (Ip-delay, Ip-rate).
 */
export interface Reservations {
  /**
   * Takes the key's reservation for a request starting at `now`, owned by process `owner`, when
   * the rule allows it; otherwise says when to ask again and, in the same step, moves the site's
   * next moment (see {@link Frontier.nextAt}) to then, never earlier.
   */
  take(key: string, owner: string, now: number, rule: PaceRule): Promise<Reservation>;
  /**
   * Ends a reservation. `used` with the moment the exchange ended: the next gap counts from
   * `end` and the request stays in the rate window; not used (no request went out, such as a URL
   * robots.txt refuses): as if never taken. A reservation already given back is a no-op.
   */
  release(key: string, id: string, end: number, gapMs: number, used: boolean): Promise<void>;
  /**
   * What the key's reservation holds, read without changing it (the crawl view): the next
   * moment, the last end, the requests in flight and, latest first, at most `latest` of the
   * moments its rate window counts (at most the 1000 a store keeps).
   */
  pace(key: string, latest: number): Promise<PaceState>;
  /** Renews (or registers) a process's heartbeat. */
  beat(process: ProcessBeat): Promise<void>;
  /** The processes registered, alive or not yet reaped. */
  processes(): Promise<readonly ProcessBeat[]>;
  /**
   * Gives back everything a dead process held: its leases go back to the queue and its
   * reservations end as used at `now` (its last request may have reached the site just now).
   * Returns how many leases and reservations.
   */
  reap(owner: string, now: number): Promise<{ leases: number; reservations: number }>;
  /** Claims the reading of a site's sitemaps; false when read (after `since`) or being read by a living process. */
  claimSitemaps(origin: string, owner: string, now: number, since: number): Promise<boolean>;
  /** Records that a site's sitemaps were read. */
  sitemapsRead(origin: string, at: number): Promise<void>;
  sitemaps(origin: string): Promise<SitemapsClaim | null>;
  /**
   * Sites whose sitemaps were claimed and not read yet, at most `limit`: `owner` the process
   * reading them, or null when that process died and was reaped (the claim is free to take up).
   */
  unreadSitemaps(limit: number): Promise<readonly { origin: string; owner: string | null }[]>;
  /**
   * The crawl's identity, written when the store is first used: a store that lost its data (a
   * Redis restarted without persistence) no longer has it.
   */
  identity(): Promise<string | null>;
  /**
   * Records `id` and the crawl's seeds unless the store has an identity already (another
   * process wrote it first); returns the identity in effect.
   */
  setIdentity(id: string, seeds: readonly string[]): Promise<string>;
  /** The seeds the crawl was started with, as {@link setIdentity} recorded them. */
  seeds(): Promise<readonly string[]>;
}
