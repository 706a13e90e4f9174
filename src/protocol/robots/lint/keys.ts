/**
 * Keys: misspellings the tokenizer read anyway, unknown keys close to a known one (probably a
 * typo, and the line does nothing), and unknown keys far from all (kept as extensions).
 */
import type { Dialect } from "../dialect.js";
import { CANONICAL_KEYS, readKey } from "../keys.js";
import type { RobotsLine } from "../line-reader.js";
import { DIALECT_NAME, displayKey, type LintContext, quote } from "./finding.js";
import { REGP_FIELDS as TABLE3_FIELDS } from "../regp/document.js";
import { isMisspeltMobileAgentKey, isMobileAgentKey } from "../mobile-agent/record.js";
import { readRequestRate, readVisitTime } from "../pace-extensions.js";

/** Keys outside every standard that many sites write and some robots read. */
const NONSTANDARD_KEYS: ReadonlyMap<string, string> = new Map([
  ["host", "Yandex read it as the preferred host; others ignore it"],
  ["clean-param", "Yandex reads it; others ignore it"],
  ["noindex", "Google stopped reading it in 2019; use a robots meta tag or X-Robots-Tag header"],
]);

/** seeds/003 Table 3, lower-cased: the one list is `REGP_FIELDS` of regp/document.ts. */
export const REGP_FIELDS: readonly string[] = TABLE3_FIELDS.map((field) => field.toLowerCase());
/** The REGP fields the classic tokenizer does not know: extensions outside REGP. */
const REGP_KEY_SET: ReadonlySet<string> = new Set(
  REGP_FIELDS.filter((key) => readKey(key).kind === "extension"),
);

/** Usage preference keys (docs/usage-preferences.md); lint/usage.ts checks their lines. */
const USAGE_KEYS: readonly string[] = ["content-usage", "content-signal"];

/**
 * Keys heed reads as extensions in Koster 1996 and RFC 9309 files (pace-extensions.ts), with
 * their value's reader and what a good value means for the robots of its group.
 */
const PACE_KEYS: ReadonlyMap<string, (value: string) => string | { error: string }> = new Map([
  [
    "request-rate",
    (value: string) => {
      const rate = readRequestRate(value);
      return rate.ok
        ? `at most ${rate.value.requests} request(s) every ${rate.value.seconds} s`
        : { error: rate.error };
    },
  ],
  [
    "visit-time",
    (value: string) => {
      const span = readVisitTime(value);
      return span.ok
        ? "only within this window of the day (UT unless a zone is written)"
        : { error: span.error };
    },
  ],
]);

const KNOWN_ANYWHERE: readonly string[] = [
  ...CANONICAL_KEYS,
  ...NONSTANDARD_KEYS.keys(),
  ...PACE_KEYS.keys(),
  ...USAGE_KEYS,
];
// Canonical keys first, so that they win ties; then the rest of Table 3.
const KNOWN_REGP: readonly string[] = [...new Set([...CANONICAL_KEYS, ...REGP_FIELDS])];

/**
 * The keys a dialect knows, for suggestions: under REGP the fields of seeds/003 Table 3;
 * elsewhere the canonical keys, then keys many sites write.
 */
export function knownKeys(dialect: Dialect): readonly string[] {
  return dialect === "regp" ? KNOWN_REGP : KNOWN_ANYWHERE;
}

/** A misspelt key the tokenizer accepted: the line works, but not for every robot. */
export function checkMisspelt(line: RobotsLine, ctx: LintContext): void {
  if (line.misspeltFor === null) return;
  const right = displayKey(line.misspeltFor);
  ctx.add(
    line.number,
    "warning",
    "misspelt-key",
    `${quote(line.key)} is a misspelling of "${right}"; heed reads it as ${right}, stricter robots ignore the line`,
  );
}

/**
 * Request-rate or Visit-time outside REGP: RFC 9309 §2.2.4 lets robots read records it does
 * not define; heed reads these two, and says so, or says why a value cannot be read.
 */
function checkPaceKey(
  line: RobotsLine,
  ctx: LintContext,
  meaning: string | { error: string },
): void {
  const name = displayKey(line.key.toLowerCase());
  if (typeof meaning !== "string") {
    ctx.add(
      line.number,
      "warning",
      line.key.toLowerCase() === "request-rate" ? "bad-request-rate" : "bad-visit-time",
      `${name} ${quote(line.value)}: ${meaning.error}; robots ignore the line`,
    );
    return;
  }
  ctx.add(
    line.number,
    "info",
    "pace-extension",
    `${name} is not part of ${DIALECT_NAME[ctx.dialect]}; heed reads it as an extension RFC 9309 permits (${meaning} for the robots of its group), most robots ignore it`,
  );
}

/** An extension line: a key no dialect here interprets. */
export function checkExtensionKey(line: RobotsLine, ctx: LintContext): void {
  const written = line.key;
  const key = written.toLowerCase();
  if (key === "" || readKey(key).kind !== "extension") return;
  // seeds/000 records have checks of their own (lint/mobile-agent.ts).
  if (isMobileAgentKey(key) || isMisspeltMobileAgentKey(key)) return;
  if (USAGE_KEYS.includes(key)) return;
  if (key === "license") {
    // RSL 1.0: the site's license for its content; heed shows it and agrees to nothing.
    const url = /^https?:\/\/\S+$/i.test(line.value);
    ctx.add(
      line.number,
      url ? "info" : "warning",
      "rsl-license",
      url
        ? `License: ${line.value}: the site's content license (RSL); robots that read RSL fetch it and follow its terms`
        : `License: expected the URL of an RSL license, got ${quote(line.value)}`,
    );
    return;
  }
  const regpKey = REGP_KEY_SET.has(key);
  if (ctx.dialect === "regp" && regpKey) return;
  const pace = PACE_KEYS.get(key);
  if (pace !== undefined) {
    checkPaceKey(line, ctx, pace(line.value));
    return;
  }
  const nonstandard = NONSTANDARD_KEYS.get(key);
  if (nonstandard !== undefined) {
    ctx.add(
      line.number,
      "info",
      "nonstandard-key",
      `${displayKey(key)} is not part of ${DIALECT_NAME[ctx.dialect]}: ${nonstandard}`,
    );
    return;
  }
  if (regpKey) {
    ctx.add(
      line.number,
      "info",
      "regp-key",
      `${displayKey(key)} is a REGP key and has no effect under ${DIALECT_NAME[ctx.dialect]} (REGP applies with "Robot-version: 3.0")`,
    );
    return;
  }
  const regp = ctx.dialect === "regp";
  const near = nearestKey(key, knownKeys(ctx.dialect));
  if (near !== null) {
    ctx.add(
      line.number,
      "warning",
      "unknown-key",
      regp
        ? `unknown field ${quote(written)} (not a REGP field, docs/regp.md#every-field): did you mean "${displayKey(near)}"? robots ignore this line`
        : `unknown key ${quote(written)}: did you mean "${displayKey(near)}"? robots ignore this line`,
    );
    return;
  }
  ctx.add(
    line.number,
    "info",
    "extension-key",
    regp
      ? `unknown field ${quote(written)}, kept as an extension (docs/regp.md#layout); robots that do not know it ignore the line`
      : `unknown key ${quote(written)}, kept as an extension; robots that do not know it ignore the line`,
  );
}

/**
 * The known key within a typo's reach of `key`, or null. The reach grows with the key's
 * length: one edit for `allow` or `host`, two for `disallow` or `user-agent`, three beyond.
 */
export function nearestKey(key: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const reach = Math.min(3, Math.max(1, Math.floor(candidate.length / 4)));
    const d = editDistance(key, candidate, reach);
    if (d <= reach && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Optimal-string-alignment distance (insert, delete, substitute, swap two neighbours), giving
 * up early: any answer above `limit` is returned as `limit + 1`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const width = b.length + 1;
  let before = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, j) => j);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] as number) + 1);
      }
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length] as number, limit + 1);
}
