/** The live progress line of a crawl, redrawn in place on a terminal. */
import type { Writable } from "node:stream";
import type { CrawlEvent } from "../crawler/crawler.js";
import { printable } from "./printable.js";

const REDRAW_MS = 250;

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
  ) {
    this.started = now();
  }

  start(): void {
    this.timer = setInterval(() => this.draw(), REDRAW_MS);
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
    this.draw();
    this.out.write("\n");
  }

  private draw(): void {
    const now = this.now();
    for (const [origin, w] of this.waiting) if (w.until <= now) this.waiting.delete(origin);
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const first = this.waiting.values().next().value;
    const wait =
      this.waiting.size === 0 ? "" : ` · ${this.waiting.size} waiting (${first?.why ?? ""})`;
    let line =
      `fetched ${this.fetched} · queued ${this.queued()} · skipped ${this.skipped} · errors ${this.errors}` +
      `${wait} · ${(this.fetched / seconds).toFixed(1)} pages/s`;
    const width = this.out.columns ?? 120;
    // A wait's reason quotes the site's robots.txt: control characters shown, not sent.
    line = printable(line);
    this.out.write(`\r${line.slice(0, width - 1).padEnd(Math.min(width - 1, line.length + 10))}`);
  }
}
