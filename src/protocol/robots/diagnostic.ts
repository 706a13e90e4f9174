/** A finding about a robots.txt, tied to its line. Content never throws; it yields these. */
export interface Diagnostic {
  /** 1-based line number, or null for the file as a whole. */
  readonly line: number | null;
  readonly severity: Severity;
  /** Stable identifier, e.g. `missing-colon`; tests and tools key on it. */
  readonly code: string;
  /** One line, for a person. */
  readonly message: string;
}

export type Severity = "error" | "warning" | "info";
