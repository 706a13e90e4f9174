/**
 * Splits RUP text into numbered lines: CR, LF and CRLF all end a line (a report may arrive
 * through mail with CRLF). Lines longer than {@link MAX_LINE_LENGTH} are cut and flagged.
 */
import { MAX_LINE_LENGTH } from "./limits.js";

export interface TextLine {
  /** 1-based. */
  readonly number: number;
  readonly text: string;
  readonly cut: boolean;
}

export function splitLines(text: string, maxLines: number): { lines: TextLine[]; more: boolean } {
  const lines: TextLine[] = [];
  let start = 0;
  let number = 0;
  while (start < text.length) {
    if (lines.length >= maxLines) return { lines, more: true };
    let end = start;
    while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end += 1;
    number += 1;
    const raw = text.slice(start, end);
    lines.push({
      number,
      text: raw.length > MAX_LINE_LENGTH ? raw.slice(0, MAX_LINE_LENGTH) : raw,
      cut: raw.length > MAX_LINE_LENGTH,
    });
    if (end >= text.length) break;
    start = text[end] === "\r" && text[end + 1] === "\n" ? end + 2 : end + 1;
  }
  return { lines, more: false };
}

/** `Key: value` → key and value, both trimmed; null when the line has no colon. */
export function keyValue(text: string): { key: string; value: string } | null {
  const colon = text.indexOf(":");
  if (colon === -1) return null;
  return { key: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
}

/** The text within its first `maxChars` characters and without a byte-order mark. */
export function bounded(text: string, maxChars: number): { body: string; cut: boolean } {
  const cut = text.length > maxChars;
  const body = cut ? text.slice(0, maxChars) : text;
  return { body: body.startsWith("\ufeff") ? body.slice(1) : body, cut };
}
