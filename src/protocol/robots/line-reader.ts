/**
 * The one tokenizer under every dialect: bytes or text in, typed lines out. It decides no
 * meaning beyond "which key is this"; dialects and records interpret the lines.
 */
import type { Diagnostic } from "./diagnostic.js";
import { type KeyedKind, type LineKind, readKey } from "./keys.js";
import { MAX_LINE_LENGTH, MAX_ROBOTS_BYTES } from "./limits.js";
import { CLOSE_BRACE, COLON, CR, HASH, LF, OPEN_BRACE, SPACE, TAB } from "./char-codes.js";

/** How comments are written: `#` anywhere (Koster, RFC 9309) or `##` (REGP, seeds/003 §3.1). */
export type CommentStyle = "hash" | "double-hash";

export interface RobotsLine {
  /** 1-based. */
  readonly number: number;
  readonly kind: LineKind;
  /** The key as written, inner whitespace collapsed; "" for blank, comment and invalid lines. */
  readonly key: string;
  /** The value, comment removed, whitespace trimmed. */
  readonly value: string;
  /** The line without its comment and outer whitespace, as the file has it. */
  readonly text: string;
  /** False for `Disallow /x`, read for its key all the same. */
  readonly colon: boolean;
  /** The line was longer than {@link MAX_LINE_LENGTH} and was cut. */
  readonly truncated: boolean;
  /** When the key is a known misspelling, the key it stands for. */
  readonly misspeltFor: KeyedKind | null;
}

export interface RobotsText {
  readonly lines: readonly RobotsLine[];
  /** Size of the input in bytes (UTF-8), before any limit. */
  readonly byteLength: number;
  /** Bytes read; less than byteLength when the size limit cut the file. */
  readonly bytesRead: number;
  readonly truncated: boolean;
  readonly bom: boolean;
  /** Some bytes were not UTF-8; they were read as U+FFFD and parsing went on. */
  readonly invalidUtf8: boolean;
  /** The value of a `Robot-version` header line, if the file has one. */
  readonly robotVersion: string | null;
  readonly commentStyle: CommentStyle;
  readonly diagnostics: readonly Diagnostic[];
}

export interface ReadOptions {
  /** Default: `double-hash` when a `Robot-version: 3.x` header is present, else `hash`. */
  readonly commentStyle?: CommentStyle;
  /** Default {@link MAX_ROBOTS_BYTES}. */
  readonly maxBytes?: number;
}

const decoder = new TextDecoder("utf-8");
const strictDecoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

// The header ends at the first line that starts a group; Robot-version must come before it.
const GROUP_START = /^[ \t]*(?:user[-_ ]?agents?|allow|disallow|ip-allow|ip-disallow)[ \t]*:/im;
const ROBOT_VERSION = /^[ \t]*robot[-_ ]?version[ \t]*:[ \t]*([^\s#]*)/im;

/** Reads a robots.txt into lines. Never throws on content. */
export function readRobotsText(input: string | Uint8Array, options: ReadOptions = {}): RobotsText {
  return readDecoded(decode(input, options.maxBytes ?? MAX_ROBOTS_BYTES), options);
}

/**
 * Reads a robots.txt already decoded (by {@link decode}, with the same `maxBytes`) into lines.
 * A parsed policy keeps its decoding and reads it when lines are asked for: the file's bytes
 * need not be kept beside its text.
 */
export function readDecoded(decoded: Decoded, options: ReadOptions = {}): RobotsText {
  const maxBytes = options.maxBytes ?? MAX_ROBOTS_BYTES;
  const diagnostics: Diagnostic[] = [];
  if (decoded.truncated) {
    diagnostics.push({
      line: null,
      severity: "error",
      code: "size-limit",
      message: `file is ${decoded.byteLength} bytes; only the first ${decoded.bytesRead} (whole lines within ${maxBytes}) were read`,
    });
  }
  if (decoded.invalidUtf8) {
    diagnostics.push({
      line: null,
      severity: "warning",
      code: "invalid-utf8",
      message: "file is not valid UTF-8; the bad bytes were read as U+FFFD",
    });
  }
  const robotVersion = sniffRobotVersion(decoded.text);
  const commentStyle =
    options.commentStyle ?? (robotVersion?.startsWith("3") ? "double-hash" : "hash");
  const lines = splitLines(decoded.text, commentStyle, diagnostics);
  return {
    lines,
    byteLength: decoded.byteLength,
    bytesRead: decoded.bytesRead,
    truncated: decoded.truncated,
    bom: decoded.bom,
    invalidUtf8: decoded.invalidUtf8,
    robotVersion,
    commentStyle,
    diagnostics,
  };
}

export interface Decoded {
  text: string;
  byteLength: number;
  bytesRead: number;
  truncated: boolean;
  bom: boolean;
  invalidUtf8: boolean;
}

/** The text of a robots.txt within the size limit, and what decoding it found. */
export function decode(input: string | Uint8Array, maxBytes: number): Decoded {
  if (typeof input === "string") {
    // A string of n UTF-16 units is at most 3n UTF-8 bytes: short strings need no encoding.
    if (input.length * 3 > maxBytes) return decodeBytes(encoder.encode(input), maxBytes);
    const bom = input.charCodeAt(0) === 0xfeff;
    const text = bom ? input.slice(1) : input;
    const byteLength = utf8Length(input);
    return { text, byteLength, bytesRead: byteLength, truncated: false, bom, invalidUtf8: false };
  }
  return decodeBytes(input, maxBytes);
}

function decodeBytes(bytes: Uint8Array, maxBytes: number): Decoded {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let end = bytes.length;
  const truncated = end > maxBytes;
  if (truncated) {
    // Keep whole lines only: a cut `Allow: /private/page` would allow more than it says.
    end = maxBytes;
    while (end > 0 && bytes[end - 1] !== 0x0a && bytes[end - 1] !== 0x0d) end--;
  }
  const view = bytes.subarray(bom ? 3 : 0, Math.max(end, bom ? 3 : 0));
  const text = decoder.decode(view);
  let invalidUtf8 = false;
  if (text.includes("\ufffd")) {
    try {
      strictDecoder.decode(view);
    } catch {
      invalidUtf8 = true;
    }
  }
  return { text, byteLength: bytes.length, bytesRead: end, truncated, bom, invalidUtf8 };
}

function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 1; // a pair: 2 units, 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}

/** The value of the header's `Robot-version` line, or null. */
export function sniffRobotVersion(text: string): string | null {
  const groupStart = GROUP_START.exec(text);
  const header = groupStart ? text.slice(0, groupStart.index) : text;
  const match = ROBOT_VERSION.exec(header);
  return match ? (match[1] ?? "") : null;
}

// The same patterns tried at one line's start: the fast scan reads the header as it goes.
const GROUP_START_AT = new RegExp(GROUP_START.source, "imy");
const ROBOT_VERSION_AT = new RegExp(ROBOT_VERSION.source, "imy");

/**
 * {@link sniffRobotVersion} read a line at a time by a reader that gives it the start of every
 * line in order, lines ending at CR, LF or CRLF (the fast scan): it then needs no search of
 * its own. The patterns' `^` also starts a line after U+2028 and U+2029; a text with either
 * is sniffed whole at once.
 */
export class VersionSniff {
  /** The header's Robot-version value so far. */
  version: string | null = null;
  /** No line has started a group yet: the header goes on. */
  open = true;

  constructor(text: string) {
    if (text.indexOf("\u2028") >= 0 || text.indexOf("\u2029") >= 0) {
      this.version = sniffRobotVersion(text);
      this.open = false;
    }
  }

  /** Reads the line starting at `start`, while the header is {@link open}. */
  look(text: string, start: number): void {
    let p = start;
    let c = text.charCodeAt(p);
    while (c === SPACE || c === TAB) c = text.charCodeAt(++p);
    // Only a line whose first letter starts one of the patterns' keys is tried (`i` without
    // `u` folds no other character onto an ASCII letter).
    c |= 0x20;
    if (c === 0x75 && text.startsWith("User-agent:", p)) {
      // The line that ends most files' header, as GROUP_START reads it, without the pattern.
      this.open = false;
    } else if (c === 0x75 || c === 0x61 || c === 0x64 || c === 0x69) {
      GROUP_START_AT.lastIndex = start;
      if (GROUP_START_AT.test(text)) this.open = false;
    } else if (c === 0x72 && this.version === null) {
      ROBOT_VERSION_AT.lastIndex = start;
      const match = ROBOT_VERSION_AT.exec(text);
      if (match !== null) this.version = match[1] ?? "";
    }
  }
}

function splitLines(text: string, style: CommentStyle, diagnostics: Diagnostic[]): RobotsLine[] {
  const lines: RobotsLine[] = [];
  const length = text.length;
  let start = 0;
  let number = 0;
  while (start < length) {
    // One pass finds the line's end, its comment and its colon. A plain loop, not indexOf:
    // V8's indexOf with a start offset turned superlinear here on some runs.
    let end = start;
    let comment = -1;
    let colon = -1;
    while (end < length) {
      const c = text.charCodeAt(end);
      if (c === LF || c === CR) break;
      if (c === HASH) {
        if (comment < 0 && (style === "hash" || text.charCodeAt(end + 1) === HASH)) comment = end;
      } else if (c === COLON && colon < 0 && comment < 0) colon = end;
      end++;
    }
    number++;
    const brace = style === "double-hash" ? braceAt(text, start, end) : -1;
    if (brace < 0) {
      const marks =
        end - start > MAX_LINE_LENGTH ? null : { colon, comment: comment < 0 ? end : comment };
      lines.push(readLine(text, start, end, number, style, diagnostics, marks));
    } else {
      // seeds/003 Table 2: a line whose first non-blank character is a brace. Anything after
      // the brace is read as a line of its own, so that `{ Allow: /x` loses nothing.
      const open = text.charCodeAt(brace) === OPEN_BRACE;
      lines.push(bare(number, open ? "open-brace" : "close-brace", open ? "{" : "}", false));
      const rest = readLine(text, brace + 1, end, number, style, diagnostics);
      if (rest.kind !== "blank" && rest.kind !== "comment") lines.push(rest);
    }
    start = end + (text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? 2 : 1);
  }
  return lines;
}

/** Reads one line `text[start, end)` (no line end in it) in full, diagnostics included. */
export function readLine(
  text: string,
  start: number,
  end: number,
  number: number,
  style: CommentStyle,
  diagnostics: Diagnostic[],
  marks: { readonly colon: number; readonly comment: number } | null = null,
): RobotsLine {
  let truncated = false;
  if (end - start > MAX_LINE_LENGTH) {
    const cut = start + MAX_LINE_LENGTH;
    // Only a cut before the comment loses part of the value.
    truncated = commentStart(text, start, cut, style) === cut;
    end = cut;
    diagnostics.push({
      line: number,
      severity: truncated ? "error" : "warning",
      code: "line-too-long",
      message: truncated
        ? `line is longer than ${MAX_LINE_LENGTH} characters and was cut`
        : `line is longer than ${MAX_LINE_LENGTH} characters; only its comment was cut`,
    });
  }
  let p = start;
  while (p < end && isSpace(text.charCodeAt(p))) p++;
  if (p === end) return bare(number, "blank", "", truncated);
  if (text.charCodeAt(p) === HASH) return bare(number, "comment", "", truncated);

  const commentAt = marks === null ? commentStart(text, p, end, style) : marks.comment;
  let colon = marks === null ? -1 : marks.colon;
  if (marks === null) {
    for (let i = p; i < commentAt; i++) {
      if (text.charCodeAt(i) === COLON) {
        colon = i;
        break;
      }
    }
  }
  const content = text.slice(p, commentAt).trimEnd();
  let key: string;
  let value: string;
  if (colon >= 0) {
    key = text.slice(p, colon).trim();
    value = text.slice(colon + 1, commentAt).trim();
  } else {
    // `Disallow /tmp`: google/robotstxt reads it too; the key is the first word.
    let k = p;
    while (k < commentAt && !isSpace(text.charCodeAt(k))) k++;
    key = text.slice(p, k);
    value = text.slice(k, commentAt).trim();
  }
  if (hasInnerBlank(key)) key = key.replace(/[ \t]+/g, " ");
  const reading = readKey(key);
  if (colon < 0 && reading.kind === "extension") {
    diagnostics.push({
      line: number,
      severity: "warning",
      code: "invalid-line",
      message: `not a "key: value" line: ${abbreviate(content)}`,
    });
    return {
      number,
      kind: "invalid",
      key: "",
      value: "",
      text: content,
      colon: false,
      truncated,
      misspeltFor: null,
    };
  }
  if (colon < 0) {
    diagnostics.push({
      line: number,
      severity: "warning",
      code: "missing-colon",
      message: `"${key}" has no colon after it; read as "${key}: ${value}"`,
    });
  }
  return {
    number,
    kind: reading.kind,
    key,
    value,
    text: content,
    colon: colon >= 0,
    truncated,
    misspeltFor: reading.misspeltFor,
  };
}

/** Index of the brace that starts `text[from, to)` after blanks, or -1. */
function braceAt(text: string, from: number, to: number): number {
  let p = from;
  while (p < to && isSpace(text.charCodeAt(p))) p++;
  const c = text.charCodeAt(p);
  return p < to && (c === OPEN_BRACE || c === CLOSE_BRACE) ? p : -1;
}

/** Where the comment of `text[from, to)` starts, or `to` when it has none. */
function commentStart(text: string, from: number, to: number, style: CommentStyle): number {
  for (let i = from; i < to; i++) {
    if (text.charCodeAt(i) === HASH && (style === "hash" || text.charCodeAt(i + 1) === HASH))
      return i;
  }
  return to;
}

function hasInnerBlank(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === SPACE || c === TAB) return true;
  }
  return false;
}

function bare(number: number, kind: LineKind, text: string, truncated: boolean): RobotsLine {
  return { number, kind, key: "", value: "", text, colon: false, truncated, misspeltFor: null };
}

export function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === 0xfeff || c === 0x0b || c === 0x0c;
}

function abbreviate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
