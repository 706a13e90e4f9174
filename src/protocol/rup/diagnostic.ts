/** A finding about RUP text, tied to its line. Content never throws; it yields these. */
export interface RupDiagnostic {
  /** 1-based line number, or null for the text as a whole. */
  readonly line: number | null;
  /** The field concerned (`Latency`, `SequenceNumber`, `New` …), or null. */
  readonly field: string | null;
  readonly severity: "error" | "warning";
  /** Stable identifier, e.g. `missing-cgi`; tests and tools key on it. */
  readonly code: string;
  /** One line, for a person. */
  readonly message: string;
}

export type Report = (
  line: number | null,
  field: string | null,
  code: string,
  message: string,
  severity?: "error" | "warning",
) => void;

/** A list of findings and the function that adds to it (errors unless told otherwise). */
export function collector(): { diagnostics: RupDiagnostic[]; report: Report } {
  const diagnostics: RupDiagnostic[] = [];
  const report: Report = (line, field, code, message, severity = "error") => {
    diagnostics.push({ line, field, severity, code, message });
  };
  return { diagnostics, report };
}
