/**
 * What applies to one URL, for one robot and one purpose, and where it came from.
 *
 * Precedence, in order:
 * 1. Each form first settles itself by its own rules: robots.txt lines by the longest matching
 *    path in the robot's group (robots-usage.ts); TDMRep by file < header < meta (tdmrep.ts).
 * 2. robots.txt states preferences only for URLs the robot may crawl
 *    (draft-ietf-aipref-attach-05 §3.1): for a disallowed URL its lines are left out.
 * 3. The statements left (robots.txt Content-Usage and Content-Signal, the Content-Usage and
 *    Content-Signal headers, TDMRep, noai) are combined per category as
 *    draft-ietf-aipref-vocab-07 §5.1 says: any "disallowed" makes it disallowed; else any
 *    "allowed" makes it allowed; else it is unknown. No form outranks another: the most
 *    restrictive statement wins, wherever it was made.
 * 4. For a purpose, "may use" is false only when its category is disallowed. Unknown is read as
 *    allowed unless the caller asks otherwise (vocab-07 §5 takes no position on the default).
 */
import { readNoAiValue } from "./noai.js";
import { readContentSignal } from "./content-signal.js";
import { readContentUsage, type StatementReading } from "./content-usage.js";
import { tdmAnswer, type TdmRepFile, tdmStatement } from "./tdmrep.js";
import {
  CATEGORIES,
  type Category,
  type Statement,
  type UsageDiagnostic,
  type UsageSource,
  type UsageValue,
} from "./vocabulary.js";

/** One category's answer. */
export interface CategoryAnswer {
  readonly value: UsageValue;
  /** The statement that decided: the first (in order read) with the winning value; null if unknown. */
  readonly from: UsageSource | null;
  /** Every statement with an explicit preference for the category, deciding or not. */
  readonly sources: readonly (UsageSource & { readonly value: UsageValue })[];
}

export interface UsageAnswer {
  readonly categories: Readonly<Record<Category, CategoryAnswer>>;
  /** Every statement read, in order: robots.txt, headers, TDMRep, noai. */
  readonly statements: readonly Statement[];
  /** Labels no form defines, with where they were found. */
  readonly unknown: readonly {
    readonly label: string;
    readonly value: string;
    readonly source: UsageSource;
  }[];
  readonly diagnostics: readonly (UsageDiagnostic & { readonly source: UsageSource | null })[];
}

const NOTHING: CategoryAnswer = { value: "unknown", from: null, sources: [] };
/** The answer when no statement applies: shared, since most URLs of most sites get it. */
const NO_STATEMENTS: UsageAnswer = {
  categories: { search: NOTHING, "train-ai": NOTHING, "ai-input": NOTHING },
  statements: [],
  unknown: [],
  diagnostics: [],
};

/** Combines statements per vocab-07 §5.1. */
export function combineStatements(readings: readonly StatementReading[]): UsageAnswer {
  if (readings.length === 0) return NO_STATEMENTS;
  const categories = {} as Record<Category, CategoryAnswer>;
  for (const category of CATEGORIES) {
    const sources: (UsageSource & { value: UsageValue })[] = [];
    let disallowed: UsageSource | null = null;
    let allowed: UsageSource | null = null;
    for (const { statement } of readings) {
      const value = statement.preferences[category];
      if (value === undefined) continue;
      sources.push({ ...statement.source, value });
      if (value === "disallowed") disallowed ??= statement.source;
      else allowed ??= statement.source;
    }
    categories[category] =
      disallowed !== null
        ? { value: "disallowed", from: disallowed, sources }
        : allowed !== null
          ? { value: "allowed", from: allowed, sources }
          : { value: "unknown", from: null, sources };
  }
  return {
    categories,
    statements: readings.map((r) => r.statement),
    unknown: readings.flatMap((r) =>
      r.statement.unknown.map((u) => ({ ...u, source: r.statement.source })),
    ),
    diagnostics: readings.flatMap((r) =>
      r.diagnostics.map((d) => ({ ...d, source: r.statement.source })),
    ),
  };
}

/** What a response says about its own use: headers and, for HTML, its meta elements. */
export interface ResponseInputs {
  readonly url: string;
  /** The robot's product token, lower-case (for `X-Robots-Tag: agent: noai` and `<meta name=agent>`). */
  readonly agent: string;
  /** Header fields with lower-case names; repeated fields joined with ", " (RFC 9110 §5.3). */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly contentType?: string | null;
  /** `<meta name content>` pairs of an HTML page. */
  readonly meta?: readonly { readonly name: string; readonly content: string }[];
  /** /.well-known/tdmrep.json of the site, when it has one. */
  readonly tdmrep?: TdmRepFile | null;
}

/** The statements a response (its headers, its meta, the site's tdmrep.json) makes. */
export function responseStatements(inputs: ResponseInputs): StatementReading[] {
  const out: StatementReading[] = [];
  const headers = inputs.headers ?? {};
  const usage = headers["content-usage"];
  if (usage !== undefined) {
    out.push(
      readContentUsage(usage.trim(), {
        form: "content-usage",
        place: "header",
        line: null,
        name: "content-usage",
        text: usage.trim().slice(0, 200),
      }),
    );
  }
  const signal = headers["content-signal"];
  if (signal !== undefined) {
    out.push(
      readContentSignal(signal.trim(), {
        form: "content-signal",
        place: "header",
        line: null,
        name: "content-signal",
        text: signal.trim().slice(0, 200),
      }),
    );
  }
  const tdm = tdmStatement(
    tdmAnswer({
      url: inputs.url,
      file: inputs.tdmrep ?? null,
      ...(inputs.headers === undefined ? {} : { headers: inputs.headers }),
      ...(inputs.meta === undefined ? {} : { meta: inputs.meta }),
    }),
  );
  if (tdm !== null) out.push(tdm);
  const contentType = inputs.contentType ?? headers["content-type"] ?? null;
  const tag = headers["x-robots-tag"];
  if (tag !== undefined) {
    const said = readNoAiValue(inputs.agent, contentType, {
      place: "header",
      name: "x-robots-tag",
      text: tag,
    });
    if (said !== null) out.push(said);
  }
  for (const m of inputs.meta ?? []) {
    const name = m.name.trim().toLowerCase();
    if (name !== "robots" && name !== inputs.agent) continue;
    const said = readNoAiValue("", contentType, { place: "meta", name, text: m.content });
    if (said === null) continue;
    out.push(said);
    // The first element that states a preference is read; one only warned of does not count.
    if (Object.keys(said.statement.preferences).length > 0) break;
  }
  return out;
}

export interface VerdictOptions {
  /** What an unknown preference means for the purpose: `allow` (default) or `refuse`. */
  readonly unknown?: "allow" | "refuse";
}

/** May content be used for `purpose`? With the answer that decided. */
export function mayUse(
  answer: UsageAnswer,
  purpose: Category,
  options: VerdictOptions = {},
): { readonly allowed: boolean; readonly value: UsageValue; readonly from: UsageSource | null } {
  const { value, from } = answer.categories[purpose];
  const allowed = value === "allowed" || (value === "unknown" && options.unknown !== "refuse");
  return { allowed, value, from };
}

/**
 * The diagnostics of statements left unread because they passed a limit (a Content-Usage value
 * over 8 KiB): what an answer must show, since the preferences dropped look like none stated.
 */
export function limitDiagnostics(answer: UsageAnswer): UsageAnswer["diagnostics"] {
  return answer.diagnostics.filter((d) => d.limit !== undefined);
}

/**
 * The limit warnings of an answer ({@link limitDiagnostics}) for a person or a log, each naming
 * where the statement was made: `Content-Usage line 4: the statement is 9000 characters; …`,
 * `header x-robots-tag: the value is 9000 characters; …`.
 */
export function limitWarnings(answer: UsageAnswer): string[] {
  return limitDiagnostics(answer).map(
    (d) => `${d.source === null ? "a statement" : sourcePlace(d.source)}: ${d.message}`,
  );
}

/** A statement's place without its text: `Content-Usage line 4`, `header content-usage`. */
export function sourcePlace(source: UsageSource): string {
  const form =
    source.form === "content-usage"
      ? "Content-Usage"
      : source.form === "content-signal"
        ? "Content-Signal"
        : source.form === "tdmrep"
          ? "TDMRep"
          : "noai";
  switch (source.place) {
    case "robots.txt":
      return `${form} line ${source.line}`;
    case "tdmrep.json":
      return `tdmrep.json rule ${source.line}`;
    default:
      return `${source.place} ${source.name ?? form}`;
  }
}

/** Unknown labels shown in {@link usageJson}; the rest are counted in `unknownMore`. */
export const MAX_UNKNOWN_SHOWN = 20;

/** The preferences as plain JSON: `{ "train-ai": { value, from: {…} }, … }`, for output and logs. */
export function usageJson(answer: UsageAnswer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const category of CATEGORIES) {
    const { value, from, sources } = answer.categories[category];
    out[category] = {
      value,
      from: from === null ? null : sourceJson(from),
      ...(sources.length > 1
        ? { sources: sources.map((s) => ({ ...sourceJson(s), value: s.value })) }
        : {}),
    };
  }
  if (answer.unknown.length > 0)
    // Bounded: a log record per page should not carry a hostile header's thousand labels.
    out.unknown = answer.unknown.slice(0, MAX_UNKNOWN_SHOWN).map((u) => ({
      label: u.label,
      value: u.value,
      from: sourceJson(u.source),
    }));
  if (answer.unknown.length > MAX_UNKNOWN_SHOWN)
    out.unknownMore = answer.unknown.length - MAX_UNKNOWN_SHOWN;
  return out;
}

function sourceJson(source: UsageSource): Record<string, unknown> {
  return {
    form: source.form,
    place: source.place,
    ...(source.line === null ? {} : { line: source.line }),
    ...(source.name === null ? {} : { name: source.name }),
    text: source.text,
  };
}
