/**
 * heed's side of bench/crawl.bench.ts, in a process of its own so that its peak RSS is its own.
 *
 *   node dist/bench/crawl-heed.js --seeds URL,URL,… [--concurrency 50] [--per-host 3]
 *        [--max-pages 10000] [--expect N] [--seconds 60] [--dir DIR] [--core]
 *     crawls from the seeds with the library's Crawler (what `import { Crawler } from "heed"`
 *     gives) and a page handler, the SQLite store (persisted, crash-safe) in DIR (default a
 *     temporary directory, removed after), robots.txt respected;
 *   node dist/bench/crawl-heed.js --frontier 1000000 [--seconds 5] [--dir DIR]
 *     queues that many URLs over 1,000 origins in an SQLite store,
 *     then runs the crawler's readyOrigins → lease → settle loop for a few seconds; the store
 *     is removed after.
 *
 * Ends with one line `RESULT {…}` (bench/crawl-child.ts). Every loop is bounded by a count and
 * a time limit.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { crawl } from "../src/crawler/crawler.js";
import { Crawler } from "../src/index.js";
import { createHttpClient } from "../src/net/http-client.js";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { NewUrl } from "../src/store/types.js";
import {
  exitWithParent,
  numberOption,
  option,
  pageCounter,
  printResult,
  rssSampler,
} from "./crawl-child.js";

const AGENT = "HeedBench";

async function crawlWeb(): Promise<void> {
  const seeds = option("--seeds", "")
    .split(",")
    .filter((s) => s !== "");
  if (seeds.length === 0) throw new Error("--seeds URL,URL,… is required");
  const concurrency = numberOption("--concurrency", 50);
  const perHost = numberOption("--per-host", 3);
  const maxPages = numberOption("--max-pages", 10_000);
  /** Pages in the web, for the 90% mark; default the page limit. */
  const expect = numberOption("--expect", maxPages);
  const seconds = numberOption("--seconds", 60);
  const given = option("--dir", "");
  const dir = given === "" ? mkdtempSync(join(tmpdir(), "heed-crawl-bench-")) : given;
  const rss = rssSampler();

  const store = await openSqliteStore(join(dir, "crawl.db"));
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), seconds * 1000);
  try {
    const started = performance.now();
    const counter = pageCounter("heed", expect, rss);
    // A handler that reads what a crawler author's first one would: the status and the size.
    let bytes = 0;
    const crawler = new Crawler({
      seeds,
      agent: AGENT,
      infoUrl: "https://example.com/bot",
      allowPrivateAddresses: true,
      store,
      maxPages,
      maxDepth: 1_000,
      concurrency,
      perHost,
      scope: "host",
      signal: controller.signal,
      handler: (page) => {
        if (page.status === 200) bytes += page.body?.length ?? 0;
      },
    });
    crawler.on("fetched", () => counter.page());
    // --core: the crawl() function under the library, without it, to weigh what it costs.
    const summary = process.argv.includes("--core")
      ? await crawl({
          seeds,
          agent: AGENT,
          userAgent: `${AGENT}/0.1 (+https://example.com/bot)`,
          store,
          client: createHttpClient({
            userAgent: `${AGENT}/0.1 (+https://example.com/bot)`,
            allowPrivateAddresses: true,
            connectionsPerOrigin: perHost,
          }),
          maxPages,
          maxDepth: 1_000,
          concurrency,
          perHost,
          scope: "host",
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === "fetched") counter.page();
          },
        })
      : await crawler.run();
    const crawlMs = performance.now() - started;
    counter.stop();
    clearTimeout(deadline);
    const counts = await store.frontier.counts();
    printResult({
      crawler: "heed",
      pages: summary.fetched,
      failed: summary.failed,
      crawlMs,
      t90Ms: counter.t90Ms,
      peakRss: rss.peak(),
      stoppedBy: summary.stoppedBy === "aborted" ? "time limit" : summary.stoppedBy,
      extra: {
        skipped: summary.skipped,
        retried: summary.retried,
        queued: counts.queued,
        storeMB: Math.round(fileBytes(join(dir, "crawl.db")) / 1e6),
        handledMB: Math.round(bytes / 1e6),
      },
    });
  } finally {
    clearTimeout(deadline);
    rss.stop();
    await store.close();
    if (given === "") rmSync(dir, { recursive: true, force: true });
  }
}

/** The database file and its write-ahead log. */
function fileBytes(path: string): number {
  return ["", "-wal"].reduce((sum, suffix) => {
    try {
      return sum + statSync(path + suffix).size;
    } catch {
      return sum;
    }
  }, 0);
}

/** A frontier of many queued URLs, in this process so that its peak RSS is measured alone. */
async function bigFrontier(urls: number): Promise<void> {
  const ORIGINS = 1_000;
  const BATCH = 100;
  const leaseSeconds = numberOption("--seconds", 5);
  const rss = rssSampler();
  const given = option("--dir", "");
  const dir = given === "" ? mkdtempSync(join(tmpdir(), "heed-frontier-bench-")) : given;
  const path = join(dir, "frontier.db");
  const store = await openSqliteStore(path);
  try {
    const { frontier } = store;
    const origin = (i: number) => `https://host-${i}.example.com`;
    let started = performance.now();
    let added = 0;
    for (let start = 0, page = 0; start < urls; start += BATCH, page++) {
      const host = origin(page % ORIGINS);
      const referrer = `${host}/section/${page}/index.html`;
      const batch: NewUrl[] = [];
      for (let i = start; i < Math.min(start + BATCH, urls); i++) {
        batch.push({
          url: `${host}/section/${page}/article-${i}.html?utm=feed&id=${i * 7919}`,
          origin: host,
          depth: 2,
          priority: i % 4,
          notBefore: 0,
          referrer,
          meta: null,
        });
      }
      added += await frontier.add(batch);
    }
    const addMs = performance.now() - started;
    const rssAfterAdd = rss.peak();

    // The crawler's loop with no politeness gap, so that the store is the bottleneck.
    started = performance.now();
    const end = started + leaseSeconds * 1000;
    let leased = 0;
    let now = Date.now();
    while (performance.now() < end) {
      now += 1;
      const ready = await frontier.readyOrigins(now, 100, new Set());
      if (ready.length === 0) break;
      for (const host of ready) {
        const lease = await frontier.lease(host, now, 60_000, now);
        if (lease === null) continue;
        await frontier.settle(lease, { kind: "done", status: 200, at: now });
        leased++;
      }
    }
    const leaseMs = performance.now() - started;
    const counts = await frontier.counts();
    printResult({
      crawler: "frontier",
      pages: leased,
      failed: 0,
      crawlMs: leaseMs,
      t90Ms: null,
      peakRss: rss.peak(),
      stoppedBy: "finished",
      extra: {
        added,
        addMs: Math.round(addMs),
        rssAfterAdd,
        queued: counts.queued,
        fileMB: Math.round(fileBytes(path) / 1e6),
      },
    });
  } finally {
    rss.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

exitWithParent();
const frontierUrls = numberOption("--frontier", 0);
if (frontierUrls > 0) await bigFrontier(Math.min(frontierUrls, 10_000_000));
else await crawlWeb();
