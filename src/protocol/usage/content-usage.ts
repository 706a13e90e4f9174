/**
 * Content-Usage: a statement of preference in the format of draft-ietf-aipref-vocab-07 §6,
 * carried by the HTTP header field of draft-ietf-aipref-attach-05 §2 or by its robots.txt rule
 * (§3). Reading never fails: a value that does not parse has every preference unknown
 * (vocab-07 §6.5.1), and says why.
 */
import { MAX_PREFERENCE_LENGTH } from "./limits.js";
import { type DictionaryMember, parseDictionary } from "./structured-dictionary.js";
import {
  AIPREF_LABELS,
  type Category,
  type Preference,
  type UsageDiagnostic,
  type UsageSource,
  type Statement,
  shortText,
} from "./vocabulary.js";

export interface StatementReading {
  readonly statement: Statement;
  readonly diagnostics: readonly UsageDiagnostic[];
}

/**
 * Reads a statement of preference (`train-ai=n, search=y`). `source` says where it was
 * found; its `text` is filled in here when empty.
 */
export function readContentUsage(value: string, source: UsageSource): StatementReading {
  const diagnostics: UsageDiagnostic[] = [];
  const preferences: Partial<Record<Category, Preference>> = {};
  const unknown: { label: string; value: string }[] = [];
  const done = () => ({
    statement: { source, preferences, unknown },
    diagnostics,
  });
  if (value.length > MAX_PREFERENCE_LENGTH) {
    diagnostics.push({
      severity: "warning",
      code: "usage-too-long",
      message: `the statement is ${value.length} characters; more than ${MAX_PREFERENCE_LENGTH} is not read, so every preference is unknown`,
      limit: MAX_PREFERENCE_LENGTH,
    });
    return done();
  }
  if (value === "") {
    diagnostics.push({
      severity: "warning",
      code: "usage-empty",
      message: "the statement is empty: it states no preference",
    });
    return done();
  }
  const parsed = parseDictionary(value);
  if (!parsed.ok) {
    // vocab-07 §6.5.1: if the Dictionary does not parse, preferences are unknown.
    diagnostics.push({
      severity: "warning",
      code: "usage-syntax",
      message: `not a Structured Fields Dictionary at character ${parsed.offset + 1}: ${parsed.error}; every preference of this statement is unknown`,
    });
    return done();
  }
  for (const key of parsed.repeated) {
    diagnostics.push({
      severity: "warning",
      code: "usage-repeated",
      message: `"${key}" is written more than once; only its last value counts`,
    });
  }
  for (const member of parsed.members) {
    if (AIPREF_LABELS.has(member.key)) {
      const preference = preferenceOf(member);
      if (preference !== null) preferences[member.key as Category] = preference;
      else {
        // vocab-07 §6.5: anything but the tokens y and n leaves the category unknown; not an error.
        diagnostics.push({
          severity: "warning",
          code: "usage-value",
          message: `"${member.key}" has ${describe(member)}; only the tokens y and n state a preference, so it is unknown`,
        });
      }
    } else {
      // vocab-07 §6.4: unknown labels MUST be ignored; heed keeps them to report.
      unknown.push({ label: member.key, value: describe(member) });
    }
  }
  return done();
}

function preferenceOf(member: DictionaryMember): Preference | null {
  if (member.type !== "token") return null;
  if (member.text === "y") return "allowed";
  if (member.text === "n") return "disallowed";
  return null;
}

function describe(member: DictionaryMember): string {
  switch (member.type) {
    case "token":
      return member.text;
    case "boolean":
      return member.text === "?1" ? "no value (a boolean true)" : "?0";
    case "string":
      return `the string "${shortText(member.text)}"`;
    case "inner-list":
      return "a list";
    default:
      return `a ${member.type} ${member.text}`;
  }
}

/** A robots.txt Content-Usage or Content-Signal value split into its optional path and its statement. */
export interface RuleValue {
  /** The path pattern, or null when the rule has none (it then applies to every path). */
  readonly path: string | null;
  readonly statement: string;
}

/**
 * draft-ietf-aipref-attach-05 §3.2: a value starting with `/` has a path, which ends at the
 * first SP or HTAB; the rest is the statement. Any other first character means no path.
 */
export function splitRuleValue(value: string): RuleValue {
  if (value.charCodeAt(0) !== 0x2f) return { path: null, statement: value };
  let end = 0;
  while (end < value.length) {
    const c = value.charCodeAt(end);
    if (c === 0x20 || c === 0x09) break;
    end++;
  }
  let from = end;
  while (
    from < value.length &&
    (value.charCodeAt(from) === 0x20 || value.charCodeAt(from) === 0x09)
  )
    from++;
  return { path: value.slice(0, end), statement: value.slice(from) };
}
