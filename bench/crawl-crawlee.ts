/**
 * Crawlee's side of bench/crawl.bench.ts: its `CheerioCrawler` (npm `@crawlee/cheerio`) in a
 * process of its own, robots.txt respected, links of every host followed, with its storage in
 * memory (`--storage memory`, Configuration `persistStorage: false`) or its default persisted
 * storage in DIR (`--storage disk`).
 *
 *   node dist/bench/crawl-crawlee.js --seeds URL,URL,… [--storage memory|disk]
 *        [--concurrency 50] [--max-pages 10000] [--expect N] [--seconds 60] [--dir DIR]
 *
 * `@crawlee/cheerio` is imported at run time, so that heed's benchmarks build and run without
 * it: when it cannot be loaded the child ends with `RESULT {"crawler":"crawlee","note":…}` and
 * the bench prints why. Ends with one line `RESULT {…}` (bench/crawl-child.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  exitWithParent,
  numberOption,
  option,
  pageCounter,
  printResult,
  rssSampler,
} from "./crawl-child.js";

/** The few parts of `@crawlee/cheerio` 3.x used here (checked against its .d.ts, 3.18.1). */
interface CrawleeContext {
  readonly request: { readonly url: string };
  enqueueLinks(options: { strategy: "all" | "same-hostname" | "same-origin" }): Promise<unknown>;
}

interface CrawleeCrawler {
  run(requests: string[]): Promise<unknown>;
  stop(reason?: string): void;
  teardown(): Promise<void>;
}

interface CrawleeModule {
  readonly CheerioCrawler: new (
    options: {
      requestHandler: (context: CrawleeContext) => Promise<void>;
      failedRequestHandler: (context: CrawleeContext) => void;
      minConcurrency: number;
      maxConcurrency: number;
      autoscaledPoolOptions: Readonly<Record<string, unknown>>;
      maxRequestsPerCrawl: number;
      respectRobotsTxtFile: boolean;
      statusMessageLoggingInterval: number;
    },
    config: unknown,
  ) => CrawleeCrawler;
  readonly Configuration: new (options: { persistStorage: boolean }) => unknown;
  readonly log: { setLevel(level: number): void };
  readonly LogLevel: { readonly ERROR: number };
}

/** Kept in a variable so that TypeScript does not need the package to build heed. */
const PACKAGE = "@crawlee/cheerio";

async function main(): Promise<void> {
  const seeds = option("--seeds", "")
    .split(",")
    .filter((s) => s !== "");
  if (seeds.length === 0) throw new Error("--seeds URL,URL,… is required");
  const storage = option("--storage", "memory") === "disk" ? "disk" : "memory";
  const concurrency = numberOption("--concurrency", 50);
  const maxPages = numberOption("--max-pages", 10_000);
  /** Pages in the web, for the 90% mark; default the page limit. */
  const expect = numberOption("--expect", maxPages);
  const seconds = numberOption("--seconds", 60);
  const given = option("--dir", "");
  const dir = given === "" ? mkdtempSync(join(tmpdir(), "crawlee-bench-")) : given;
  // Crawlee reads its storage directory from the environment when it is first loaded.
  process.env["CRAWLEE_STORAGE_DIR"] = join(dir, "storage");
  const rss = rssSampler();
  const name = `crawlee-${storage}`;

  let crawlee: CrawleeModule;
  try {
    crawlee = (await import(PACKAGE)) as CrawleeModule;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    printResult({
      crawler: name,
      pages: 0,
      failed: 0,
      crawlMs: 0,
      t90Ms: null,
      peakRss: 0,
      stoppedBy: "not run",
      note: `not installed (${reason})`,
    });
    return;
  }
  crawlee.log.setLevel(crawlee.LogLevel.ERROR);

  let failed = 0;
  let timedOut = false;
  const config =
    storage === "memory" ? new crawlee.Configuration({ persistStorage: false }) : undefined;
  const crawler = new crawlee.CheerioCrawler(
    {
      async requestHandler({ enqueueLinks }) {
        counter.page();
        // Every host of the synthetic web, as heed's scope "host" with all 20 seeds.
        await enqueueLinks({ strategy: "all" });
      },
      failedRequestHandler() {
        failed++;
      },
      // The same concurrency as heed's, from the start: CheerioCrawler's pool starts at 10 tasks
      // and adds 5% every 10 s. Passing autoscaledPoolOptions replaces CheerioCrawler's own,
      // so its other two settings (@crawlee/http HTTP_OPTIMIZED_AUTOSCALED_POOL_OPTIONS) are
      // repeated here.
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      autoscaledPoolOptions: {
        desiredConcurrency: concurrency,
        snapshotterOptions: { eventLoopSnapshotIntervalSecs: 2, maxBlockedMillis: 100 },
        systemStatusOptions: { maxEventLoopOverloadedRatio: 0.7 },
      },
      // A bound only: Crawlee keeps under it by enqueueing at most (limit - handled - pending)
      // links of each page, so a limit equal to the web's size starves the crawl's end of new
      // links (it ran at about 50 pages/s for its last 15%); the bench passes twice the web.
      maxRequestsPerCrawl: maxPages,
      respectRobotsTxtFile: true,
      statusMessageLoggingInterval: 3_600,
    },
    config,
  );
  const started = performance.now();
  const counter = pageCounter(name, expect, rss);
  const deadline = setTimeout(() => {
    timedOut = true;
    crawler.stop("time limit");
  }, seconds * 1000);
  // stop() lets requests in flight finish; a crawler that does not end soon after is torn down.
  const hard = setTimeout(
    () => {
      void crawler.teardown();
    },
    (seconds + 15) * 1000,
  );
  hard.unref();
  try {
    await crawler.run(seeds);
    const crawlMs = performance.now() - started;
    printResult({
      crawler: name,
      pages: counter.pages,
      failed,
      crawlMs,
      t90Ms: counter.t90Ms,
      peakRss: rss.peak(),
      stoppedBy: timedOut ? "time limit" : counter.pages >= maxPages ? "max-pages" : "finished",
    });
  } finally {
    clearTimeout(deadline);
    clearTimeout(hard);
    counter.stop();
    rss.stop();
    if (given === "") rmSync(dir, { recursive: true, force: true });
  }
}

exitWithParent();
await main();
// Crawlee may keep timers (its snapshotter, its storage's persistence) alive after run().
process.exit(0);
