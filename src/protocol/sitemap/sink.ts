/**
 * Where a format reader puts what it finds: entries, diagnostics (capped per file), tallies, and
 * the fatal stop. Shared by the XML and text readers so that limits and counts are kept once.
 */
import { diagnostic } from "./diagnostics.js";
import { MAX_DIAGNOSTICS } from "./limits.js";
import type { SitemapScope } from "./scope.js";
import type { SitemapCode, SitemapEvent, SitemapFormat, SitemapRef, SitemapUrl } from "./types.js";

export interface SinkOptions {
  readonly maxUrls: number;
  readonly scope: SitemapScope | null;
}

export class Sink {
  /** Events not yet handed out; `take` empties it. */
  private queue: SitemapEvent[] = [];
  format: SitemapFormat | null = null;
  urls = 0;
  sitemaps = 0;
  errors = 0;
  warnings = 0;
  private reported = 0;
  stoppedBy: SitemapCode | null = null;
  readonly maxUrls: number;
  readonly scope: SitemapScope | null;

  constructor(options: SinkOptions) {
    this.maxUrls = options.maxUrls;
    this.scope = options.scope;
  }

  get stopped(): boolean {
    return this.stoppedBy !== null;
  }

  take(): SitemapEvent[] {
    const out = this.queue;
    this.queue = [];
    return out;
  }

  setFormat(format: SitemapFormat, compressed: boolean): void {
    this.format = format;
    this.queue.push({ kind: "format", format, compressed });
  }

  report(code: SitemapCode, line: number | null, message: string): void {
    const d = diagnostic(code, line, message);
    if (d.severity === "error") this.errors++;
    else this.warnings++;
    if (d.fatal) this.stoppedBy = code;
    // Fatal ones are always reported: they say why reading stopped.
    if (this.reported < MAX_DIAGNOSTICS || d.fatal) {
      this.reported++;
      this.queue.push({ kind: "diagnostic", diagnostic: d });
    } else if (this.reported === MAX_DIAGNOSTICS) {
      this.reported++;
      this.queue.push({
        kind: "diagnostic",
        diagnostic: diagnostic(
          "too-many-diagnostics",
          line,
          `more than ${MAX_DIAGNOSTICS} findings in this file; the rest are counted, not shown`,
        ),
      });
    }
  }

  private started = 0;

  /**
   * Called as each entry begins (`<url>`, `<sitemap>`, a feed item, a text line): true while the
   * file holds no more than `maxUrls`; past it, stops reading with `too-many-urls`. Entries are
   * counted as written, skipped ones too: the limit is on what the file holds.
   */
  begin(line: number | null, what: "URL" | "sitemap"): boolean {
    if (this.started < this.maxUrls) {
      this.started++;
      return true;
    }
    const n = this.maxUrls;
    this.report(
      "too-many-urls",
      line,
      `more than ${n.toLocaleString("en-US")} ${what}${n === 1 ? "" : "s"}; reading stopped (sitemaps.org: at most 50,000 a file; split it and list the parts in a sitemap index)`,
    );
    return false;
  }

  url(entry: SitemapUrl): void {
    this.urls++;
    this.queue.push({ kind: "url", url: entry });
  }

  sitemap(ref: SitemapRef): void {
    this.sitemaps++;
    this.queue.push({ kind: "sitemap", sitemap: ref });
  }
}
