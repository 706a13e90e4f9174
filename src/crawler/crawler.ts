/**
 * The polite crawler's coordinator: it asks the frontier for sites whose next request is
 * due, reads each site's robots.txt first, checks every URL against it, keeps each site's
 * gaps and rate windows, fetches, and files what it found. Politeness, storage, fetching and
 * link reading live in their own parts; this file only puts them in order.
 */
import {
  ACCEPT_ENCODING,
  type CutReason,
  type HttpClient,
  type PageResult,
} from "../net/http-client.js";
import { fetchRobots } from "../net/robots-fetch.js";
import {
  type AccessPlan,
  type DialectChoice,
  parseRobots,
  type Robot,
} from "../protocol/robots/index.js";
import { MAX_ROBOTS_BYTES } from "../protocol/robots/limits.js";
import { EMPTY_PLAN } from "../protocol/robots/plan.js";
import { StoreError } from "../store/errors.js";
import type {
  CachedRobots,
  CrawlRecord,
  CrawlStore,
  Discovery,
  Lease,
  NewUrl,
} from "../store/types.js";
import { describeError } from "./describe-error.js";
import type { AgentPaths, IndexedPage } from "./agent-paths.js";
import { LINK_PRIORITY, readMeta, SEED_PRIORITY } from "./discovery.js";
import { FETCHED_OUTCOMES, newUrl, requeueFetched } from "./frontier-entry.js";
import { extractLinks, MAX_PAGE_LINKS, robotsTag } from "./links.js";
import { mirrored, onHost } from "./other-host.js";
import { ProcessWatch } from "./process-watch.js";
import { INDEX_PAGE_PRIORITY, revisitOf } from "./revisit.js";
import { makeScope, type ScopeKind } from "./scope.js";
import { SiteRules, type SiteView } from "./site-rules.js";
import { ruleOf, SiteGate, type Ticket } from "./site-gate.js";
import { feedSitemaps } from "./sitemap-feed.js";
import { cancellableSleep, sleep } from "./sleep.js";
import { trapReason } from "./traps.js";
import { type Allowed, decide, type Verdict } from "./verdict.js";
import { normalizeUrl, originOf } from "./url-normal.js";

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

/** Frontier depth a URL is queued at by a handler at most: well past any real site's. */
const MAX_ENQUEUE_DEPTH = 10_000;

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

/**
 * How long a fetcher holds a URL before its lease counts as lost: longer than the HTTP
 * client's whole-exchange limit (120 s) plus a path's own gap.
 */
const LEASE_MS = 3 * 60_000;
/** Longest single sleep, so that aborts and new work are noticed. */
const MAX_SLEEP_MS = 1000;
const RETRY_BASE_MS = 2_000;
/** A redirect chain is followed this many hops from the URL first queued, then given up. */
export const MAX_REDIRECT_HOPS = 5;
const SITEMAP_DEADLINE_MS = 60_000;
const ROBOTS_DEADLINE_MS = 30_000;
const SITE_WAIT_MS = 600_000;
/** Refused links logged in a run at most (a memory bound: the set of them is kept). */
const MAX_REFUSALS_LOGGED = 100_000;
/** A site refused only because other requests to it are in flight is asked again after this. */
const IN_FLIGHT_COOL_MS = 50;
/** How often a process with nothing to do looks again while others hold the last URLs. */
const LEASED_POLL_MS = 100;

export async function crawl(options: CrawlerOptions): Promise<CrawlSummary> {
  const now = options.now ?? Date.now;
  const started = now();
  const { store, client } = options;
  const inScope = makeScope(options.scope, options.seeds);
  const token = options.agent.toLowerCase();
  const maxAttempts = options.maxAttempts ?? 3;
  const emit = options.onEvent ?? (() => {});
  // Stopped by the caller, or from within: the store lost the crawl.
  const inner = new AbortController();
  const signal =
    options.signal === undefined ? inner.signal : AbortSignal.any([options.signal, inner.signal]);
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
  const owner = watch.id;
  // Each site's rules as last read by this process: what a robots.txt request, made before the
  // new rules are known, keeps.
  const lastPlan = new Map<string, AccessPlan>();
  // Since when this process has waited on each site's reservation, for the crawl log.
  const waitingSince = new Map<string, number>();
  // Sites refused only because others' requests are in flight: not asked again until then.
  const coolUntil = new Map<string, number>();
  const gate = new SiteGate({
    store,
    owner,
    perHost: options.perHost,
    now,
    ...(options.ip === undefined ? {} : { ip: options.ip }),
    ...(signal === undefined ? {} : { signal: signal }),
    onWait: (origin, until, why) => emit({ type: "waiting", origin, until, why }),
  });
  const sites = new SiteRules({
    cache: store.robots,
    now,
    fetch: (url) =>
      fetchRobots(url, {
        userAgent: options.userAgent,
        client,
        // A total deadline: a robots.txt sent a byte a second would hold a slot for minutes.
        signal: AbortSignal.any([
          signal,
          AbortSignal.timeout(options.robotsDeadlineMs ?? ROBOTS_DEADLINE_MS),
        ]),
      }),
    reserve: async (origin, previous) => {
      const ticket = await gate.take(
        origin,
        lastPlan.get(origin) ?? planOf(origin, previous),
        "robots.txt",
      );
      if (ticket === null) return null;
      let released = false;
      return {
        release: async (asked, got) => {
          if (released) return;
          released = true;
          // The gap counts from the end of the exchange, after every redirect hop.
          const end = now();
          await gate.release(ticket, asked, end);
          if (!asked) return;
          const size = got?.body?.length ?? 0;
          // RFC 9309 §2.5: rules past the first 500 KiB are not read; the log says so.
          const detail =
            got === null
              ? "no answer"
              : got.bodyCut || size > MAX_ROBOTS_BYTES
                ? `robots.txt is ${got.bodyCut ? "over " : ""}${size} bytes; only the first ` +
                  `${MAX_ROBOTS_BYTES} were read: rules after them are not seen`
                : null;
          await logOutcome(
            `${origin}/robots.txt`,
            origin,
            ticket.at,
            end - ticket.at,
            got?.status ?? null,
            got?.body?.length ?? 0,
            "robots",
            detail,
          );
        },
      };
    },
    ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
  });
  /** The rules a robots.txt copy held (even an expired one) gives this robot, for its pace. */
  const planOf = (origin: string, cached: CachedRobots | null): AccessPlan | null => {
    const body = cached?.body ?? cached?.lastGoodBody ?? null;
    if (body === null) return null;
    try {
      return (
        parseRobots(body, {
          origin,
          ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
        }).check(`${origin}/`, robot(now())).plan ?? null
      );
    } catch {
      return null;
    }
  };
  // Sites with a visit of this process not yet past its reservation: one at a time, so that a
  // ready site does not get a visit for every free slot. Not a cap: requests in flight are
  // capped in the store alone (`--per-host` per crawl, over every process sharing it).
  const starting = new Map<string, object>();
  // Page reservations this process holds on each site. A site holding as many as its rule lets
  // in flight would be refused by the store too (which counts these and others'): not visited
  // again until one ends. Never stricter than the store's cap, only spares it the asking.
  const holding = new Map<string, number>();
  // Wakes the scheduling loop before its nap ends; a wake while the loop is busy is kept.
  const loop: { poked: boolean; poke: (() => void) | null } = { poked: false, poke: null };
  const wake = () => {
    loop.poked = true;
    loop.poke?.();
  };
  // When this process's last exchange with each site ended: the gap the crawl log shows.
  const lastEnd = new Map<string, number>();
  const tasks = new Set<Promise<void>>();
  const tally = { fetched: 0, skipped: 0, failed: 0, retried: 0 };
  const hostsNoted = new Set<string>();
  // Links refused by robots.txt and logged, so that each is logged once a run.
  const refusedLogged = new Set<string>();
  // Original pages a sitemap snapshot stands for (`<srcloc>` → `<loc>`): never fetched themselves.
  const standIns = new Map<string, string>();
  const fed = new Set<string>();
  const perSite = new Map<string, number>();

  const normal = (url: string) =>
    normalizeUrl(url, undefined, { sortQuery: options.sortQuery === true });
  const again = options.recrawl === true || options.revisit === true || options.queued === true;

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
      const url = normal(seed);
      return url === null ? [] : [newUrl(url, 0, SEED_PRIORITY, null, { via: "seed" })];
    }),
  );
  if (options.recrawl === true) await requeueFetched(store);
  const revisitsDue = options.revisit === true ? await requeueDue(store, now()) : 0;
  const before = await store.frontier.counts();
  // The budgets count this run's pages, unless asked to count the whole crawl (--total).
  const total = options.total === true && !again;
  let done = total ? before.done : 0;
  if (options.maxPerHost !== undefined && total && before.done > 0)
    await countFetchedPerSite(store, perSite);
  // Sites whose page budget this run spent: their URLs stay queued for a later run.
  const spent = new Set<string>();
  // Sites closed for longer than the site wait in this run (robots.txt unreachable): set aside.
  const setAside = new Set<string>();
  const closedSince = new Map<string, number>();
  // --queued fetches what is queued: links and sitemaps only with --follow.
  const following = options.queued !== true || options.follow === true;
  let stoppedBy: CrawlSummary["stoppedBy"] = "finished";

  const robot = (at: number): Robot => ({
    agent: options.agent,
    at,
    ...(options.ip === undefined ? {} : { ip: options.ip }),
    ...(options.languages === undefined ? {} : { languages: options.languages }),
    ...(options.encodings === undefined ? {} : { encodings: options.encodings }),
    ...(options.charsets === undefined ? {} : { charsets: options.charsets }),
  });

  const visit = async (origin: string): Promise<void> => {
    const view = await sites.view(origin);
    if (view.kind === "closed" && !view.forbidden) {
      // A site closed for now is waited for a bounded time in a run, then set aside: its URLs
      // stay queued for a later run, and a run whose only site is unreachable ends.
      const first = closedSince.get(origin) ?? now();
      closedSince.set(origin, first);
      const limit = options.siteWaitMs ?? SITE_WAIT_MS;
      if (now() - first >= limit) {
        setAside.add(origin);
        emit({
          type: "notice",
          message: `giving up on ${origin} in this run after ${Math.round((now() - first) / 1000)} s: ${view.detail}; its URLs stay queued`,
        });
        return;
      }
      const until = Math.min(view.retryAt, first + limit);
      await store.frontier.setNextAt(origin, until);
      emit({ type: "waiting", origin, until, why: view.detail });
      return;
    }
    closedSince.delete(origin);
    // The site as a whole first: a closed time window or a gap still running keeps it waiting
    // without taking a URL out of the queue.
    const base = decide(view, `${origin}/`, robot(now()));
    if (!base.allowed && base.retryAt !== null) {
      await store.frontier.setNextAt(origin, base.retryAt);
      emit({ type: "waiting", origin, until: base.retryAt, why: base.why });
      return;
    }
    lastPlan.set(origin, base.plan);
    await feedOnce(origin, view, base);
    // The site's reservation first (DESIGN §2): its gap, rate window and requests in flight,
    // over every process sharing the store. A refusal moves the site's next moment in the store.
    const got = await gate.tryTake(origin, base.plan);
    starting.delete(origin);
    // The loop may send the site's next visit now (the store caps requests in flight).
    wake();
    if (!("held" in got)) {
      if (!waitingSince.has(origin)) waitingSince.set(origin, now());
      if (got.why === "in-flight") coolUntil.set(origin, now() + IN_FLIGHT_COOL_MS);
      return;
    }
    holding.set(origin, (holding.get(origin) ?? 0) + 1);
    try {
      const lease = await store.frontier.lease(origin, now(), LEASE_MS, null, owner);
      if (lease === null) {
        await gate.release(got, false);
        return;
      }
      const since = waitingSince.get(origin) ?? got.at;
      waitingSince.delete(origin);
      await fetchOne(origin, view, lease, got, since);
    } finally {
      const n = (holding.get(origin) ?? 1) - 1;
      if (n === 0) holding.delete(origin);
      else holding.set(origin, n);
    }
  };

  /**
   * Reads a site's sitemaps once in the crawl, whichever process comes first: the store records
   * who reads them and when they were read, so other processes and restarts do not read them
   * again (a revisit run reads them again once). Only a site that admits the robot, and not one
   * that sends it to a mirror, is read for sitemaps.
   */
  const feedOnce = async (origin: string, view: SiteView, base: Verdict) => {
    if (fed.has(origin) || view.kind === "closed" || !base.allowed || base.plan.mirror !== null)
      return;
    fed.add(origin);
    // Sitemap entries are one step from the site: --max-depth 0 reads none.
    if (options.sitemaps === false || !following || options.maxDepth < 1) return;
    const since = options.revisit === true ? started : 0;
    if (!(await store.reservations.claimSitemaps(origin, owner, now(), since))) return;
    await feedSite(origin, view, base.plan);
    if (signal?.aborted !== true) await store.reservations.sitemapsRead(origin, now());
  };

  const feedSite = (origin: string, view: SiteView, plan: AccessPlan) => {
    let ticket: Ticket | null = null;
    return feedSitemaps({
      origin,
      policy: view.kind === "rules" ? view.policy : null,
      robot: robot(now()),
      store,
      client,
      cookie: plan.cookie?.value ?? null,
      awaitTurn: async (url) => {
        const site = originOf(url);
        ticket = await gate.take(
          site,
          site === origin ? plan : (lastPlan.get(site) ?? null),
          "sitemap",
        );
        return ticket !== null;
      },
      requestEnded: async (url, status, detail) => {
        const held = ticket;
        ticket = null;
        if (held === null) return;
        const end = now();
        await gate.release(held, true, end);
        await logOutcome(url, held.origin, held.at, end - held.at, status, 0, "sitemap", detail);
      },
      normal,
      accept: (url) => {
        const loc = normal(url);
        return loc !== null && inScope(loc) && trapReason(loc) === null ? loc : null;
      },
      standIn: (srcloc, snapshot) => standIns.set(srcloc, snapshot),
      limit: options.maxPages,
      revisitChanged: options.revisit === true,
      fallback: options.sitemapFallback !== false,
      now,
      deadlineMs: options.sitemapDeadlineMs ?? SITEMAP_DEADLINE_MS,
      ...(signal === undefined ? {} : { signal: signal }),
    });
  };

  /**
   * One leased URL, under the site's reservation `held`: given back unused when no request goes
   * out (a refusal, a budget, a stand-in), so that skips keep no gap.
   */
  const fetchOne = async (
    origin: string,
    view: SiteView,
    lease: Lease,
    held: Ticket,
    waitingFrom: number,
  ): Promise<void> => {
    let ticket: Ticket | null = held;
    const giveBack = async (used: boolean) => {
      const t = ticket;
      ticket = null;
      if (t !== null) await gate.release(t, used);
    };
    try {
      await fetchLeased(origin, view, lease, waitingFrom, {
        get: () => ticket,
        set: (t) => {
          ticket = t;
        },
        giveBack,
      });
    } finally {
      await giveBack(false);
    }
  };

  const fetchLeased = async (
    origin: string,
    view: SiteView,
    lease: Lease,
    waitingFrom: number,
    hold: {
      readonly get: () => Ticket | null;
      readonly set: (t: Ticket | null) => void;
      readonly giveBack: (used: boolean) => Promise<void>;
    },
  ): Promise<void> => {
    const { url } = lease.entry;
    const meta = readMeta(lease.entry.meta, lease.entry.depth);
    if ((perSite.get(origin) ?? 0) >= (options.maxPerHost ?? Number.POSITIVE_INFINITY)) {
      // A budget is this run's: the URL stays queued as it was, for a later run.
      spent.add(origin);
      await store.frontier.settle(lease, {
        kind: "defer",
        reason: "the site's page budget of this run is spent",
        notBefore: now(),
      });
      return;
    }
    const snapshot = standIns.get(url);
    if (snapshot !== undefined) {
      // seeds/003 §4.2: the snapshot is fetched instead and recorded under this URL.
      await store.frontier.settle(lease, {
        kind: "skipped",
        reason: `snapshot ${snapshot}`,
        at: now(),
      });
      tally.skipped++;
      emit({ type: "skipped", url, reason: `the snapshot ${snapshot} stands for it` });
      return;
    }
    const decision = decide(view, url, robot(now()));
    if (!decision.allowed) {
      if (decision.retryAt !== null) {
        await store.frontier.settle(lease, {
          kind: "defer",
          reason: decision.why,
          notBefore: decision.retryAt,
        });
        await store.frontier.setNextAt(origin, decision.retryAt);
        emit({ type: "waiting", origin, until: decision.retryAt, why: decision.why });
        return;
      }
      await store.frontier.settle(lease, { kind: "skipped", reason: decision.why, at: now() });
      await logOutcome(url, origin, now(), 0, null, 0, "disallowed", decision.why);
      tally.skipped++;
      emit({ type: "skipped", url, reason: decision.why });
      return;
    }
    const { plan } = decision;
    if (plan.host !== null && !hostsNoted.has(origin)) {
      // seeds/003 §3.2.13: the site names its canonical host; the crawl log keeps it.
      hostsNoted.add(origin);
      await logOutcome(origin, origin, now(), 0, null, 0, "canonical-host", plan.host.value);
    }
    const mirror = plan.mirror === null ? null : mirrored(url, plan.mirror.value);
    if (mirror !== null && mirror !== url) {
      // seeds/003 §3.2.11: crawl the mirror instead; its own robots.txt governs it there.
      await store.frontier.add([
        newUrl(mirror, lease.entry.depth, lease.entry.priority, url, { ...meta, via: "mirror" }),
      ]);
      await store.frontier.settle(lease, {
        kind: "skipped",
        reason: `Mirror-site ${plan.mirror?.value}`,
        at: now(),
      });
      tally.skipped++;
      return;
    }

    const indexed =
      options.agents !== undefined && view.kind === "rules"
        ? await options.agents.indexed(
            url,
            view.policy,
            (pages) => queueIndexed(pages, lease),
            // The exchange with the agent host went out under the site's reservation.
            () => hold.giveBack(true),
          )
        : null;
    if (indexed !== null) return settleIndexed(origin, lease, indexed, decision);

    // This URL's own rules (a brace block may ask more than the site's) take the reservation
    // again under them.
    const current = hold.get();
    const base = lastPlan.get(origin) ?? null;
    if (current === null || !sameRule(base, decision.plan, options.perHost)) {
      await hold.giveBack(false);
      hold.set(await gate.take(origin, decision.plan, "page"));
    }
    const ticket = hold.get();
    // Stopped: the lease goes back when the process stops, and a later run takes the URL.
    if (ticket === null || signal?.aborted) return;
    const at = ticket.at;
    const last = lastEnd.get(origin);
    // Time waited: the part of the gap since this process's last page of the site that the
    // site's delay or rate asked for (the loop slept it out before visiting), or the time the
    // store refused the site, whichever is longer.
    const kept =
      last === undefined
        ? 0
        : Math.min(at - last, ruleOf(decision.plan, "agent", options.perHost).gapMs);
    const timing: Timing = {
      via: meta.via,
      gapMs: last === undefined ? null : at - last,
      requiredGapMs: plan.delaySeconds * 1000,
      waitedMs: Math.max(0, at - waitingFrom, kept),
    };

    const validators = await store.pages.get(url);
    // A REGP Cookie line (seeds/003 §3.2.10) first; the crawler author's cookie joins it.
    const cookie = [plan.cookie?.value ?? null, options.cookie?.(origin) ?? null]
      .filter((c): c is string => c !== null && c !== "")
      .join("; ");
    const extra = options.extraHeaders?.(origin) ?? null;
    const headers = {
      ...(extra === null ? {} : { extra }),
      ...(cookie === "" ? {} : { cookie }),
      ...(validators?.etag ? { ifNoneMatch: validators.etag } : {}),
      ...(validators?.lastModified ? { ifModifiedSince: validators.lastModified } : {}),
    };
    const result = await client.fetchPage(url, { headers });
    const end = now();
    lastEnd.set(origin, end);
    await hold.giveBack(true);
    const sent = {
      ...extra,
      "user-agent": options.userAgent,
      "accept-encoding": ACCEPT_ENCODING,
      ...(headers.cookie === undefined ? {} : { cookie: headers.cookie }),
      ...(headers.ifNoneMatch === undefined ? {} : { "if-none-match": headers.ifNoneMatch }),
      ...(headers.ifModifiedSince === undefined
        ? {}
        : { "if-modified-since": headers.ifModifiedSince }),
    };
    // The log's start and duration span the reservation, from its start to the end the next
    // gap counts from: the report's gaps, read off the log, are then the ones kept.
    const spanned: PageResult = { ...result, ms: Math.max(0, end - at) };
    await settleFetch(origin, lease, spanned, at, decision, sent, timing);
  };

  /**
   * Where a followed link goes in the frontier, or null when it does not. Its site's rules,
   * when already in memory, speak first: a link they refuse for the whole crawl is not queued
   * (it would only be leased to be skipped); an Index-page path comes before other links
   * (seeds/003 §3.2.14); a site that names another host as its canonical one (Host, §3.2.13)
   * is crawled there when the crawl's scope takes that host, so that its mirrors are not
   * fetched twice. Links of sites not read yet are queued and checked when leased.
   */
  const placeLink = (link: string): { url: string; priority: number } | null => {
    if (standIns.has(link) || trapReason(link) !== null) return null;
    const view = sites.peek(originOf(link));
    if (view === null || view.kind !== "rules") return { url: link, priority: LINK_PRIORITY };
    const d = view.policy.check(link, robot(now()));
    if (!d.allowed && (d.reason === "rule" || d.reason === "default")) {
      refusedLink(
        link,
        `${d.reason}: ${d.rule === null ? (d.detail ?? d.basis ?? d.reason) : `line ${d.line}: ${d.rule}`}`,
      );
      return null;
    }
    const host = d.plan?.host ?? null;
    const moved = host === null ? null : onHost(link, host.value);
    if (moved !== null && moved !== link && inScope(moved) && !standIns.has(moved))
      return { url: moved, priority: LINK_PRIORITY };
    return { url: link, priority: d.plan?.indexPage ? INDEX_PAGE_PRIORITY : LINK_PRIORITY };
  };

  /**
   * What a page handler may do: queue URLs as the page's links (scope, depth, traps and the
   * site's rules when known; robots.txt again when leased) and ask a site's rules. `refuseAll`:
   * the page said nofollow, so nothing it links to is queued.
   */
  const pageHooks = (lease: Lease, refuseAll: string | null): PageHooks => ({
    enqueue: async (requests) => {
      const { url: from, depth } = lease.entry;
      const refused: { url: string; reason: string }[] = [];
      const found: NewUrl[] = [];
      for (const request of requests) {
        const given = request.url;
        const link =
          typeof given === "string"
            ? normalizeUrl(given, from, { sortQuery: options.sortQuery === true })
            : null;
        const at = Math.max(
          depth + 1,
          Number.isSafeInteger(request.depth) ? Number(request.depth) : 0,
        );
        // A page outside the scope came by a Mirror-site line: its links to itself are followed.
        const inReach = (u: string) =>
          inScope(u) || (!inScope(from) && originOf(u) === originOf(from));
        const reason =
          refuseAll ??
          (link === null
            ? "not an http(s) URL"
            : at > options.maxDepth
              ? `depth ${at} is past the crawl's maximum depth ${options.maxDepth}`
              : !inReach(link)
                ? "out of the crawl's scope"
                : request.priority !== undefined && !Number.isFinite(request.priority)
                  ? "priority is not a finite number"
                  : null);
        if (reason !== null || link === null) {
          refused.push({ url: String(given), reason: reason ?? "not an http(s) URL" });
          continue;
        }
        const placed = placeLink(link);
        if (placed === null) {
          refused.push({
            url: link,
            reason: "refused by robots.txt, a trap, or a sitemap snapshot stands for it",
          });
          continue;
        }
        const priority = request.priority ?? placed.priority;
        found.push(
          newUrl(placed.url, Math.min(at, MAX_ENQUEUE_DEPTH), priority, from, {
            via: "link",
            ...(request.label === undefined ? {} : { label: request.label }),
          }),
        );
      }
      const queued = found.length === 0 ? 0 : await store.frontier.add(found);
      return { queued, known: found.length - queued, refused };
    },
    check: async (url) => {
      const origin = originOf(url);
      // A site outside the crawl is not asked for its robots.txt on a handler's word: that
      // would be a request to any host a page names.
      const known = sites.peek(origin);
      if (known === null && !inScope(url))
        return {
          allowed: false,
          why: "out of the crawl's scope: its robots.txt is not read",
          retryAt: null,
          plan: EMPTY_PLAN,
        };
      return decide(known ?? (await sites.view(origin)), url, robot(now()));
    },
  });

  const settleFetch = async (
    origin: string,
    lease: Lease,
    result: PageResult,
    at: number,
    decision: Allowed,
    sent: Readonly<Record<string, string>>,
    timing: Timing,
  ): Promise<void> => {
    const { url, depth } = lease.entry;
    const meta = readMeta(lease.entry.meta, depth);
    // A page outside the crawl's scope is here only because a Mirror-site line sent the crawl
    // to it: crawling the mirror instead (seeds/003 §3.2.11) means following its links to itself.
    const mirrorPage = !inScope(url);
    const follow = (link: string) => inScope(link) || (mirrorPage && originOf(link) === origin);
    if (result.kind === "error") {
      await retryOrFail(origin, lease, `${result.code}: ${result.message}`, null);
      await logOutcome(url, origin, at, result.ms, null, 0, "error", result.message);
      return;
    }
    const { status } = result;
    if (status >= 500 || status === 429) {
      await retryOrFail(origin, lease, `HTTP ${status}`, result.retryAfterMs);
      await logOutcome(
        url,
        origin,
        at,
        result.ms,
        status,
        result.wireBytes,
        "error",
        `HTTP ${status}`,
      );
      return;
    }
    if (status >= 300 && status < 400 && status !== 304) {
      // The target is queued like any link, so robots.txt is checked for it before it is fetched.
      const target = result.location === null ? null : normal(result.location);
      const hops = (meta.hops ?? 0) + 1;
      if (hops > MAX_REDIRECT_HOPS) {
        const reason = `more than ${MAX_REDIRECT_HOPS} redirects from the URL first queued`;
        await store.frontier.settle(lease, { kind: "failed", reason, at: now() });
        await logOutcome(url, origin, at, result.ms, status, result.wireBytes, "error", reason);
        tally.failed++;
        emit({ type: "failed", url, reason });
        return;
      }
      if (target !== null && follow(target))
        await store.frontier.add([
          newUrl(target, depth, lease.entry.priority, url, { ...meta, via: "redirect", hops }),
        ]);
      await store.frontier.settle(lease, { kind: "done", status, at: now() });
      await logOutcome(url, origin, at, result.ms, status, result.wireBytes, "redirect", target);
      done++;
      return;
    }
    if (status === 200 || status === 304) {
      const revisit = revisitOf({ changefreq: meta.changefreq ?? null, plan: decision.plan });
      // A 304 keeps the validators the site answered before (RFC 9110 §15.4.5 may omit them).
      const known = status === 304 ? await store.pages.get(url) : null;
      await store.pages.put({
        url,
        etag: result.etag ?? known?.etag ?? null,
        lastModified: result.lastModified ?? known?.lastModified ?? null,
        fetchedAt: at,
        status,
        revisitAt: revisit === null ? null : at + revisit.afterMs,
      });
    }
    // REGP Host (seeds/003 §3.2.13) names the canonical host; a page's own canonical link wins.
    let canonical: string | null =
      decision.plan.host === null ? null : onHost(url, decision.plan.host.value);
    const header = robotsTag(result.headers["x-robots-tag"] ?? null, token);
    let noindex = header.noindex;
    let pageNofollow = false;
    const fetchedPage = (): FetchedPage => ({
      url,
      status,
      headers: result.headers,
      body: result.body,
      at,
      rule: decision.rule,
      delaySeconds: decision.plan.delaySeconds,
      requestHeaders: sent,
      ...(meta.srcloc === undefined ? {} : { srcloc: meta.srcloc }),
      ...(result.cutReason === undefined ? {} : { truncated: result.cutReason }),
      depth,
      via: meta.via,
      referrer: lease.entry.referrer,
      ...(meta.label === undefined ? {} : { label: meta.label }),
    });
    const custom = options.links;
    if (custom !== undefined && status === 200 && result.body !== null) {
      const html = isHtml(result.contentType);
      const robotsMeta = html
        ? extractLinks(new TextDecoder().decode(result.body), url, token, {
            sortQuery: options.sortQuery === true,
          })
        : null;
      canonical = robotsMeta?.canonical ?? canonical;
      noindex ||= robotsMeta?.noindex === true;
      pageNofollow = robotsMeta?.nofollowAll === true;
      const deepEnough = following && (meta.type === "list" || depth < options.maxDepth);
      if (meta.type !== "data" && deepEnough && !header.nofollow && !pageNofollow) {
        const given = await custom(fetchedPage());
        const found = given.slice(0, MAX_PAGE_LINKS).flatMap((href) => {
          const link =
            typeof href === "string"
              ? normalizeUrl(href, url, { sortQuery: options.sortQuery === true })
              : null;
          const placed = link !== null && follow(link) ? placeLink(link) : null;
          return placed === null ? [] : [newUrl(placed.url, depth + 1, placed.priority, url)];
        });
        if (found.length > 0) await store.frontier.add(found);
      }
    } else if (status === 200 && result.body !== null && isHtml(result.contentType)) {
      const page = extractLinks(new TextDecoder().decode(result.body), url, token, {
        sortQuery: options.sortQuery === true,
      });
      canonical = page.canonical ?? canonical;
      noindex ||= page.noindex;
      pageNofollow = page.nofollowAll;
      // seeds/003 §3.2.12: a `data` page is fetched without following its links; a `list`
      // page has every link followed, however deep it stands.
      const deepEnough = following && (meta.type === "list" || depth < options.maxDepth);
      if (meta.type !== "data" && deepEnough && !header.nofollow && !page.nofollowAll) {
        const found = page.links.flatMap((link) => {
          const placed = follow(link) ? placeLink(link) : null;
          return placed === null ? [] : [newUrl(placed.url, depth + 1, placed.priority, url)];
        });
        if (found.length > 0) await store.frontier.add(found);
      }
    }
    // `noindex` (meta robots or X-Robots-Tag): fetched, links followed as allowed, not kept.
    if (!noindex && options.onPage !== undefined) {
      const nofollow = header.nofollow || pageNofollow || meta.type === "data";
      try {
        await options.onPage(
          fetchedPage(),
          pageHooks(
            lease,
            nofollow ? "the page says nofollow (or is a sitemap `data` page)" : null,
          ),
        );
      } catch (error) {
        // Tried again as a 5xx would be, without validators: a 304 would bring no body back.
        const why = `page handler: ${describeError(error)}`;
        await store.pages.put({ url, etag: null, lastModified: null, fetchedAt: at, status });
        await retryOrFail(origin, lease, why, null);
        await logOutcome(
          url,
          origin,
          at,
          result.ms,
          status,
          result.wireBytes,
          "handler-error",
          why,
          {
            ...timing,
            canonical,
          },
        );
        return;
      }
    }
    await store.frontier.settle(lease, { kind: "done", status, at: now() });
    await logOutcome(
      url,
      origin,
      at,
      result.ms,
      status,
      result.wireBytes,
      status === 304 ? "not-modified" : noindex ? "fetched-noindex" : "fetched",
      decision.rule,
      { ...timing, canonical },
    );
    tally.fetched++;
    done++;
    perSite.set(origin, (perSite.get(origin) ?? 0) + 1);
    emit({ type: "fetched", url, status });
  };

  /**
   * A link robots.txt refuses is not queued, but the crawl log says so once, with the line
   * (`heed report` lists them): a person asks why a linked page was never fetched.
   */
  const refusedLink = (link: string, why: string) => {
    if (refusedLogged.has(link) || refusedLogged.size >= MAX_REFUSALS_LOGGED) return;
    refusedLogged.add(link);
    void logOutcome(link, originOf(link), now(), 0, null, 0, "disallowed", why).catch(() => {});
  };

  /** Every page an agent brought back is queued, so that pages no link reaches are kept too. */
  const queueIndexed = async (pages: readonly IndexedPage[], lease: Lease) => {
    const urls = pages.flatMap((page) => {
      const placed = inScope(page.url) ? placeLink(page.url) : null;
      return placed === null
        ? []
        : [newUrl(placed.url, lease.entry.depth, placed.priority, page.host)];
    });
    if (urls.length > 0) await store.frontier.add(urls);
  };

  /** A page an agent indexed where it lives: filed as if fetched, marked as the agent's. */
  const settleIndexed = async (
    origin: string,
    lease: Lease,
    page: IndexedPage,
    decision: Allowed,
  ) => {
    const { url, depth } = lease.entry;
    const at = now();
    const lastModified = page.lastmod === null ? null : new Date(page.lastmod).toUTCString();
    await store.pages.put({ url, etag: null, lastModified, fetchedAt: at, status: 200 });
    if (depth < options.maxDepth) {
      const found = page.links.flatMap((href) => {
        const link = normal(href);
        const placed = link !== null && inScope(link) ? placeLink(link) : null;
        return placed === null ? [] : [newUrl(placed.url, depth + 1, placed.priority, url)];
      });
      if (found.length > 0) await store.frontier.add(found);
    }
    // `noindex` (meta robots): filed and its links followed as allowed, not kept.
    if (!page.noindex && options.onPage !== undefined) {
      const meta = readMeta(lease.entry.meta, depth);
      try {
        await options.onPage(
          {
            url,
            status: 200,
            headers: { "content-type": "application/json", "x-heed-indexed-by": page.host },
            body: new TextEncoder().encode(JSON.stringify(page)),
            at,
            rule: decision.rule,
            delaySeconds: 0,
            depth,
            via: meta.via,
            referrer: lease.entry.referrer,
            ...(meta.label === undefined ? {} : { label: meta.label }),
          },
          pageHooks(lease, null),
        );
      } catch (error) {
        const why = `page handler: ${describeError(error)}`;
        await retryOrFail(origin, lease, why, null);
        await logOutcome(url, origin, at, 0, 200, 0, "handler-error", why);
        return;
      }
    }
    await store.frontier.settle(lease, { kind: "done", status: 200, at: now() });
    // No byte of the page crossed the network to the site: the agent read it there.
    const outcome = page.noindex ? "indexed-by-agent-noindex" : "indexed-by-agent";
    await logOutcome(url, origin, at, 0, 200, 0, outcome, page.host, {
      via: readMeta(lease.entry.meta, depth).via,
    });
    tally.fetched++;
    done++;
    perSite.set(origin, (perSite.get(origin) ?? 0) + 1);
    emit({ type: "fetched", url, status: 200 });
  };

  const retryOrFail = async (
    origin: string,
    lease: Lease,
    reason: string,
    retryAfterMs: number | null,
  ) => {
    const { url, attempts } = lease.entry;
    if (attempts + 1 >= maxAttempts) {
      await store.frontier.settle(lease, { kind: "failed", reason, at: now() });
      tally.failed++;
      emit({ type: "failed", url, reason });
      return;
    }
    const wait = Math.max(retryAfterMs ?? 0, RETRY_BASE_MS * 2 ** attempts);
    const notBefore = now() + wait;
    await store.frontier.settle(lease, { kind: "retry", reason, notBefore });
    // Retry-After speaks for the whole site (RFC 9110 §10.2.3): the site waits too.
    if (retryAfterMs !== null) await store.frontier.setNextAt(origin, notBefore);
    tally.retried++;
    emit({ type: "retry", url, reason });
  };

  const logOutcome = (
    url: string,
    origin: string,
    at: number,
    ms: number,
    status: number | null,
    bytes: number,
    outcome: string,
    detail: string | null,
    extras: Partial<
      Pick<CrawlRecord, "canonical" | "via" | "gapMs" | "requiredGapMs" | "waitedMs">
    > = {},
  ) => store.log.append({ url, origin, at, ms, status, bytes, outcome, detail, ...extras });

  /**
   * A revisit run reads each seed's site for sitemaps before anything else, even when none of
   * its pages is due: a newer `<lastmod>` is how a site says a page changed.
   */
  const feedSeedSites = async () => {
    for (const origin of new Set(options.seeds.flatMap((s) => normal(s) ?? []).map(originOf))) {
      if (signal?.aborted === true) return;
      const view = await sites.view(origin);
      await feedOnce(origin, view, decide(view, `${origin}/`, robot(now())));
    }
  };
  if (options.revisit === true) await feedSeedSites();

  const launch = (origin: string) => {
    const token = {};
    starting.set(origin, token);
    const task: Promise<void> = visit(origin)
      .catch((error: unknown) => {
        emit({
          type: "failed",
          url: origin,
          reason: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => {
        if (starting.get(origin) === token) starting.delete(origin);
        tasks.delete(task);
      });
    tasks.add(task);
  };

  let napMs = MAX_SLEEP_MS;
  for (;;) {
    if (signal?.aborted) {
      stoppedBy = "aborted";
      break;
    }
    if (done >= options.maxPages) {
      stoppedBy = "max-pages";
      break;
    }
    loop.poked = false;
    const room = Math.min(options.concurrency - tasks.size, options.maxPages - done - tasks.size);
    if (room > 0) {
      const busy = new Set(starting.keys());
      for (const [origin, n] of holding)
        if (n >= ruleOf(lastPlan.get(origin) ?? null, "agent", options.perHost).inFlight)
          busy.add(origin);
      for (const origin of spent) busy.add(origin);
      for (const origin of setAside) busy.add(origin);
      for (const [origin, until] of coolUntil) {
        if (until > now()) busy.add(origin);
        else coolUntil.delete(origin);
      }
      const ready = await store.frontier.readyOrigins(now(), room, busy);
      for (const origin of ready) launch(origin);
      if (ready.length > 0) {
        // A store that answers at once (SQLite) would keep this loop in microtasks: let timers
        // and sockets run.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      if (tasks.size === 0) {
        const next = await store.frontier.nextReadyAt(busy);
        if (next === null && coolUntil.size > 0) {
          // Only sites whose requests by other processes are in flight: ask again shortly.
          await sleep(IN_FLIGHT_COOL_MS);
          continue;
        }
        if (next === null) {
          // Nothing queued: finished, unless URLs are still leased (by another process), or
          // the store lost everything it held.
          if (!(await watch.holds())) continue;
          if ((await store.frontier.counts()).leased === 0) {
            if ((await store.frontier.counts()).queued > 0) {
              if (spent.size > 0) stoppedBy = "max-per-host";
              else if (setAside.size > 0) stoppedBy = "sites-unreachable";
            }
            break;
          }
          // Others hold the last URLs: their pages may bring links, and their end is this
          // run's end, so look again soon rather than a whole nap later.
          await sleep(LEASED_POLL_MS);
          await store.frontier.recover(now());
          continue;
        }
        await sleep(Math.min(Math.max(next - now(), 1), MAX_SLEEP_MS));
        continue;
      }
      // Tasks run, and there is room: wake for the next site due as well as for a task's end.
      const next = await store.frontier.nextReadyAt(busy);
      napMs = next === null ? MAX_SLEEP_MS : Math.min(Math.max(next - now(), 1), MAX_SLEEP_MS);
    }
    const nap = cancellableSleep(napMs);
    napMs = MAX_SLEEP_MS;
    if (!loop.poked) {
      const woken = new Promise<void>((resolve) => {
        loop.poke = resolve;
      });
      await Promise.race([...tasks, nap.done, woken]);
      loop.poke = null;
    }
    nap.cancel();
  }
  await Promise.allSettled([...tasks]);
  await watch.stop().catch(() => {});
  if (lostStore !== null) throw lostStore;
  const counts = await store.frontier.counts();
  const elapsedMs = now() - started;
  return {
    ...tally,
    queued: counts.queued,
    done: counts.done,
    elapsedMs,
    pagesPerSecond: elapsedMs > 0 ? (tally.fetched * 1000) / elapsedMs : 0,
    revisitsDue,
    stoppedBy,
  };
}

/** How a request came about and the gap it kept, for the crawl log. */
interface Timing {
  readonly via: Discovery;
  readonly gapMs: number | null;
  readonly requiredGapMs: number;
  readonly waitedMs: number;
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

function isHtml(contentType: string | null): boolean {
  return contentType !== null && /^(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType);
}

/** Do two plans ask the same of a site's reservation? */
function sameRule(a: AccessPlan | null, b: AccessPlan, perHost: number): boolean {
  return (
    JSON.stringify([ruleOf(a, "agent", perHost), ruleOf(a, "ip", perHost)]) ===
    JSON.stringify([ruleOf(b, "agent", perHost), ruleOf(b, "ip", perHost)])
  );
}
