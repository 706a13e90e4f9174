/**
 * Which form a /data.txt is written in, from its content alone (seeds/002 §3.1 gives only the
 * media type, `text/plain`, which both forms share).
 *
 * The draft form is robots.txt's grammar: a record "starts with one or more User-agent lines"
 * (seeds/002 §3.2), so a file whose first field line is User-agent, Allow or Disallow is the
 * draft. A YAML catalog starts with a list item (`- path: …`), a document marker (`---`) or a
 * key of an entry; such a file is read as YAML. Blank lines and `#` comments, which both
 * forms allow, are passed over.
 */
import type { DataTxtForm } from "./types.js";

export interface FormChoice {
  readonly form: DataTxtForm;
  readonly reason: string;
  /** 1-based line that decided, or null. */
  readonly line: number | null;
}

const DRAFT_KEY = /^[ \t]*(?:user[-_ ]?agents?|allow|disallow)[ \t]*:/i;
const YAML_START = /^(?:-(?:[ \t]|$)|---|\[|\{)/;

export function detectForm(text: string): FormChoice {
  const body = text.replace(/^\ufeff/, "");
  let number = 0;
  let start = 0;
  // Line by line up to the first field line: a file is not split whole to look at its head.
  while (start <= body.length) {
    const end = lineEnd(body, start);
    const line = body.slice(start, end);
    number++;
    start = end + (body.charCodeAt(end) === 13 && body.charCodeAt(end + 1) === 10 ? 2 : 1);
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    if (DRAFT_KEY.test(line)) {
      return {
        form: "draft",
        line: number,
        reason: `line ${number} is a robots.txt field (docs/data-txt.md)`,
      };
    }
    if (YAML_START.test(line)) {
      return {
        form: "yaml",
        line: number,
        reason: `line ${number} starts a YAML list or document`,
      };
    }
    // A first line such as `Name: x` could start either; a User-agent line at the start of
    // any later line makes it the draft, else it is YAML (a mapping, reported as such).
    const later = laterDraftLine(body, start, number);
    if (later !== null) {
      return {
        form: "draft",
        line: later,
        reason: `line ${later} is a robots.txt field (docs/data-txt.md)`,
      };
    }
    return { form: "yaml", line: number, reason: `line ${number} is not a robots.txt field` };
  }
  return { form: "empty", line: null, reason: "the file has only blank lines and comments" };
}

function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return text.length;
}

/** The number of the first line from `start` (line `before` + 1) that is a draft field line. */
function laterDraftLine(text: string, start: number, before: number): number | null {
  const pattern = new RegExp(DRAFT_KEY.source, "gim");
  pattern.lastIndex = start;
  let m = pattern.exec(text);
  // `^` with the m flag also matches after U+2028/U+2029, which are not line ends here.
  while (m !== null && m.index > 0 && !/[\r\n]/.test(text[m.index - 1] ?? "\n")) {
    pattern.lastIndex = m.index + 1;
    m = pattern.exec(text);
  }
  if (m === null) return null;
  let number = before + 1;
  for (let i = start; i < m.index; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) number++;
  }
  return number;
}
