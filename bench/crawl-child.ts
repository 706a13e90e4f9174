/**
 * What the crawler children of bench/crawl.bench.ts share: their options, their peak-RSS
 * sampler and the one line of JSON they end with.
 */
import { performance } from "node:perf_hooks";

/** The last line a child prints on stdout: `RESULT {…}`. */
export const RESULT_PREFIX = "RESULT ";

export interface ChildResult {
  readonly crawler: string;
  /** Pages fetched with status 200 (robots.txt not counted), as the crawler counts them. */
  readonly pages: number;
  readonly failed: number;
  /** From just before the crawl starts to its end (process start and imports excluded). */
  readonly crawlMs: number;
  /** When 90% of the page limit had been fetched, from the crawl's start (null: never). */
  readonly t90Ms: number | null;
  /** The highest RSS seen, in bytes: the 50 ms sampler's and the kernel's (ru_maxrss). */
  readonly peakRss: number;
  /** Why the crawl ended: finished, the page limit, or the time limit. */
  readonly stoppedBy: string;
  readonly note?: string;
  /** Anything else worth printing (frontier measurements). */
  readonly extra?: Readonly<Record<string, number | string>>;
}

export function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? undefined : process.argv[at + 1];
  return value === undefined ? fallback : value;
}

export function numberOption(name: string, fallback: number): number {
  const value = Number(option(name, String(fallback)));
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Samples `process.memoryUsage.rss()` every 50 ms; `peak()` also asks the kernel (ru_maxrss). */
export function rssSampler(): { peak(): number; stop(): void } {
  let max = process.memoryUsage.rss();
  const timer = setInterval(() => {
    max = Math.max(max, process.memoryUsage.rss());
  }, 50);
  timer.unref();
  return {
    peak: () => Math.max(max, process.memoryUsage.rss(), process.resourceUsage().maxRSS * 1024),
    stop: () => clearInterval(timer),
  };
}

/**
 * Counts pages as the crawler fetches them: when 90% of the limit was reached (a crawl's last
 * pages can come slowly, so the rate up to there is printed too), and with `--progress` a line
 * on stderr every 5 s.
 */
export function pageCounter(name: string, maxPages: number, rss: { peak(): number }) {
  const started = performance.now();
  let pages = 0;
  let t90: number | null = null;
  const timer = process.argv.includes("--progress")
    ? setInterval(() => {
        const seconds = ((performance.now() - started) / 1000).toFixed(0);
        const mb = (rss.peak() / 1e6).toFixed(0);
        process.stderr.write(`${name} ${seconds} s: ${pages} pages, peak RSS ${mb} MB\n`);
      }, 5_000)
    : undefined;
  timer?.unref();
  return {
    page(): void {
      pages++;
      if (t90 === null && pages >= 0.9 * maxPages) t90 = performance.now() - started;
    },
    get pages(): number {
      return pages;
    },
    get t90Ms(): number | null {
      return t90;
    },
    stop(): void {
      clearInterval(timer);
    },
  };
}

export function printResult(result: ChildResult): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** The children exit when the bench does: an orphan would go on crawling. */
export function exitWithParent(): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) process.exit(3);
  }, 500);
  timer.unref();
}
