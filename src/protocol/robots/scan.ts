/**
 * The fast reading of a Koster 1996 or RFC 9309 robots.txt, for a crawler: one pass over the
 * text that finds each line's end, colon and comment, classifies the key in place (no
 * lower-casing, no slicing) and hands the values straight to the group builder. Blank and
 * comment lines cost nothing; no line objects are kept; no diagnostic is built. The header's
 * Robot-version is found in the same pass. Rule lines are only counted: each group reads its
 * own with the same loop over its lines when they are first asked for (groups.ts), and a
 * crawler asks most files it keeps one robot's question, which one group or two answer.
 *
 * Lines outside the common shape (over the length limit, no colon, a key that is not one of
 * the canonical keys spelt exactly: misspellings, extensions, odd blanks) are read by the
 * line reader's own `readLine`, so the two readings agree line for line; the scan tests hold
 * them to it on every corpus file and on random input. `lint` reads the file in full, with
 * every diagnostic, when it is asked to.
 */
import type { Diagnostic } from "./diagnostic.js";
import { chooseDialect, type DialectChoice, patternOptions } from "./dialect.js";
import { GroupBuilder, type Grouping } from "./groups.js";
import { canonicalKeyAt, type KeyedKind, readKey } from "./keys.js";
import { MAX_LINE_LENGTH } from "./limits.js";
import { isSpace, type RobotsLine, readLine, VersionSniff } from "./line-reader.js";
import type { PatternOptions } from "./path-pattern.js";
import type { RuleTable } from "./rule-table.js";
import { isTrimmed } from "./rule-line.js";
import { HASH } from "./char-codes.js";

// Diagnostics of the lines read in full are not kept (a reading with them is lint's): one
// array, emptied after each line, serves every scan; a scan runs to its end synchronously.
const dropped: Diagnostic[] = [];

/** What the fast scan finds in a file. */
export interface Scanned {
  /** As `sniffRobotVersion` (line-reader.ts) finds it. */
  readonly robotVersion: string | null;
  /** Null when the file is read as REGP (its `Robot-version` says 3), which this scan is not. */
  readonly grouping: Grouping | null;
}

/**
 * The Robot-version, groups and sitemaps of `text` (`#` comments), its groups to read their
 * rules with the pattern options of the dialect `choice` and the Robot-version choose; the
 * grouping's diagnostics are left empty. A file whose header makes it REGP is left as soon as
 * the header ends.
 */
export function scanRobots(text: string, choice: DialectChoice): Scanned {
  const builder = GroupBuilder.lazy(text, readGroupRules);
  const sniff = new VersionSniff(text);
  if (isRegp(sniff, choice) || !scanLines(text, 0, text.length, 1, builder, sniff, choice)) {
    return { robotVersion: sniff.version, grouping: null };
  }
  const grouping = builder.finish(patternOptions(chooseDialect(choice, sniff.version)));
  return { robotVersion: sniff.version, grouping };
}

/** Has the header ended with a Robot-version that makes the file REGP under `choice`? */
function isRegp(sniff: VersionSniff, choice: DialectChoice): boolean {
  return !sniff.open && chooseDialect(choice, sniff.version) === "regp";
}

/** Groups and sitemaps of `text` (`#` comments) read with `patterns`; no diagnostics. */
export function scanGroups(text: string, patterns: PatternOptions): Grouping {
  const builder = GroupBuilder.lazy(text, readGroupRules);
  scanLines(text, 0, text.length, 1, builder, null, null);
  return builder.finish(patterns);
}

/** The rule lines of one group, `table.file[start, stop)`, read into its table when asked for. */
function readGroupRules(table: RuleTable, start: number, stop: number, line: number): void {
  scanLines(table.file, start, stop, line, GroupBuilder.filling(table), null, null);
}

/**
 * Reads the lines of `text[start, stop)` (`stop` a line's start or the text's end), the first
 * numbered `number`, into `builder`. While `sniff`'s header is open, each line is shown to it
 * first; the reading stops, returning false, as soon as the header makes the file REGP under
 * `choice`.
 */
function scanLines(
  text: string,
  start: number,
  stop: number,
  number: number,
  builder: GroupBuilder,
  sniff: VersionSniff | null,
  choice: DialectChoice | null,
): boolean {
  // A group's rules being read: no other line needs its value cut.
  const rulesOnly = builder.rulesOnly;
  // The next LF, CR, `#` and `:` at or after the line being read (`length` when none is left),
  // each found by the engine's own search and found again only once passed: every character
  // is looked at once per kind, in native code, which costs the same from the first file on,
  // where a loop in JavaScript is slow until it is compiled.
  let nextLf = -1;
  let nextCr = -1;
  let nextHash = -1;
  let nextColon = -1;
  // Past the last CR, `#` and `:` of the file no search is made: a group read again after the
  // parse would otherwise search to the end of the file for each, which the parse did once.
  const table = builder.table;
  const parse = builder.countsRules;
  const length = text.length;
  const crsTo = parse ? length : table.lastCr;
  const hashesTo = parse ? length : table.lastHash;
  const colonsTo = parse ? length : table.lastColon;
  let line = number - 1;
  let lastCr = -1;
  let lastHash = -1;
  while (start < stop) {
    if (sniff !== null && sniff.open) {
      sniff.look(text, start);
      if (isRegp(sniff, choice as DialectChoice)) return false;
    }
    if (nextLf < start) nextLf = after(text, "\n", start);
    if (nextCr < start) nextCr = start > crsTo ? length : after(text, "\r", start);
    const end = nextLf < nextCr ? nextLf : nextCr;
    if (nextHash < start) nextHash = start > hashesTo ? length : after(text, "#", start);
    const comment = nextHash < end ? nextHash : -1;
    if (parse) {
      // The last of each found: no line starting after it has one at or after its start.
      if (nextCr < length) lastCr = nextCr;
      if (nextHash < length) lastHash = nextHash;
    }
    line++;
    // CRLF when the line ends at a CR and the next LF follows it: known without reading either.
    const next = end === nextCr && nextLf === end + 1 ? end + 2 : end + 1;
    if (end - start > MAX_LINE_LENGTH) {
      builder.add(readLine(text, start, end, line, "hash", dropped), start);
      dropped.length = 0;
      start = next;
      continue;
    }
    let p = start;
    let first = text.charCodeAt(p);
    // Never read past the line: a read past the text's end would deoptimise the loop.
    while (isSpace(first) && ++p < end) first = text.charCodeAt(p);
    // Blank and comment lines: nothing to keep.
    if (p === end || first === HASH) {
      start = next;
      continue;
    }
    // Where the line's content stops: its comment, or its end.
    const contentEnd = comment < 0 ? end : comment;
    // A rule written as most are needs no search for its colon, nor its key a reading.
    let colon = usualRuleColon(text, p, first);
    let kind: KeyedKind | null = colon < 0 ? null : colon === p + 8 ? "disallow" : "allow";
    if (kind === null) {
      if (nextColon < start) nextColon = start > colonsTo ? length : after(text, ":", start);
      colon = nextColon < end && (comment < 0 || nextColon < comment) ? nextColon : -1;
      if (colon < 0 && !mayBeKey(text, p, contentEnd)) {
        // No colon and a first word no key is spelt like (an HTML page's lines, prose): the
        // line reader reads it as invalid, and groups ignore it.
        start = next;
        continue;
      }
      let keyEnd = colon;
      while (keyEnd > p && isSpace(text.charCodeAt(keyEnd - 1))) keyEnd--;
      kind = colon < 0 ? null : canonicalKeyAt(text, p, keyEnd);
      if (kind === null) {
        // Another key (Host, Clean-param, a misspelling): read in place when it is a plain
        // `key: value` line, in full otherwise.
        const read = colon < 0 ? null : otherKeyLine(text, p, colon, contentEnd, line);
        builder.add(read ?? readLine(text, start, end, line, "hash", dropped), start);
        dropped.length = 0;
        start = next;
        continue;
      }
    }
    const isRule = kind === "allow" || kind === "disallow";
    if (isRule ? !builder.countsRules : !rulesOnly && kind !== "robot-version") {
      // The value as `String.prototype.trim` would leave it.
      let from = colon + 1;
      while (from < contentEnd && isTrimmed(text.charCodeAt(from))) from++;
      let to = contentEnd;
      while (to > from && isTrimmed(text.charCodeAt(to - 1))) to--;
      switch (kind) {
        case "allow":
        case "disallow":
          // The rule keeps where its line and value are; its text and value are cut when asked.
          builder.ruleInPlace(kind === "allow", p, from, to, line);
          break;
        case "user-agent":
          builder.agent(text.slice(from, to), line, start);
          break;
        case "sitemap":
          builder.sitemap(text.slice(from, to), line);
          break;
        case "crawl-delay":
          builder.crawlDelay(text.slice(from, to), line);
          break;
        default:
          break;
      }
    } else if (isRule) {
      // The lazy parse: the rule's group counts it and reads it when asked for.
      builder.countRule();
    }
    start = next;
  }
  // The parse does not look for the colon of every line: the last is searched for from the end.
  if (parse) table.searched(lastCr, lastHash, text.lastIndexOf(":"));
  return true;
}

/**
 * Where the colon is when `text` at `p`, its character `first`, starts with `Disallow:` or
 * `Allow:` spelt as most files spell them; -1 otherwise. Each character is compared with a
 * constant written out: over every line of the real files this check took 3.8 ms, where
 * `startsWith` with a position (a call into the engine a line) took 8.6 ms, and a loop reading
 * the key's characters from the key about as long.
 */
function usualRuleColon(text: string, p: number, first: number): number {
  if (first === 0x44) {
    return p + 8 < text.length &&
      text.charCodeAt(p + 1) === 0x69 && // i
      text.charCodeAt(p + 2) === 0x73 && // s
      text.charCodeAt(p + 3) === 0x61 && // a
      text.charCodeAt(p + 4) === 0x6c && // l
      text.charCodeAt(p + 5) === 0x6c && // l
      text.charCodeAt(p + 6) === 0x6f && // o
      text.charCodeAt(p + 7) === 0x77 && // w
      text.charCodeAt(p + 8) === 0x3a // :
      ? p + 8
      : -1;
  }
  if (first === 0x41) {
    return p + 5 < text.length &&
      text.charCodeAt(p + 1) === 0x6c && // l
      text.charCodeAt(p + 2) === 0x6c && // l
      text.charCodeAt(p + 3) === 0x6f && // o
      text.charCodeAt(p + 4) === 0x77 && // w
      text.charCodeAt(p + 5) === 0x3a // :
      ? p + 5
      : -1;
  }
  return -1;
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
 * Where the key `text[p, colon)` ends, trimmed, when it reads in place as readLine reads it;
 * -1 when it has an inner blank (readLine collapses them) or starts with a blank that only
 * `String.prototype.trim` removes (no such blank reaches here but U+00A0 and its kind).
 */
export function plainKeyEnd(text: string, p: number, colon: number): number {
  let keyEnd = colon;
  while (keyEnd > p && isTrimmed(text.charCodeAt(keyEnd - 1))) keyEnd--;
  if (p < keyEnd && isTrimmed(text.charCodeAt(p))) return -1;
  for (let i = p; i < keyEnd; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09) return -1;
  }
  return keyEnd;
}

/**
 * The line `text[p, stop)` with its colon at `colon`, as readLine reads it, when its key reads
 * in place (plainKeyEnd); null otherwise (readLine then reads it).
 */
function otherKeyLine(
  text: string,
  p: number,
  colon: number,
  stop: number,
  number: number,
): RobotsLine | null {
  const keyEnd = plainKeyEnd(text, p, colon);
  if (keyEnd < 0) return null;
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
