/**
 * When the next request to a site may start, from its rules and its history (seeds/003
 * §3.2.6-3.2.7, DESIGN §4). Pure: the plan, the history and the moment are arguments.
 *
 * Two bindings: Crawl-delay and Request-rate bind every robot with this name token (the
 * `agent` pace, shared by all crawler processes of one crawl); Ip-delay and Ip-rate bind one
 * IP address (the `ip` pace of this process).
 */
import type { AccessPlan } from "../protocol/robots/plan.js";
import type { RateWindowState } from "../store/types.js";

export type PaceScope = "agent" | "ip";

/** What a site's history says for one scope. */
export interface Pace {
  /** When the last request of this scope started, or null. */
  readonly lastAt: number | null;
  /** The current Request-rate (or Ip-rate) window, if a rate applies. */
  readonly window: RateWindowState | null;
}

export const FRESH_PACE: Pace = { lastAt: null, window: null };

/** The delay and rate of one scope in a plan. */
function rules(plan: AccessPlan, scope: PaceScope) {
  const delay = scope === "agent" ? plan.crawlDelay : plan.ipDelay;
  const found = plan.rates.find((r) => r.scope === scope);
  // A rate of 0.5/s is one request per 2 s: whole requests per a window of matching length.
  const whole = found === undefined ? 0 : Math.max(1, Math.floor(found.requests));
  const rate =
    found === undefined
      ? null
      : { requests: whole, seconds: (found.seconds * whole) / found.requests };
  return { delayMs: (delay?.value ?? 0) * 1000, rate };
}

/** The earliest moment (≥ `now`) a request of this scope may start. */
export function earliestStart(plan: AccessPlan, scope: PaceScope, pace: Pace, now: number): number {
  const { delayMs, rate } = rules(plan, scope);
  let earliest = now;
  if (pace.lastAt !== null) earliest = Math.max(earliest, pace.lastAt + delayMs);
  if (rate !== null && pace.window !== null) {
    const windowEnd = pace.window.start + rate.seconds * 1000;
    // seeds/003 §3.2.7: the window starts at the first visit; once full, wait for its end.
    if (earliest < windowEnd && pace.window.count >= rate.requests) earliest = windowEnd;
  }
  return earliest;
}

/** The pace after a request of this scope started at `at`. */
export function afterStart(plan: AccessPlan, scope: PaceScope, pace: Pace, at: number): Pace {
  const { rate } = rules(plan, scope);
  if (rate === null) return { lastAt: at, window: null };
  const current = pace.window;
  const open = current !== null && at < current.start + rate.seconds * 1000;
  const window: RateWindowState = open
    ? { scope, start: current.start, count: current.count + 1 }
    : { scope, start: at, count: 1 };
  return { lastAt: at, window };
}
