/**
 * A rule line's text and value, found again in its file's text from where the line's content
 * starts. The fast scan (scan.ts) keeps only that place, and a rule cuts its strings when asked:
 * the scan found them the same way, so the two cuts agree.
 */
import { CR, HASH, LF } from "./char-codes.js";

/** Where the content of the line starting at `at` stops: its `#` comment, or its end. */
function contentStop(file: string, at: number): number {
  let stop = at;
  while (stop < file.length) {
    const c = file.charCodeAt(stop);
    if (c === LF || c === CR || c === HASH) break;
    stop++;
  }
  return stop;
}

/** The line as written from `at`, comment and trailing blanks removed. */
export function lineTextAt(file: string, at: number): string {
  let end = contentStop(file, at);
  while (end > at && isTrimmed(file.charCodeAt(end - 1))) end--;
  return file.slice(at, end);
}

// A value's place as one small integer: where it starts from its line's content, and its
// length, each below 2^15; a line read in place is at most MAX_LINE_LENGTH (16 KiB) long.
const SPAN_SHIFT = 15;
const SPAN_LENGTH = (1 << SPAN_SHIFT) - 1;

/**
 * Where the value of the `key: value` line whose content starts at `at` is, as `trim` leaves
 * it, packed: its start from `at`
 * shifted left by 15, or'ed with its length. A rule keeps this number rather than the value's
 * string (issue 29: the cut values of the rules a query looked at were 1.6 MB of the real
 * files' 27 MB).
 */
export function lineValueSpan(file: string, at: number): number {
  const stop = contentStop(file, at);
  let from = file.indexOf(":", at) + 1;
  while (from < stop && isTrimmed(file.charCodeAt(from))) from++;
  let to = stop;
  while (to > from && isTrimmed(file.charCodeAt(to - 1))) to--;
  return valueSpan(from - at, to - from);
}

/** A value's place packed as {@link lineValueSpan} packs it: `start` from its line's content. */
export function valueSpan(start: number, length: number): number {
  return (start << SPAN_SHIFT) | length;
}

/** The value of the `key: value` line whose content starts at `at`, as `trim` leaves it. */
export function lineValueAt(file: string, at: number): string {
  const span = lineValueSpan(file, at);
  const from = at + spanStart(span);
  return file.slice(from, from + spanLength(span));
}

/** Where the value a {@link lineValueSpan} packs starts, from its line's start. */
export function spanStart(span: number): number {
  return span >> SPAN_SHIFT;
}

/** The length of the value a {@link lineValueSpan} packs. */
export function spanLength(span: number): number {
  return span & SPAN_LENGTH;
}

/** Does `path` start with the value `span` packs, of the line at `at` in `file`? */
export function startsWithSpan(path: string, file: string, at: number, span: number): boolean {
  const length = span & SPAN_LENGTH;
  if (path.length < length) return false;
  const from = at + (span >> SPAN_SHIFT);
  for (let i = 0; i < length; i++) {
    if (path.charCodeAt(i) !== file.charCodeAt(from + i)) return false;
  }
  return true;
}

/** What `String.prototype.trim` removes (ECMAScript WhiteSpace; no line ends reach here). */
export function isTrimmed(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
