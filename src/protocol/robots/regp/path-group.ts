/**
 * A REGP path group (seeds/003 §3.2.5: a sequence's or the global section's Allow and
 * Disallow lines, or a block's target paths) as columns rather than an object a line: line
 * numbers, flags, the path value and the line's text. A parse compiles nothing (issue 29: on
 * the real files read as REGP, a line object and a pattern a rule were a third of the heap a
 * parse kept, and compiling them a third of its time).
 *
 * The query ({@link PathGroup.decide}) looks at a line as the classic query loop does
 * (rule-table.ts): first its character mask and second character, kept in a typed array once
 * found; then a plain path (`/wp-admin/`, most lines) is compared in place, as a prefix
 * ignoring case, and never compiled; only a pattern with `*`, `$`, `%` or a character to
 * percent-encode is compiled, its own.
 */
import { isCanonicalCode } from "../percent-encoding.js";
import { PathPattern } from "../path-pattern.js";
import { sharedPattern } from "../rule-table.js";
import {
  deciding,
  EMPTY,
  type GroupColumns,
  type GroupLine,
  IMPLICIT,
  type LastMatch,
  verdictOf,
} from "./last-match.js";

// seeds/003 §3.2.5: paths are case-insensitive, with `*` and `$`.
const PATTERNS = { wildcards: true, ignoreCase: true } as const;

// Four cells a line: its number; its flags with where its path starts in its text; where its
// text starts in the file's text (-1: the text is kept apart, as a string); its text's length.
const CELLS = 4;
const AT = 2;
const LENGTH = 3;
const ALLOW = 1;
/** `*` or `/`: the line matches everything and so implies nothing. */
const EVERYTHING = 2;
/** Above the flags: 1 + where the path starts in the text, or 0 when it is kept apart. */
const FROM_SHIFT = 2;

// Three cells a line for the query: its character mask, the character at its index 1 (-1:
// none, or not fixed), and its form, UNKNOWN until the query first reaches the line.
const PROBE_CELLS = 3;
// A plain path is ASCII (isCanonicalCode): its only letters to fold are A to Z.
const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
const TO_LOWER = 0x20;
const UNKNOWN = 0;
const PLAIN = 1;
const COMPILED = 2;

/**
 * A path as the query's cheap refusals need it (RFC 9309 query loop, issue 14): lower-cased
 * (seeds/003 §3.2.5), the characters it has ({@link characterMask}) and its second character.
 */
export interface PathProbe {
  readonly path: string;
  readonly have: number;
  readonly second: number;
}

export interface PathLine extends GroupLine {
  readonly pattern: PathPattern;
}

/** One line of a group as it is built. */
export interface PathLineSource {
  readonly allow: boolean;
  readonly line: number;
  readonly text: string;
  /** Where `text` starts in the file's text given to {@link PathGroup.of}; absent or -1: not there. */
  readonly at?: number;
  /** The path as read from the value (`parsePathValue`). */
  readonly path: string;
}

export class PathGroup implements GroupColumns {
  /** The group of a scope without path lines: one for every such scope of every file. */
  private static readonly EMPTY = new PathGroup(new Int32Array(0), "", null, null);

  /** Each line's pattern once asked for (lint, an explanation, {@link lastMatch}). */
  private patterns: (PathPattern | null)[] | null = null;
  /** Mask, second character and form of each line the query has reached. */
  private probes: Int32Array | null = null;
  /** The query's own compiled patterns, of the lines that are not plain paths, by line. */
  private compiled: (PathPattern | undefined)[] | null = null;

  private constructor(
    private readonly cells: Int32Array,
    /** The file's text, which the lines found in it are read from in place. */
    private readonly file: string,
    /** The texts of the lines not found in the file, by line index. */
    private readonly loose: readonly (string | undefined)[] | null,
    /**
     * The paths that are not the end of their line's text (a URL value, read to its path), by
     * line index; the others are read from the text in place.
     */
    private readonly apart: readonly (string | undefined)[] | null,
  ) {}

  /**
   * The group of `lines`, in order. A line whose text is found in `file` (its `at`) keeps only
   * where: a string a rule was a fifth of what a kept REGP file held once compiled (issue 29).
   */
  static of(lines: readonly PathLineSource[], file = ""): PathGroup {
    if (lines.length === 0) return PathGroup.EMPTY;
    const cells = new Int32Array(lines.length * CELLS);
    let loose: (string | undefined)[] | null = null;
    let apart: (string | undefined)[] | null = null;
    lines.forEach((l, i) => {
      const from = l.text.endsWith(l.path) ? l.text.length - l.path.length + 1 : 0;
      if (from === 0) (apart ??= new Array<string | undefined>(lines.length))[i] = l.path;
      const at = l.at ?? -1;
      if (at < 0) (loose ??= new Array<string | undefined>(lines.length))[i] = l.text;
      const c = i * CELLS;
      cells[c] = l.line;
      cells[c + 1] =
        (from << FROM_SHIFT) |
        (l.allow ? ALLOW : 0) |
        (l.path === "/" || l.path === "*" ? EVERYTHING : 0);
      cells[c + AT] = at;
      cells[c + LENGTH] = l.text.length;
    });
    return new PathGroup(cells, file, loose, apart);
  }

  get length(): number {
    return this.cells.length / CELLS;
  }

  /** Line `i` as an object of its own, made when asked (lint, an explanation). */
  at(i: number): PathLine {
    return {
      allow: this.allows(i),
      everything: this.everything(i),
      line: this.cells[i * CELLS] as number,
      text: this.text(i),
      pattern: this.pattern(i),
    };
  }

  /** Every line, top to bottom, as objects of their own. */
  list(): PathLine[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }

  /**
   * seeds/003 §3.2.5, as `lastMatch` (last-match.ts) reads a group of objects: the last line
   * whose pattern `matches` decides; when none does, the implicit first line.
   */
  lastMatch(matches: (pattern: PathPattern) => boolean): LastMatch<PathLine> {
    // Filled with null, not left with holes: the array stays packed, quicker to read.
    const patterns = (this.patterns ??= new Array<PathPattern | null>(this.length).fill(null));
    return this.verdict(deciding(this, (i) => matches(patterns[i] ?? this.pattern(i))));
  }

  /**
   * seeds/003 §3.2.5 for one path: the index of the last line that matches, else
   * {@link IMPLICIT} or {@link EMPTY} ({@link deciding}'s answers).
   */
  decide(path: PathProbe): number {
    const count = this.length;
    const probes = (this.probes ??= new Int32Array(count * PROBE_CELLS));
    for (let i = count - 1; i >= 0; i--) {
      const c = i * PROBE_CELLS;
      let form = probes[c + 2] as number;
      if (form === UNKNOWN) form = this.describe(i, probes, c);
      if (((probes[c] as number) & ~path.have) !== 0) continue;
      const second = probes[c + 1] as number;
      if (second !== -1 && second !== path.second) continue;
      if (
        form === PLAIN
          ? this.startsPath(i, path.path)
          : (this.compiled?.[i] as PathPattern).matches(path.path)
      )
        return i;
    }
    return count === 0 || this.everything(0) ? EMPTY : IMPLICIT;
  }

  /** Is the group's verdict for the line {@link decide} found an allow? */
  allowsAt(index: number): boolean {
    if (index >= 0) return this.allows(index);
    return index === EMPTY || !this.allows(0);
  }

  /** {@link decide}'s answer as a verdict, the deciding line as an object of its own. */
  verdict(index: number): LastMatch<PathLine> {
    return verdictOf(this, index, (i) => this.at(i));
  }

  allows(i: number): boolean {
    return (this.flags(i) & ALLOW) !== 0;
  }

  everything(i: number): boolean {
    return (this.flags(i) & EVERYTHING) !== 0;
  }

  private flags(i: number): number {
    return this.cells[i * CELLS + 1] as number;
  }

  private pattern(i: number): PathPattern {
    this.patterns ??= new Array<PathPattern | null>(this.length).fill(null);
    let pattern = this.patterns[i] ?? null;
    if (pattern === null) {
      pattern = sharedPattern(this.path(i), PATTERNS);
      this.patterns[i] = pattern;
    }
    return pattern;
  }

  private path(i: number): string {
    return this.holder(i).slice(this.start(i), this.end(i));
  }

  /** Line `i`'s text, cut from the file when it was found there. */
  private text(i: number): string {
    const at = this.cells[i * CELLS + AT] as number;
    return at < 0
      ? (this.loose?.[i] as string)
      : this.file.slice(at, at + (this.cells[i * CELLS + LENGTH] as number));
  }

  /**
   * Line `i`'s mask, second character and form, written at `probes[c]`; read in place for a
   * plain path (path-pattern.ts `canonicalShape` without wildcards), else from its compiled
   * pattern, which the group keeps.
   */
  private describe(i: number, probes: Int32Array, c: number): number {
    const source = this.holder(i);
    const from = this.start(i);
    const end = this.end(i);
    let mask = 0;
    let plain = true;
    for (let k = from; k < end; k++) {
      const code = source.charCodeAt(k);
      if (!isCanonicalCode(code)) {
        plain = false;
        break;
      }
      // A letter's two cases have the same bit.
      mask |= 1 << (code & 31);
    }
    if (plain) {
      probes[c] = mask;
      probes[c + 1] = end - from >= 2 ? lower(source.charCodeAt(from + 1)) : -1;
      probes[c + 2] = PLAIN;
      return PLAIN;
    }
    const pattern = new PathPattern(this.path(i), PATTERNS);
    // Made at its full length, holes and all: an index far past the end of an empty array
    // would turn it into a dictionary.
    (this.compiled ??= new Array<PathPattern | undefined>(this.length))[i] = pattern;
    probes[c] = pattern.mask;
    probes[c + 1] = pattern.second;
    probes[c + 2] = COMPILED;
    return COMPILED;
  }

  /**
   * Does `path` start with line `i`'s plain path? Compared in place, ignoring case (seeds/003
   * §3.2.5; the path asked is lower-cased, as a compiled pattern's pieces are).
   */
  private startsPath(i: number, path: string): boolean {
    const source = this.holder(i);
    const from = this.start(i);
    const length = this.end(i) - from;
    if (path.length < length) return false;
    for (let k = 0; k < length; k++) {
      if (path.charCodeAt(k) !== lower(source.charCodeAt(from + k))) return false;
    }
    return true;
  }

  /** The string line `i`'s path is read from: the file, its text kept apart, or its path kept apart. */
  private holder(i: number): string {
    if (this.flags(i) >>> FROM_SHIFT === 0) return this.apart?.[i] as string;
    return (this.cells[i * CELLS + AT] as number) < 0 ? (this.loose?.[i] as string) : this.file;
  }

  /** Where line `i`'s path starts in {@link holder}. */
  private start(i: number): number {
    const from = this.flags(i) >>> FROM_SHIFT;
    if (from === 0) return 0;
    const at = this.cells[i * CELLS + AT] as number;
    return at < 0 ? from - 1 : at + from - 1;
  }

  /** Where line `i`'s path ends in {@link holder}: where its text ends, or the path kept apart's end. */
  private end(i: number): number {
    if (this.flags(i) >>> FROM_SHIFT === 0) return (this.apart?.[i] as string).length;
    const at = this.cells[i * CELLS + AT] as number;
    const length = this.cells[i * CELLS + LENGTH] as number;
    return at < 0 ? length : at + length;
  }
}

function lower(code: number): number {
  return code >= UPPER_A && code <= UPPER_Z ? code + TO_LOWER : code;
}
