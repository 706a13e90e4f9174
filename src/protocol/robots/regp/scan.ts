/**
 * The fast reading of a REGP robots.txt (`##` comments, brace lines: seeds/003 Table 2), the
 * REGP side of the classic scan (../scan.ts): one pass over the text that finds each line's
 * end, colon and comment with the engine's own search, classifies the key in place, and keeps
 * each line as four integers in one typed array: its number, its key, where its content starts,
 * and where its text and value end. Comment lines are not kept (nothing in the layout reads
 * them); no string is cut and no diagnostic is built. The layout and the values are read from
 * the table when the policy is first asked (regp-rules.ts).
 *
 * Lines outside the common shape (over the length limit, no colon, a key with inner blanks or
 * an odd leading blank, the rest of a brace line) are read by the line reader's own `readLine`
 * and kept as its object, so the two readings agree line for line; the scan tests hold them
 * to it on random input and compare-readings on the real files.
 */
import type { Diagnostic } from "../diagnostic.js";
import type { Sitemap } from "../groups.js";
import { canonicalKeyAt, readKey } from "../keys.js";
import { MAX_LINE_LENGTH } from "../limits.js";
import { isSpace, type RobotsLine, readLine } from "../line-reader.js";
import { isTrimmed } from "../rule-line.js";
import { after, mayBeKey, plainKeyEnd } from "../scan.js";
import { REGP_FIELDS } from "./document.js";
import { type Directive, keyOf, type LineShape, type LineSource, shapeOf } from "./layout.js";
import { CLOSE_BRACE, CR, HASH, LF, OPEN_BRACE } from "../char-codes.js";

// Four cells a line: its number, its kind (below), where its content starts, and the length
// of its text with where its value starts from the content (each at most MAX_LINE_LENGTH,
// below 2^15: a longer line is read by readLine and kept aside).
const CELLS = 4;
const SPAN_SHIFT = 15;
const SPAN_MASK = (1 << SPAN_SHIFT) - 1;

// Kinds: the lines that have no key, a line kept aside as the line reader's object, then each
// Table 3 field by its place in REGP_FIELDS, then any other key.
const BLANK = 0;
const INVALID = 1;
const OPEN = 2;
const CLOSE = 3;
const ASIDE = 4;
const FIELD = 5;
const KEYS: readonly string[] = REGP_FIELDS.map((f) => f.toLowerCase());
const OTHER = FIELD + KEYS.length;
const CODE_OF: ReadonlyMap<string, number> = new Map(KEYS.map((k, i) => [k, FIELD + i]));
const SHAPES: readonly LineShape[] = ["blank", "invalid", "open-brace", "close-brace"];
const SITEMAP = CODE_OF.get("sitemap") as number;

// First table size, in lines; it doubles as needed and is cut to fit at the end.
const FIRST_ROWS = 64;

/** A REGP file's lines as a table, with the sitemaps found on the way. */
export class RegpLines implements LineSource<Directive> {
  /** Made by {@link scan}. */
  constructor(
    /** The file's text, which every line not kept aside is read from. */
    readonly text: string,
    private readonly rows: Int32Array,
    readonly count: number,
    /** The lines read by readLine, by row. */
    private readonly aside: ReadonlyMap<number, RobotsLine> | null,
    /** seeds/003 §3.2.10 and the classic reading: every Sitemap line's value, in order. */
    readonly sitemaps: readonly Sitemap[],
  ) {}

  /** Reads `text` (decoded, within its size limit) into a table. */
  static scan(text: string): RegpLines {
    const table = new TableBuilder(text);
    table.read();
    return table.finish();
  }

  shape(i: number): LineShape {
    const code = this.code(i);
    if (code === ASIDE) return shapeOf(this.lineAt(i));
    return code < ASIDE ? (SHAPES[code] as LineShape) : "keyed";
  }

  key(i: number): string {
    const code = this.code(i);
    if (code === ASIDE) return keyOf(this.lineAt(i));
    if (code < ASIDE) return SHAPES[code] as string;
    // Any key that is no Table 3 field is no command either: its spelling decides nothing.
    return code === OTHER ? "" : (KEYS[code - FIELD] as string);
  }

  written(i: number): string {
    const code = this.code(i);
    if (code === ASIDE) return this.lineAt(i).key;
    return code >= FIELD && code < OTHER ? (REGP_FIELDS[code - FIELD] as string) : "";
  }

  number(i: number): number {
    return this.rows[i * CELLS] as number;
  }

  directive(i: number, key: string): Directive {
    if (this.code(i) === ASIDE) {
      const line = this.lineAt(i);
      return { key, value: line.value, line: line.number, text: line.text };
    }
    const from = this.rows[i * CELLS + 2] as number;
    const span = this.rows[i * CELLS + 3] as number;
    const end = from + (span & SPAN_MASK);
    const valueFrom = from + (span >>> SPAN_SHIFT);
    return {
      key,
      value: valueFrom < end ? this.text.slice(valueFrom, end) : "",
      line: this.number(i),
      text: this.text.slice(from, end),
      at: from,
    };
  }

  private code(i: number): number {
    return this.rows[i * CELLS + 1] as number;
  }

  private lineAt(i: number): RobotsLine {
    return (this.aside as ReadonlyMap<number, RobotsLine>).get(i) as RobotsLine;
  }
}

/** Builds the table of {@link RegpLines} in one pass over the text. */
class TableBuilder {
  private rows = new Int32Array(FIRST_ROWS * CELLS);
  private count = 0;
  private aside: Map<number, RobotsLine> | null = null;
  private readonly sitemaps: Sitemap[] = [];
  // Diagnostics of the lines read by readLine are not kept: a reading with them is lint's.
  private readonly dropped: Diagnostic[] = [];

  constructor(private readonly text: string) {}

  read(): void {
    const text = this.text;
    const length = text.length;
    // The next LF, CR, `##` and `:` at or after the line being read (`length` when none is
    // left), found by the engine's own search and again only once passed, as in ../scan.ts.
    let nextLf = -1;
    let nextCr = -1;
    let nextComment = -1;
    let nextColon = -1;
    let start = 0;
    let number = 0;
    while (start < length) {
      if (nextLf < start) nextLf = after(text, "\n", start);
      if (nextCr < start) nextCr = after(text, "\r", start);
      const end = nextLf < nextCr ? nextLf : nextCr;
      // seeds/003 Table 2: `##` starts a comment; a `#` alone belongs to the value.
      if (nextComment < start) nextComment = after(text, "##", start);
      const comment = nextComment < end ? nextComment : -1;
      if (nextColon < start) nextColon = after(text, ":", start);
      const colon = nextColon < end && (comment < 0 || nextColon < comment) ? nextColon : -1;
      number++;
      const next = end + (text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? 2 : 1);
      this.line(start, end, comment, colon, number);
      start = next;
    }
  }

  /** One line `text[start, end)`, its comment and colon found, as the line reader reads it. */
  private line(start: number, end: number, comment: number, colon: number, number: number) {
    const text = this.text;
    let p = start;
    while (p < end && isSpace(text.charCodeAt(p))) p++;
    if (p === end) return this.add(number, BLANK, 0, 0);
    const first = text.charCodeAt(p);
    if (first === OPEN_BRACE || first === CLOSE_BRACE) {
      // seeds/003 Table 2: a brace line; what follows the brace is a line of its own.
      this.add(number, first === OPEN_BRACE ? OPEN : CLOSE, 0, 0);
      const rest = readLine(text, p + 1, end, number, "double-hash", this.dropped);
      if (rest.kind !== "blank" && rest.kind !== "comment") this.keep(rest);
      this.dropped.length = 0;
      return;
    }
    if (end - start > MAX_LINE_LENGTH) return this.readInFull(start, end, number);
    // A line that starts with `#` is a comment line (the line reader's reading): not kept.
    if (first === HASH) return;
    const stop = comment < 0 ? end : comment;
    if (colon < 0) {
      // No colon: a key read without one (`Disallow /x`) is the line reader's; any other
      // first word makes the line invalid, which the layout reads as a line with no key.
      return mayBeKey(text, p, stop)
        ? this.readInFull(start, end, number)
        : this.add(number, INVALID, 0, 0);
    }
    let keyEnd = colon;
    while (keyEnd > p && isSpace(text.charCodeAt(keyEnd - 1))) keyEnd--;
    const classic = canonicalKeyAt(text, p, keyEnd);
    let code: number;
    if (classic !== null) code = CODE_OF.get(classic) as number;
    else {
      const other = this.otherKey(p, colon);
      if (other < 0) return this.readInFull(start, end, number);
      code = other;
    }
    // The value and the text as `String.prototype.trim` would leave them.
    let from = colon + 1;
    while (from < stop && isTrimmed(text.charCodeAt(from))) from++;
    let to = stop;
    while (to > p && isTrimmed(text.charCodeAt(to - 1))) to--;
    this.add(number, code, p, (to - p) | ((from - p) << SPAN_SHIFT));
    if (code === SITEMAP && from < to) {
      this.sitemaps.push({ url: text.slice(from, to), line: number });
    }
  }

  /**
   * The kind of the key `text[p, colon)` that is not a classic key spelt exactly, or -1 when
   * readLine must read the line (inner blanks to collapse, a leading blank only trim removes).
   */
  private otherKey(p: number, colon: number): number {
    const keyEnd = plainKeyEnd(this.text, p, colon);
    if (keyEnd < 0) return -1;
    const key = this.text.slice(p, keyEnd);
    const reading = readKey(key);
    if (reading.kind !== "extension")
      return CODE_OF.get(reading.misspeltFor ?? reading.kind) as number;
    return CODE_OF.get(key.toLowerCase()) ?? OTHER;
  }

  private readInFull(start: number, end: number, number: number): void {
    const line = readLine(this.text, start, end, number, "double-hash", this.dropped);
    this.dropped.length = 0;
    if (line.kind !== "comment") this.keep(line);
  }

  /** A line read by readLine: kept as it is. */
  private keep(line: RobotsLine): void {
    (this.aside ??= new Map()).set(this.count, line);
    this.add(line.number, ASIDE, 0, 0);
    if (line.kind === "sitemap" && line.value !== "") {
      this.sitemaps.push({ url: line.value, line: line.number });
    }
  }

  private add(number: number, code: number, from: number, span: number): void {
    if ((this.count + 1) * CELLS > this.rows.length) {
      const grown = new Int32Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    const at = this.count * CELLS;
    this.rows[at] = number;
    this.rows[at + 1] = code;
    this.rows[at + 2] = from;
    this.rows[at + 3] = span;
    this.count++;
  }

  finish(): RegpLines {
    return new RegpLines(
      this.text,
      this.rows.slice(0, this.count * CELLS),
      this.count,
      this.aside,
      this.sitemaps.length > 0 ? this.sitemaps : NO_SITEMAPS,
    );
  }
}

const NO_SITEMAPS: readonly Sitemap[] = Object.freeze([]);
