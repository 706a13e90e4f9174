/**
 * seeds/003 §4.2: the crawler "sequentially parses all the sitemap.xml files listed in
 * robots.txt and saves all the URLs into a non-crawl queue" before it follows links. A site's
 * sitemaps (robots.txt `Sitemap` lines, else /sitemap.xml) feed the frontier ordered by their
 * `<priority>` and `<lastmod>`; every request to the site itself is paced like a page.
 */
import type { HttpClient } from "../net/http-client.js";
import { MAX_SITEMAP_REDIRECTS, type OpenedSitemap, readSitemaps } from "../net/sitemap-fetch.js";
import type { RobotsPolicy, Robot } from "../protocol/robots/index.js";
import { sitemapsFromRobots } from "../protocol/sitemap/discovery.js";
import { MAX_SITEMAP_BYTES } from "../protocol/sitemap/limits.js";
import { parseW3cDatetime } from "../protocol/sitemap/w3c-datetime.js";
import type { CrawlStore, NewUrl } from "../store/types.js";
import type { UrlMeta } from "./discovery.js";
import { newUrl } from "./frontier-entry.js";
import { changedSince, sitemapEntryPriority } from "./revisit.js";
import { OPEN_FILES_PAUSE_MS } from "./open-files-shortage.js";
import { sleep, sleepUnlessStopped } from "./sleep.js";
import { originOf } from "./url-normal.js";

export interface SitemapFeed {
  readonly origin: string;
  /** The site's robots.txt, or null when it has none (then /sitemap.xml is read). */
  readonly policy: RobotsPolicy | null;
  readonly robot: Robot;
  readonly store: CrawlStore;
  readonly client: HttpClient;
  /** REGP Cookie, sent with every request to the site. */
  readonly cookie: string | null;
  /**
   * Waits for the turn of the site `url` is on (every request takes its site's reservation,
   * DESIGN §2) and marks the request's start; false when the crawl stopped meanwhile.
   * `requestEnded` marks its end, with the status (null: no answer) and the bytes received
   * for the crawl log.
   */
  readonly awaitTurn: (url: string) => Promise<boolean>;
  readonly requestEnded: (
    url: string,
    status: number | null,
    detail: string | null,
    bytes: number,
  ) => Promise<void>;
  /**
   * In place of `requestEnded` when the request could not be made for want of open files
   * (EMFILE, ENFILE): no request went out, so the turn goes back unused and nothing is logged;
   * the request is made again after {@link OPEN_FILES_PAUSE_MS}.
   */
  readonly notAsked: (url: string) => Promise<void>;
  /** The URL in the crawl's normal form, or null when it is not an http(s) URL. */
  readonly normal: (url: string) => string | null;
  /** The URL in the crawl's normal form if the crawl takes it (scope, traps), else null. */
  readonly accept: (url: string) => string | null;
  /** Receives `<srcloc>` → `<loc>`: the original page a snapshot stands for. */
  readonly standIn: (srcloc: string, snapshot: string) => void;
  /** No more entries than the crawl may fetch. */
  readonly limit: number;
  /** Also queue again known pages whose `<lastmod>` is newer than their last fetch. */
  readonly revisitChanged: boolean;
  /** Read /sitemap.xml when robots.txt names no sitemap; false: only those it names. */
  readonly fallback: boolean;
  readonly now: () => number;
  readonly signal?: AbortSignal;
  /** Longest a sitemap request may take in all, in ms (a site sending 1 byte a second). */
  readonly deadlineMs?: number;
}

/** Feeds the frontier from the site's sitemaps; returns how many URLs were queued. */
export async function feedSitemaps(feed: SitemapFeed): Promise<number> {
  const { origin, policy, store } = feed;
  const found = sitemapsFromRobots(policy, `${origin}/robots.txt`);
  if (!found.fromRobots && !feed.fallback) return 0;
  const locations = found.sitemaps
    .map((s) => s.url)
    .filter((u) => policy === null || originOf(u) !== origin || policy.isAllowed(u, feed.robot));
  let batch: NewUrl[] = [];
  let changed: NewUrl[] = [];
  let added = 0;
  const flush = async () => {
    if (batch.length > 0) added += await store.frontier.add(batch);
    if (changed.length > 0) added += await store.frontier.revisit(changed);
    batch = [];
    changed = [];
  };
  const read = readSitemaps(locations, {
    open: (location) => openSitemap(feed, location),
    follow: true,
    allowAnyPathOnHost: found.fromRobots,
  });
  for await (const event of read) {
    if (feed.signal?.aborted === true) break;
    if (event.kind !== "url") continue;
    const loc = feed.accept(event.url.loc);
    if (loc === null) continue;
    const srcloc = event.url.srcloc === null ? null : feed.normal(event.url.srcloc);
    if (srcloc !== null) feed.standIn(srcloc, loc);
    const lastmod = lastmodMs(event.url.lastmod, feed.now());
    const meta: UrlMeta = {
      via: srcloc === null ? "sitemap" : "srcloc",
      ...(event.url.type === null ? {} : { type: event.url.type }),
      ...(srcloc === null ? {} : { srcloc }),
      ...(event.url.changefreq === null ? {} : { changefreq: event.url.changefreq }),
    };
    const priority = sitemapEntryPriority(event.url.priority, lastmod, feed.now());
    // One step from the site, as a link of its home page: --max-depth covers sitemap entries.
    const entry = newUrl(loc, 1, priority, null, meta);
    const known = feed.revisitChanged && lastmod !== null ? await store.pages.get(loc) : null;
    if (known !== null && changedSince(lastmod, known.fetchedAt)) changed.push(entry);
    else batch.push(entry);
    if (batch.length + changed.length >= 500) await flush();
    if (added + batch.length + changed.length >= feed.limit) break;
  }
  await flush();
  return added;
}

/**
 * A `<lastmod>` as a moment. One later than the moment it is read is not believed (a wrong
 * clock or a promise): it would make every revisit run fetch the page again.
 */
function lastmodMs(text: string | null, now: number): number | null {
  if (text === null) return null;
  const parsed = parseW3cDatetime(text);
  return parsed.ok && parsed.value.epochMs <= now ? parsed.value.epochMs : null;
}

async function openSitemap(feed: SitemapFeed, location: string): Promise<OpenedSitemap> {
  let current = location;
  for (let hop = 0; hop <= MAX_SITEMAP_REDIRECTS; hop++) {
    const result = await askSitemap(feed, current);
    if (result === null) return { ok: false, message: "stopped", status: null };
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
}

type PageAnswer = Awaited<ReturnType<HttpClient["fetchPage"]>>;

/**
 * One sitemap request under its site's turn, logged; null when the crawl stopped. A request
 * this machine could not make for want of open files is no answer of the site: it waits and is
 * made again, as a page's is (./open-files-shortage.ts), never read as a failed sitemap.
 */
async function askSitemap(feed: SitemapFeed, current: string): Promise<PageAnswer | null> {
  for (;;) {
    const own = originOf(current) === feed.origin;
    if (!(await feed.awaitTurn(current))) return null;
    // REGP Cookie is the site's own: not sent to another host a sitemap moved to.
    const headers = feed.cookie === null || !own ? {} : { cookie: feed.cookie };
    // sitemaps.org: 50 MB uncompressed a file; a gzipped one is read as sent and inflated by
    // the reader, which holds its own limits.
    let result: PageAnswer;
    try {
      result = await feed.client.fetchPage(current, {
        headers,
        maxBodyBytes: MAX_SITEMAP_BYTES,
        ...(feed.deadlineMs === undefined ? {} : { signal: AbortSignal.timeout(feed.deadlineMs) }),
      });
    } catch (error) {
      await feed.requestEnded(current, null, "stopped", 0);
      throw error;
    }
    if (result.kind === "error" && result.code === "local") {
      await feed.notAsked(current);
      if (feed.signal === undefined) await sleep(OPEN_FILES_PAUSE_MS);
      else await sleepUnlessStopped(OPEN_FILES_PAUSE_MS, feed.signal);
      if (feed.signal?.aborted === true) return null;
      continue;
    }
    await feed.requestEnded(
      current,
      result.kind === "error" ? null : result.status,
      result.kind === "error" ? result.message : null,
      result.kind === "error" ? 0 : result.wireBytes,
    );
    return result;
  }
}
