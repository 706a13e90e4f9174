/**
 * Latency values and spans (seeds/001 §3.1.1, §3.1.2, §3.3.4): `day`, `week`, `month` as a
 * site offers them in /rupinfo.txt; `{integer-}latvalue` as a robot asks for one (`3-day`);
 * `integer-latvalue` as a span of the log (`Span=2-week`) or as MaxQuerySpan.
 */
import { MAX_LATENCY_COUNT } from "./limits.js";

/**
 * Units heed knows the length of. The seed names day, week and month as "common values" and
 * defines none: heed reads a month as 30 days (a report period, not a calendar month) and
 * offers hour too, for sites that change by the hour.
 */
export const LATENCY_UNITS = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
} as const;

export type LatencyUnit = keyof typeof LATENCY_UNITS;

export interface Latency {
  readonly count: number;
  readonly unit: LatencyUnit;
}

export type LatencyResult =
  { readonly ok: true; readonly value: Latency } | { readonly ok: false; readonly message: string };

const UNIT_NAMES = Object.keys(LATENCY_UNITS).join(", ");

export function isLatencyUnit(word: string): word is LatencyUnit {
  return Object.hasOwn(LATENCY_UNITS, word);
}

/**
 * Reads `unit` or `N-unit`. With `countRequired` (spans, MaxQuerySpan: `integer-latvalue`) the
 * bare unit is refused. Units are compared case-insensitively.
 */
export function parseLatency(
  text: string,
  options: { countRequired?: boolean } = {},
): LatencyResult {
  const match = /^(?:(\d{1,6})-)?([A-Za-z]+)$/.exec(text.trim());
  if (match === null) {
    return {
      ok: false,
      message: `expected ${options.countRequired === true ? "N-unit" : "unit or N-unit"} (e.g. ${options.countRequired === true ? "2-week" : "day, 3-day"}), got "${text}"`,
    };
  }
  const unit = (match[2] ?? "").toLowerCase();
  if (!isLatencyUnit(unit))
    return {
      ok: false,
      message: `unknown unit "${match[2] ?? ""}": expected one of ${UNIT_NAMES}`,
    };
  if (match[1] === undefined) {
    if (options.countRequired === true)
      return { ok: false, message: `expected N-unit with a count (e.g. 2-${unit}), got "${text}"` };
    return { ok: true, value: { count: 1, unit } };
  }
  const count = Number(match[1]);
  if (count < 1 || count > MAX_LATENCY_COUNT) {
    return { ok: false, message: `the count must be 1 to ${MAX_LATENCY_COUNT}, got ${match[1]}` };
  }
  return { ok: true, value: { count, unit } };
}

export function latencyMs(latency: Latency): number {
  return latency.count * LATENCY_UNITS[latency.unit];
}

/** `day` for one, `3-day` otherwise: the form the seed writes. */
export function formatLatency(latency: Latency, options: { alwaysCount?: boolean } = {}): string {
  return latency.count === 1 && options.alwaysCount !== true
    ? latency.unit
    : `${latency.count}-${latency.unit}`;
}

/**
 * The smallest span of `unit` that covers `ms`: the robot asks GetIndex for this much to
 * recover what was lost since `ms` ago.
 */
export function spanCovering(ms: number, unit: LatencyUnit): Latency {
  return {
    count: Math.min(MAX_LATENCY_COUNT, Math.max(1, Math.ceil(ms / LATENCY_UNITS[unit]))),
    unit,
  };
}
