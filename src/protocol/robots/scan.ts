/**
 * The fast reading of a Koster 1996 or RFC 9309 robots.txt, for a crawler: one pass over the
 * text that finds each line's end, colon and comment, classifies the key in place (no
 * lower-casing, no slicing) and hands the values straight to the group builder. Blank and
 * comment lines cost nothing; no line objects are kept; no diagnostic is built.
 *
 * Lines outside the common shape (over the length limit, no colon, a key that is not one of
 * the canonical keys spelt exactly: misspellings, extensions, odd blanks) are read by the
 * line reader's own `readLine`, so the two readings agree line for line; the scan tests hold
 * them to it on every corpus file and on random input. `lint` reads the file in full, with
 * every diagnostic, when it is asked to.
 */
import type { Diagnostic } from "./diagnostic.js";
import { GroupBuilder, type Grouping } from "./groups.js";
import { canonicalKeyAt, readKey } from "./keys.js";
import { MAX_LINE_LENGTH } from "./limits.js";
import { isSpace, type RobotsLine, readLine } from "./line-reader.js";
import type { PatternOptions } from "./path-pattern.js";
import { isTrimmed } from "./rule-line.js";

const LF = 10;
const CR = 13;
const HASH = 35;

/** Groups and sitemaps of `text` (`#` comments); the grouping's diagnostics are left empty. */
export function scanGroups(text: string, patterns: PatternOptions): Grouping {
  const builder = new GroupBuilder(patterns, false, text);
  // Diagnostics of the lines read in full are not kept: a reading with them is lint's.
  const dropped: Diagnostic[] = [];
  const length = text.length;
  // The next LF, CR, `#` and `:` at or after the line being read (`length` when none is left),
  // each found by the engine's own search and found again only once passed: every character
  // is looked at once per kind, in native code, which costs the same from the first file on,
  // where a loop in JavaScript is slow until it is compiled.
  let nextLf = -1;
  let nextCr = -1;
  let nextHash = -1;
  let nextColon = -1;
  let start = 0;
  let number = 0;
  while (start < length) {
    if (nextLf < start) nextLf = after(text, "\n", start);
    if (nextCr < start) nextCr = after(text, "\r", start);
    const end = nextLf < nextCr ? nextLf : nextCr;
    if (nextHash < start) nextHash = after(text, "#", start);
    const comment = nextHash < end ? nextHash : -1;
    if (nextColon < start) nextColon = after(text, ":", start);
    const colon = nextColon < end && (comment < 0 || nextColon < comment) ? nextColon : -1;
    number++;
    const next = end + (text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? 2 : 1);
    if (end - start > MAX_LINE_LENGTH) {
      builder.add(readLine(text, start, end, number, "hash", dropped));
      dropped.length = 0;
      start = next;
      continue;
    }
    let p = start;
    while (p < end && isSpace(text.charCodeAt(p))) p++;
    // Blank and comment lines: nothing to keep.
    if (p === end || text.charCodeAt(p) === HASH) {
      start = next;
      continue;
    }
    // Where the line's content stops: its comment, or its end.
    const stop = comment < 0 ? end : comment;
    if (colon < 0 && !mayBeKey(text, p, stop)) {
      // No colon and a first word no key is spelt like (an HTML page's lines, prose): the
      // line reader reads it as invalid, and groups ignore it.
      start = next;
      continue;
    }
    let keyEnd = colon;
    while (keyEnd > p && isSpace(text.charCodeAt(keyEnd - 1))) keyEnd--;
    const kind = colon < 0 ? null : canonicalKeyAt(text, p, keyEnd);
    if (kind === null) {
      // Another key (Host, Clean-param, a misspelling): read in place when it is a plain
      // `key: value` line, in full otherwise.
      const line = colon < 0 ? null : otherKeyLine(text, p, colon, stop, number);
      builder.add(line ?? readLine(text, start, end, number, "hash", dropped));
      dropped.length = 0;
      start = next;
      continue;
    }
    if (kind !== "robot-version") {
      // The value as `String.prototype.trim` would leave it.
      let from = colon + 1;
      while (from < stop && isTrimmed(text.charCodeAt(from))) from++;
      let to = stop;
      while (to > from && isTrimmed(text.charCodeAt(to - 1))) to--;
      switch (kind) {
        case "allow":
        case "disallow":
          // The rule keeps where its line and value are; its text and value are cut when asked.
          builder.ruleInPlace(kind === "allow", p, from, to, number);
          break;
        case "user-agent":
          builder.agent(text.slice(from, to), number);
          break;
        case "sitemap":
          builder.sitemap(text.slice(from, to), number);
          break;
        case "crawl-delay":
          builder.crawlDelay(text.slice(from, to), number);
          break;
        default:
          break;
      }
    }
    start = next;
  }
  return builder.finish();
}

/** The first `c` in `text` at or after `from`, or the text's length. */
export function after(text: string, c: string, from: number): number {
  const at = text.indexOf(c, from);
  return at < 0 ? text.length : at;
}

// The lengths of the keys and misspellings keys.ts knows: `allow` (5) to `robot-version` (13).
const SHORTEST_KEY = 5;
const LONGEST_KEY = 13;

/**
 * Could the first word of `text[p, stop)` be a key read without a colon (`Disallow /x`)? Only
 * when its length is that of some known key and it starts with a letter; the line reader
 * decides the rest.
 */
export function mayBeKey(text: string, p: number, stop: number): boolean {
  let k = p;
  while (k < stop && !isSpace(text.charCodeAt(k))) k++;
  const length = k - p;
  const first = text.charCodeAt(p) | 0x20;
  return length >= SHORTEST_KEY && length <= LONGEST_KEY && first >= 0x61 && first <= 0x7a;
}

/**
 * The line `text[p, stop)` with its colon at `colon`, as readLine reads it, when its key has no
 * inner blank; null otherwise (readLine then collapses the blanks and reads it).
 */
function otherKeyLine(
  text: string,
  p: number,
  colon: number,
  stop: number,
  number: number,
): RobotsLine | null {
  let keyEnd = colon;
  while (keyEnd > p && isTrimmed(text.charCodeAt(keyEnd - 1))) keyEnd--;
  for (let i = p; i < keyEnd; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09) return null;
  }
  // readLine trims the key with String.prototype.trim: a key starting with a blank it keeps
  // (no such blank reaches here but U+00A0 and its kind) is left to readLine.
  if (p < keyEnd && isTrimmed(text.charCodeAt(p))) return null;
  const key = text.slice(p, keyEnd);
  const reading = readKey(key);
  let from = colon + 1;
  while (from < stop && isTrimmed(text.charCodeAt(from))) from++;
  let to = stop;
  while (to > from && isTrimmed(text.charCodeAt(to - 1))) to--;
  let textEnd = stop;
  while (textEnd > p && isTrimmed(text.charCodeAt(textEnd - 1))) textEnd--;
  return {
    number,
    kind: reading.kind,
    key,
    value: text.slice(from, to),
    text: text.slice(p, textEnd),
    colon: true,
    truncated: false,
    misspeltFor: reading.misspeltFor,
  };
}
