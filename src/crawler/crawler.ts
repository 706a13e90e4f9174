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
import { StoreError } from "../store/errors.js";
import type { CachedRobots, CrawlRecord, CrawlStore, Discovery, Lease } from "../store/types.js";
import type { AgentPaths, IndexedPage } from "./agent-paths.js";
import { LINK_PRIORITY, readMeta, SEED_PRIORITY } from "./discovery.js";
import { FETCHED_OUTCOMES, newUrl, requeueFetched } from "./frontier-entry.js";
import { extractLinks, robotsTag } from "./links.js";
import { readTdmRepJson } from "../protocol/usage/tdmrep.js";
import { TDMREP_PATH, TdmRepFiles } from "./usage-site-files.js";
import {
  pageUsage,
  readsTdmRep,
  refusalDetail,
  type UsagePolicyOf as RobotsPolicy,
  type UsageCrawlOptions,
} from "./usage-verdict.js";
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
  /** Receives each fetched page (content output); optional. */
  readonly onPage?: (page: FetchedPage) => Promise<void>;
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
/** Without --purpose, preferences are recorded and refuse nothing. */
const NO_PURPOSES: UsageCrawlOptions = { purposes: [] };
/** A site refused only because other requests to it are in flight is asked again after this. */
const IN_FLIGHT_COOL_MS = 50;

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
  const active = new Map<string, number>();
  // When this process's last exchange with each site ended: the gap the crawl log shows.
  const lastEnd = new Map<string, number>();
  // Usage preferences: the robots.txt each leased URL was decided by (usage-verdict.ts); weak,
  // so that it lives as long as the lease and no longer.
  const usageRobots = new WeakMap<Lease, RobotsPolicy | null>();
  // A crawl for AI training or input reads each site's tdmrep.json once, under its reservation.
  const tdmFiles = !readsTdmRep(options.usage)
    ? null
    : new TdmRepFiles(async (origin) => {
        const url = `${origin}${TDMREP_PATH}`;
        const view = await sites.view(origin);
        if (view.kind === "closed" || !decide(view, url, robot(now())).allowed) return null;
        const ticket = await gate.take(origin, lastPlan.get(origin) ?? null, "tdmrep.json");
        if (ticket === null) return null;
        const result = await client.fetchPage(url);
        const end = now();
        await gate.release(ticket, true, end);
        const status = result.kind === "error" ? null : result.status;
        await logOutcome(url, origin, ticket.at, end - ticket.at, status, 0, "tdmrep", null);
        return result.kind !== "error" && result.status === 200 && result.body !== null
          ? readTdmRepJson(result.body)
          : null;
      });
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
    if (tdmFiles !== null && view.kind !== "closed") await tdmFiles.ensure(origin); // usage
    // The site's reservation first (DESIGN §2): its gap, rate window and requests in flight,
    // over every process sharing the store. A refusal moves the site's next moment in the store.
    const got = await gate.tryTake(origin, base.plan);
    if (!("held" in got)) {
      if (!waitingSince.has(origin)) waitingSince.set(origin, now());
      if (got.why === "in-flight") coolUntil.set(origin, now() + IN_FLIGHT_COOL_MS);
      return;
    }
    const lease = await store.frontier.lease(origin, now(), LEASE_MS, null, owner);
    if (lease === null) {
      await gate.release(got, false);
      return;
    }
    const since = waitingSince.get(origin) ?? got.at;
    waitingSince.delete(origin);
    await fetchOne(origin, view, lease, got, since);
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
        ? await options.agents.indexed(url, view.policy, (pages) => queueIndexed(pages, lease))
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
    const timing: Timing = {
      via: meta.via,
      gapMs: last === undefined ? null : at - last,
      requiredGapMs: plan.delaySeconds * 1000,
      waitedMs: Math.max(0, at - waitingFrom),
    };

    const validators = await store.pages.get(url);
    const headers = {
      ...(plan.cookie === null ? {} : { cookie: plan.cookie.value }),
      ...(validators?.etag ? { ifNoneMatch: validators.etag } : {}),
      ...(validators?.lastModified ? { ifModifiedSince: validators.lastModified } : {}),
    };
    const result = await client.fetchPage(url, { headers });
    const end = now();
    lastEnd.set(origin, end);
    await hold.giveBack(true);
    const sent = {
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
    usageRobots.set(lease, view.kind === "rules" ? view.policy : null); // usage preferences
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
    let usageMeta: readonly { name: string; content: string }[] = [];
    if (status === 200 && result.body !== null && isHtml(result.contentType)) {
      const page = extractLinks(new TextDecoder().decode(result.body), url, token, {
        sortQuery: options.sortQuery === true,
      });
      canonical = page.canonical ?? canonical;
      noindex ||= page.noindex;
      usageMeta = page.usageMeta;
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
    // --- usage preferences (crawler/usage-verdict.ts): recorded; a refused purpose is not kept.
    const usage = pageUsage(
      {
        url,
        agent: token,
        robots: usageRobots.get(lease) ?? null,
        headers: result.headers,
        contentType: result.contentType,
        meta: usageMeta,
        tdmrep: tdmFiles?.get(origin) ?? null,
      },
      options.usage ?? NO_PURPOSES,
    );
    // --- end of usage preferences
    // `noindex` (meta robots or X-Robots-Tag): fetched, links followed as allowed, not kept.
    if (!noindex && usage.keep)
      await options.onPage?.({
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
        ...(usage.record === null ? {} : { usage: usage.record }),
      });
    await store.frontier.settle(lease, { kind: "done", status, at: now() });
    await logOutcome(
      url,
      origin,
      at,
      result.ms,
      status,
      result.wireBytes,
      status === 304
        ? "not-modified"
        : noindex
          ? "fetched-noindex"
          : usage.refused !== null && !usage.keep
            ? "fetched-usage-refused"
            : "fetched",
      usage.refused !== null && !usage.keep ? refusalDetail(usage.refused) : decision.rule,
      { ...timing, canonical, usage: usage.record },
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
    if (!page.noindex)
      await options.onPage?.({
        url,
        status: 200,
        headers: { "content-type": "application/json", "x-heed-indexed-by": page.host },
        body: new TextEncoder().encode(JSON.stringify(page)),
        at,
        rule: decision.rule,
        delaySeconds: 0,
      });
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
      Pick<CrawlRecord, "canonical" | "via" | "gapMs" | "requiredGapMs" | "waitedMs" | "usage">
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
    active.set(origin, (active.get(origin) ?? 0) + 1);
    const task: Promise<void> = visit(origin)
      .catch((error: unknown) => {
        emit({
          type: "failed",
          url: origin,
          reason: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => {
        const n = (active.get(origin) ?? 1) - 1;
        if (n === 0) active.delete(origin);
        else active.set(origin, n);
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
    const room = Math.min(options.concurrency - tasks.size, options.maxPages - done - tasks.size);
    if (room > 0) {
      const busy = new Set(
        [...active].filter(([, n]) => n >= options.perHost).map(([origin]) => origin),
      );
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
          await sleep(MAX_SLEEP_MS);
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
    await Promise.race([...tasks, nap.done]);
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
