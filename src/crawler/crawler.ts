/**
 * The polite crawler's coordinator: it builds one run's stages and puts them in order. The
 * frontier hands out sites due (schedule), each visit reads the site's robots.txt first
 * (robots), feeds its sitemaps once (sitemaps), takes the site's reservation and leases a URL
 * (lease), checks the URL against the site's rules and fetches it (fetch), files the answer
 * (settle), keeps the page or not (keep) and queues what it leads to (discover). Each stage is a
 * file of ./stages/ owning its own state; this file owns the run's start and its summary.
 */
import { setMaxListeners } from "node:events";
import type { ExchangeObserver } from "../net/exchange-tap.js";
import type { CutReason, HttpClient } from "../net/http-client.js";
import type { DialectChoice } from "../protocol/robots/index.js";
import { StoreError } from "../store/errors.js";
import type { CrawlRecord, CrawlStore, Discovery } from "../store/types.js";
import type { AgentPaths } from "./agent-paths.js";
import { LINK_PRIORITY, SEED_PRIORITY } from "./discovery.js";
import { FETCHED_OUTCOMES, newUrl, requeueFetched } from "./frontier-entry.js";
import { ProcessWatch } from "./process-watch.js";
import type { ScopeKind } from "./scope.js";
import { SiteGate } from "./site-gate.js";
import { DiscoverStage } from "./stages/discover.js";
import { FetchStage } from "./stages/fetch.js";
import { LeaseStage } from "./stages/lease.js";
import { RobotsStage } from "./stages/robots.js";
import { CrawlRun } from "./stages/run.js";
import { Schedule } from "./stages/schedule.js";
import { SettleStage } from "./stages/settle.js";
import { SitemapStage } from "./stages/sitemaps.js";
import { originOf } from "./url-normal.js";
import { TdmRepFiles, tdmRepReader } from "./usage-site-files.js";
import { readsTdmRep, type UsageCrawlOptions } from "./usage-verdict.js";
import type { Verdict } from "./verdict.js";
import { decide } from "./verdict.js";

export { MAX_REDIRECT_HOPS } from "./stages/settle.js";

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

export async function crawl(options: CrawlerOptions): Promise<CrawlSummary> {
  // Stopped by the caller, or from within: the store lost the crawl.
  const inner = new AbortController();
  const signal =
    options.signal === undefined ? inner.signal : AbortSignal.any([options.signal, inner.signal]);
  // Each wait for a site's reservation listens for the stop while it lasts: as many listeners
  // as waits in flight, which the crawl's concurrency bounds, not a leak to warn of.
  setMaxListeners(0, signal);
  const now = options.now ?? Date.now;
  const { store } = options;
  let lostStore: StoreError | null = null;
  const watch = new ProcessWatch({
    store,
    now,
    ...(options.heartbeatTtlMs === undefined ? {} : { ttlMs: options.heartbeatTtlMs }),
    onLost: () => {
      lostStore = new StoreError(
        "HEED_STORE_LOST",
        "the store no longer holds this crawl (its identity key is gone): it lost its data, " +
          "such as a Redis restarted without persistence. Nothing queued can be trusted: " +
          "start the crawl again",
      );
      inner.abort();
    },
  });
  const run = new CrawlRun(options, signal, watch.id);
  const emit = run.emit;
  const gate = new SiteGate({
    store,
    owner: run.owner,
    perHost: options.perHost,
    ...(options.perHostOf === undefined ? {} : { perHostOf: (o: string) => run.perHostOf(o) }),
    now,
    ...(options.ip === undefined ? {} : { ip: options.ip }),
    signal,
    onWait: (origin, until, why) => emit({ type: "waiting", origin, until, why }),
  });
  const robots = new RobotsStage(run, gate);
  const sitemaps = new SitemapStage(run, gate, robots);
  const discover = new DiscoverStage(run, robots, sitemaps);
  // A crawl for AI training or input reads each site's tdmrep.json once, under its reservation.
  const tdmrep = readsTdmRep(options.usage)
    ? new TdmRepFiles(tdmRepReader(run, gate, robots))
    : null;
  const settle = new SettleStage(run, discover, tdmrep);
  const fetch = new FetchStage(run, gate, robots, sitemaps, discover, settle);
  const schedule = new Schedule(run, robots, watch, () => sitemaps.takeUpFreed());
  const lease = new LeaseStage(run, gate, robots, sitemaps, fetch, tdmrep, (origin) =>
    schedule.reserved(origin),
  );

  // Leases of processes that died (a crash, or a restart of this one) come back at once; those
  // whose time ran out too.
  await watch.start();
  const earlierSeeds = await watch.identify(options.seeds);
  const differ = options.seeds.filter((seed) => !earlierSeeds.includes(seed));
  if (differ.length > 0 && earlierSeeds.length > 0)
    emit({
      type: "notice",
      message:
        `the store holds a crawl started from ${earlierSeeds.slice(0, 3).join(" ")}` +
        `${earlierSeeds.length > 3 ? " …" : ""}; ${differ.join(" ")} joins it (a crawl of another site belongs in another store)`,
    });
  await store.frontier.recover(now());
  await store.frontier.add(
    options.seeds.flatMap((seed) => {
      const url = run.normal(seed);
      return url === null ? [] : [newUrl(url, 0, SEED_PRIORITY, null, { via: "seed" })];
    }),
  );
  if (options.recrawl === true) await requeueFetched(store);
  const revisitsDue = options.revisit === true ? await requeueDue(store, now()) : 0;
  const before = await store.frontier.counts();
  // The budgets count this run's pages, unless asked to count the whole crawl (--total).
  const again = options.recrawl === true || options.revisit === true || options.queued === true;
  const total = options.total === true && !again;
  run.done = total ? before.done : 0;
  if (options.maxPerHost !== undefined && total && before.done > 0)
    await countFetchedPerSite(store, run.perSite);
  // A revisit run reads each seed's site for sitemaps before anything else, even when none of
  // its pages is due: a newer `<lastmod>` is how a site says a page changed.
  if (options.revisit === true) {
    for (const origin of new Set(options.seeds.flatMap((s) => run.normal(s) ?? []).map(originOf))) {
      if (signal.aborted) break;
      const view = await robots.sites.view(origin);
      await sitemaps.feedOnce(origin, view, decide(view, `${origin}/`, run.robot(now())));
    }
  }

  const stoppedBy = await schedule.drive(lease);
  await watch.stop().catch(() => {});
  if (lostStore !== null) throw lostStore;
  const counts = await store.frontier.counts();
  const elapsedMs = now() - run.started;
  return {
    ...run.tally,
    queued: counts.queued,
    done: counts.done,
    elapsedMs,
    pagesPerSecond: elapsedMs > 0 ? (run.tally.fetched * 1000) / elapsedMs : 0,
    revisitsDue,
    stoppedBy,
  };
}

/** Queues again the pages whose revisit moment has come; returns how many. */
async function requeueDue(store: CrawlStore, now: number): Promise<number> {
  let queued = 0;
  for await (const urls of store.pages.due(now, 1000)) {
    queued += await store.frontier.revisit(
      urls.map((url) => newUrl(url, 0, LINK_PRIORITY, null, { via: "revisit" })),
    );
  }
  return queued;
}

/** Pages fetched of each site in earlier runs of this crawl, from the crawl log. */
async function countFetchedPerSite(store: CrawlStore, into: Map<string, number>): Promise<void> {
  for await (const records of store.log.scan(5000)) {
    for (const r of records)
      if (FETCHED_OUTCOMES.has(r.outcome)) into.set(r.origin, (into.get(r.origin) ?? 0) + 1);
  }
}
