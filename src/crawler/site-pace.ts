/**
 * A site's pace under both bindings (seeds/003 §3.2.6-3.2.7): the name token's (Crawl-delay,
 * Request-rate; shared by every process of the crawl through the store) and this process's
 * IP's (Ip-delay, Ip-rate).
 */
import type { AccessPlan } from "../protocol/robots/plan.js";
import type { HostState } from "../store/types.js";
import { earliestStart, FRESH_PACE, type Pace, type PaceScope } from "./pace.js";

export interface SitePace {
  agent: Pace;
  ip: Pace;
}

/** Does the plan set a gap or a rate for this binding? */
export function paced(plan: AccessPlan, scope: PaceScope): boolean {
  const delay = scope === "agent" ? plan.crawlDelay : plan.ipDelay;
  return (delay !== null && delay.value > 0) || plan.rates.some((r) => r.scope === scope);
}

/** When a request may start under both bindings. */
export function startAt(plan: AccessPlan, pace: SitePace, now: number): number {
  return Math.max(
    earliestStart(plan, "agent", pace.agent, now),
    earliestStart(plan, "ip", pace.ip, now),
  );
}

/** The store key of an origin's IP-bound pace. */
export function ipKey(origin: string, ip: string | undefined): string {
  return `${origin} ip=${ip ?? "default"}`;
}

export function toPace(state: HostState | null): Pace {
  if (state === null) return FRESH_PACE;
  return { lastAt: state.lastRequestAt, window: state.windows[0] ?? null };
}

export function fromPace(key: string, pace: Pace): HostState {
  return {
    origin: key,
    lastRequestAt: pace.lastAt,
    windows: pace.window === null ? [] : [pace.window],
  };
}
