/**
 * Text sitemaps (sitemaps.org "Text file"; seeds/003 §3.2.12 "TXT format"): one absolute URL a
 * line, UTF-8, no other data. Blank lines are passed over. A line longer than any URL is read up
 * to a cap and reported, so that a file without line breaks cannot fill memory.
 */
import { checkUrl, clip } from "./fields.js";
import { MAX_FIELD_CHARS } from "./limits.js";
import type { Sink } from "./sink.js";

export class TextSitemapReader {
  private pending = "";
  private line = 0;
  /** The current line is longer than the cap; the rest of it is dropped. */
  private cut = false;
  private sawUrl = false;

  constructor(
    private readonly sink: Sink,
    compressed: boolean,
  ) {
    sink.setFormat("text", compressed);
  }

  write(text: string): void {
    let start = 0;
    while (!this.sink.stopped) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) {
        this.keep(text.slice(start));
        return;
      }
      this.keep(text.slice(start, nl));
      this.finishLine();
      start = nl + 1;
    }
  }

  end(): void {
    if (this.sink.stopped) return;
    if (this.pending !== "" || this.cut) this.finishLine();
  }

  private keep(piece: string): void {
    if (this.cut || piece === "") return;
    if (this.pending.length + piece.length > MAX_FIELD_CHARS) {
      this.pending += piece.slice(0, MAX_FIELD_CHARS - this.pending.length);
      this.cut = true;
      return;
    }
    this.pending += piece;
  }

  private finishLine(): void {
    this.line++;
    const raw = this.pending;
    const cut = this.cut;
    this.pending = "";
    this.cut = false;
    const text = raw.trim();
    if (text === "") return;
    if (!this.sawUrl) {
      // seeds/003 §3.2.12 and sitemaps.org: a text sitemap holds URLs and nothing else; a first
      // line that is not one means this is some other file (robots.txt, a README, binary data).
      if (!/^https?:\/\//i.test(text) || text.includes("\u0000")) {
        this.sink.report(
          "not-a-sitemap",
          this.line,
          `the first line is not an http(s) URL ("${clip(text)}"); a text sitemap lists one absolute URL a line`,
        );
        return;
      }
      this.sawUrl = true;
    }
    if (!this.sink.begin(this.line, "URL")) return;
    if (cut) {
      this.sink.report(
        "field-too-long",
        this.line,
        `a line longer than ${MAX_FIELD_CHARS} characters; skipped`,
      );
      return;
    }
    const checked = checkUrl(text, "loc");
    if (!checked.ok) {
      this.sink.report(checked.code, this.line, `${checked.message}; line skipped`);
      return;
    }
    if (checked.value.tooLong)
      this.sink.report(
        "loc-too-long",
        this.line,
        `the URL has ${text.length} characters; sitemaps.org allows fewer than 2,048`,
      );
    const scope = this.sink.scope;
    const why = scope === null ? null : scope.check(checked.value.url);
    if (why !== null) {
      this.sink.report("loc-out-of-scope", this.line, `${clip(text)} is ${why}; line skipped`);
      return;
    }
    this.sink.url({
      loc: checked.value.text,
      lastmod: null,
      changefreq: null,
      priority: null,
      type: null,
      srcloc: null,
      line: this.line,
    });
  }
}
