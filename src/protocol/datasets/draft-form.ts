/**
 * The draft form of /data.txt: seeds/002 §3.2-3.3, which is Koster's robots.txt draft with the
 * file name changed, read through heed's robots.txt tokenizer and grouping. The draft's grammar
 * has no field for a dataset, so heed reads it thus (docs/data-txt.md):
 *
 * - a record's User-agent lines name the robots it speaks to (seeds/002 §3.2.1);
 * - its Allow lines name the dataset paths offered to those robots, one dataset a line;
 * - its Disallow lines close paths to harvesting; the first matching line decides, in order
 *   (§3.2.2), so `Disallow: /data` before `Allow: /data/x.csv` closes x.csv;
 * - any other field of the record (`Name`, `Title`, `Description`, `License`, `Type`, `Rows`,
 *   `Cols`, or one of the site's own) annotates every dataset of the record — the draft keeps
 *   such lines "for future extension" (§3.2), which is what they are here.
 */
import { buildGroups } from "../robots/groups.js";
import type { Diagnostic } from "../robots/diagnostic.js";
import { patternOptions } from "../robots/dialect.js";
import { readRobotsText } from "../robots/line-reader.js";
import { MAX_DATA_TXT_BYTES, MAX_DRAFT_LINES, MAX_ENTRIES } from "./limits.js";
import { resolveDatasetPath } from "./resolve.js";
import { isManifestPath, type FormContext } from "./yaml-form.js";
import type { DatasetEntry, DraftRecord } from "./types.js";

export interface DraftReading {
  readonly entries: readonly DatasetEntry[];
  readonly records: readonly DraftRecord[];
  readonly diagnostics: readonly Diagnostic[];
}

const TEXT_KEYS = ["name", "title", "description", "license", "type"] as const;

export function readDraftForm(
  input: string | Uint8Array,
  context: FormContext,
  maxBytes = MAX_DATA_TXT_BYTES,
): DraftReading {
  const cut = lineCut(input, MAX_DRAFT_LINES);
  // seeds/002 §3.2: "#" comments, as in Koster's draft.
  const text = readRobotsText(cut === null ? input : input.slice(0, cut), {
    maxBytes,
    commentStyle: "hash",
  });
  const grouping = buildGroups(text.lines, patternOptions("koster1996"));
  const diagnostics: Diagnostic[] = [...text.diagnostics, ...grouping.diagnostics];
  if (cut !== null) {
    diagnostics.push({
      line: MAX_DRAFT_LINES + 1,
      severity: "error",
      code: "line-limit",
      message: `more than ${MAX_DRAFT_LINES} lines; the rest were not read`,
    });
  }
  const records: DraftRecord[] = [];
  const entries: DatasetEntry[] = [];
  const inGroups = new Set(grouping.groups.flatMap((g) => g.extensions));
  for (const line of grouping.extensions) {
    if (!inGroups.has(line)) {
      diagnostics.push({
        line: line.number,
        severity: "warning",
        code: "field-outside-record",
        message: `"${line.key}" comes before any User-agent line; it annotates nothing and is ignored`,
      });
    }
  }
  for (const sitemap of grouping.sitemaps) {
    diagnostics.push({
      line: sitemap.line,
      severity: "info",
      code: "sitemap-line",
      message: "a Sitemap line in data.txt is not read: sitemaps belong in robots.txt",
    });
  }
  let limited = false;
  grouping.groups.forEach((group, index) => {
    const annotations: Record<string, string> = {};
    for (const line of group.extensions) {
      const key = line.key.toLowerCase();
      if (Object.hasOwn(annotations, key)) {
        diagnostics.push({
          line: line.number,
          severity: "warning",
          code: "duplicate-field",
          message: `a second "${line.key}" in the same record; the first is kept`,
        });
        continue;
      }
      Object.defineProperty(annotations, key, { value: line.value, enumerable: true });
    }
    if (group.crawlDelay !== null) {
      Object.defineProperty(annotations, "crawl-delay", {
        value: String(group.crawlDelay),
        enumerable: true,
      });
    }
    const rules = group.rules.map((r) => ({ allow: r.allow, path: r.source, line: r.line }));
    const agents = group.agents.map((a) => ({ value: a.value, line: a.line }));
    records.push({ agents, rules, annotations });
    const firstLine = agents[0]?.line ?? null;
    if (!rules.some((r) => r.allow)) {
      diagnostics.push({
        line: firstLine,
        severity: "info",
        code: "no-datasets",
        message: `the record for ${agents.map((a) => a.value).join(", ")} has no Allow line: it offers no dataset`,
      });
    }
    for (const rule of rules) {
      if (!rule.allow) continue;
      if (entries.length >= MAX_ENTRIES) {
        if (!limited) {
          limited = true;
          diagnostics.push({
            line: rule.line,
            severity: "error",
            code: "entry-limit",
            message: `more than ${MAX_ENTRIES} datasets; the rest were not read`,
          });
        }
        continue;
      }
      const entry = toEntry(rule, annotations, agents, index, context, diagnostics);
      if (entry !== null) entries.push(entry);
    }
  });
  return { entries, records, diagnostics };
}

function toEntry(
  rule: { readonly path: string; readonly line: number },
  annotations: Readonly<Record<string, string>>,
  agents: readonly { readonly value: string }[],
  record: number,
  context: FormContext,
  diagnostics: Diagnostic[],
): DatasetEntry | null {
  const resolved = resolveDatasetPath(rule.path, context.fileUrl);
  if (!resolved.ok) {
    diagnostics.push({
      line: rule.line,
      severity: "error",
      code: resolved.code,
      message: resolved.message,
    });
    return null;
  }
  const text = (key: (typeof TEXT_KEYS)[number]): string | null => annotations[key] ?? null;
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(annotations)) {
    if ((TEXT_KEYS as readonly string[]).includes(key) || key === "rows" || key === "cols")
      continue;
    Object.defineProperty(extra, key, { value, enumerable: true });
  }
  return {
    path: rule.path,
    urls: [resolved.url],
    name: text("name"),
    title: text("title"),
    description: text("description"),
    license: text("license"),
    type: text("type"),
    rows: count(annotations.rows, rule.line, "Rows", diagnostics),
    cols: count(annotations.cols, rule.line, "Cols", diagnostics),
    columns: null,
    extra,
    line: rule.line,
    manifest: isManifestPath(rule.path),
    agents: agents.map((a) => a.value),
    record,
  };
}

function count(
  value: string | undefined,
  line: number,
  key: string,
  diagnostics: Diagnostic[],
): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  if (/^\d+$/.test(value) && Number.isSafeInteger(n)) return n;
  diagnostics.push({
    line,
    severity: "warning",
    code: "bad-count",
    message: `${key} must be a whole number, got "${value}"; ignored`,
  });
  return null;
}

/**
 * Where the line after the first `max` lines begins (CR, LF and CRLF ends), or null when the
 * input has no more lines than that; counted before tokenizing, so that the cost of a file of
 * millions of short lines stops here.
 */
function lineCut(input: string | Uint8Array, max: number): number | null {
  let lines = 0;
  const n = input.length;
  const at =
    typeof input === "string" ? (i: number) => input.charCodeAt(i) : (i: number) => input[i] ?? 0;
  for (let i = 0; i < n; i++) {
    const c = at(i);
    if (c !== 0x0a && c !== 0x0d) continue;
    if (c === 0x0d && at(i + 1) === 0x0a) i++;
    lines++;
    if (lines === max) return i + 1 < n ? i + 1 : null;
  }
  return null;
}
