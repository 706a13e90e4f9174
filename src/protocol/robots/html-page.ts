/**
 * An HTML page served as /robots.txt: a soft 404 or an error page. RFC 9309 still reads it line
 * by line (it usually holds no rules), but a person asking about the site should hear of it.
 */
import type { RobotsText } from "./line-reader.js";

/** A line that opens an HTML document. */
export const HTML_START = /^<(?:!doctype\s+html|html)(?:[\s>]|$)/i;

/** The number of the first line that opens an HTML document, or null. */
export function htmlPageLine(text: RobotsText): number | null {
  return text.lines.find((l) => HTML_START.test(l.text))?.number ?? null;
}
