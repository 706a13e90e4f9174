/**
 * The categories of use heed answers about, and the shape every form's reading is mapped to.
 *
 * draft-ietf-aipref-vocab-07 §3: a statement of preference assigns each category one of
 * "allowed", "disallowed" or "unknown". §6.1 names two categories, `train-ai` and `search`.
 * Content Signals (draft-romm-aipref-contentsignals-00 §4) add `ai-input`, which the IETF
 * vocabulary does not (yet) have; heed keeps it as a category of its own so that a crawler
 * collecting for live AI answers can ask about it.
 */

/** The categories heed reads and answers for. */
export const CATEGORIES = ["search", "train-ai", "ai-input"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The categories of draft-ietf-aipref-vocab-07 §6.1 (Table 1), the labels a Content-Usage value uses. */
export const AIPREF_LABELS: ReadonlySet<string> = new Set(["train-ai", "search"]);

/**
 * Labels of earlier revisions of the vocabulary (-00 to -06: `bulk`, `train-genai`, `ai-use`)
 * and labels of other forms written into a Content-Usage value by mistake: unknown to the
 * current vocabulary and so ignored (vocab-07 §6.4), but lint says what they were.
 */
export const FORMER_LABELS: ReadonlyMap<string, string> = new Map([
  ["bulk", "an earlier revision of the vocabulary named it (automated processing); it is gone"],
  [
    "train-genai",
    "an earlier revision of the vocabulary named it (generative AI training); train-ai now covers it",
  ],
  ["ai-use", "an earlier revision of the vocabulary named it (AI use); it is gone"],
  ["tdm", "an earlier revision of the vocabulary named it (text and data mining); it is gone"],
  ["ai-train", "that is the Content-Signal label; Content-Usage writes train-ai"],
  ["ai-input", "that is the Content-Signal label; the IETF vocabulary has no such category yet"],
]);

/** An explicit preference (vocab-07 §3). */
export type Preference = "allowed" | "disallowed";
/** What a category comes to: an explicit preference, or none (vocab-07 §5). */
export type UsageValue = Preference | "unknown";

/** The forms a preference can be written in. */
export type UsageForm = "content-usage" | "content-signal" | "tdmrep" | "noai";

/** Where a statement was found. */
export type UsagePlace = "robots.txt" | "header" | "meta" | "tdmrep.json";

/** Where one statement of preference came from, to show a person and to record. */
export interface UsageSource {
  readonly form: UsageForm;
  readonly place: UsagePlace;
  /** robots.txt line number, or the 1-based rule of tdmrep.json; null for headers and meta. */
  readonly line: number | null;
  /** The header or meta name as heed read it (`content-usage`, `x-robots-tag`, `tdm-reservation`). */
  readonly name: string | null;
  /** The line, header value or meta content as written (cut to a readable length). */
  readonly text: string;
}

/** One statement of preference, read and mapped to heed's categories. */
export interface Statement {
  readonly source: UsageSource;
  /** Only categories the statement has an explicit preference for. */
  readonly preferences: Readonly<Partial<Record<Category, Preference>>>;
  /** Labels the statement carries that no form heed reads defines, with their values as written. */
  readonly unknown: readonly { readonly label: string; readonly value: string }[];
}

/** A finding about a statement: never fatal, tied to where it was found. */
export interface UsageDiagnostic {
  readonly severity: "warning" | "info";
  /** Stable identifier, e.g. `usage-syntax`. */
  readonly code: string;
  readonly message: string;
  /**
   * Set when the statement was not read because it passed a limit (limits.ts): the limit. An
   * answer must say so, or a preference dropped for its size would look like none stated.
   */
  readonly limit?: number;
}

// Texts kept in sources and messages are cut: a value can be 8 KiB.
const TEXT_MAX = 200;

/** `text`, cut to a length fit for a log line or a message. */
export function shortText(text: string): string {
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 3)}...` : text;
}

/** Accepts `ai-train` (the Content-Signal spelling) for `train-ai`; null for a purpose heed does not know. */
export function readPurpose(text: string): Category | null {
  const lower = text.trim().toLowerCase();
  if (lower === "ai-train") return "train-ai";
  return (CATEGORIES as readonly string[]).includes(lower) ? (lower as Category) : null;
}
