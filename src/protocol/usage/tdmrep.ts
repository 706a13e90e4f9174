/**
 * TDMRep, the W3C TDM Reservation Protocol (Community Group Final Report; the text read is
 * the report's spec/index.html as of December 2025): `tdm-reservation` (1: text and data
 * mining rights are reserved; 0: not reserved) and `tdm-policy` (a URL), given by
 * /.well-known/tdmrep.json, by HTTP header fields, or by HTML meta elements.
 *
 * TDMRep's own rules, followed here: any other reservation value is a protocol error and
 * leaves the reservation unset; in tdmrep.json the first rule whose `location` matches decides
 * ("the most specific match is the first in sequence"), patterns being robots.txt patterns
 * (`*`, `$`), case-sensitive; a header supersedes the file, HTML meta supersedes the header,
 * and a technique that says nothing does not reset what an earlier one said.
 */
import { PathPattern } from "../robots/path-pattern.js";
import { requestPath } from "../robots/request-path.js";
import type { StatementReading } from "./content-usage.js";
import { MAX_TDMREP_BYTES, MAX_TDMREP_DEPTH, MAX_TDMREP_RULES } from "./limits.js";
import {
  type Category,
  type Preference,
  shortText,
  type UsageDiagnostic,
  type UsageSource,
} from "./vocabulary.js";

export interface TdmRule {
  /** 1-based position in the file. */
  readonly index: number;
  readonly location: string;
  readonly pattern: PathPattern;
  /** 1, 0, or null when the value is a protocol error (unset). */
  readonly reservation: 0 | 1 | null;
  readonly policy: string | null;
}

export interface TdmRepFile {
  readonly rules: readonly TdmRule[];
  /** Problems, each naming the rule (`rule 3`) or the file. */
  readonly diagnostics: readonly (UsageDiagnostic & { readonly rule: number | null })[];
}

const PATTERN = { wildcards: true } as const;

/** Reads /.well-known/tdmrep.json. Never throws on content. */
export function readTdmRepJson(input: string | Uint8Array): TdmRepFile {
  const diagnostics: (UsageDiagnostic & { rule: number | null })[] = [];
  const rules: TdmRule[] = [];
  const fail = (code: string, message: string, limit?: number): TdmRepFile => {
    diagnostics.push({
      severity: "warning",
      code,
      message,
      rule: null,
      ...(limit === undefined ? {} : { limit }),
    });
    return { rules, diagnostics };
  };
  const size = typeof input === "string" ? input.length : input.byteLength;
  if (size > MAX_TDMREP_BYTES)
    return fail(
      "tdmrep-too-large",
      // "over": a reader stops one byte past the limit and does not learn the whole size.
      `tdmrep.json is over ${MAX_TDMREP_BYTES} bytes; more is not read`,
      MAX_TDMREP_BYTES,
    );
  let text: string;
  try {
    text =
      typeof input === "string" ? input : new TextDecoder("utf-8", { fatal: true }).decode(input);
  } catch {
    return fail("tdmrep-encoding", "tdmrep.json is not UTF-8");
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const depth = nesting(text);
  if (depth > MAX_TDMREP_DEPTH)
    return fail(
      "tdmrep-too-deep",
      `tdmrep.json nests ${depth} deep; more than ${MAX_TDMREP_DEPTH} is not read`,
      MAX_TDMREP_DEPTH,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(
      "tdmrep-json",
      `tdmrep.json is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!Array.isArray(value))
    return fail("tdmrep-shape", "tdmrep.json must be a JSON array of rules, even for one rule");
  value.forEach((item: unknown, i) => {
    const index = i + 1;
    const warn = (code: string, message: string, limit?: number) =>
      diagnostics.push({
        severity: "warning",
        code,
        message: `rule ${index}: ${message}`,
        rule: index,
        ...(limit === undefined ? {} : { limit }),
      });
    if (index > MAX_TDMREP_RULES) {
      if (index === MAX_TDMREP_RULES + 1)
        warn(
          "tdmrep-too-many",
          `more than ${MAX_TDMREP_RULES} rules; the rest are ignored`,
          MAX_TDMREP_RULES,
        );
      return;
    }
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      warn("tdmrep-shape", "a rule is a JSON object");
      return;
    }
    const rule = item as Record<string, unknown>;
    const location = rule.location;
    if (typeof location !== "string" || location === "") {
      warn("tdmrep-location", `"location" is required and is a path pattern`);
      return;
    }
    if (!location.startsWith("/") && !location.startsWith("*")) {
      warn(
        "tdmrep-location",
        `location ${JSON.stringify(shortText(location))} does not start with "/"; it matches nothing`,
      );
      return;
    }
    const reservation = readReservation(rule["tdm-reservation"]);
    if (reservation === null)
      warn(
        "tdmrep-reservation",
        `"tdm-reservation" must be 1 or 0, got ${JSON.stringify(rule["tdm-reservation"] ?? null)}; TDMRep reads it as unset`,
      );
    const policy = typeof rule["tdm-policy"] === "string" ? (rule["tdm-policy"] as string) : null;
    if (rule["tdm-policy"] !== undefined && policy === null)
      warn("tdmrep-policy", `"tdm-policy" must be a URL string`);
    rules.push({
      index,
      location,
      pattern: new PathPattern(location, PATTERN),
      reservation,
      policy,
    });
  });
  return { rules, diagnostics };
}

/** How deep `[` and `{` nest outside strings: checked before JSON.parse is given the text. */
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > MAX_TDMREP_DEPTH) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

function readReservation(value: unknown): 0 | 1 | null {
  return value === 1 ? 1 : value === 0 ? 0 : null;
}

/** The first rule whose location matches `url`'s path, or null (TDMRep: then unset). */
export function tdmRuleFor(file: TdmRepFile, url: string): TdmRule | null {
  const path = requestPath(url);
  if (!path.ok) return null;
  for (const rule of file.rules) if (rule.pattern.matches(path.path)) return rule;
  return null;
}

/** What TDMRep says of one resource after its techniques are weighed. */
export interface TdmAnswer {
  readonly reservation: 0 | 1 | null;
  readonly policy: string | null;
  /** The technique that set the reservation. */
  readonly source: UsageSource | null;
  readonly diagnostics: readonly UsageDiagnostic[];
}

export interface TdmInputs {
  readonly file?: TdmRepFile | null;
  readonly url: string;
  /** Header fields, lower-case names. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** `<meta name=… content=…>` pairs of an HTML page, names as written. */
  readonly meta?: readonly { readonly name: string; readonly content: string }[];
}

/** TDMRep "Processing priority": file, then header, then meta; absence resets nothing. */
export function tdmAnswer(inputs: TdmInputs): TdmAnswer {
  const diagnostics: UsageDiagnostic[] = [];
  let reservation: 0 | 1 | null = null;
  let policy: string | null = null;
  let source: UsageSource | null = null;
  const rule = inputs.file ? tdmRuleFor(inputs.file, inputs.url) : null;
  if (rule !== null && rule.reservation !== null) {
    reservation = rule.reservation;
    policy = rule.policy;
    source = {
      form: "tdmrep",
      place: "tdmrep.json",
      line: rule.index,
      name: "tdm-reservation",
      text: shortText(`location ${rule.location}: tdm-reservation ${rule.reservation}`),
    };
  }
  const take = (
    place: "header" | "meta",
    name: string,
    value: string | undefined,
    policyValue: string | undefined,
  ) => {
    if (value !== undefined) {
      const trimmed = value.trim();
      const read = readReservationValues(trimmed, name, diagnostics);
      if (read !== null) {
        reservation = read;
        source = { form: "tdmrep", place, line: null, name, text: shortText(trimmed) };
        policy = null;
      }
    }
    if (policyValue !== undefined && policyValue.trim() !== "") policy = policyValue.trim();
  };
  const headers = inputs.headers ?? {};
  take("header", "tdm-reservation", headers["tdm-reservation"], headers["tdm-policy"]);
  let metaReservation: string | undefined;
  let metaPolicy: string | undefined;
  for (const m of inputs.meta ?? []) {
    const name = m.name.trim().toLowerCase();
    // Repeated elements are read as repeated header lines are: every one counts.
    if (name === "tdm-reservation" || name === "tdm:reservation")
      metaReservation =
        metaReservation === undefined ? m.content : `${metaReservation}, ${m.content}`;
    else if (name === "tdm-policy" || name === "tdm:policy") metaPolicy = m.content;
  }
  take("meta", "tdm-reservation", metaReservation, metaPolicy);
  return { reservation, policy, source, diagnostics };
}

/** Values of one tdm-reservation field that get a diagnostic each; the rest are still read. */
const MAX_VALUE_DIAGNOSTICS = 5;

/**
 * A tdm-reservation field, which may have come as several lines joined with ", " (RFC 9110
 * §5.3; net/http-client.ts joins them). TDMRep defines one value, 1 or 0, and says nothing of
 * repeated lines; heed's reading is the safe one: any 1 reserves, else any 0 does not, and a
 * value that is neither is a protocol error that leaves only itself unset (TDMRep).
 */
function readReservationValues(
  value: string,
  name: string,
  diagnostics: UsageDiagnostic[],
): 0 | 1 | null {
  const values = value.split(",").map((v) => v.trim());
  let read: 0 | 1 | null = null;
  let bad = 0;
  for (const v of values) {
    if (v === "1") read = 1;
    else if (v === "0") read ??= 0;
    else if (++bad <= MAX_VALUE_DIAGNOSTICS)
      diagnostics.push({
        severity: "warning",
        code: "tdm-reservation-value",
        message: `${name} ${JSON.stringify(shortText(v))} is neither 1 nor 0; TDMRep reads it as unset`,
      });
  }
  if (values.length > 1 && new Set(values).size > 1)
    diagnostics.push({
      severity: "warning",
      code: "tdm-reservation-repeated",
      message: `${name} is given ${values.length} times (${shortText(values.join(", "))}); heed reads any 1 as reserved`,
    });
  return read;
}

/**
 * TDMRep mapped to heed's categories. Reading heed chose (TDMRep predates the vocabularies):
 * text and data mining covers training a model and feeding content to one, so a reservation
 * (1) disallows `train-ai` and `ai-input`, and 0 allows them; it says nothing of `search`.
 */
export function tdmStatement(answer: TdmAnswer): StatementReading | null {
  if (answer.reservation === null || answer.source === null) return null;
  const preference: Preference = answer.reservation === 1 ? "disallowed" : "allowed";
  const preferences: Partial<Record<Category, Preference>> = {
    "train-ai": preference,
    "ai-input": preference,
  };
  return {
    statement: { source: answer.source, preferences, unknown: [] },
    diagnostics: answer.diagnostics,
  };
}
