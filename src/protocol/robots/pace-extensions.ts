/**
 * `Request-rate` and `Visit-time` in Koster 1996 and RFC 9309 files. Neither standard defines
 * them, but many files the web serves carry them, and RFC 9309 §2.2.4 lets a crawler read
 * records the protocol does not define. heed reads them as REGP does (seeds/003 §3.2.7-3.2.8:
 * `120/m`, `1/5s`, `06:00-08:45`), and in the older form those files mostly use, from the
 * 1996 "extended standard" Python's urllib.robotparser also reads: `Request-rate: 1/5` (one
 * request every 5 seconds, the unit left out) and `Visit-time: 0600-0845` (UT, no colons).
 *
 * They are read from the lines of the groups chosen for a robot, once per robot and file:
 * parsing a file costs nothing more.
 */
import type { Group } from "./groups.js";
import type { RateWindow, TimeRule } from "./plan.js";
import { parseRate } from "./regp/values/rate.js";
import { fail, ok, type ValueResult } from "./regp/values/result.js";
import { parseTimeSpan, type TimeSpan } from "./regp/values/rfc822-time.js";
import { combineWindows } from "./regp/values/time-window.js";

/** What a robot's groups say about its pace beyond Crawl-delay. */
export interface PaceExtensions {
  /** The first valid Request-rate of the groups, as Crawl-delay takes its first valid line. */
  readonly rate: RateWindow | null;
  /** Every valid Visit-time: alternatives, the robot may come within any of them. */
  readonly times: readonly TimeRule[];
  /** The same windows with their spans, index for index, for {@link closedAt}. */
  readonly spans: readonly TimeSpan[];
}

export const NO_PACE: PaceExtensions = { rate: null, times: [], spans: [] };

// Both forms read below, named in every message about a value neither reads: a file outside
// REGP mostly writes the older `1/5`, and a message naming only REGP's `1/5s` would not say
// that `1/5` is read too.
const RATE_FORMS = "requests/seconds such as 1/5, or n/[k](s|m|h) such as 1/5s, 120/m or 500/h";

/** `1/5` (per seconds), or REGP's `n/[k](s|m|h)`. */
export function readRequestRate(value: string): ValueResult<{ requests: number; seconds: number }> {
  const bare = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (bare !== null) {
    const requests = Number(bare[1]);
    const seconds = Number(bare[2]);
    if (requests === 0 || seconds === 0 || !Number.isSafeInteger(seconds)) {
      return fail(`expected ${RATE_FORMS}, both numbers above 0, got "${value.trim()}"`);
    }
    return ok({ requests, seconds });
  }
  const rate = parseRate(value);
  if (rate.ok) return ok({ requests: rate.value.requests, seconds: rate.value.seconds });
  return fail(`expected ${RATE_FORMS}, got "${value.trim()}"`);
}

/** `0600-0845` (UT), or REGP's time spans such as `06:00-08:45` or `01:00 +0800-06:00 +0800`. */
export function readVisitTime(value: string): ValueResult<TimeSpan> {
  const bare = /^\s*(\d\d)(\d\d)\s*-\s*(\d\d)(\d\d)\s*$/.exec(value);
  if (bare === null) return parseTimeSpan(value);
  const [, h1, m1, h2, m2] = bare.map(Number) as number[];
  if ((h1 as number) > 23 || (m1 as number) > 59 || (h2 as number) > 23 || (m2 as number) > 59) {
    return fail(`expected HHMM-HHMM with hours 00-23 and minutes 00-59, got "${value.trim()}"`);
  }
  const at = (h: number, m: number) => ({
    date: null,
    seconds: h * 3600 + m * 60,
    offsetMinutes: 0,
  });
  return ok({ start: at(h1 as number, m1 as number), end: at(h2 as number, m2 as number) });
}

/** The Request-rate and Visit-time lines of `groups`, in file order. */
export function paceOf(groups: readonly Group[]): PaceExtensions {
  let rate: RateWindow | null = null;
  const times: TimeRule[] = [];
  const spans: TimeSpan[] = [];
  for (const group of groups) {
    for (const line of group.extensions) {
      const key = line.key.toLowerCase();
      if (key === "request-rate" && rate === null) {
        const read = readRequestRate(line.value);
        if (read.ok) rate = { scope: "agent", ...read.value, line: line.number };
      } else if (key === "visit-time") {
        const read = readVisitTime(line.value);
        if (read.ok) {
          times.push({ kind: "visit", text: line.text, line: line.number });
          spans.push(read.value);
        }
      }
    }
  }
  return rate === null && times.length === 0 ? NO_PACE : { rate, times, spans };
}

/**
 * At instant `at`, is the robot outside every Visit-time? Null when it may come (or no line
 * says when), else the line to name and when the first window opens again.
 */
export function closedAt(
  pace: PaceExtensions,
  at: number,
): { readonly time: TimeRule; readonly next: number | null } | null {
  if (pace.spans.length === 0) return null;
  const state = combineWindows(
    pace.spans.map((span) => ({ kind: "visit", span })),
    at,
  );
  return state.open ? null : { time: pace.times[0] as TimeRule, next: state.next };
}
