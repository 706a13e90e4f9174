/**
 * Every Allow and Disallow line of one file, as a table of small integers rather than an object
 * a rule (issue 29: on the real files the rule objects were 7.1 MB of a 17.8 MB kept parse).
 * Three 32-bit cells a rule: where its line starts in the file's text, its flags (allow, pattern
 * options, form) with its line number above them, and where its value is in the line once
 * looked at.
 * Strings (value, text) are cut when asked for; nothing is cut to answer a query about a plain
 * path. A group's rules are one run of the table: the builder only ever adds to the group it
 * is in.
 *
 * Lines read by the line reader (over the length limit, or lint's reading) carry their value
 * and text as strings: their `at` is -1 - k, k an index into `given`.
 */
import { isPlainLiteral, PathPattern, type PatternOptions } from "./path-pattern.js";
import { isCanonicalCode } from "./percent-encoding.js";
import { lineTextAt, lineValueSpan, spanLength, spanStart, startsWithSpan } from "./rule-line.js";

// The cells of rule i: CELLS * i + AT, + FLAGS, + SPAN.
const CELLS = 3;
const AT = 0;
const FLAGS = 1;
const SPAN = 2;

// FLAGS: bit 0 allow, bits 1-2 the pattern options (an index into OPTIONS), bits 3-4 the form,
// bits 5-31 the line number, read unsigned (a cell of its own was a quarter of every table: 0.45
// MB of the real files' parse). A line number that does not fit (a file of 2^27 lines or more,
// read under a raised size limit) is kept aside, by row.
const LINE_SHIFT = 5;
const FAR_LINE = 2 ** (32 - LINE_SHIFT) - 1;
const ALLOW = 1;
const WILDCARDS = 2;
const IGNORE_CASE = 4;
const OPTIONS: readonly PatternOptions[] = [
  { wildcards: false, ignoreCase: false },
  { wildcards: true, ignoreCase: false },
  { wildcards: false, ignoreCase: true },
  { wildcards: true, ignoreCase: true },
];
const FORM = 24;
const UNKNOWN = 0;
/** The source is a plain path, canonical as written: a prefix, `specificity` its length. */
const LITERAL = 8;
const COMPILED = 16;
/** Its own canonical form but for `*`s and a final `$` (see describe). */
const CANONICAL = 24;
const STAR = 0x2a;
const DOLLAR = 0x24;

const NOT_FORM = ~FORM;

/** What {@link RuleTable.describe} finds a rule to be, and the form it then has. */
export const TO_COMPILE = 0;
export const PLAIN = 1;
export const WILDCARD = 2;
const FORM_OF = [COMPILED, LITERAL, CANONICAL] as const;

// Room for this many rules at first in the shared building area; doubled when full.
const FIRST_ROOM = 1024;

// Tables are built in one shared area and copied out at their size when finished: a parse then
// allocates one array a file, not a first one, its doublings and the copy at its size (on the
// real files the table's own allocations were a tenth of the parse's time). A parse is
// synchronous, so one table is built at a time; a second one started meanwhile builds its own.
let building = new Int32Array(FIRST_ROOM * CELLS);
let buildingTaken = false;
const NO_CELLS = new Int32Array(0);

// Compiled patterns kept across files, one per pattern and options, for REGP's paths and
// Index-page and Change-* values (sharedPattern): many files write the same (`/*?`,
// `/*.pdf$`). A classic table's rules compile their own (see compile). Bounded in count and
// characters; cleared whole when full, which changes memory only: a pattern is pure.
const PATTERNS_KEPT = 4096;
const PATTERN_CHARS_KEPT = 256 * 1024;
const patterns: Map<string, PathPattern>[] = OPTIONS.map(() => new Map());
let patternCount = 0;
let patternChars = 0;

/**
 * The compiled form of `source` under `options`, shared with every rule of every file (any
 * dialect) written the same way.
 */
export function sharedPattern(source: string, options: PatternOptions): PathPattern {
  return compiledPattern(
    source,
    (options.wildcards ? 1 : 0) | (options.ignoreCase === true ? IGNORE_CASE >> 1 : 0),
  );
}

function compiledPattern(source: string, options: number): PathPattern {
  const kept = patterns[options] as Map<string, PathPattern>;
  let pattern = kept.get(source);
  if (pattern === undefined) {
    if (patternCount >= PATTERNS_KEPT || patternChars >= PATTERN_CHARS_KEPT) {
      for (const map of patterns) map.clear();
      patternCount = 0;
      patternChars = 0;
    }
    // A string of its own: `source` is cut from its file's text, and in V8 a cut string keeps
    // the whole text it was cut from (from 13 characters on; shorter cuts are copies), which
    // the table would then keep after the file is gone. Joined, then cut, it keeps only the
    // joined copy.
    const own = source.length < 13 ? source : ` ${source}`.slice(1);
    pattern = new PathPattern(own, OPTIONS[options] as PatternOptions);
    kept.set(own, pattern);
    patternCount++;
    patternChars += own.length;
  }
  return pattern;
}

/** A rule's line as the line reader gave it. */
export interface GivenRule {
  readonly value: string;
  readonly text: string;
}

/**
 * Reads the rule lines of `table.file[start, stop)`, its first line numbered `line`, into the
 * table: the fast scan's reading of one group, made when the group's rules are first asked for.
 */
export type RowReader = (table: RuleTable, start: number, stop: number, line: number) => void;

export class RuleTable {
  /** The pattern options of the rules read by {@link readRows}: the file's dialect's. */
  patterns: PatternOptions = OPTIONS[1] as PatternOptions;
  /**
   * The file's last CR, `#` and `:` as the parse found them (-1: none), for {@link readRows}
   * to search no further; the file's length until the parse has been through it.
   */
  lastCr: number;
  lastHash: number;
  lastColon: number;
  /** Rule lines of the groups not yet read ({@link readGroup}), as the parse counted them. */
  unread = 0;
  private cells: Int32Array;
  /** The cells are the shared building area, to be copied out by {@link finish}. */
  private shared: boolean;
  private given: GivenRule[] | null = null;
  /** Line numbers of FAR_LINE and above, by row. */
  private far: Map<number, number> | null = null;
  private count = 0;
  /** Each row's {@link Rule} once made, so that a rule is one object however it is reached. */
  private views: Rule[] | null = null;

  /**
   * With `readRows`, the table starts empty and a group's rows are read when it is first asked
   * for ({@link readGroup}); without, every rule is added as the file is read, and
   * {@link finish} closes the table.
   */
  constructor(
    /** The file's text, which rules found in place are read from. */
    readonly file: string,
    private readonly readRows: RowReader | null = null,
  ) {
    this.lastCr = file.length;
    this.lastHash = file.length;
    this.lastColon = file.length;
    this.shared = readRows === null && !buildingTaken;
    if (this.shared) buildingTaken = true;
    this.cells = this.shared ? building : readRows === null ? new Int32Array(16 * CELLS) : NO_CELLS;
  }

  /** Where the parse found the file's last CR, `#` and `:` (-1: none). */
  searched(lastCr: number, lastHash: number, lastColon: number): void {
    this.lastCr = lastCr;
    this.lastHash = lastHash;
    this.lastColon = lastColon;
  }

  /**
   * Reads the rules of the group whose lines are `file[start, stop)`, the first numbered
   * `line`, at most `count` of them, as the table's next rows.
   */
  readGroup(start: number, stop: number, line: number, count: number): void {
    if (this.cells.length < (this.count + count) * CELLS) {
      // The first group read gets room for its rules alone: most files are asked one robot's
      // question, and a kept file holds no room to grow. Past it, room for every rule line
      // still unread, once: a batch asks several robots of each file, and a table grown a group
      // at a time is copied once a group.
      const room = this.count === 0 ? count : this.unread;
      const grown = new Int32Array((this.count + room) * CELLS);
      if (this.count > 0) grown.set(this.cells.subarray(0, this.count * CELLS));
      this.cells = grown;
    }
    this.unread -= count;
    (this.readRows as RowReader)(this, start, stop, line);
  }

  get size(): number {
    return this.count;
  }

  /**
   * Adds a rule found at `at` in the file, or given whole; returns its index. `span` is where
   * its value is in its line ({@link lineValueSpan}) when the caller found it, else 0.
   */
  add(
    allow: boolean,
    line: number,
    options: PatternOptions,
    at: number,
    given?: GivenRule,
    span = 0,
  ): number {
    if ((this.count + 1) * CELLS > this.cells.length) {
      const grown = new Int32Array(this.cells.length * 2);
      grown.set(this.cells);
      this.cells = grown;
      if (this.shared) building = grown;
    }
    let where = at;
    if (given !== undefined) {
      const list = (this.given ??= []);
      where = -1 - list.length;
      list.push(given);
    }
    const c = this.count * CELLS;
    this.cells[c + AT] = where;
    if (line >= FAR_LINE) (this.far ??= new Map()).set(this.count, line);
    this.cells[c + FLAGS] =
      (Math.min(line, FAR_LINE) << LINE_SHIFT) |
      (allow ? ALLOW : 0) |
      (options.wildcards ? WILDCARDS : 0) |
      (options.ignoreCase === true ? IGNORE_CASE : 0);
    this.cells[c + SPAN] = span;
    return this.count++;
  }

  /** The table at its size, in an array of its own: a kept file holds no room to grow. */
  finish(): void {
    const size = this.count * CELLS;
    if (this.shared) {
      this.cells = size === 0 ? NO_CELLS : this.cells.slice(0, size);
      this.shared = false;
      buildingTaken = false;
    } else if (this.cells.length > size) {
      this.cells = this.cells.slice(0, size);
    }
  }

  /** The rule of row `i` as an object, made once. */
  view(i: number): Rule {
    const views = (this.views ??= []);
    let rule = views[i];
    if (rule === undefined) {
      rule = new Rule(this, i);
      views[i] = rule;
    }
    return rule;
  }

  allow(i: number): boolean {
    return ((this.cells[i * CELLS + FLAGS] as number) & ALLOW) !== 0;
  }

  line(i: number): number {
    const line = (this.cells[i * CELLS + FLAGS] as number) >>> LINE_SHIFT;
    return line === FAR_LINE ? (this.far?.get(i) as number) : line;
  }

  options(i: number): PatternOptions {
    return OPTIONS[((this.cells[i * CELLS + FLAGS] as number) >> 1) & 3] as PatternOptions;
  }

  /** The path pattern as written. */
  source(i: number): string {
    const c = i * CELLS;
    const at = this.cells[c + AT] as number;
    if (at < 0) return this.givenAt(at).value;
    // Found once, then cut straight from its place: ordering a group asks each rule's value
    // more than once.
    const span = this.spanOf(c, at);
    const from = at + spanStart(span);
    return this.file.slice(from, from + spanLength(span));
  }

  /** The line as written, comment removed. */
  text(i: number): string {
    const at = this.cells[i * CELLS + AT] as number;
    return at < 0 ? this.givenAt(at).text : lineTextAt(this.file, at);
  }

  /** True when the pattern is a plain path, matched as written (a prefix) and never compiled. */
  plain(i: number): boolean {
    return this.formOf(i) === LITERAL;
  }

  /**
   * The compiled pattern, the rule's own: compiling a pattern canonical as written is one pass
   * over it (path-pattern.ts), less than finding it in the shared patterns, which a batch
   * over the real files found 3 times in 10; its source is the file's text, which the
   * policy keeps anyway.
   */
  compile(i: number): PathPattern {
    return new PathPattern(
      this.source(i),
      OPTIONS[((this.cells[i * CELLS + FLAGS] as number) >> 1) & 3] as PatternOptions,
    );
  }

  /**
   * The query loop's first look at a rule, read in place in one pass: cutting its value to
   * test and describe it cost a fresh file's first queries more than the rest.
   * - {@link PLAIN}: a plain path, matched as written by {@link plainMatches} and never
   *   compiled;
   * - {@link WILDCARD}: its own canonical form but for `*`s and a final `$`, as
   *   {@link PathPattern} finds it: its specificity is its length, and it is compiled only
   *   when a path first gets past its mask (most never do);
   * - {@link TO_COMPILE}: a pattern to canonicalize, nothing written.
   *
   * For the first two, the {@link characterMask} of its pieces at `out[to]` and the character
   * its first piece has at index 1 (or -1) at `out[to + 1]`.
   */
  describe(i: number, out: Int32Array, to: number): number {
    const cells = this.cells;
    const c = i * CELLS;
    const flags = cells[c + FLAGS] as number;
    const at = cells[c + AT] as number;
    // A line the line reader read (3 files in 1,613 real ones: `Allow /x`, `Disalow:`) is
    // compiled rather than described: a branch of its own here, never taken until such a
    // file comes, was code V8 had no feedback for, and it threw away this function and the
    // ordering it was inlined into at each first such file of a batch.
    let kind: number = TO_COMPILE;
    if ((flags & FORM) !== COMPILED && at >= 0) {
      const span = this.spanOf(c, at);
      const from = at + spanStart(span);
      const stop = from + spanLength(span);
      const file = this.file;
      // canonicalShape (path-pattern.ts), in place: canonical as written, and lower case when
      // case is ignored; `*` and a final `$` only with wildcards.
      const upperIsOdd = (flags & IGNORE_CASE) !== 0;
      const wildcards = (flags & WILDCARDS) !== 0;
      // Worked out before the loop: an operation only a rare character reaches is one V8 has
      // no feedback for, and meeting it threw the compiled loop away.
      const last = stop - 1;
      let mask = 0;
      let firstStop = stop;
      let k = from;
      for (; k < stop; k++) {
        const code = file.charCodeAt(k);
        if (isCanonicalCode(code) && !(upperIsOdd && code >= 0x41 && code <= 0x5a)) {
          mask |= 1 << (code & 31);
        } else if (wildcards && (code === STAR || (code === DOLLAR && k === last))) {
          if (firstStop === stop) firstStop = k;
        } else {
          break;
        }
      }
      if (k === stop) {
        kind = firstStop === stop ? PLAIN : WILDCARD;
        out[to] = mask;
        out[to + 1] = firstStop - from >= 2 ? file.charCodeAt(from + 1) : -1;
      }
    }
    // One write for every kind, so that the rare one runs code the common ones ran. The form
    // is set, not or'ed: a given line may have been found plain already (formOf).
    cells[c + FLAGS] = (flags & NOT_FORM) | (FORM_OF[kind] as number);
    return kind;
  }

  /** The length of a plain path's value, without cutting it. */
  plainLength(i: number): number {
    const c = i * CELLS;
    const at = this.cells[c + AT] as number;
    return at < 0 ? this.givenAt(at).value.length : spanLength(this.spanOf(c, at));
  }

  /** Does a plain path's value start `path`? Compared in place. */
  plainMatches(i: number, path: string): boolean {
    const c = i * CELLS;
    const at = this.cells[c + AT] as number;
    return at < 0
      ? path.startsWith(this.givenAt(at).value)
      : startsWithSpan(path, this.file, at, this.spanOf(c, at));
  }

  private spanOf(c: number, at: number): number {
    let span = this.cells[c + SPAN] as number;
    // 0 is "not yet": a value starts after its key's colon, never at its line's start.
    if (span === 0) {
      span = lineValueSpan(this.file, at);
      this.cells[c + SPAN] = span;
    }
    return span;
  }

  private formOf(i: number): number {
    const c = i * CELLS + FLAGS;
    const flags = this.cells[c] as number;
    let form = flags & FORM;
    if (form === UNKNOWN) {
      form = isPlainLiteral(this.source(i), this.options(i)) ? LITERAL : COMPILED;
      this.cells[c] = flags | form;
    }
    return form;
  }

  private givenAt(at: number): GivenRule {
    return (this.given as GivenRule[])[-1 - at] as GivenRule;
  }
}

/**
 * One Allow or Disallow line: a view of its row in its file's {@link RuleTable}, made when a
 * caller asks for a group's rules (lint, explanations, {@link RobotsPolicy.select}); the query
 * loop reads the table itself. Its value, text and compiled pattern are made when asked for.
 */
export class Rule {
  private compiled: PathPattern | null = null;

  constructor(
    private readonly table: RuleTable,
    /** Its row in the table. */
    readonly index: number,
  ) {}

  get allow(): boolean {
    return this.table.allow(this.index);
  }

  get line(): number {
    return this.table.line(this.index);
  }

  /** The path pattern as written. */
  get source(): string {
    return this.table.source(this.index);
  }

  /** The line as written, comment removed. */
  get text(): string {
    return this.table.text(this.index);
  }

  /** The compiled pattern, made at the first ask. */
  get pattern(): PathPattern {
    this.compiled ??= this.table.compile(this.index);
    return this.compiled;
  }

  /**
   * Does the pattern match this canonical path? A plain path (`/wp-admin/`, most rules) is its
   * own compiled form, a prefix: it is compared as written and never compiled.
   */
  matches(path: string): boolean {
    return this.table.plain(this.index)
      ? this.table.plainMatches(this.index, path)
      : this.pattern.matches(path);
  }

  /** The pattern's {@link PathPattern.specificity}, without compiling a plain path. */
  get specificity(): number {
    return this.table.plain(this.index)
      ? this.table.plainLength(this.index)
      : this.pattern.specificity;
  }

  /** True when the pattern is a plain path, matched as written (a prefix) and never compiled. */
  get plain(): boolean {
    return this.table.plain(this.index);
  }
}
