/**
 * What paces a site at a moment, read from the store without changing anything (the crawl
 * view): the site's reservation (./site-gate.ts: its next moment, the last exchange's end, the
 * rate window, the requests in flight) under the rules the store's robots.txt copy gives
 * (./robots-copy.ts: Crawl-delay, Ip-delay, Request-rate, Ip-rate, Visit-time). The next allowed
 * moment is worked out as the reservation's `take` works it out (store/types.ts Reservations).
 */
import type { Decision, DialectChoice, RobotsPolicy } from "../protocol/robots/index.js";
import type { AccessPlan } from "../protocol/robots/plan.js";
import type { CachedRobots, CrawlStore, PaceRule, PaceState } from "../store/types.js";
import { copyPolicy } from "./robots-copy.js";
import { ipKey, paced, ruleOf } from "./site-gate.js";
import type { RatePace, SitePace } from "./site-pace.js";

export interface SitePaceOptions {
  /** The robot's name token whose rules are read. */
  readonly agent: string;
  /** The IP address the crawler sends from (Ip-delay, Ip-rate bind one address). */
  readonly ip?: string;
  readonly dialect?: DialectChoice;
  /** The crawl's `--per-host`, for a site whose rules set no pace. */
  readonly perHost?: number;
}

/** Parsed robots.txt copies a reader keeps: a crawl view reads every site once a second. */
export const PACE_COPIES_KEPT = 256;

/**
 * Reads what paces sites, again and again (the crawl view's ticks): a site's robots.txt copy is
 * parsed once per copy the store holds, not once per read. Reads only.
 */
export class SitePaceReader {
  private readonly copies = new Map<
    string,
    { readonly stamp: string; readonly policy: RobotsPolicy | null }
  >();

  constructor(
    private readonly store: CrawlStore,
    private readonly options: SitePaceOptions,
  ) {}

  /** What paces `origin` at `now`; `copy` is the store's robots.txt copy of the site, if read already. */
  async read(origin: string, now: number, copy?: CachedRobots | null): Promise<SitePace> {
    const cached = copy === undefined ? await this.store.robots.get(origin) : copy;
    const { agent, ip } = this.options;
    const robot = { agent, at: now, ...(ip === undefined ? {} : { ip }) };
    const decision = this.policyOf(origin, cached)?.check(`${origin}/`, robot) ?? null;
    return paceOf(this.store, origin, now, decision, this.options);
  }

  private policyOf(origin: string, cached: CachedRobots | null): RobotsPolicy | null {
    const body = cached?.body ?? cached?.lastGoodBody ?? null;
    const stamp = `${cached?.fetchedAt} ${cached?.action} ${body?.length}`;
    const kept = this.copies.get(origin);
    if (kept !== undefined && kept.stamp === stamp) return kept.policy;
    const policy = copyPolicy(cached, origin, this.options.dialect);
    this.copies.delete(origin);
    this.copies.set(origin, { stamp, policy });
    // The oldest copy goes first: a Map keeps the order of insertion.
    if (this.copies.size > PACE_COPIES_KEPT) {
      const oldest = this.copies.keys().next().value;
      if (oldest !== undefined) this.copies.delete(oldest);
    }
    return policy;
  }
}

/** What paces `origin` at `now`, as the store holds it. Reads only. */
export function readSitePace(
  store: CrawlStore,
  origin: string,
  now: number,
  options: SitePaceOptions,
): Promise<SitePace> {
  return new SitePaceReader(store, options).read(origin, now);
}

async function paceOf(
  store: CrawlStore,
  origin: string,
  now: number,
  decision: Decision | null,
  options: SitePaceOptions,
): Promise<SitePace> {
  const plan = decision?.plan ?? null;
  const perHost = options.perHost ?? 1;
  const bindings: { scope: "agent" | "ip"; key: string; rule: PaceRule }[] = [
    { scope: "agent", key: origin, rule: ruleOf(plan, "agent", perHost) },
  ];
  if (plan !== null && paced(plan, "ip"))
    bindings.push({
      scope: "ip",
      key: ipKey(origin, options.ip),
      rule: ruleOf(plan, "ip", perHost),
    });
  let allowedAt: number | null = null;
  let why: SitePace["why"] = null;
  let endedAt: number | null = null;
  let inFlight = 0;
  const rates: RatePace[] = [];
  for (const { scope, key, rule } of bindings) {
    const state = await store.reservations.pace(key, rule.rate?.requests ?? 0);
    const due = dueOf(state, rule);
    if (due !== null && (allowedAt === null || due.at > allowedAt)) {
      allowedAt = due.at;
      why = due.why;
    }
    if (scope === "agent") {
      endedAt = state.endedAt;
      inFlight = state.inFlight;
    }
    const written = plan?.rates.find((r) => r.scope === scope);
    if (written !== undefined && rule.rate !== null)
      rates.push(rateOf(written, rule.rate, state, now));
  }
  return {
    allowedAt,
    why,
    endedAt,
    inFlight,
    gapMs: bindings[0]?.rule.gapMs ?? 0,
    rulesKept: plan !== null,
    crawlDelay: fromLine(plan?.crawlDelay ?? null),
    ipDelay: fromLine(plan?.ipDelay ?? null),
    rates,
    times: (plan?.times ?? []).map(({ kind, text, line }) => ({ kind, text, line })),
    closed:
      decision?.reason === "time" ? { until: decision.next ?? null, line: decision.line } : null,
  };
}

/**
 * When the key's reservation lets the next request start under `rule`, and what holds it, as
 * `take` decides (store/sqlite/reservations.ts): the next moment, the last end plus the gap, the
 * n-th latest request plus the window (seeds/003 §3.2.7). Null when the store holds none of them.
 */
export function dueOf(
  state: PaceState,
  rule: PaceRule,
): { readonly at: number; readonly why: "gap" | "rate" | "set" } | null {
  const candidates: { at: number; why: "gap" | "rate" | "set" }[] = [];
  // On a tie the rate, then the gap, names the cause: a refusal moves the next moment to them.
  if (rule.rate !== null) {
    const nth = state.recent[rule.rate.requests - 1];
    if (nth !== undefined) candidates.push({ at: nth + rule.rate.windowMs, why: "rate" });
  }
  if (state.endedAt !== null) candidates.push({ at: state.endedAt + rule.gapMs, why: "gap" });
  if (state.nextAt > 0) candidates.push({ at: state.nextAt, why: "set" });
  let best: { at: number; why: "gap" | "rate" | "set" } | null = null;
  for (const c of candidates) if (best === null || c.at > best.at) best = c;
  return best;
}

function rateOf(
  written: AccessPlan["rates"][number],
  rate: NonNullable<PaceRule["rate"]>,
  state: PaceState,
  now: number,
): RatePace {
  // A request counts while its moment plus the window is later than now (the `take` test).
  const counted = state.recent.filter((at) => at + rate.windowMs > now);
  const nth = state.recent[rate.requests - 1];
  return {
    scope: written.scope,
    requests: written.requests,
    seconds: written.seconds,
    line: written.line,
    windowMs: rate.windowMs,
    allows: rate.requests,
    inWindow: counted.length,
    windowStart: counted.length === 0 ? null : Math.min(...counted),
    fullUntil: nth !== undefined && nth + rate.windowMs > now ? nth + rate.windowMs : null,
  };
}

function fromLine(
  value: { readonly value: number; readonly line: number } | null,
): { readonly seconds: number; readonly line: number } | null {
  return value === null ? null : { seconds: value.value, line: value.line };
}
