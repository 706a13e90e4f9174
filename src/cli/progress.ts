/**
 * A crawl's progress: on a terminal one line redrawn in place; off one (cron, CI, a log file) a
 * line every few seconds, as text or as JSON (`--progress json`), so that long work says it is
 * alive.
 */
import type { Writable } from "node:stream";
import type { CrawlEvent } from "../crawler/crawler.js";
import { printable } from "./printable.js";

const REDRAW_MS = 250;
/** How often progress is written off a terminal: often enough to see, rare enough to read. */
export const PROGRESS_EVERY_MS = 5_000;

/** `redraw`: in place, on a terminal; `lines` and `json`: a line every {@link PROGRESS_EVERY_MS}. */
export type ProgressMode = "redraw" | "lines" | "json";

export class ProgressLine {
  private fetched = 0;
  private skipped = 0;
  private errors = 0;
  private readonly waiting = new Map<string, { until: number; why: string }>();
  private timer: NodeJS.Timeout | null = null;
  private readonly started: number;

  constructor(
    private readonly out: Writable & { columns?: number },
    private readonly queued: () => number,
    private readonly now: () => number = Date.now,
    private readonly mode: ProgressMode = "redraw",
  ) {
    this.started = now();
  }

  start(): void {
    this.timer = setInterval(
      () => this.draw(),
      this.mode === "redraw" ? REDRAW_MS : PROGRESS_EVERY_MS,
    );
    this.timer.unref();
  }

  event(event: CrawlEvent): void {
    switch (event.type) {
      case "fetched":
        this.fetched++;
        break;
      case "skipped":
        this.skipped++;
        break;
      case "failed":
      case "retry":
        this.errors++;
        break;
      case "waiting":
        this.waiting.set(event.origin, { until: event.until, why: event.why });
        break;
    }
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    // Off a terminal the summary line that follows says where the crawl ended; a JSON reader
    // gets the last state as an object too.
    if (this.mode === "lines") return;
    this.draw();
    if (this.mode === "redraw") this.out.write("\n");
  }

  private draw(): void {
    const now = this.now();
    for (const [origin, w] of this.waiting) if (w.until <= now) this.waiting.delete(origin);
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const first = this.waiting.values().next().value;
    if (this.mode === "json") {
      const progress = {
        progress: true,
        elapsedS: Math.round(seconds),
        fetched: this.fetched,
        queued: this.queued(),
        skipped: this.skipped,
        errors: this.errors,
        waiting: this.waiting.size,
        pagesPerSecond: Number((this.fetched / seconds).toFixed(2)),
      };
      this.out.write(`${JSON.stringify(progress)}\n`);
      return;
    }
    const wait =
      this.waiting.size === 0 ? "" : ` · ${this.waiting.size} waiting (${first?.why ?? ""})`;
    let line =
      `fetched ${this.fetched} · queued ${this.queued()} · skipped ${this.skipped} · errors ${this.errors}` +
      `${wait} · ${(this.fetched / seconds).toFixed(1)} pages/s`;
    // A wait's reason quotes the site's robots.txt: control characters shown, not sent.
    line = printable(line);
    if (this.mode === "lines") {
      this.out.write(`heed crawl: ${line}\n`);
      return;
    }
    const width = this.out.columns ?? 120;
    this.out.write(`\r${line.slice(0, width - 1).padEnd(Math.min(width - 1, line.length + 10))}`);
  }
}
