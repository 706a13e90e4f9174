/**
 * The experiment of seeds/003 §5: the news site crawled by heed's crawler under each robots.txt
 * (none: Table 9; the REGP file: Table 10; the old REP file: Table 11), then under the REGP file
 * with a Visit-time window that opens a few seconds later, and with `Language: fr`. Each run
 * has a site of its own on 127.0.0.1 and a crawl store of its own; what was fetched and the
 * gaps are read from the site's request log, not from the crawler.
 *
 * It drives the crawler against the site, the paper's two sides together, so it sits above both
 * (crawler/ and site/ do not reach each other).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crawl, type CrawlEvent, type CrawlSummary } from "../crawler/crawler.js";
import { createHttpClient } from "../net/http-client.js";
import { openStore } from "../store/open.js";
import { type ResourceRow, resourceRows } from "../site/news/resources.js";
import { PAPER_TABLES, type PaperRow, type PaperTable } from "../site/news/paper-tables.js";
import type { RobotsVariant } from "../site/news/robots.js";
import { startNewsSite } from "../site/news/server.js";
import type { LoggedRequest } from "../site/news/site.js";

/**
 * How far below a required gap an observed one may be and still count as kept, in seconds: the
 * site stamps arrivals to the millisecond while the crawler counts from the end of the previous
 * answer, so the stamps of two requests can be a few ms closer than the gap kept (the crawl
 * tests' harness allows 20 ms for the same reason).
 */
export const GAP_TOLERANCE_SECONDS = 0.02;

export type RunName = RobotsVariant | "regp-visit-time" | "regp-language-fr";

export interface RowResult extends ResourceRow {
  /** The paper's row, where its table has one. */
  readonly paper: PaperRow | null;
  /** Whether this row says what the paper's does (fetched yes/no, and at least its delay); null without one. */
  readonly agrees: boolean | null;
}

export interface ExperimentRun {
  readonly robots: RunName;
  /** The paper's table this run reproduces, or null. */
  readonly table: string | null;
  /** What the site served at /robots.txt (null: 404). */
  readonly robotsTxt: string | null;
  readonly items: number;
  readonly rows: readonly RowResult[];
  /** Every request the site saw, robots.txt and sitemap included. */
  readonly requests: number;
  /** Whether the crawler read /sitemap.xml. */
  readonly sitemapRead: boolean;
  /** Requests after robots.txt that carried the REGP Cookie `user=robot`, of all of them. */
  readonly cookieSent: { readonly with: number; readonly of: number };
  readonly seconds: number;
  readonly stoppedBy: CrawlSummary["stoppedBy"];
  /** Visit-time run: the window, when it opened, and how long the crawler waited (site's log). */
  readonly visitTime?: string;
  readonly waitedSeconds?: number | null;
  /** Visit-time run: when the window opened (ISO 8601). */
  readonly opensAt?: string;
  /** Language run: why nothing was fetched, as the crawler said it. */
  readonly refused?: string | null;
  /** Language run: the languages the crawler supports. */
  readonly languages?: readonly string[];
  /** The site's request log: what the rows are read from. */
  readonly log: readonly LoggedRequest[];
  /** Whether every row with a paper row agrees with it (null: no paper table). */
  readonly agrees: boolean | null;
}

export interface ExperimentResult {
  readonly items: number;
  readonly agent: string;
  readonly runs: readonly ExperimentRun[];
  /** Whether every run with a paper table agrees with it. */
  readonly agrees: boolean;
}

export interface ExperimentOptions {
  /** News items of the three main runs (default 30). */
  readonly items?: number;
  /** News items of the Visit-time and Language runs (default 5): they show a wait and a refusal. */
  readonly smallItems?: number;
  /** Seconds after its site starts that the Visit-time window opens (default 4). */
  readonly visitDelaySeconds?: number;
  /** The robot's name token (default `heed`). */
  readonly agent?: string;
  /** The User-Agent header (default `heed (+https://www.npmjs.com/package/heed)`). */
  readonly userAgent?: string;
  /** Stop a crawl that runs longer than this (default 120 s). */
  readonly runLimitMs?: number;
  /** Which runs, in order (default all five). */
  readonly runs?: readonly RunName[];
  /** Hears of each run as it starts and ends. */
  readonly onRunStart?: (name: RunName, description: string) => void;
  readonly onRun?: (run: ExperimentRun) => void;
}

export const RUN_NAMES: readonly RunName[] = [
  "none",
  "rep",
  "regp",
  "regp-visit-time",
  "regp-language-fr",
];

/** Languages and content codings the demo's crawler supports: the paper's site asks zh-CN and gzip. */
const CRAWLER_LANGUAGES = ["zh-CN", "en"];
const CRAWLER_ENCODINGS = ["gzip", "deflate", "br"];
const WINDOW_MINUTES = 10;

export async function runNewsExperiment(
  options: ExperimentOptions = {},
): Promise<ExperimentResult> {
  const items = options.items ?? 30;
  const agent = options.agent ?? "heed";
  const runs: ExperimentRun[] = [];
  for (const name of options.runs ?? RUN_NAMES) {
    const run = await runOne(name, options, items, agent);
    runs.push(run);
    options.onRun?.(run);
  }
  return { items, agent, runs, agrees: runs.every((r) => r.agrees !== false) };
}

function describe(name: RunName, items: number): string {
  switch (name) {
    case "none":
      return `no robots.txt, ${items} news items`;
    case "rep":
      return `the old REP robots.txt, ${items} news items`;
    case "regp":
      return `the REGP robots.txt, ${items} news items (snapshots 1 s apart)`;
    case "regp-visit-time":
      return `the REGP robots.txt with a Visit-time window, ${items} news items`;
    case "regp-language-fr":
      return `the REGP robots.txt with Language: fr, ${items} news items`;
  }
}

async function runOne(
  name: RunName,
  options: ExperimentOptions,
  mainItems: number,
  agent: string,
): Promise<ExperimentRun> {
  const variant: RobotsVariant = name === "none" ? "none" : name === "rep" ? "rep" : "regp";
  const small = name === "regp-visit-time" || name === "regp-language-fr";
  const items = small ? (options.smallItems ?? 5) : mainItems;
  options.onRunStart?.(name, describe(name, items));
  const visit =
    name === "regp-visit-time" ? visitWindow(Date.now(), options.visitDelaySeconds ?? 4) : null;
  const log: LoggedRequest[] = [];
  const site = await startNewsSite({
    robots: variant,
    items,
    log: (request) => log.push(request),
    ...(visit === null ? {} : { visitTime: visit.text }),
    ...(name === "regp-language-fr" ? { language: "fr" } : {}),
  });
  const temp = await mkdtemp(join(tmpdir(), "heed-demo-"));
  const events: CrawlEvent[] = [];
  const started = Date.now();
  let summary: CrawlSummary;
  try {
    summary = await crawlSite(site.origin, join(temp, "crawl.db"), agent, options, events);
  } finally {
    await site.close();
    await rm(temp, { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;
  const paper = variant === name ? PAPER_TABLES[variant] : null;
  const rows = resourceRows(log, {
    ids: site.site.items().map((i) => i.id),
    latest: site.site.latestIds(),
  }).map((r) => withPaper(r, paper));
  const sorted = [...log].sort((a, b) => a.at - b.at);
  const robotsAt = sorted.findIndex((r) => r.path === "/robots.txt");
  const after = robotsAt < 0 ? sorted : sorted.slice(robotsAt + 1);
  const run: ExperimentRun = {
    robots: name,
    table: paper?.table ?? null,
    robotsTxt: site.site.robotsTxt,
    items,
    rows,
    requests: log.length,
    sitemapRead: log.some((r) => r.path === "/sitemap.xml"),
    cookieSent: {
      with: after.filter((r) => /(?:^|;\s*)user=robot(?:;|$)/.test(r.cookie ?? "")).length,
      of: after.length,
    },
    seconds,
    stoppedBy: summary.stoppedBy,
    agrees: paper === null ? null : rows.every((r) => r.agrees !== false),
    log: sorted,
  };
  if (visit !== null) {
    const robots = sorted[robotsAt];
    const next = sorted[robotsAt + 1];
    return {
      ...run,
      visitTime: visit.text,
      opensAt: new Date(visit.opens).toISOString(),
      waitedSeconds:
        robots === undefined || next === undefined ? null : (next.at - robots.at) / 1000,
    };
  }
  if (name === "regp-language-fr") {
    const skipped = events.find((e) => e.type === "skipped");
    return {
      ...run,
      refused: skipped?.type === "skipped" ? skipped.reason : null,
      languages: CRAWLER_LANGUAGES,
    };
  }
  return run;
}

async function crawlSite(
  origin: string,
  storePath: string,
  agent: string,
  options: ExperimentOptions,
  events: CrawlEvent[],
): Promise<CrawlSummary> {
  const userAgent = options.userAgent ?? `${agent} (+https://www.npmjs.com/package/heed)`;
  const store = await openStore(storePath);
  const client = createHttpClient({
    userAgent,
    allowPrivateAddresses: true,
    connectionsPerOrigin: 1,
  });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.runLimitMs ?? 120_000);
  try {
    return await crawl({
      seeds: [`${origin}/`],
      agent,
      userAgent,
      store,
      client,
      maxPages: 1000,
      maxDepth: 5,
      concurrency: 4,
      perHost: 1,
      scope: "host",
      languages: CRAWLER_LANGUAGES,
      encodings: CRAWLER_ENCODINGS,
      // seeds/003 §4.2, §5: the paper's crawler knows a sitemap only from robots.txt.
      sitemapFallback: false,
      signal: controller.signal,
      onEvent: (event) => events.push(event),
    });
  } finally {
    clearTimeout(timer);
    await client.close();
    await store.close();
  }
}

function withPaper(r: ResourceRow, paper: PaperTable | null): RowResult {
  const p = paper?.rows.find((x) => x.resource === r.resource) ?? null;
  if (p === null) return { ...r, paper: null, agrees: null };
  const fetchedAgrees = p.fetched ? r.fetched === r.total && r.total > 0 : r.fetched === 0;
  const gapAgrees =
    p.crawlDelaySeconds === 0 ||
    (r.minGapSeconds !== null && r.minGapSeconds >= p.crawlDelaySeconds - GAP_TOLERANCE_SECONDS);
  return { ...r, paper: p, agrees: fetchedAgrees && gapAgrees };
}

/**
 * A daily Visit-time window (seeds/003 §3.2.8) that opens `delaySeconds` after `now`, rounded
 * up to a whole second, and stays open WINDOW_MINUTES: `HH:MM:SS UT-HH:MM:SS UT`.
 */
export function visitWindow(now: number, delaySeconds: number): { text: string; opens: number } {
  const opens = Math.ceil((now + delaySeconds * 1000) / 1000) * 1000;
  const closes = opens + WINDOW_MINUTES * 60_000;
  const clock = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UT`;
  return { text: `${clock(opens)}-${clock(closes)}`, opens };
}
