/**
 * Runs the crawler (the library's `crawl`) against local sites for the crawler's integration
 * tests, each crawl with its own SQLite store in a temporary directory and a time limit, and
 * reads the sites' request logs: the logs, not the crawler's summary, are the evidence.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  crawl,
  type CrawlerOptions,
  type CrawlEvent,
  type CrawlSummary,
} from "../../src/crawler/crawler.js";
import { createHttpClient, type HttpClient } from "../../src/net/http-client.js";
import { openStore } from "../../src/store/index.js";
import type { CrawlStore } from "../../src/store/types.js";
import { isPage, type LoggedRequest } from "./synthetic-site.js";

/**
 * Slack allowed below a required gap, in ms, when two arrival times logged by a test server are
 * compared. The crawler counts a site's gap from the end of the previous exchange (the answer
 * is in, so the server has logged that request) to the start of the next (which the server logs
 * after it leaves), all read from the same clock: what separates the two stamps at the server
 * from the crawler's is rounding to whole milliseconds, up to 1 ms at each end (the crawler
 * compares Date.now() with the due moment after each timer, so a timer firing early does not
 * count). 20 ms covers that many times over, on a loaded 2-core CI machine too, and is far below
 * what ignoring a delay of 0.1 s or more would show. Rate windows need it for a different reason: a window starts when its first request is
 * stamped, and that request reaches the server a few ms later (a first page runs cold code
 * paths: 10-20 ms were measured), so a window read off the server's log starts that much late.
 */
export const TOLERANCE_MS = 20;

export const AGENT = "HeedTest";
export const USER_AGENT = `${AGENT}/0.0.0-test (+https://example.org/heed-test)`;

export interface CrawlRun {
  readonly summary: CrawlSummary;
  readonly events: readonly CrawlEvent[];
  /** When the crawl started and ended (ms since the epoch). */
  readonly started: number;
  readonly ended: number;
}

export type HarnessOptions = Partial<Omit<CrawlerOptions, "store" | "client" | "seeds">> & {
  /** Abort the crawl after this many ms (a clean stop through the crawler's signal). */
  readonly abortAfterMs?: number;
  /** Fail the run if it has not ended after this many ms (default 30 s). */
  readonly limitMs?: number;
  /** Keep the store here instead of a fresh temporary directory. */
  readonly storePath?: string;
  /** The store the crawl is given, made from the one opened (a test that steps between calls). */
  readonly wrapStore?: (store: CrawlStore) => CrawlStore;
  /** The HTTP client the crawl is given, made from the one created (a test that steps between requests). */
  readonly wrapClient?: (client: HttpClient) => HttpClient;
};

/** A temporary directory, removed by `cleanup`. */
export async function tempDir(prefix = "heed-crawl-"): Promise<{
  readonly dir: string;
  cleanup(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Crawls from `seeds` with a fresh store and an HTTP client that may reach 127.0.0.1. */
export async function runCrawl(
  seeds: readonly string[],
  options: HarnessOptions = {},
): Promise<CrawlRun> {
  const temp = options.storePath === undefined ? await tempDir() : null;
  const opened = await openStore(options.storePath ?? join(temp?.dir ?? "", "crawl.db"));
  const store = options.wrapStore?.(opened) ?? opened;
  const perHost = options.perHost ?? 1;
  const created = createHttpClient({
    userAgent: options.userAgent ?? USER_AGENT,
    allowPrivateAddresses: true,
    connectionsPerOrigin: perHost,
  });
  const client = options.wrapClient?.(created) ?? created;
  const controller = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  if (options.abortAfterMs !== undefined)
    timers.push(setTimeout(() => controller.abort(), options.abortAfterMs));
  const limitMs = options.limitMs ?? 30_000;
  let overran = false;
  timers.push(
    setTimeout(() => {
      overran = true;
      controller.abort();
    }, limitMs),
  );
  const events: CrawlEvent[] = [];
  const {
    abortAfterMs: _a,
    limitMs: _l,
    storePath: _s,
    wrapStore: _w,
    wrapClient: _c,
    ...rest
  } = options;
  const started = Date.now();
  try {
    const summary = await crawl({
      agent: AGENT,
      userAgent: USER_AGENT,
      maxPages: 1000,
      maxDepth: 10,
      concurrency: 4,
      perHost,
      scope: "host",
      ...rest,
      seeds,
      store,
      client,
      signal: options.signal
        ? AbortSignal.any([options.signal, controller.signal])
        : controller.signal,
      onEvent: (event) => {
        events.push(event);
        options.onEvent?.(event);
      },
    });
    if (overran) throw new Error(`the crawl of ${seeds.join(" ")} ran past ${limitMs} ms`);
    return { summary, events, started, ended: Date.now() };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await client.close();
    await store.close();
    await temp?.cleanup();
  }
}

/** The requests for pages: not `/robots.txt`, not `/sitemap.xml`, not `exclude`d paths. */
export function pageRequests(
  log: readonly LoggedRequest[],
  exclude: (path: string) => boolean = () => false,
): LoggedRequest[] {
  return log.filter((r) => isPage(r.path) && !exclude(r.path));
}

/** The gaps between consecutive arrivals, each with the path of the later request. */
export function gaps(log: readonly LoggedRequest[]): { gap: number; before: string }[] {
  const out: { gap: number; before: string }[] = [];
  for (let i = 1; i < log.length; i++) {
    const a = log[i - 1] as LoggedRequest;
    const b = log[i] as LoggedRequest;
    out.push({ gap: b.at - a.at, before: b.path });
  }
  return out;
}

/**
 * Request counts per Request-rate window, the way seeds/003 §3.2.7 counts them: a window opens
 * at the first visit and lasts `windowMs`; the first visit at or after its end opens the next.
 * A request within {@link TOLERANCE_MS} of a window's end is counted in the next one, since the
 * server stamps arrivals, not the moment the crawler sent them.
 */
export function fixedWindowCounts(
  log: readonly LoggedRequest[],
  windowMs: number,
): { start: number; count: number }[] {
  const windows: { start: number; count: number }[] = [];
  for (const request of log) {
    const current = windows[windows.length - 1];
    if (current === undefined || request.at >= current.start + windowMs - TOLERANCE_MS)
      windows.push({ start: request.at, count: 1 });
    else current.count++;
  }
  return windows;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** RFC 822 time of day in UT, `HH:MM:SS UT`, of the instant `ms`. */
export function timeOfDay(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UT`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** RFC 822 date and time in UT, `5 Mar 2026 12:00:03 UT`, of the instant `ms`. */
export function dateTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${timeOfDay(ms)}`;
}
