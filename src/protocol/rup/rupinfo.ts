/**
 * /rupinfo.txt (seeds/001 §3.1.1), read and written:
 *
 *     RUP-CGI: cgiurl
 *     {Authentifier: authmethod}
 *     {Latency: latvalue[, latvalue]*}
 *     {Exclude: urlpatvalue[, urlpatvalue]*}
 *     {IncludeOnly: urlpatvalue[, urlpatvalue]*}
 *     {MaxQuerySpan: integer-latvalue}
 *
 * Keys are matched case-insensitively; unknown keys are kept as extensions with a warning, never
 * an error (a later version of the protocol may add some).
 */
import { collector, type RupDiagnostic } from "./diagnostic.js";
import { formatLatency, type Latency, parseLatency } from "./latency.js";
import { MAX_LATENCIES, MAX_PATTERNS, MAX_RUPINFO_BYTES } from "./limits.js";
import { bounded, keyValue, splitLines } from "./lines.js";
import { compilePattern } from "./patterns.js";

export interface RupInfo {
  /** The action endpoint, as written (absolute, or relative to the file's URL). */
  readonly cgiUrl: string;
  /** seeds/001 §3.1.1: "the only valid value is currently none". Null when absent. */
  readonly authentifier: string | null;
  /** Offered latency values (`day`, `week` …), as written; empty when absent. */
  readonly latencies: readonly string[];
  readonly exclude: readonly string[];
  readonly includeOnly: readonly string[];
  /** How long the site keeps its modification log; null when not said. */
  readonly maxQuerySpan: Latency | null;
  readonly extensions: readonly {
    readonly key: string;
    readonly value: string;
    readonly line: number;
  }[];
}

export interface RupInfoResult {
  /** Null when the file has no usable RUP-CGI line: then it describes no RUP server. */
  readonly info: RupInfo | null;
  readonly diagnostics: readonly RupDiagnostic[];
}

const FIELDS = [
  "RUP-CGI",
  "Authentifier",
  "Latency",
  "Exclude",
  "IncludeOnly",
  "MaxQuerySpan",
] as const;
type Field = (typeof FIELDS)[number];

function canonicalField(key: string): Field | null {
  return FIELDS.find((f) => f.toLowerCase() === key.toLowerCase()) ?? null;
}

/** Splits a comma list, dropping empty items (`a, , b` → a, b). */
function commaList(value: string): string[] {
  return value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

export function parseRupInfo(text: string): RupInfoResult {
  const { diagnostics, report } = collector();
  const { body, cut } = bounded(text, MAX_RUPINFO_BYTES);
  if (cut)
    report(
      null,
      null,
      "too-large",
      `the file is longer than ${MAX_RUPINFO_BYTES} characters; the rest is ignored`,
    );
  const seen = new Map<Field, number>();
  const values: { -readonly [K in keyof RupInfo]?: RupInfo[K] } = {};
  const extensions: { key: string; value: string; line: number }[] = [];

  for (const line of splitLines(body, Number.MAX_SAFE_INTEGER).lines) {
    if (line.text.trim() === "") continue;
    if (line.cut)
      report(line.number, null, "line-too-long", "the line is too long; its end is ignored");
    const kv = keyValue(line.text);
    if (kv === null) {
      report(
        line.number,
        null,
        "missing-colon",
        `expected "Key: value", got "${line.text.slice(0, 80)}"`,
      );
      continue;
    }
    const field = canonicalField(kv.key);
    if (field === null) {
      extensions.push({ key: kv.key, value: kv.value, line: line.number });
      report(
        line.number,
        kv.key,
        "unknown-field",
        `unknown field "${kv.key}" kept as an extension`,
        "warning",
      );
      continue;
    }
    const earlier = seen.get(field);
    if (earlier !== undefined) {
      report(
        line.number,
        field,
        "duplicate-field",
        `${field} was given on line ${earlier}; this one is ignored`,
      );
      continue;
    }
    seen.set(field, line.number);
    readField(field, kv.value, line.number, values, report);
  }

  if (values.cgiUrl === undefined) {
    report(null, "RUP-CGI", "missing-cgi", "no RUP-CGI line: the file names no action endpoint");
    return { info: null, diagnostics };
  }
  return {
    info: {
      cgiUrl: values.cgiUrl,
      authentifier: values.authentifier ?? null,
      latencies: values.latencies ?? [],
      exclude: values.exclude ?? [],
      includeOnly: values.includeOnly ?? [],
      maxQuerySpan: values.maxQuerySpan ?? null,
      extensions,
    },
    diagnostics,
  };
}

type Report = (
  line: number,
  field: string,
  code: string,
  message: string,
  severity?: "error" | "warning",
) => void;

function readField(
  field: Field,
  value: string,
  line: number,
  values: { -readonly [K in keyof RupInfo]?: RupInfo[K] },
  report: Report,
): void {
  switch (field) {
    case "RUP-CGI":
      if (value === "" || /\s/.test(value))
        report(line, field, "bad-cgi", `expected a URL, got "${value}"`);
      else values.cgiUrl = value;
      return;
    case "Authentifier":
      // seeds/001 §3.1.1: "the only valid value is currently none"; others are kept and flagged.
      if (value.toLowerCase() !== "none")
        report(
          line,
          field,
          "unknown-authentifier",
          `"${value}" is not a method heed knows (only none)`,
          "warning",
        );
      values.authentifier = value;
      return;
    case "Latency": {
      const list = commaList(value);
      const good = list.slice(0, MAX_LATENCIES).filter((item) => {
        const parsed = parseLatency(item);
        if (!parsed.ok) report(line, field, "bad-latency", parsed.message);
        return parsed.ok;
      });
      if (list.length > MAX_LATENCIES)
        report(line, field, "too-many", `more than ${MAX_LATENCIES} values; the rest are ignored`);
      values.latencies = good;
      return;
    }
    case "Exclude":
    case "IncludeOnly": {
      const list = commaList(value);
      const good = list.slice(0, MAX_PATTERNS).filter((item) => {
        const c = compilePattern(item);
        if (!c.ok) report(line, field, "bad-pattern", c.message);
        return c.ok;
      });
      if (list.length > MAX_PATTERNS)
        report(line, field, "too-many", `more than ${MAX_PATTERNS} patterns; the rest are ignored`);
      if (field === "Exclude") values.exclude = good;
      else values.includeOnly = good;
      return;
    }
    case "MaxQuerySpan": {
      const parsed = parseLatency(value, { countRequired: true });
      if (parsed.ok) values.maxQuerySpan = parsed.value;
      else report(line, field, "bad-span", parsed.message);
      return;
    }
  }
}

/** Writes the file; fields left empty are left out, as the grammar's braces allow. */
export function formatRupInfo(info: RupInfo): string {
  const lines = [`RUP-CGI: ${info.cgiUrl}`];
  if (info.authentifier !== null) lines.push(`Authentifier: ${info.authentifier}`);
  if (info.latencies.length > 0) lines.push(`Latency: ${info.latencies.join(", ")}`);
  if (info.exclude.length > 0) lines.push(`Exclude: ${info.exclude.join(", ")}`);
  if (info.includeOnly.length > 0) lines.push(`IncludeOnly: ${info.includeOnly.join(", ")}`);
  if (info.maxQuerySpan !== null)
    lines.push(`MaxQuerySpan: ${formatLatency(info.maxQuerySpan, { alwaysCount: true })}`);
  for (const e of info.extensions) lines.push(`${e.key}: ${e.value}`);
  return `${lines.join("\n")}\n`;
}
