/**
 * `heed lint` for a /data.txt: every diagnostic of the reading, sorted by line, with counts,
 * and the form that was read and why (the issue: "heed reads both, and says which it read").
 */
import type { Diagnostic } from "../robots/diagnostic.js";
import { readDataTxt, type ReadDataTxtOptions } from "./read.js";
import type { DataTxtForm } from "./types.js";

export interface DataTxtLintReport {
  readonly form: DataTxtForm;
  readonly formReason: string;
  readonly datasets: number;
  readonly records: number;
  readonly findings: readonly Diagnostic[];
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export function lintDataTxt(
  input: string | Uint8Array,
  options: ReadDataTxtOptions = {},
): DataTxtLintReport {
  const read = readDataTxt(input, options);
  const findings: Diagnostic[] = [
    {
      line: null,
      severity: "info",
      code: "form",
      message: `read as the ${formName(read.form)}: ${read.formReason}`,
    },
    ...[...read.diagnostics].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
  ];
  const n = (severity: Diagnostic["severity"]) =>
    findings.filter((f) => f.severity === severity).length;
  return {
    form: read.form,
    formReason: read.formReason,
    datasets: read.entries.length,
    records: read.records.length,
    findings,
    errors: n("error"),
    warnings: n("warning"),
    infos: n("info"),
  };
}

export function formName(form: DataTxtForm): string {
  switch (form) {
    case "yaml":
      return "YAML catalog form";
    case "draft":
      return "draft form (robots.txt grammar)";
    case "empty":
      return "empty file";
  }
}
