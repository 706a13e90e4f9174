/**
 * `heed lint <file|URL|->`: errors, warnings and notes about a robots.txt, one a line in the
 * form compilers use (`FILE:LINE: severity: message [code]`), or one JSON object with `--json`.
 * A file named `data.txt` (or `--kind data…`) is linted as a /data.txt instead (lint-data-txt.ts).
 * Exit 0: no errors; 1: errors; 2: bad input (a missing file, an unreachable URL, bad options).
 */
import {
  DIALECTS,
  type DialectChoice,
  type LintFinding,
  type LintReport,
  lintRobots,
  MAX_ROBOTS_BYTES,
} from "../../protocol/robots/index.js";
import { CliError, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { loadRobots, ROBOTS_READ_BYTES } from "../robots-source.js";
import { isDataTxtKind, LINT_KINDS, type LintKind, runLintDataTxt } from "./lint-data-txt.js";
import { printable } from "../printable.js";
import { sizeOver } from "../size-finding.js";

export interface LintCommandOptions {
  /** Default `auto`. */
  readonly dialect?: string;
  /** Default `auto`: by the file name (`data.txt`), else robots.txt. */
  readonly kind?: string;
  readonly json: boolean;
}

const CHOICES: readonly string[] = ["auto", ...DIALECTS];

export async function runLint(
  source: string,
  options: LintCommandOptions,
  io: Io,
): Promise<number> {
  const kind = options.kind ?? "auto";
  if (!(LINT_KINDS as readonly string[]).includes(kind)) {
    throw new CliError(`--kind: expected one of ${LINT_KINDS.join(", ")}, got "${kind}"`);
  }
  if (isDataTxtKind(kind as LintKind, source)) {
    return runLintDataTxt(source, { kind: kind as LintKind, json: options.json }, io);
  }
  const dialect = options.dialect ?? "auto";
  if (!CHOICES.includes(dialect)) {
    throw new CliError(`--dialect: expected one of ${CHOICES.join(", ")}, got "${dialect}"`);
  }
  const loaded = await loadRobots(source, {
    stdin: io.stdin,
    onNote: (text) => io.stderr.write(`heed lint: ${text}\n`),
  });
  let report = lintRobots(loaded.bytes, {
    dialect: dialect as DialectChoice,
    ...(loaded.verdict === null ? {} : { verdict: loaded.verdict }),
  });
  // A Link rel="license" header of the robots.txt answer (RSL): told, as its License: lines are.
  const links: LintFinding[] = (loaded.linkLicenses ?? []).map((license) => ({
    line: null,
    severity: "info",
    code: "rsl-license-link",
    message: `the robots.txt answer's ${license.where} names the site's content license (RSL): ${license.url}`,
  }));
  if (links.length > 0)
    report = {
      ...report,
      findings: [...report.findings, ...links],
      infos: report.infos + links.length,
    };
  const out = new LineWriter(io.stdout);
  // A file or standard input is read one byte past what is parsed, and its size is not known.
  if (loaded.origin === null && loaded.bytes.byteLength === ROBOTS_READ_BYTES)
    report = { ...report, findings: sizeOver(report.findings, MAX_ROBOTS_BYTES) };
  if (options.json) {
    await out.line(JSON.stringify(toJson(loaded.label, report)));
  } else {
    for (const f of report.findings) await out.line(toText(loaded.label, f));
    await out.line(summary(report));
  }
  await out.flush();
  return report.errors > 0 ? EXIT_NOT_ALLOWED : EXIT_OK;
}

function toJson(file: string, report: LintReport): Record<string, unknown> {
  return {
    file,
    dialect: report.dialect,
    errors: report.errors,
    warnings: report.warnings,
    infos: report.infos,
    findings: report.findings.map((f) => ({
      line: f.line,
      severity: f.severity,
      code: f.code,
      message: f.message,
    })),
  };
}

/** `robots.txt:3: warning: … [code]`; file-wide findings have no line number. */
function toText(file: string, f: LintFinding): string {
  const where = f.line === null ? file : `${file}:${f.line}`;
  // A message may quote the file's own text, control characters included.
  return printable(`${where}: ${f.severity}: ${f.message} [${f.code}]`);
}

function summary(report: LintReport): string {
  return `${count(report.errors, "error")}, ${count(report.warnings, "warning")}, ${count(report.infos, "note")}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
