/**
 * A robots.txt path pattern, compiled once and matched in time linear in the path and the
 * pattern, whatever the pattern: no regular expressions and no backtracking.
 *
 * Why greedy is enough: the only wildcard is `*`, and a pattern matches a prefix of the path
 * (or the whole path with a trailing `$`). Placing each literal piece at its leftmost
 * occurrence after the previous one leaves the most room for the pieces after it, so if any
 * placement succeeds the leftmost one does. Each search starts where the last one ended.
 */
import { canonicalize, isCanonical, isCanonicalCode } from "./percent-encoding.js";

export interface PatternOptions {
  /** `*` and a trailing `$` are special (RFC 9309 §2.2.3, REGP); else every octet is literal (Koster 1996). */
  readonly wildcards: boolean;
  /** Compare ignoring case (REGP, seeds/003 §3.2.4); paths given to `matches` must then be lower-cased too. */
  readonly ignoreCase?: boolean;
}

// The pieces of a pattern not cut yet, told by identity: an array of strings like any pieces,
// so that the field holds one kind of value and code V8 compiled for it stays valid once cut.
const NOT_CUT: readonly string[] = [""];

export class PathPattern {
  /** The pattern as written in the file. */
  readonly source: string;
  /** Canonical form: percent-encoding normalised; `*` and a final `$` kept when special. */
  readonly canonical: string;
  /** How specific the pattern is: its length in octets (RFC 9309 §2.2.2 "most octets"). */
  readonly specificity: number;
  /** The literal pieces between `*`s; for a pattern canonical as written, cut at its first match. */
  private pieces: readonly string[];
  /**
   * One bit per character the pattern needs (`1 << (code & 31)`): a path whose
   * {@link characterMask} lacks one of them cannot match, which rules out most rules of a
   * large group without looking at them.
   */
  readonly mask: number;
  /** The character the path must have at index 1 (after the leading `/`), or -1. */
  readonly second: number;
  private readonly anchored: boolean;

  constructor(source: string, options: PatternOptions) {
    this.source = source;
    const shape = canonicalShape(source, options);
    if (shape !== null) {
      // Most rules are a plain path (`/wp-admin/`), most others a plain path with `*`s or a
      // final `$` (`/*?sort=`, `/*.pdf$`): the source is its own canonical form, found so in
      // one pass with its mask. Its pieces are cut when it is first matched: a group's rules
      // are compiled when the group is first asked about, and most are then passed over by
      // their mask for every path the file is asked.
      this.canonical = source;
      this.specificity = source.length;
      this.pieces = shape.wildcard ? NOT_CUT : [source];
      this.anchored = shape.anchored;
      this.mask = shape.mask;
      this.second = shape.second;
      return;
    }
    let body = source;
    let anchored = false;
    if (options.wildcards && body.endsWith("$")) {
      anchored = true;
      body = body.slice(0, -1);
    }
    const ignoreCase = options.ignoreCase === true;
    const pieces: string[] = [];
    let from = 0;
    // A plain loop rather than split("*"): this runs once per rule of every file parsed.
    if (options.wildcards) {
      for (let i = 0; i < body.length; i++) {
        if (body.charCodeAt(i) === 0x2a) {
          pieces.push(literal(body.slice(from, i), ignoreCase));
          from = i + 1;
        }
      }
    }
    pieces.push(literal(from === 0 ? body : body.slice(from), ignoreCase));
    const joined = pieces.length === 1 ? (pieces[0] as string) : pieces.join("*");
    this.canonical = anchored ? `${joined}$` : joined;
    this.specificity = this.canonical.length;
    this.pieces = withoutInnerEmpty(pieces);
    this.anchored = anchored;
    this.mask = characterMask(pieces.join(""));
    const first = pieces[0] as string;
    this.second = first.length >= 2 ? first.charCodeAt(1) : -1;
  }

  /** True when the pattern has a `*` or a final `$`. */
  get isWildcard(): boolean {
    return this.anchored || this.cut().length > 1;
  }

  /** The pieces of a pattern canonical as written: its slices between `*`s, without the final `$`. */
  private cut(): readonly string[] {
    if (this.pieces === NOT_CUT) {
      const body = this.anchored ? this.source.slice(0, -1) : this.source;
      this.pieces = withoutInnerEmpty(body.split("*"));
    }
    return this.pieces;
  }

  /** Does the pattern match this canonical path (see {@link canonicalize})? */
  matches(path: string): boolean {
    const pieces = this.pieces === NOT_CUT ? this.cut() : this.pieces;
    const first = pieces[0] as string;
    if (!path.startsWith(first)) return false;
    const last = pieces.length - 1;
    if (last === 0) return this.anchored ? path.length === first.length : true;
    let pos = first.length;
    for (let i = 1; i < last; i++) {
      const piece = pieces[i] as string;
      const at = path.indexOf(piece, pos);
      if (at < 0) return false;
      pos = at + piece.length;
    }
    const tail = pieces[last] as string;
    if (this.anchored) return path.length - tail.length >= pos && path.endsWith(tail);
    return tail === "" || path.indexOf(tail, pos) >= 0;
  }
}

/** What one pass over a pattern canonical as written finds (see {@link canonicalShape}). */
interface Shape {
  readonly wildcard: boolean;
  readonly anchored: boolean;
  readonly mask: number;
  readonly second: number;
}

/**
 * The shape of `source` when it is its own canonical form but for its `*`s and a final `$`
 * (those only with `wildcards`), and in lower case under `ignoreCase`; null when a piece
 * needs canonicalizing. Its mask leaves out the `*`s and the final `$`, and its second
 * character is that of its first piece.
 */
function canonicalShape(source: string, options: PatternOptions): Shape | null {
  const { wildcards } = options;
  const upperIsOdd = options.ignoreCase === true;
  const last = source.length - 1;
  let mask = 0;
  let firstStar = -1;
  let anchored = false;
  for (let i = 0; i <= last; i++) {
    const c = source.charCodeAt(i);
    if (isCanonicalCode(c) && !(upperIsOdd && c >= 0x41 && c <= 0x5a)) {
      mask |= 1 << (c & 31);
    } else if (wildcards && c === 0x2a) {
      if (firstStar < 0) firstStar = i;
    } else if (wildcards && c === 0x24 && i === last) {
      anchored = true;
    } else {
      return null;
    }
  }
  const firstLength = firstStar >= 0 ? firstStar : anchored ? last : source.length;
  return {
    wildcard: firstStar >= 0 || anchored,
    anchored,
    mask,
    second: firstLength >= 2 ? source.charCodeAt(1) : -1,
  };
}

/** A pattern that is its own canonical form with a single piece: no `*`, `$`, `%`, upper case under ignoreCase, or character to encode. */
export function isPlainLiteral(source: string, options: PatternOptions): boolean {
  if (!isCanonical(source)) return false;
  // isCanonical refuses `*` and `$`, so the pattern has no wildcard.
  return options.ignoreCase !== true || source === source.toLowerCase();
}

/**
 * The characters of `text` as bits of a 32-bit mask (see {@link PathPattern.mask}); `except`,
 * a character code, is left out.
 */
export function characterMask(text: string, except = -1): number {
  let mask = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== except) mask |= 1 << (c & 31);
  }
  return mask;
}

/** Empty inner pieces (`**`) add nothing; the first and last keep their place. */
function withoutInnerEmpty(pieces: string[]): string[] {
  return pieces.length <= 2
    ? pieces
    : pieces.filter((p, i) => p !== "" || i === 0 || i === pieces.length - 1);
}

function literal(piece: string, ignoreCase: boolean): string {
  const canonical = canonicalize(piece);
  return ignoreCase ? canonical.toLowerCase() : canonical;
}
