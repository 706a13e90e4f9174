/**
 * The modification report (seeds/001 §3.2), written and read:
 *
 *     SequenceNumber: integer
 *     URLBase: URL
 *
 *     New[date]: filepath[, filepath]*
 *     Change[date]: filepath[, filepath]*
 *     Delete[date]: filepath[, filepath]*
 *
 * The seed does not say how a date is written: heed writes RFC 3339 in UTC to the second
 * (`2026-11-21T08:00:00Z`) and reads anything `Date.parse` reads. File paths are URL paths
 * relative to URLBase, percent-encoded, so a comma or a space in a name never splits a list.
 */
import { collector, type RupDiagnostic } from "./diagnostic.js";
import { MAX_REPORT_BYTES, MAX_REPORT_LINES, MAX_REPORT_PATHS, REPORT_WRAP } from "./limits.js";
import { bounded, keyValue, splitLines } from "./lines.js";

export type ChangeKind = "New" | "Change" | "Delete";
export const CHANGE_KINDS: readonly ChangeKind[] = ["New", "Change", "Delete"];

export interface ChangeLine {
  readonly kind: ChangeKind;
  /** ms since the epoch. */
  readonly at: number;
  readonly paths: readonly string[];
}

export interface Report {
  readonly sequenceNumber: number;
  readonly urlBase: string;
  readonly changes: readonly ChangeLine[];
}

export interface ReportResult {
  /** Null when the header is unusable: without a sequence number the report cannot be placed. */
  readonly report: Report | null;
  readonly diagnostics: readonly RupDiagnostic[];
}

/** One change of one path, the unit the site logs. */
export interface Change {
  readonly kind: ChangeKind;
  readonly at: number;
  readonly path: string;
}

export function formatDate(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/**
 * Groups changes, in the order given, into lines: consecutive changes of the same kind and the
 * same second share a line, wrapped before {@link REPORT_WRAP} characters.
 */
export function groupChanges(changes: readonly Change[]): ChangeLine[] {
  const lines: { kind: ChangeKind; at: number; paths: string[]; length: number }[] = [];
  for (const change of changes) {
    const at = Math.floor(change.at / 1000) * 1000;
    const last = lines.at(-1);
    const head = `${change.kind}[${formatDate(at)}]: `.length;
    if (
      last !== undefined &&
      last.kind === change.kind &&
      last.at === at &&
      last.length + 2 + change.path.length <= REPORT_WRAP
    ) {
      last.paths.push(change.path);
      last.length += 2 + change.path.length;
    } else {
      lines.push({
        kind: change.kind,
        at,
        paths: [change.path],
        length: head + change.path.length,
      });
    }
  }
  return lines.map(({ kind, at, paths }) => ({ kind, at, paths }));
}

export function formatReport(report: Report): string {
  const out = [`SequenceNumber: ${report.sequenceNumber}`, `URLBase: ${report.urlBase}`, ""];
  for (const line of report.changes)
    out.push(`${line.kind}[${formatDate(line.at)}]: ${line.paths.join(", ")}`);
  return `${out.join("\n")}\n`;
}

const CHANGE_LINE = /^(New|Change|Delete)\s*\[([^\]]*)\]\s*:(.*)$/i;

export function parseReport(text: string): ReportResult {
  const { diagnostics, report } = collector();
  const { body, cut } = bounded(text, MAX_REPORT_BYTES);
  if (cut)
    report(
      null,
      null,
      "too-large",
      `the report is longer than ${MAX_REPORT_BYTES} characters; the rest is ignored`,
    );
  const { lines, more } = splitLines(body, MAX_REPORT_LINES + 3);
  if (more)
    report(
      null,
      null,
      "too-many-lines",
      `more than ${MAX_REPORT_LINES} change lines; the rest are ignored`,
    );

  // Leading blank lines are tolerated (some mail paths add one).
  let i = 0;
  while (i < lines.length && lines[i]?.text.trim() === "") i += 1;
  const header = readHeader(lines.slice(i, i + 2), report);
  i += 2;
  if (i < lines.length && lines[i]?.text.trim() !== "") {
    report(
      lines[i]?.number ?? null,
      null,
      "missing-blank-line",
      "expected a blank line after URLBase",
    );
  } else i += 1;

  const changes: ChangeLine[] = [];
  let paths = 0;
  for (const line of lines.slice(i)) {
    if (line.text.trim() === "") continue;
    if (line.cut)
      report(line.number, null, "line-too-long", "the line is too long; its end is ignored");
    const m = CHANGE_LINE.exec(line.text.trim());
    if (m === null) {
      report(
        line.number,
        null,
        "bad-change-line",
        `expected New[date]:, Change[date]: or Delete[date]:, got "${line.text.slice(0, 80)}"`,
      );
      continue;
    }
    const kind = CHANGE_KINDS.find((k) => k.toLowerCase() === (m[1] ?? "").toLowerCase()) ?? "New";
    const at = Date.parse(m[2] ?? "");
    if (Number.isNaN(at)) {
      report(line.number, kind, "bad-date", `"${m[2] ?? ""}" is not a date`);
      continue;
    }
    const list = (m[3] ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== "");
    if (list.length === 0) {
      report(line.number, kind, "no-paths", "the line names no path", "warning");
      continue;
    }
    if (paths + list.length > MAX_REPORT_PATHS) {
      report(
        line.number,
        kind,
        "too-many-paths",
        `more than ${MAX_REPORT_PATHS} paths; the rest are ignored`,
      );
      break;
    }
    paths += list.length;
    changes.push({ kind, at, paths: list });
  }
  if (header === null) return { report: null, diagnostics };
  return { report: { ...header, changes }, diagnostics };
}

type Sink = (line: number | null, field: string | null, code: string, message: string) => void;

function readHeader(
  lines: readonly { number: number; text: string }[],
  report: Sink,
): { sequenceNumber: number; urlBase: string } | null {
  let sequenceNumber: number | null = null;
  let urlBase: string | null = null;
  const [first, second] = lines;
  const seq = first === undefined ? null : keyValue(first.text);
  if (first === undefined || seq === null || seq.key.toLowerCase() !== "sequencenumber") {
    report(
      first?.number ?? null,
      "SequenceNumber",
      "missing-sequence-number",
      "the first line must be SequenceNumber: integer",
    );
  } else if (!/^\d{1,15}$/.test(seq.value)) {
    report(
      first.number,
      "SequenceNumber",
      "bad-sequence-number",
      `expected a whole number, got "${seq.value}"`,
    );
  } else sequenceNumber = Number(seq.value);
  const base = second === undefined ? null : keyValue(second.text);
  if (second === undefined || base === null || base.key.toLowerCase() !== "urlbase") {
    report(
      second?.number ?? null,
      "URLBase",
      "missing-url-base",
      "the second line must be URLBase: URL",
    );
  } else if (!URL.canParse(base.value) || !/^https?:$/i.test(new URL(base.value).protocol)) {
    report(
      second.number,
      "URLBase",
      "bad-url-base",
      `expected an http(s) URL, got "${base.value}"`,
    );
  } else urlBase = base.value;
  return sequenceNumber === null || urlBase === null ? null : { sequenceNumber, urlBase };
}

/**
 * Folds the changes of each path over a period into what a robot needs to act on: created then
 * changed is New; changed then deleted is Delete; created and deleted within the period is
 * nothing (the robot never saw it); deleted then created again is Change. Each path is dated by
 * its last change; the result is in time order, then path order. Input is in log order.
 */
export function collapseChanges(changes: readonly Change[]): Change[] {
  const byPath = new Map<string, { first: ChangeKind; last: ChangeKind; at: number }>();
  for (const c of changes) {
    const seen = byPath.get(c.path);
    if (seen === undefined) byPath.set(c.path, { first: c.kind, last: c.kind, at: c.at });
    else {
      seen.last = c.kind;
      seen.at = c.at;
    }
  }
  const out: Change[] = [];
  for (const [path, { first, last, at }] of byPath) {
    if (last === "Delete") {
      if (first !== "New") out.push({ kind: "Delete", at, path });
    } else out.push({ kind: first === "New" ? "New" : "Change", at, path });
  }
  return out.sort((a, b) => a.at - b.at || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
