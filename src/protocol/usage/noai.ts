/**
 * `noai` and `noimageai`: values of the robots meta element and the X-Robots-Tag header that
 * DeviantArt introduced in November 2022 and many sites copied. No standard defines them; the
 * announcement gives their meaning: `noai`, the content is not to be used for AI datasets;
 * `noimageai`, the images are not.
 *
 * Readings heed chose: `noai` disallows `train-ai` and `ai-input` and says nothing of
 * `search` (the sites that write it want to be found); `noimageai` does the same for an image
 * (a response whose content type is `image/…`) and nothing for other content, where it speaks
 * of the images a page shows rather than of the page. Values are read in any case, as robots
 * meta values are; the `agent: value` form of X-Robots-Tag applies to the named robot only.
 */
import type { StatementReading } from "./content-usage.js";
import { MAX_PREFERENCE_LENGTH } from "./limits.js";
import { type Category, type Preference, shortText, type UsageSource } from "./vocabulary.js";

export interface NoAiFlags {
  readonly noai: boolean;
  readonly noimageai: boolean;
}

const NONE: NoAiFlags = { noai: false, noimageai: false };

/** The values of one robots meta content or X-Robots-Tag header, for the robot `agent` (lower-case token). */
export function readNoAi(whole: string, agent: string): NoAiFlags {
  // A meta content can be as long as a page is; no honest list of robots values nears this.
  const text = whole.length > MAX_PREFERENCE_LENGTH ? whole.slice(0, MAX_PREFERENCE_LENGTH) : whole;
  let noai = false;
  let noimageai = false;
  // X-Robots-Tag: `googlebot: noindex, otherbot: noai` names robots before their values.
  for (const part of text.split(/,(?=\s*[A-Za-z0-9_-]+\s*:)|\n/)) {
    const named = /^\s*([A-Za-z0-9_-]+)\s*:\s*(.*)$/s.exec(part);
    const isNamed = named !== null && (named[1] ?? "").toLowerCase() !== "unavailable_after";
    if (isNamed && (named[1] ?? "").toLowerCase() !== agent) continue;
    const values = (isNamed ? (named[2] ?? "") : part).toLowerCase();
    for (const word of values.split(/[\s,]+/)) {
      if (word === "noai") noai = true;
      else if (word === "noimageai") noimageai = true;
    }
  }
  return noai || noimageai ? { noai, noimageai } : NONE;
}

/**
 * What an X-Robots-Tag header or a robots meta element says with `noai`/`noimageai`, or null
 * when it says nothing: {@link noAiStatement} of {@link readNoAi}, with a warning when the value
 * is longer than is read (its values past {@link MAX_PREFERENCE_LENGTH} are not seen). The
 * warning comes with no statement made too (no preferences), so that it is not lost.
 */
export function readNoAiValue(
  agent: string,
  contentType: string | null,
  where: { readonly place: "header" | "meta"; readonly name: string; readonly text: string },
): StatementReading | null {
  const said = noAiStatement(readNoAi(where.text, agent), contentType, where);
  if (where.text.length <= MAX_PREFERENCE_LENGTH) return said;
  const warning = {
    severity: "warning" as const,
    code: "usage-too-long",
    message: `the value is ${where.text.length} characters; only the first ${MAX_PREFERENCE_LENGTH} are read for noai and noimageai`,
    limit: MAX_PREFERENCE_LENGTH,
  };
  return {
    statement: said?.statement ?? {
      source: sourceOf(where),
      preferences: {},
      unknown: [],
    },
    diagnostics: [...(said?.diagnostics ?? []), warning],
  };
}

/**
 * The statement `noai`/`noimageai` make about a response of content type `contentType`, or null
 * when they make none.
 */
export function noAiStatement(
  flags: NoAiFlags,
  contentType: string | null,
  where: { readonly place: "header" | "meta"; readonly name: string; readonly text: string },
): StatementReading | null {
  const image = contentType !== null && /^\s*image\//i.test(contentType);
  if (!flags.noai && !(flags.noimageai && image)) return null;
  const preferences: Partial<Record<Category, Preference>> = {
    "train-ai": "disallowed",
    "ai-input": "disallowed",
  };
  return { statement: { source: sourceOf(where), preferences, unknown: [] }, diagnostics: [] };
}

function sourceOf(where: {
  readonly place: "header" | "meta";
  readonly name: string;
  readonly text: string;
}): UsageSource {
  return {
    form: "noai",
    place: where.place,
    line: null,
    name: where.name,
    text: shortText(where.text),
  };
}
