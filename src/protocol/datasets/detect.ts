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
  const lines = text.replace(/^\ufeff/, "").split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const number = i + 1;
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
    const later = lines.findIndex((l, j) => j > i && DRAFT_KEY.test(l));
    if (later >= 0) {
      return {
        form: "draft",
        line: later + 1,
        reason: `line ${later + 1} is a robots.txt field (docs/data-txt.md)`,
      };
    }
    return { form: "yaml", line: number, reason: `line ${number} is not a robots.txt field` };
  }
  return { form: "empty", line: null, reason: "the file has only blank lines and comments" };
}
