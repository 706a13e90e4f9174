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
import type { AccessPlan, DialectChoice, Robot } from "../protocol/robots/index.js";
import { EMPTY_PLAN } from "../protocol/robots/plan.js";
import type { CrawlRecord, CrawlStore, Discovery, Lease, NewUrl } from "../store/types.js";
import { MAX_SITEMAP_REDIRECTS, type OpenedSitemap, readSitemaps } from "../net/sitemap-fetch.js";
import { sitemapsFromRobots } from "../protocol/sitemap/discovery.js";
import {
  LINK_PRIORITY,
  readMeta,
  SEED_PRIORITY,
  sitemapPriority,
  type UrlMeta,
  writeMeta,
} from "./discovery.js";
import { trapReason } from "./traps.js";
import { extractLinks, robotsTag } from "./links.js";
import { afterStart, earliestStart, FRESH_PACE, type Pace } from "./pace.js";
import { makeScope, type ScopeKind } from "./scope.js";
import { SiteRules, type SiteView } from "./site-rules.js";
import { normalizeUrl, originOf } from "./url-normal.js";

export interface CrawlerOptions {
  readonly seeds: readonly string[];
  /** The robot's name token, matched against robots.txt. */
  readonly agent: string;
  /** The User-Agent header sent (`NAME/<version> (+<url>)`). */
  readonly userAgent: string;
  readonly store: CrawlStore;
  readonly client: HttpClient;
  /** Stop once this many pages are fetched in the crawl (resumed runs count what came before). */
  readonly maxPages: number;
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
  /** Most pages fetched from one site in this run (a trap bound); default no limit. */
  readonly maxPerHost?: number;
  /** Tries of a URL that meets 5xx or network errors, default 3. */
  readonly maxAttempts?: number;
  /**
   * Fetch again every page an earlier run fetched, with conditional requests (ETag,
   * If-Modified-Since): a re-crawl. `maxPages` then counts this run's pages.
   */
  readonly recrawl?: boolean;
  readonly now?: () => number;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: CrawlEvent) => void;
  /** Receives each fetched page (content output); optional. */
  readonly onPage?: (page: FetchedPage) => Promise<void>;
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
}

export type CrawlEvent =
  | { readonly type: "fetched"; readonly url: string; readonly status: number }
  | { readonly type: "skipped"; readonly url: string; readonly reason: string }
  | { readonly type: "failed"; readonly url: string; readonly reason: string }
  | { readonly type: "retry"; readonly url: string; readonly reason: string }
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
  readonly stoppedBy: "finished" | "max-pages" | "aborted";
}

/**
 * How long a fetcher holds a URL before its lease counts as lost: longer than the HTTP
 * client's whole-exchange limit (120 s) plus a path's own gap.
 */
const LEASE_MS = 3 * 60_000;
/** Longest single sleep, so that aborts and new work are noticed. */
const MAX_SLEEP_MS = 1000;
const RETRY_BASE_MS = 2_000;

interface SitePace {
  agent: Pace;
  ip: Pace;
}

export async function crawl(options: CrawlerOptions): Promise<CrawlSummary> {
  const now = options.now ?? Date.now;
  const started = now();
  const { store, client } = options;
  const inScope = makeScope(options.scope, options.seeds);
  const token = options.agent.toLowerCase();
  const maxAttempts = options.maxAttempts ?? 3;
  const emit = options.onEvent ?? (() => {});
  const sites = new SiteRules({
    cache: store.robots,
    now,
    fetch: async (url) => {
      // Stamped when the answer is in (after every redirect hop), as a page's exchange is.
      try {
        return await fetchRobots(url, { userAgent: options.userAgent, client });
      } finally {
        robotsAsked.set(originOf(url), now());
      }
    },
    ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
  });
  const paces = new Map<string, Promise<SitePace>>();
  // When each site's robots.txt last answered: that request counts towards the gap too.
  const robotsAsked = new Map<string, number>();
  const active = new Map<string, number>();
  const tasks = new Set<Promise<void>>();
  const tally = { fetched: 0, skipped: 0, failed: 0, retried: 0 };
  const hostsNoted = new Set<string>();
  // Original pages a sitemap snapshot stands for (`<srcloc>` → `<loc>`): never fetched themselves.
  const standIns = new Map<string, string>();
  const fed = new Set<string>();
  const perSite = new Map<string, number>();

  // A local store's leases at start belong to a run that died; a shared store's may be alive.
  await store.frontier.recover(store.shared ? now() : Number.MAX_SAFE_INTEGER);
  await store.frontier.add(
    options.seeds.flatMap((seed) => {
      const url = normalizeUrl(seed);
      return url === null ? [] : [newUrl(url, 0, SEED_PRIORITY, null, { via: "seed" })];
    }),
  );
  if (options.recrawl === true) await requeueFetched(store);
  const before = await store.frontier.counts();
  let done = options.recrawl === true ? 0 : before.done;
  let stoppedBy: CrawlSummary["stoppedBy"] = "finished";

  const robot = (at: number): Robot => ({
    agent: options.agent,
    at,
    ...(options.ip === undefined ? {} : { ip: options.ip }),
    ...(options.languages === undefined ? {} : { languages: options.languages }),
    ...(options.encodings === undefined ? {} : { encodings: options.encodings }),
    ...(options.charsets === undefined ? {} : { charsets: options.charsets }),
  });

  // One pace object per site, however many tasks of the site ask for it at once.
  const paceOf = (origin: string): Promise<SitePace> => {
    let pace = paces.get(origin);
    if (pace === undefined) {
      pace = (async () => {
        const agent = await store.hosts.get(origin);
        const ip = await store.hosts.get(ipKey(origin, options.ip));
        return { agent: toPace(agent), ip: toPace(ip) };
      })();
      paces.set(origin, pace);
    }
    return pace;
  };

  const visit = async (origin: string): Promise<void> => {
    const view = await sites.view(origin);
    if (view.kind === "closed" && !view.forbidden) {
      await store.frontier.setNextAt(origin, view.retryAt);
      emit({ type: "waiting", origin, until: view.retryAt, why: view.detail });
      return;
    }
    // The site as a whole first: a closed time window or a gap still running keeps it waiting
    // without taking a URL out of the queue.
    const base = decide(view, `${origin}/`, robot(now()));
    if (!base.allowed && base.retryAt !== null) {
      await store.frontier.setNextAt(origin, base.retryAt);
      emit({ type: "waiting", origin, until: base.retryAt, why: base.why });
      return;
    }
    const pace = await paceOf(origin);
    const asked = robotsAsked.get(origin);
    if (asked !== undefined) {
      robotsAsked.delete(origin);
      if (pace.agent.lastAt === null || pace.agent.lastAt < asked)
        pace.agent = { ...pace.agent, lastAt: asked };
      if (pace.ip.lastAt === null || pace.ip.lastAt < asked)
        pace.ip = { ...pace.ip, lastAt: asked };
    }
    // Only a site that admits the robot, and not one that sends it to a mirror, is read for sitemaps.
    if (!fed.has(origin) && view.kind !== "closed" && base.allowed && base.plan.mirror === null) {
      fed.add(origin);
      await feedSitemaps(origin, view, base.plan, pace);
    }
    const due = startAt(base.plan, pace, now());
    if (due > now()) {
      await store.frontier.setNextAt(origin, due);
      return;
    }
    const nextAt = now() + base.plan.delaySeconds * 1000;
    const lease = await store.frontier.lease(origin, now(), LEASE_MS, nextAt);
    if (lease === null) return;
    await fetchOne(origin, view, lease);
  };

  /**
   * seeds/003 §4.2: the crawler "sequentially parses all the sitemap.xml files listed in
   * robots.txt and saves all the URLs into a non-crawl queue" before it follows links: the
   * site's sitemaps (robots.txt `Sitemap` lines, else /sitemap.xml) feed the frontier, ordered
   * by their priority, each request to the site paced like a page.
   */
  const feedSitemaps = async (origin: string, view: SiteView, plan: AccessPlan, pace: SitePace) => {
    const policy = view.kind === "rules" ? view.policy : null;
    const found = sitemapsFromRobots(policy, `${origin}/robots.txt`);
    if (!found.fromRobots && options.sitemapFallback === false) return;
    const who = robot(now());
    const locations = found.sitemaps
      .map((s) => s.url)
      .filter((u) => policy === null || originOf(u) !== origin || policy.isAllowed(u, who));
    const open = async (location: string): Promise<OpenedSitemap> => {
      let current = location;
      for (let hop = 0; hop <= MAX_SITEMAP_REDIRECTS; hop++) {
        const own = originOf(current) === origin;
        if (own) {
          while (startAt(plan, pace, now()) > now() && !options.signal?.aborted) {
            await sleep(Math.min(startAt(plan, pace, now()) - now(), MAX_SLEEP_MS));
          }
          pace.agent = afterStart(plan, "agent", pace.agent, now());
          pace.ip = afterStart(plan, "ip", pace.ip, now());
        }
        const headers = plan.cookie === null ? {} : { cookie: plan.cookie.value };
        const result = await client.fetchPage(current, { headers });
        if (own) await exchangeEnded(origin, plan, pace, now());
        if (result.kind === "error") return { ok: false, message: result.message, status: null };
        if (result.status >= 300 && result.status < 400 && result.location !== null) {
          current = result.location;
          continue;
        }
        const body = result.body;
        if (result.status !== 200 || body === null) {
          return { ok: false, message: `HTTP ${result.status}`, status: result.status };
        }
        return {
          ok: true,
          finalUrl: current,
          chunks: (async function* () {
            yield body;
          })(),
        };
      }
      return { ok: false, message: `more than ${MAX_SITEMAP_REDIRECTS} redirects`, status: null };
    };
    let batch: NewUrl[] = [];
    let added = 0;
    const flush = async () => {
      if (batch.length > 0) added += await store.frontier.add(batch);
      batch = [];
    };
    const read = readSitemaps(locations, {
      open,
      follow: true,
      allowAnyPathOnHost: found.fromRobots,
    });
    for await (const event of read) {
      if (options.signal?.aborted) break;
      if (event.kind !== "url") continue;
      const loc = normalizeUrl(event.url.loc);
      if (loc === null || !inScope(loc) || trapReason(loc) !== null) continue;
      const srcloc = event.url.srcloc === null ? null : normalizeUrl(event.url.srcloc);
      if (srcloc !== null) standIns.set(srcloc, loc);
      const meta: UrlMeta = {
        via: srcloc === null ? "sitemap" : "srcloc",
        ...(event.url.type === null ? {} : { type: event.url.type }),
        ...(srcloc === null ? {} : { srcloc }),
      };
      batch.push(newUrl(loc, 0, sitemapPriority(event.url.priority), null, meta));
      if (batch.length >= 500) await flush();
      // No more of a site's sitemap than the crawl may fetch.
      if (added + batch.length >= options.maxPages) break;
    }
    await flush();
  };

  const fetchOne = async (origin: string, view: SiteView, lease: Lease): Promise<void> => {
    const { url } = lease.entry;
    const leasedAt = now();
    const meta = readMeta(lease.entry.meta, lease.entry.depth);
    if ((perSite.get(origin) ?? 0) >= (options.maxPerHost ?? Number.POSITIVE_INFINITY)) {
      await store.frontier.settle(lease, {
        kind: "skipped",
        reason: "the site's page budget is spent",
        at: now(),
      });
      tally.skipped++;
      emit({ type: "skipped", url, reason: `more than ${options.maxPerHost} pages of ${origin}` });
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

    // This URL's own gap (a brace block may ask more than the site's) is waited out here.
    const pace = await paceOf(origin);
    while (startAt(plan, pace, now()) > now() && !options.signal?.aborted) {
      await sleep(Math.min(startAt(plan, pace, now()) - now(), MAX_SLEEP_MS));
    }
    if (options.signal?.aborted) return; // the lease runs out and a later run takes the URL
    const at = now();
    const last = Math.max(pace.agent.lastAt ?? -Infinity, pace.ip.lastAt ?? -Infinity);
    const timing: Timing = {
      via: meta.via,
      gapMs: Number.isFinite(last) ? at - last : null,
      requiredGapMs: plan.delaySeconds * 1000,
      waitedMs: at - leasedAt,
    };
    pace.agent = afterStart(plan, "agent", pace.agent, at);
    pace.ip = afterStart(plan, "ip", pace.ip, at);
    await keepPace(origin, plan, pace);
    if (plan.delaySeconds > 0)
      await store.frontier.setNextAt(origin, at + plan.delaySeconds * 1000);

    const validators = await store.pages.get(url);
    const headers = {
      ...(plan.cookie === null ? {} : { cookie: plan.cookie.value }),
      ...(validators?.etag ? { ifNoneMatch: validators.etag } : {}),
      ...(validators?.lastModified ? { ifModifiedSince: validators.lastModified } : {}),
    };
    const result = await client.fetchPage(url, { headers });
    await exchangeEnded(origin, plan, pace, now());
    const sent = {
      "user-agent": options.userAgent,
      "accept-encoding": ACCEPT_ENCODING,
      ...(headers.cookie === undefined ? {} : { cookie: headers.cookie }),
      ...(headers.ifNoneMatch === undefined ? {} : { "if-none-match": headers.ifNoneMatch }),
      ...(headers.ifModifiedSince === undefined
        ? {}
        : { "if-modified-since": headers.ifModifiedSince }),
    };
    await settleFetch(origin, lease, result, at, decision, sent, timing);
  };

  /**
   * The next gap counts from the end of this exchange, not only from its start. The start is
   * stamped before the request leaves (store writes, the client's own path), and a cold first
   * request was seen taking 20 ms to reach the site while the next went out at once: gaps counted
   * from stamped starts came out shorter at the site than Crawl-delay. The answer ends after the
   * site saw the request, so a gap counted from it holds at the site (Yandex's reading of
   * Crawl-delay too: from the end of one download to the start of the next).
   */
  const exchangeEnded = async (origin: string, plan: AccessPlan, pace: SitePace, end: number) => {
    pace.agent = { ...pace.agent, lastAt: Math.max(pace.agent.lastAt ?? end, end) };
    pace.ip = { ...pace.ip, lastAt: Math.max(pace.ip.lastAt ?? end, end) };
    await keepPace(origin, plan, pace);
    if (plan.delaySeconds === 0) return;
    const next = end + plan.delaySeconds * 1000;
    if (next > (await store.frontier.nextAt(origin))) await store.frontier.setNextAt(origin, next);
  };

  /**
   * A link its site's rules (already in memory) refuse for the whole crawl is not queued: it
   * would only be leased to be skipped. Links of sites not read yet are queued and checked then.
   */
  const refusedForGood = (link: string): boolean => {
    const view = sites.peek(originOf(link));
    if (view === null || view.kind !== "rules") return false;
    const d = view.policy.check(link, robot(now()));
    return !d.allowed && (d.reason === "rule" || d.reason === "default");
  };

  /** Stores a site's pace, so that a restarted crawl keeps its gaps; a site without rules has none to keep. */
  const keepPace = async (origin: string, plan: AccessPlan, pace: SitePace) => {
    if (paced(plan, "agent")) await store.hosts.put(fromPace(origin, pace.agent));
    if (paced(plan, "ip")) await store.hosts.put(fromPace(ipKey(origin, options.ip), pace.ip));
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
    const { url, depth, attempts } = lease.entry;
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
      const target = result.location === null ? null : normalizeUrl(result.location);
      if (target !== null && follow(target))
        await store.frontier.add([
          newUrl(target, depth, lease.entry.priority, url, { ...meta, via: "redirect" }),
        ]);
      await store.frontier.settle(lease, { kind: "done", status, at: now() });
      await logOutcome(url, origin, at, result.ms, status, result.wireBytes, "redirect", target);
      done++;
      return;
    }
    if (result.etag !== null || result.lastModified !== null) {
      await store.pages.put({
        url,
        etag: result.etag,
        lastModified: result.lastModified,
        fetchedAt: at,
        status,
      });
    }
    // REGP Host (seeds/003 §3.2.13) names the canonical host; a page's own canonical link wins.
    let canonical: string | null =
      decision.plan.host === null ? null : onHost(url, decision.plan.host.value);
    const header = robotsTag(result.headers["x-robots-tag"] ?? null, token);
    let noindex = header.noindex;
    if (status === 200 && result.body !== null && isHtml(result.contentType)) {
      const page = extractLinks(new TextDecoder().decode(result.body), url, token);
      canonical = page.canonical;
      noindex ||= page.noindex;
      // seeds/003 §3.2.12: a `data` page is fetched without following its links; a `list`
      // page has every link followed, however deep it stands.
      const deepEnough = meta.type === "list" || depth < options.maxDepth;
      if (meta.type !== "data" && deepEnough && !header.nofollow && !page.nofollowAll) {
        const found = page.links
          .filter(
            (link) =>
              follow(link) &&
              !refusedForGood(link) &&
              !standIns.has(link) &&
              trapReason(link) === null,
          )
          .map((link) => newUrl(link, depth + 1, LINK_PRIORITY, url));
        if (found.length > 0) await store.frontier.add(found);
      }
    }
    // `noindex` (meta robots or X-Robots-Tag): fetched, links followed as allowed, not kept.
    if (!noindex)
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
      });
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
    void attempts;
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

  for (;;) {
    if (options.signal?.aborted) {
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
      const ready = await store.frontier.readyOrigins(now(), room, busy);
      for (const origin of ready) launch(origin);
      if (ready.length > 0) continue;
      if (tasks.size === 0) {
        const next = await store.frontier.nextReadyAt(busy);
        if (next === null) {
          // Nothing queued: finished, unless URLs are still leased (by another process).
          if ((await store.frontier.counts()).leased === 0) break;
          await sleep(MAX_SLEEP_MS);
          await store.frontier.recover(now());
          continue;
        }
        await sleep(Math.min(Math.max(next - now(), 1), MAX_SLEEP_MS));
        continue;
      }
    }
    const nap = cancellableSleep(MAX_SLEEP_MS);
    await Promise.race([...tasks, nap.done]);
    nap.cancel();
  }
  await Promise.allSettled([...tasks]);
  const counts = await store.frontier.counts();
  const elapsedMs = now() - started;
  return {
    ...tally,
    queued: counts.queued,
    done: counts.done,
    elapsedMs,
    pagesPerSecond: elapsedMs > 0 ? (tally.fetched * 1000) / elapsedMs : 0,
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

interface Allowed {
  readonly allowed: true;
  readonly plan: AccessPlan;
  readonly rule: string | null;
}

type Verdict =
  | Allowed
  | {
      readonly allowed: false;
      readonly why: string;
      readonly retryAt: number | null;
      readonly plan: AccessPlan;
    };

/** What the site's rules say about one URL, and when to come back if the answer is "not now". */
function decide(view: SiteView, url: string, robot: Robot): Verdict {
  switch (view.kind) {
    case "open":
      return { allowed: true, plan: EMPTY_PLAN, rule: view.detail };
    case "closed":
      return {
        allowed: false,
        why: view.detail,
        retryAt: view.forbidden ? null : view.retryAt,
        plan: EMPTY_PLAN,
      };
    case "rules": {
      const d = view.policy.check(url, robot);
      const plan = d.plan ?? EMPTY_PLAN;
      const why = d.rule === null ? (d.detail ?? d.basis ?? d.reason) : `line ${d.line}: ${d.rule}`;
      if (d.allowed) return { allowed: true, plan, rule: why };
      // A closed time window is "not now"; every other refusal is "never, in this crawl".
      const retryAt = d.reason === "time" ? (d.next ?? null) : null;
      return { allowed: false, why: `${d.reason}: ${why}`, retryAt, plan };
    }
  }
}

/** Queues again, page by page, every URL the crawl log says was fetched. */
async function requeueFetched(store: CrawlStore): Promise<void> {
  const page = 1000;
  const total = await store.log.count();
  for (let offset = 0; offset < total; offset += page) {
    const records = await store.log.list(page, offset);
    const urls = records
      .filter(
        (r) =>
          r.outcome === "fetched" ||
          r.outcome === "fetched-noindex" ||
          r.outcome === "not-modified",
      )
      .map((r) => newUrl(r.url, 0, LINK_PRIORITY, null, { via: "revisit" }));
    if (urls.length > 0) await store.frontier.revisit(urls);
  }
}

/** Does the plan set a gap or a rate for this binding? */
function paced(plan: AccessPlan, scope: "agent" | "ip"): boolean {
  const delay = scope === "agent" ? plan.crawlDelay : plan.ipDelay;
  return (delay !== null && delay.value > 0) || plan.rates.some((r) => r.scope === scope);
}

/** When a request may start under both bindings (name token and IP). */
function startAt(plan: AccessPlan, pace: SitePace, now: number): number {
  return Math.max(
    earliestStart(plan, "agent", pace.agent, now),
    earliestStart(plan, "ip", pace.ip, now),
  );
}

function newUrl(
  url: string,
  depth: number,
  priority: number,
  referrer: string | null,
  meta: UrlMeta | null = null,
): NewUrl {
  const text = meta === null ? null : writeMeta(meta);
  return { url, origin: originOf(url), depth, priority, notBefore: 0, referrer, meta: text };
}

/** `url` with its host replaced by a REGP Host value (`www.example.com`, maybe with a port). */
function onHost(url: string, host: string): string | null {
  try {
    const target = new URL(url);
    target.host = host.replace(/^https?:\/\//i, "").replace(/\/$/, "");
    return normalizeUrl(target.href);
  } catch {
    return null;
  }
}

function mirrored(url: string, host: string): string | null {
  const target = new URL(url);
  const mirror = /^https?:\/\//i.test(host)
    ? new URL(host)
    : new URL(`${target.protocol}//${host}`);
  target.host = mirror.host;
  return normalizeUrl(target.href);
}

function isHtml(contentType: string | null): boolean {
  return contentType !== null && /^(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType);
}

function ipKey(origin: string, ip: string | undefined): string {
  return `${origin} ip=${ip ?? "default"}`;
}

function toPace(
  state: {
    lastRequestAt: number | null;
    windows: readonly { scope: "agent" | "ip"; start: number; count: number }[];
  } | null,
): Pace {
  if (state === null) return FRESH_PACE;
  return { lastAt: state.lastRequestAt, window: state.windows[0] ?? null };
}

function fromPace(origin: string, pace: Pace) {
  return { origin, lastRequestAt: pace.lastAt, windows: pace.window === null ? [] : [pace.window] };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A sleep that can be called off, so that a finished crawl does not linger on its timer. */
function cancellableSleep(ms: number): { done: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { done, cancel: () => clearTimeout(timer) };
}
