/**
 * A REGP path group (seeds/003 §3.2.5: a sequence's or the global section's Allow and
 * Disallow lines, or a block's target paths) as columns rather than an object a line: line
 * numbers, flags, the path value and the line's text. A line's compiled pattern is the shared
 * one (rule-table.ts), looked up when a query first needs it and kept in the group from then
 * on: a parse compiles nothing (issue 29: on the real files read as REGP, a line object and a
 * pattern a rule were a third of the heap a parse kept, and compiling them a third of its time).
 */
import type { PathPattern } from "../path-pattern.js";
import { sharedPattern } from "../rule-table.js";
import {
  deciding,
  type GroupColumns,
  type GroupLine,
  type LastMatch,
  verdictOf,
} from "./last-match.js";

// seeds/003 §3.2.5: paths are case-insensitive, with `*` and `$`.
const PATTERNS = { wildcards: true, ignoreCase: true } as const;

// Two cells a line: its number, and its flags with where its path starts in its text.
const CELLS = 2;
const ALLOW = 1;
/** `*` or `/`: the line matches everything and so implies nothing. */
const EVERYTHING = 2;
/** Above the flags: 1 + where the path starts in the text, or 0 when it is kept apart. */
const FROM_SHIFT = 2;

export interface PathLine extends GroupLine {
  readonly pattern: PathPattern;
}

/** One line of a group as it is built. */
export interface PathLineSource {
  readonly allow: boolean;
  readonly line: number;
  readonly text: string;
  /** The path as read from the value (`parsePathValue`). */
  readonly path: string;
}

export class PathGroup implements GroupColumns {
  /** The group of a scope without path lines: one for every such scope of every file. */
  private static readonly EMPTY = new PathGroup(new Int32Array(0), [], null);

  /** Each line's pattern once a query has needed it. */
  private patterns: (PathPattern | null)[] | null = null;

  private constructor(
    private readonly cells: Int32Array,
    private readonly texts: readonly string[],
    /**
     * The paths that are not the end of their line's text (a URL value, read to its path), by
     * line index; the others are cut from the text when their pattern is looked up.
     */
    private readonly apart: readonly (string | undefined)[] | null,
  ) {}

  static of(lines: readonly PathLineSource[]): PathGroup {
    if (lines.length === 0) return PathGroup.EMPTY;
    const cells = new Int32Array(lines.length * CELLS);
    let apart: (string | undefined)[] | null = null;
    lines.forEach((l, i) => {
      const from = l.text.endsWith(l.path) ? l.text.length - l.path.length + 1 : 0;
      if (from === 0) (apart ??= [])[i] = l.path;
      cells[i * CELLS] = l.line;
      cells[i * CELLS + 1] =
        (from << FROM_SHIFT) |
        (l.allow ? ALLOW : 0) |
        (l.path === "/" || l.path === "*" ? EVERYTHING : 0);
    });
    return new PathGroup(
      cells,
      lines.map((l) => l.text),
      apart,
    );
  }

  get length(): number {
    return this.texts.length;
  }

  /** Line `i` as an object of its own, made when asked (lint, an explanation). */
  at(i: number): PathLine {
    return {
      allow: this.allows(i),
      everything: this.everything(i),
      line: this.cells[i * CELLS] as number,
      text: this.texts[i] as string,
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
    const index = deciding(this, (i) => matches(patterns[i] ?? this.pattern(i)));
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
      const from = this.flags(i) >>> FROM_SHIFT;
      const path =
        from === 0 ? (this.apart?.[i] as string) : (this.texts[i] as string).slice(from - 1);
      pattern = sharedPattern(path, PATTERNS);
      this.patterns[i] = pattern;
    }
    return pattern;
  }
}
