/**
 * The keys heed recognises in robots.txt lines, and the misspellings it accepts for them.
 * Misspellings are read as the key they stand for (the safe reading: a misspelt Disallow
 * still disallows) and `heed lint` names them.
 */

/** The kind of a robots.txt line after its key is recognised. */
export type LineKind =
  | "user-agent"
  | "allow"
  | "disallow"
  | "sitemap"
  | "crawl-delay"
  | "robot-version"
  | "extension"
  | "comment"
  | "blank"
  | "invalid"
  /** REGP `{` and `}` lines (seeds/003 Table 2), read only with `##` comments. */
  | "open-brace"
  | "close-brace";

/** Kinds that carry a key and a value. */
export type KeyedKind = Exclude<
  LineKind,
  "comment" | "blank" | "invalid" | "open-brace" | "close-brace"
>;

const CANONICAL: ReadonlyMap<string, KeyedKind> = new Map([
  ["user-agent", "user-agent"],
  ["allow", "allow"],
  ["disallow", "disallow"],
  ["sitemap", "sitemap"],
  ["crawl-delay", "crawl-delay"],
  ["robot-version", "robot-version"],
]);

// Spellings seen in real files; google/robotstxt accepts the same family.
const MISSPELT: ReadonlyMap<string, KeyedKind> = new Map([
  ["useragent", "user-agent"],
  ["user agent", "user-agent"],
  ["user_agent", "user-agent"],
  ["user-agents", "user-agent"],
  ["dissallow", "disallow"],
  ["dissalow", "disallow"],
  ["disalow", "disallow"],
  ["diasllow", "disallow"],
  ["disallaw", "disallow"],
  ["dissallaw", "disallow"],
  ["disallows", "disallow"],
  ["allows", "allow"],
  ["site-map", "sitemap"],
  ["site map", "sitemap"],
  ["crawldelay", "crawl-delay"],
  ["crawl delay", "crawl-delay"],
  ["crawl_delay", "crawl-delay"],
  ["robotversion", "robot-version"],
  ["robot version", "robot-version"],
]);

export interface KeyReading {
  readonly kind: KeyedKind;
  /** The canonical key when the written one is a known misspelling of it. */
  readonly misspeltFor: KeyedKind | null;
}

const EXTENSION: KeyReading = { kind: "extension", misspeltFor: null };
const READINGS = new Map<string, KeyReading>();
for (const [key, kind] of CANONICAL) READINGS.set(key, { kind, misspeltFor: null });
for (const [key, kind] of MISSPELT) READINGS.set(key, { kind, misspeltFor: kind });

/** Reads a key as written (any case, inner whitespace collapsed by the caller). */
export function readKey(key: string): KeyReading {
  const kind = canonicalKeyAt(key, 0, key.length);
  if (kind !== null) return READINGS.get(kind) as KeyReading;
  return READINGS.get(key.toLowerCase()) ?? EXTENSION;
}

/**
 * The kind `text[from, to)` names when it is a canonical key in any case, else null. Read in
 * place, from the length and the letters, without lower-casing or slicing: nearly every line
 * of a file has one of these keys.
 */
export function canonicalKeyAt(text: string, from: number, to: number): KeyedKind | null {
  switch (to - from) {
    case 5:
      return spelt(text, from, "Allow", "allow") ? "allow" : null;
    case 7:
      return spelt(text, from, "Sitemap", "sitemap") ? "sitemap" : null;
    case 8:
      return spelt(text, from, "Disallow", "disallow") ? "disallow" : null;
    case 10:
      return spelt(text, from, "User-agent", "user-agent") ? "user-agent" : null;
    case 11:
      return spelt(text, from, "Crawl-delay", "crawl-delay") ? "crawl-delay" : null;
    case 13:
      return spelt(text, from, "Robot-version", "robot-version") ? "robot-version" : null;
    default:
      return null;
  }
}

/**
 * `text` at `from` spells `lower` in any case. Most files write each key as `usual` does: the
 * engine's own comparison answers for those at once, where the loop over the letters ran on
 * nearly every line (2% of a parse of the real files).
 */
function spelt(text: string, from: number, usual: string, lower: string): boolean {
  return text.startsWith(usual, from) || same(text, from, lower);
}

/** `text` at `from` spells `lower` in any case; `lower` is lower-case ASCII letters and `-`. */
function same(text: string, from: number, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const want = lower.charCodeAt(i);
    const got = text.charCodeAt(from + i);
    if (got !== want && (want < 0x61 || (got | 0x20) !== want)) return false;
  }
  return true;
}

/** True for a key that names one of the recognised kinds, spelt correctly. */
export function isCanonicalKey(lowerKey: string): boolean {
  return CANONICAL.has(lowerKey);
}

/** Every canonical key, for suggestions. */
export const CANONICAL_KEYS: readonly string[] = [...CANONICAL.keys()];
