/**
 * A robots.txt path pattern, compiled once and matched in time linear in the path and the
 * pattern, whatever the pattern: no regular expressions and no backtracking.
 *
 * Why greedy is enough: the only wildcard is `*`, and a pattern matches a prefix of the path
 * (or the whole path with a trailing `$`). Placing each literal piece at its leftmost
 * occurrence after the previous one leaves the most room for the pieces after it, so if any
 * placement succeeds the leftmost one does. Each search starts where the last one ended.
 */
import { canonicalize } from "./percent-encoding.js";

export interface PatternOptions {
  /** `*` and a trailing `$` are special (RFC 9309 §2.2.3, REGP); else every octet is literal (Koster 1996). */
  readonly wildcards: boolean;
  /** Compare ignoring case (REGP, seeds/003 §3.2.4); paths given to `matches` must then be lower-cased too. */
  readonly ignoreCase?: boolean;
}

export class PathPattern {
  /** The pattern as written in the file. */
  readonly source: string;
  /** Canonical form: percent-encoding normalised; `*` and a final `$` kept when special. */
  readonly canonical: string;
  /** How specific the pattern is: its length in octets (RFC 9309 §2.2.2 "most octets"). */
  readonly specificity: number;
  /** The literal pieces between `*`s. */
  private readonly pieces: readonly string[];
  private readonly anchored: boolean;

  constructor(source: string, options: PatternOptions) {
    this.source = source;
    let body = source;
    let anchored = false;
    if (options.wildcards && body.endsWith("$")) {
      anchored = true;
      body = body.slice(0, -1);
    }
    const raw = options.wildcards ? body.split("*") : [body];
    const pieces = raw.map((piece) => {
      const c = canonicalize(piece);
      return options.ignoreCase ? c.toLowerCase() : c;
    });
    this.canonical = pieces.join("*") + (anchored ? "$" : "");
    this.specificity = this.canonical.length;
    // Empty inner pieces (`**`) add nothing; the first and last keep their place.
    this.pieces = pieces.filter((p, i) => p !== "" || i === 0 || i === pieces.length - 1);
    this.anchored = anchored;
  }

  /** True when the pattern has a `*` or a final `$`. */
  get isWildcard(): boolean {
    return this.anchored || this.pieces.length > 1;
  }

  /** Does the pattern match this canonical path (see {@link canonicalize})? */
  matches(path: string): boolean {
    const pieces = this.pieces;
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
