/** Which rules apply (DESIGN §3). */
export type Dialect = "rfc9309" | "koster1996" | "regp";
export type DialectChoice = Dialect | "auto";

export const DIALECTS: readonly Dialect[] = ["rfc9309", "koster1996", "regp"];

/** `auto`: `Robot-version: 1.x/2.x` is Koster 1996, `3.x` is REGP, none is RFC 9309. */
export function chooseDialect(choice: DialectChoice, robotVersion: string | null): Dialect {
  if (choice !== "auto") return choice;
  if (robotVersion === null) return "rfc9309";
  const major = robotVersion.trim().split(".")[0];
  if (major === "1" || major === "2") return "koster1996";
  if (major === "3") return "regp";
  return "rfc9309";
}

// One object a dialect, shared: a kept parse holds its dialect's options, and an object a file
// was 1,558 of them (62 KB) on the real files.
const KOSTER_PATTERNS = Object.freeze({ wildcards: false, ignoreCase: false });
const RFC_PATTERNS = Object.freeze({ wildcards: true, ignoreCase: false });
// seeds/003 §3.2.5: values are case-insensitive.
const REGP_PATTERNS = Object.freeze({ wildcards: true, ignoreCase: true });

/** The pattern syntax of a dialect. */
export function patternOptions(dialect: Dialect): {
  readonly wildcards: boolean;
  readonly ignoreCase: boolean;
} {
  switch (dialect) {
    case "koster1996":
      return KOSTER_PATTERNS;
    case "rfc9309":
      return RFC_PATTERNS;
    case "regp":
      return REGP_PATTERNS;
  }
}
