/**
 * One description of a site's usage preferences, from which heed writes every form: the
 * robots.txt lines (Content-Usage and Content-Signal), the Content-Usage header per path, and
 * /.well-known/tdmrep.json. A JSON object:
 *
 *   {
 *     "default": { "search": "y", "train-ai": "n", "ai-input": "n" },
 *     "paths": [
 *       { "path": "/open-data/", "train-ai": "y", "ai-input": "y" },
 *       { "path": "/books/", "tdm-policy": "https://example.com/tdm-policy.json" }
 *     ]
 *   }
 *
 * Values are `y` or `n` (`yes`/`no` accepted); a category left out states nothing. A path is a
 * robots.txt path pattern; for a URL, each category comes from the longest path that names it,
 * else from `default`, as the robots.txt rules written from it read (draft-ietf-aipref-attach-05 §3.1);
 * between paths of one length that differ, the refusal wins.
 */
import { PathPattern } from "../robots/path-pattern.js";
import { requestPath } from "../robots/request-path.js";
import { MAX_TDMREP_BYTES, MAX_USAGE_LINES } from "./limits.js";
import { CATEGORIES, type Category, type Preference } from "./vocabulary.js";

export type Preferences = Readonly<Partial<Record<Category, Preference>>>;

export interface DescribedPath {
  readonly path: string;
  readonly pattern: PathPattern;
  readonly preferences: Preferences;
  readonly tdmPolicy: string | null;
}

export interface UsageDescription {
  readonly defaults: Preferences;
  readonly defaultTdmPolicy: string | null;
  /** Longest path first. */
  readonly paths: readonly DescribedPath[];
}

export type DescriptionReading =
  | { readonly ok: true; readonly description: UsageDescription }
  | { readonly ok: false; readonly error: string };

const PATTERN = { wildcards: true } as const;

/** Reads a description; a problem is an error naming the field, never an exception. */
export function readUsageDescription(text: string): DescriptionReading {
  if (text.length > MAX_TDMREP_BYTES)
    return { ok: false, error: `more than ${MAX_TDMREP_BYTES} characters` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      error: `not JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { ok: false, error: 'expected an object with "default" and "paths"' };
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (key !== "default" && key !== "paths")
      return { ok: false, error: `unknown field "${key}" (expected "default" and "paths")` };
  }
  const defaults = readEntry(object.default ?? {}, "default", false);
  if (typeof defaults === "string") return { ok: false, error: defaults };
  const list = object.paths ?? [];
  if (!Array.isArray(list)) return { ok: false, error: '"paths" must be an array' };
  if (list.length > MAX_USAGE_LINES)
    return { ok: false, error: `"paths" has more than ${MAX_USAGE_LINES} entries` };
  const paths: DescribedPath[] = [];
  for (let i = 0; i < list.length; i++) {
    const entry = readEntry(list[i], `paths[${i}]`, true);
    if (typeof entry === "string") return { ok: false, error: entry };
    const path = entry.path as string;
    paths.push({
      path,
      pattern: new PathPattern(path, PATTERN),
      preferences: entry.preferences,
      tdmPolicy: entry.tdmPolicy,
    });
  }
  paths.sort((a, b) => b.pattern.specificity - a.pattern.specificity);
  return {
    ok: true,
    description: {
      defaults: defaults.preferences,
      defaultTdmPolicy: defaults.tdmPolicy,
      paths,
    },
  };
}

function readEntry(
  value: unknown,
  where: string,
  needsPath: boolean,
): { path: string | null; preferences: Preferences; tdmPolicy: string | null } | string {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return `${where}: expected an object`;
  const preferences: Partial<Record<Category, Preference>> = {};
  let path: string | null = null;
  let tdmPolicy: string | null = null;
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    if (key === "path") {
      if (!needsPath) return `${where}: "path" belongs in "paths" entries`;
      if (typeof raw !== "string" || !raw.startsWith("/") || /[\s#]/.test(raw))
        return `${where}.path: expected a path starting with "/", without blanks or #`;
      path = raw;
    } else if (key === "tdm-policy") {
      if (typeof raw !== "string" || !/^https?:\/\/\S+$/.test(raw))
        return `${where}.tdm-policy: expected an http(s) URL`;
      tdmPolicy = raw;
    } else if ((CATEGORIES as readonly string[]).includes(key)) {
      const said = typeof raw === "string" ? raw.toLowerCase() : "";
      if (said === "y" || said === "yes") preferences[key as Category] = "allowed";
      else if (said === "n" || said === "no") preferences[key as Category] = "disallowed";
      else return `${where}.${key}: expected "y" or "n", got ${JSON.stringify(raw)}`;
    } else {
      return `${where}: unknown field "${key}" (expected ${CATEGORIES.join(", ")}, tdm-policy${needsPath ? ", path" : ""})`;
    }
  }
  if (needsPath && path === null) return `${where}: "path" is required`;
  return { path, preferences, tdmPolicy };
}

/** The preferences the description gives `url` (a path or an absolute URL). */
export function describedPreferences(description: UsageDescription, url: string): Preferences {
  const path = requestPath(url);
  const matching = path.ok ? description.paths.filter((p) => p.pattern.matches(path.path)) : [];
  // As the robots.txt lines written from it read (robots-usage.ts): each form by itself, from
  // every line of the longest matching path that has one of that form; where two of them differ
  // the refusal wins (vocab-07 §5.1). Paths of one length are not ranked by the order written.
  const out: Partial<Record<Category, Preference>> = {};
  const say = (said: Preferences, categories: readonly Category[]) => {
    for (const category of categories) {
      const value = said[category];
      if (value !== undefined && out[category] !== "disallowed") out[category] = value;
    }
  };
  for (const form of FORMS) {
    let longest = -1;
    for (const p of matching) {
      if (p.pattern.specificity < longest) break;
      const said = inheritedOnce(description, p);
      if (!form.some((category) => said[category] !== undefined)) continue;
      longest = p.pattern.specificity;
      say(said, form);
    }
    if (longest === -1) say(description.defaults, form);
  }
  return out;
}

// The categories each robots.txt line states: Content-Usage, then Content-Signal (see below).
const FORMS: readonly (readonly Category[])[] = [
  ["train-ai", "search"],
  ["search", "ai-input", "train-ai"],
];

const inheritedOf = new WeakMap<DescribedPath, Preferences>();

/** {@link inherited}, worked out once per path: a server asks it on every request. */
function inheritedOnce(description: UsageDescription, entry: DescribedPath): Preferences {
  let said = inheritedOf.get(entry);
  if (said === undefined) {
    said = inherited(description, entry);
    inheritedOf.set(entry, said);
  }
  return said;
}

/** A Content-Usage value (vocab-07 §6) for the vocabulary's categories, or null when it states none. */
export function contentUsageValue(preferences: Preferences): string | null {
  const parts: string[] = [];
  for (const category of ["train-ai", "search"] as const) {
    const value = preferences[category];
    if (value !== undefined) parts.push(`${category}=${value === "allowed" ? "y" : "n"}`);
  }
  return parts.length === 0 ? null : parts.join(", ");
}

/** A Content-Signal value (Cloudflare's labels), or null when it states none. */
export function contentSignalValue(preferences: Preferences): string | null {
  const parts: string[] = [];
  for (const [category, label] of [
    ["search", "search"],
    ["ai-input", "ai-input"],
    ["train-ai", "ai-train"],
  ] as const) {
    const value = preferences[category];
    if (value !== undefined) parts.push(`${label}=${value === "allowed" ? "yes" : "no"}`);
  }
  return parts.length === 0 ? null : parts.join(", ");
}

/**
 * The Content-Usage and Content-Signal lines for a robots.txt group. A path entry's lines state
 * every category the URL under it ends up with (its own, then inherited from shorter paths and
 * the default), because the longest matching rule alone decides.
 */
export function robotsUsageLines(description: UsageDescription): string[] {
  const lines: string[] = [];
  const add = (path: string | null, preferences: Preferences) => {
    const prefix = path === null ? "" : `${path} `;
    const usage = contentUsageValue(preferences);
    if (usage !== null) lines.push(`Content-Usage: ${prefix}${usage}`);
    const signal = contentSignalValue(preferences);
    if (signal !== null) lines.push(`Content-Signal: ${prefix}${signal}`);
  };
  add(null, description.defaults);
  // Shortest first reads naturally; the order carries no meaning (attach-05 §3.1).
  for (const p of [...description.paths].reverse()) add(p.path, inherited(description, p));
  return lines;
}

/** What a URL right at `entry`'s path gets: its own preferences, then shorter paths', then the default. */
function inherited(description: UsageDescription, entry: DescribedPath): Preferences {
  const out: Partial<Record<Category, Preference>> = {};
  const shorter = description.paths.filter(
    (p) =>
      p.pattern.specificity <= entry.pattern.specificity &&
      p.pattern.matches(entry.pattern.canonical.replace(/\$$/, "")),
  );
  for (const category of CATEGORIES) {
    const from = [entry, ...shorter].find((p) => p.preferences[category] !== undefined);
    const value = from?.preferences[category] ?? description.defaults[category];
    if (value !== undefined) out[category] = value;
  }
  return out;
}

/** tdmrep.json rules: most specific path first (TDMRep: the first match decides). */
export function tdmRepRules(description: UsageDescription): Record<string, unknown>[] {
  const rules: Record<string, unknown>[] = [];
  const rule = (location: string, preferences: Preferences, policy: string | null) => {
    const train = preferences["train-ai"];
    const input = preferences["ai-input"];
    // heed reads a reservation as disallowing both (tdmrep.ts); write one when either is refused.
    const reservation =
      train === "disallowed" || input === "disallowed" ? 1 : train === "allowed" ? 0 : null;
    if (reservation === null) return;
    rules.push({
      location,
      "tdm-reservation": reservation,
      ...(reservation === 1 && policy !== null ? { "tdm-policy": policy } : {}),
    });
  };
  // Paths of one length: a reservation first, since TDMRep's first match decides and the
  // other forms let a refusal win between them (see describedPreferences).
  const reserving = (p: DescribedPath) => {
    const said = inherited(description, p);
    return said["train-ai"] === "disallowed" || said["ai-input"] === "disallowed" ? 0 : 1;
  };
  const ordered = description.paths
    .map((p, i) => ({ p, i, key: reserving(p) }))
    .sort(
      (a, b) => b.p.pattern.specificity - a.p.pattern.specificity || a.key - b.key || a.i - b.i,
    );
  for (const { p } of ordered)
    rule(p.path, inherited(description, p), p.tdmPolicy ?? description.defaultTdmPolicy);
  rule("/", description.defaults, description.defaultTdmPolicy);
  return rules;
}
