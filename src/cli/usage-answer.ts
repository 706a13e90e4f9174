/**
 * `heed check`'s usage preferences: the `usage` object of an answer, and what `--purpose` makes
 * of "allowed" (may fetch, and use for every purpose named). docs/usage-preferences.md.
 */
import type { RobotsPolicy } from "../protocol/robots/index.js";
import {
  type Category,
  hasUsageLines,
  limitWarnings,
  MAX_TDMREP_BYTES,
  mayUse,
  readPurpose,
  readTdmRepJson,
  sourcePlace,
  type TdmRepFile,
  type UsageAnswer,
  type UsageSource,
  usageFor,
  usageJson,
} from "../protocol/usage/index.js";
import { CliError } from "./errors.js";

export interface UsageSettings {
  readonly purposes: readonly Category[];
  /** Response headers given with --header, lower-case names, repeated ones joined. */
  readonly headers: Readonly<Record<string, string>> | null;
  readonly tdmrep: TdmRepFile | null;
  /** What reading the --tdmrep file left out for a limit, for every answer to say. */
  readonly tdmrepWarnings: readonly string[];
}

export interface UsageOptions {
  readonly purpose?: readonly string[];
  readonly header?: readonly string[];
  readonly tdmrep?: string;
}

/** Reads and checks --purpose, --header and --tdmrep; null when none is given. */
export async function usageSettings(options: UsageOptions): Promise<UsageSettings | null> {
  const purposes: Category[] = [];
  for (const text of options.purpose ?? []) {
    for (const part of text.split(",")) {
      const purpose = readPurpose(part);
      if (purpose === null)
        throw new CliError(
          `--purpose: expected search, train-ai or ai-input, got "${part.trim()}"`,
        );
      if (!purposes.includes(purpose)) purposes.push(purpose);
    }
  }
  let headers: Record<string, string> | null = null;
  for (const text of options.header ?? []) {
    const colon = text.indexOf(":");
    const name = colon < 0 ? "" : text.slice(0, colon).trim().toLowerCase();
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name))
      throw new CliError(
        `--header: expected NAME: VALUE such as "Content-Usage: train-ai=n", got "${text}"`,
      );
    // No prototype: a header named `constructor` or `__proto__` is a header like any other.
    headers ??= Object.create(null) as Record<string, string>;
    const value = text.slice(colon + 1).trim();
    // RFC 9110 §5.3: repeated field lines are one value, joined with commas; but each
    // X-Robots-Tag line stands alone (`otherbot: noindex` must not take in the next line's
    // `noai`), so its lines are kept a line each, as a crawl reads them (net/http-client.ts).
    const joiner = name === "x-robots-tag" ? "\n" : ", ";
    const before = headers[name];
    headers[name] = before === undefined ? value : `${before}${joiner}${value}`;
  }
  let tdmrep: TdmRepFile | null = null;
  if (options.tdmrep !== undefined) {
    let bytes: Uint8Array;
    try {
      // One byte past the limit says the file is over it (tdmrep.json's own check), however
      // long the file goes on.
      // Loaded here: a check without --tdmrep, as most, needs none of its network code.
      const { readLocalFile } = await import("./robots-source.js");
      bytes = await readLocalFile(options.tdmrep, MAX_TDMREP_BYTES + 1);
    } catch (error) {
      throw new CliError(`--tdmrep: ${(error as Error).message}`, 2, { cause: error });
    }
    tdmrep = readTdmRepJson(bytes);
  }
  if (purposes.length === 0 && headers === null && tdmrep === null) return null;
  const tdmrepWarnings = (tdmrep?.diagnostics ?? [])
    .filter((d) => d.limit !== undefined)
    .map((d) => `--tdmrep ${options.tdmrep}: ${d.message} (docs/usage-preferences.md#limits)`);
  return { purposes, headers, tdmrep, tdmrepWarnings };
}

/** What the preferences say of one answered query. */
export interface UsageOfAnswer {
  readonly usage: UsageAnswer;
  /** The first purpose the preferences refuse, and the statement that refused it. */
  readonly refused: { readonly purpose: Category; readonly from: UsageSource | null } | null;
}

/**
 * The preferences for one query, or null when there is nothing to say: no settings and no
 * usage line in the file (answers then look as they always have).
 */
export function usageOfAnswer(
  settings: UsageSettings | null,
  policy: RobotsPolicy,
  url: string,
  agent: string,
  crawlable: boolean,
): UsageOfAnswer | null {
  if (settings === null && !hasUsageLines(policy)) return null;
  const usage = usageFor({
    url,
    agent,
    robots: policy,
    crawlable,
    ...(settings === null || (settings.headers === null && settings.tdmrep === null)
      ? {}
      : {
          response: {
            ...(settings.headers === null ? {} : { headers: settings.headers }),
            tdmrep: settings.tdmrep,
          },
        }),
  });
  let refused: UsageOfAnswer["refused"] = null;
  for (const purpose of settings?.purposes ?? []) {
    const verdict = mayUse(usage, purpose);
    if (!verdict.allowed) {
      refused = { purpose, from: verdict.from };
      break;
    }
  }
  return { usage, refused };
}

/** `,"usage":{…}` and, with --purpose, `,"purposes":[…]` and `,"refusedFor":…`. */
export function usageJsonFields(found: UsageOfAnswer, settings: UsageSettings | null): string {
  let text = `,"usage":${JSON.stringify(usageJson(found.usage))}`;
  if (settings !== null && settings.purposes.length > 0) {
    text += `,"purposes":${JSON.stringify(settings.purposes)}`;
    text += `,"refusedFor":${found.refused === null ? "null" : JSON.stringify(found.refused.purpose)}`;
  }
  return text;
}

/** Where a statement was made, for a person: `Content-Usage line 4: …`, `header content-usage: …`. */
export function describeSource(source: UsageSource): string {
  return `${sourcePlace(source)}: ${source.text}`;
}

/**
 * What an answer must warn of: each statement that applied but was not read for a limit, named
 * by its line or header (`Content-Usage line 4: the statement is 9000 characters; …`).
 */
export function usageWarnings(found: UsageOfAnswer, settings: UsageSettings | null): string[] {
  const said = limitWarnings(found.usage).map((w) => `${w} (docs/usage-preferences.md#limits)`);
  return [...(settings?.tdmrepWarnings ?? []), ...said];
}

/** `; usage: train-ai disallowed (Content-Usage line 4: …)` for the text output. */
export function usageTextTail(found: UsageOfAnswer, settings: UsageSettings | null): string {
  const said: string[] = [];
  for (const [category, answer] of Object.entries(found.usage.categories)) {
    if (answer.value === "unknown") continue;
    said.push(
      `${category} ${answer.value}${answer.from === null ? "" : ` (${describeSource(answer.from)})`}`,
    );
  }
  const warned = usageWarnings(found, settings).map((w) => `; usage warning: ${w}`);
  return (
    (said.length === 0 ? "; usage: no preferences" : `; usage: ${said.join(", ")}`) +
    warned.join("")
  );
}
