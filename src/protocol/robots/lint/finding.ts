/** Small helpers shared by the lint checks. */
import type { Diagnostic, Severity } from "../diagnostic.js";
import type { Dialect } from "../dialect.js";
import type { RobotsPolicy } from "../policy.js";

/** A lint finding has the shape of a parser diagnostic, so both print and sort alike. */
export type LintFinding = Diagnostic;

/** What every check sees: the compiled policy, and a sink for what it finds. */
export interface LintContext {
  readonly policy: RobotsPolicy;
  readonly dialect: Dialect;
  readonly add: (line: number | null, severity: Severity, code: string, message: string) => void;
  /**
   * Drops the parser's diagnostic with this line and code: lint reports that line in its own
   * words, under another code (a REGP `bad-value` on an Ip line becomes `bad-ip`, say).
   */
  readonly replace: (line: number, code: string) => void;
}

/** Dialect names as people write them. */
export const DIALECT_NAME: Readonly<Record<Dialect, string>> = {
  rfc9309: "RFC 9309",
  koster1996: "Koster 1996",
  regp: "REGP",
};

// Messages stay on one line and short enough to read: values from a file can be 16 KiB.
const QUOTE_MAX = 60;

/** `"value"`, cut to a readable length. */
export function quote(text: string): string {
  const short = text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX - 3)}...` : text;
  return `"${short}"`;
}

/** `user-agent` → `User-agent`: keys as robots.txt files usually spell them. */
export function displayKey(lowerKey: string): string {
  return lowerKey === "" ? lowerKey : lowerKey[0]?.toUpperCase() + lowerKey.slice(1);
}
