/**
 * What a crawl is given and gives back: its options, the page handed to `onPage` and the hooks
 * it may call, the events it tells, and its summary. Apart from crawler.ts, which composes the
 * stages (./stages/), so that the stages read these without importing the crawl itself.
 */
import type { ExchangeObserver } from "../net/exchange-tap.js";
import type { CutReason, HttpClient } from "../net/http-client.js";
import type { DialectChoice } from "../protocol/robots/index.js";
import type { CrawlRecord, CrawlStore, Discovery } from "../store/types.js";
import type { AgentPaths } from "./agent-paths.js";
import type { ScopeKind } from "./scope.js";
import type { UsageCrawlOptions } from "./usage-verdict.js";
import type { Verdict } from "./verdict.js";

export interface CrawlerOptions {
  readonly seeds: readonly string[];
  /** The robot's name token, matched against robots.txt. */
  readonly agent: string;
  /** The User-Agent header sent (`NAME/<version> (+<url>)`). */
  readonly userAgent: string;
  readonly store: CrawlStore;
  readonly client: HttpClient;
  /**
   * Stop once this many pages are fetched in this run; with `total`, in the whole crawl
   * (a resumed run counts what earlier runs fetched).
   */
  readonly maxPages: number;
  /** `maxPages` and `maxPerHost` count the whole crawl, earlier runs too (`--total`). */
  readonly total?: boolean;
  /**
   * With `queued`: follow the links of the pages fetched and read sitemaps too (`--follow`);
   * without, a `--queued` run fetches exactly what is queued.
   */
  readonly follow?: boolean;
  /**
   * How long a run waits for a site closed for now (robots.txt unreachable, 5xx) before it sets
   * the site aside, in ms (default 600000); its URLs stay queued.
   */
  readonly siteWaitMs?: number;
  /** Longest a robots.txt request may take in all, in ms (default 30000); then the site is unreachable. */
  readonly robotsDeadlineMs?: number;
  readonly maxDepth: number;
  /** Requests in flight at once, over all sites. */
  readonly concurrency: number;
  /** Requests in flight at once to one site, when its robots.txt sets no delay. */
  readonly perHost: number;
  /** Requests in flight at once from this process to one site, at most `perHost`; default `perHost`. */
  readonly perHostOf?: (origin: string) => number;
  readonly scope: ScopeKind;
  /**
   * URL patterns (globs, or `re:` RE2 expressions; url-patterns.ts): a found URL is taken only
   * when one of `include` matches it (any, when empty) and none of `exclude` does. Checked with
   * the scope, before robots.txt; the seeds are always fetched.
   */
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  /** The IP address the crawler sends from: what REGP Ip-* rules see. */
  readonly ip?: string;
  readonly languages?: readonly string[];
  readonly encodings?: readonly string[];
  readonly charsets?: readonly string[];
  readonly dialect?: DialectChoice;
  /**
   * Read `/sitemap.xml` when a site's robots.txt names no sitemap (default true). The paper's
   * crawler reads only the sitemaps robots.txt lists (seeds/003 §4.2; §5: "the crawler cannot
   * obtain its path without robots.txt"): false crawls as it does.
   */
  readonly sitemapFallback?: boolean;
  /** Read sites' sitemaps at all (default true); false: `--no-sitemaps`. */
  readonly sitemaps?: boolean;
  /**
   * Most pages fetched from one site in this run (with `total`, in the whole crawl); default no
   * limit. URLs over it stay queued for a later run.
   */
  readonly maxPerHost?: number;
  /** Tries of a URL that meets 5xx or network errors, default 3. */
  readonly maxAttempts?: number;
  /**
   * Fetch again every page an earlier run fetched, with conditional requests (ETag,
   * If-Modified-Since): a re-crawl. `maxPages` then counts this run's pages.
   */
  readonly recrawl?: boolean;
  /**
   * Fetch again the pages whose revisit moment has come (sitemap `<changefreq>`, REGP
   * Index-page and Change-*), and those whose sitemap `<lastmod>` is newer than their last
   * fetch, with conditional requests. `maxPages` then counts this run's pages.
   */
  readonly revisit?: boolean;
  /**
   * Fetch what the frontier holds, such as the URLs `heed rup inbox` queued from RUP reports,
   * seeds or none. `maxPages` then counts this run's pages.
   */
  readonly queued?: boolean;
  /** Sort query parameters when normalising URLs (`?b=1&a=2` and `?a=2&b=1` are one page). */
  readonly sortQuery?: boolean;
  readonly now?: () => number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: CrawlEvent) => void;
  /**
   * Told of every exchange the crawl makes through `client` once it has ended: robots.txt and
   * its redirect hops, sitemaps, pages kept or not, redirects, errors (what `--out` archives).
   */
  readonly onExchange?: ExchangeObserver;
  /** Told of each record once it is in the crawl log: what heed did with each request. */
  readonly onRecord?: (record: CrawlRecord) => void;
  /**
   * Receives each fetched page that is kept (not `noindex`), with what it may do from there
   * (queue more URLs, ask the site's rules); optional. A page whose `onPage` throws is tried
   * again like a 5xx, up to `maxAttempts`, then recorded as failed: the crawl goes on.
   */
  readonly onPage?: (page: FetchedPage, hooks: PageHooks) => Promise<void>;
  /**
   * The links of a fetched page (any content type), in place of heed's reading of HTML links.
   * Each still goes through scope, depth, robots.txt and pacing; the page's own robots meta
   * (`nofollow`, `noindex`) is still heed's to read.
   */
  readonly links?: (page: FetchedPage) => readonly string[] | Promise<readonly string[]>;
  /** Headers sent with every page request to the site (never robots.txt's); heed's own win. */
  readonly extraHeaders?: (origin: string) => Readonly<Record<string, string>> | null;
  /** A Cookie value sent with every page request to the site, after a REGP `Cookie:` line's. */
  readonly cookie?: (origin: string) => string | null;
  /** Index subtrees through the agent hosts sites name (`heed crawl --agents`). */
  readonly agents?: AgentPaths;
  /** How long a process's heartbeat holds without renewal, in ms (default 10000). */
  readonly heartbeatTtlMs?: number;
  /** Longest a sitemap request may take in all, in ms (default 60000). */
  readonly sitemapDeadlineMs?: number;
  /**
   * What the crawl collects for (`--purpose`): pages whose usage preferences refuse it are not
   * kept. Preferences are recorded either way (docs/usage-preferences.md).
   */
  readonly usage?: UsageCrawlOptions;
}

export interface FetchedPage {
  readonly url: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
  readonly at: number;
  /** The robots.txt line that allowed it, and the gap kept. */
  readonly rule: string | null;
  readonly delaySeconds: number;
  /**
   * What heed sent besides Host (names lower-cased): User-Agent, Accept-Encoding and the
   * conditional and cookie headers; the client's default Accept is not among them.
   */
  readonly requestHeaders?: Readonly<Record<string, string>>;
  /** For a sitemap snapshot: the original page (`<srcloc>`) it stands for. */
  readonly srcloc?: string;
  /** Present when the body was cut at the client's size or ratio limit. */
  readonly truncated?: CutReason;
  /** The usage preferences that applied, as JSON text (docs/usage-preferences.md). */
  readonly usage?: string;
  /** How it came into the crawl: steps from a seed, how, from which page, and its label. */
  readonly depth?: number;
  readonly via?: Discovery;
  readonly referrer?: string | null;
  readonly label?: string;
}

/** A URL a page handler asks to queue. */
export interface EnqueueRequest {
  readonly url: string;
  /** Higher is fetched first within its site; default 0 (links). */
  readonly priority?: number;
  /** Steps from a seed; default the page's + 1, never less. */
  readonly depth?: number;
  /** Carried with the URL to its page (and through redirects). */
  readonly label?: string;
}

/** What became of the URLs a page handler asked to queue. */
export interface EnqueueResult {
  /** New to the crawl and queued. */
  readonly queued: number;
  /** Already known to the crawl (in any state). */
  readonly known: number;
  readonly refused: readonly { readonly url: string; readonly reason: string }[];
}

/** What a page's handler may do from there, through the crawl's own checks. */
export interface PageHooks {
  /**
   * Queues URLs as links of the page: each is normalised, checked against the crawl's scope,
   * depth and traps, and against the site's robots.txt when known (else when leased); pacing
   * applies when it is fetched.
   */
  enqueue(requests: readonly EnqueueRequest[]): Promise<EnqueueResult>;
  /** What the site's robots.txt says of `url` for this robot now (fetched first if need be). */
  check(url: string): Promise<Verdict>;
}
export type CrawlEvent =
  | { readonly type: "fetched"; readonly url: string; readonly status: number }
  | { readonly type: "skipped"; readonly url: string; readonly reason: string }
  | { readonly type: "failed"; readonly url: string; readonly reason: string }
  | { readonly type: "retry"; readonly url: string; readonly reason: string }
  /** Something a person running the crawl should know (a store shared with another crawl). */
  | { readonly type: "notice"; readonly message: string }
  | {
      readonly type: "waiting";
      readonly origin: string;
      readonly until: number;
      readonly why: string;
    };

export interface CrawlSummary {
  readonly fetched: number;
  readonly skipped: number;
  readonly failed: number;
  readonly retried: number;
  readonly queued: number;
  readonly done: number;
  readonly elapsedMs: number;
  readonly pagesPerSecond: number;
  /** Pages queued again at the start because their revisit moment had come. */
  readonly revisitsDue: number;
  /** `max-per-host`: what is left is queued on sites whose page budget this run spent. */
  readonly stoppedBy: "finished" | "max-pages" | "max-per-host" | "sites-unreachable" | "aborted";
}
