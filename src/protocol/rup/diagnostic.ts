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
