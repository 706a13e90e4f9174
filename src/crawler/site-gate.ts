/**
 * The one door to a site (DESIGN §2, one reservation per site): every request the crawl makes to
 * a site — robots.txt, sitemaps, pages, /data.txt — takes the site's reservation in the store
 * first, and gives it back when the exchange ends. The store keeps the gap since the last
 * exchange ended (Crawl-delay), the rate window (Request-rate) and the requests in flight
 * (`--per-host`) for every process sharing it, so processes and restarts keep them together.
 *
 * Two bindings (seeds/003 §3.2.6-3.2.7): Crawl-delay and Request-rate bind the name token (key:
 * the origin); Ip-delay and Ip-rate bind one IP address (key: origin and IP).
 */
import type { AccessPlan } from "../protocol/robots/plan.js";
import type { CrawlStore, PaceRule, Reservation } from "../store/types.js";
import { ipKey, paced } from "./site-pace.js";
import { cancellableSleep } from "./sleep.js";

/** A reservation held: give it back with {@link SiteGate.release}. */
export interface Ticket {
  readonly origin: string;
  readonly at: number;
  readonly held: readonly { readonly key: string; readonly id: string; readonly gapMs: number }[];
}

export interface SiteGateOptions {
  readonly store: CrawlStore;
  /** This process, as its heartbeat names it. */
  readonly owner: string;
  /** Requests in flight at once to a site whose rules set no delay or rate. */
  readonly perHost: number;
  /** The IP address the crawler sends from (Ip-* rules). */
  readonly ip?: string;
  readonly now: () => number;
  readonly signal?: AbortSignal;
  /** Told each time a wait starts, with its reason, for people watching. */
  readonly onWait?: (origin: string, until: number, why: string) => void;
}

/** How long a request refused only because others are in flight waits before asking again. */
const IN_FLIGHT_POLL_MS = 50;
const MAX_SLEEP_MS = 1000;

/** The rule of one binding in a plan, or the default when the plan is not known yet. */
export function ruleOf(plan: AccessPlan | null, scope: "agent" | "ip", perHost: number): PaceRule {
  if (plan === null) return { gapMs: 0, rate: null, inFlight: 1 };
  const delay = scope === "agent" ? plan.crawlDelay : plan.ipDelay;
  const found = plan.rates.find((r) => r.scope === scope);
  // A rate of 0.5/s is one request per 2 s: whole requests per a window of matching length.
  const whole = found === undefined ? 0 : Math.max(1, Math.floor(found.requests));
  const rate =
    found === undefined
      ? null
      : { requests: whole, windowMs: Math.ceil((found.seconds * whole * 1000) / found.requests) };
  // seeds/003 §3.2.7 counts the window from the first visit; the paper's crawler also spreads
  // a rate evenly (Table 10: Request-rate 120/m kept as 0.5 s between requests), which keeps
  // the window too and never sends its requests in one burst.
  const spacingMs = rate === null ? 0 : Math.ceil(rate.windowMs / rate.requests);
  // A paced site gets one request at a time: the next gap then counts from the last end.
  return {
    gapMs: Math.max(Math.ceil((delay?.value ?? 0) * 1000), spacingMs),
    rate,
    inFlight: paced(plan, scope) ? 1 : perHost,
  };
}

export class SiteGate {
  constructor(private readonly options: SiteGateOptions) {}

  /**
   * Tries once to take the site's reservation under `plan` (null: rules not known yet, as for
   * robots.txt itself): a ticket, or when to try again.
   */
  async tryTake(
    origin: string,
    plan: AccessPlan | null,
  ): Promise<Ticket | Extract<Reservation, { granted: false }>> {
    const { store, owner, now, perHost } = this.options;
    const held: { key: string; id: string; gapMs: number }[] = [];
    const keys: [string, PaceRule][] = [[origin, ruleOf(plan, "agent", perHost)]];
    if (plan !== null && paced(plan, "ip"))
      keys.unshift([ipKey(origin, this.options.ip), ruleOf(plan, "ip", perHost)]);
    const at = now();
    for (const [key, rule] of keys) {
      const got = await store.reservations.take(key, owner, at, rule);
      if (!got.granted) {
        // Taken ones go back unused: no request went out.
        for (const h of held) await store.reservations.release(h.key, h.id, now(), 0, false);
        // The site waits as long as its IP-bound pace asks: the frontier brings it back then.
        if (key !== origin && got.why !== "in-flight")
          await store.frontier.setNextAt(origin, got.retryAt);
        return got;
      }
      held.push({ key, id: got.id, gapMs: rule.gapMs });
    }
    return { origin, at, held };
  }

  /** Waits for the site's reservation; null when the crawl was stopped meanwhile. */
  async take(origin: string, plan: AccessPlan | null, why: string): Promise<Ticket | null> {
    const { now, signal } = this.options;
    let told = 0;
    for (;;) {
      if (signal?.aborted === true) return null;
      const got = await this.tryTake(origin, plan);
      if ("held" in got) return got;
      const until = got.why === "in-flight" ? now() + IN_FLIGHT_POLL_MS : got.retryAt;
      if (until - now() > MAX_SLEEP_MS && until !== told) {
        told = until;
        this.options.onWait?.(origin, until, `${why}: ${reasonOf(got.why)}`);
      }
      const nap = cancellableSleep(Math.max(1, Math.min(until - now(), MAX_SLEEP_MS)));
      const stop = () => nap.cancel();
      signal?.addEventListener("abort", stop, { once: true });
      await nap.done;
      signal?.removeEventListener("abort", stop);
    }
  }

  /**
   * Gives the reservation back: `used` when a request went out (the gap counts from `end`), not
   * used when none did (a URL refused before asking).
   */
  async release(ticket: Ticket, used: boolean, end = this.options.now()): Promise<void> {
    for (const h of ticket.held)
      await this.options.store.reservations.release(h.key, h.id, end, used ? h.gapMs : 0, used);
  }
}

function reasonOf(why: "gap" | "rate" | "in-flight"): string {
  switch (why) {
    case "gap":
      return "keeping the site's delay";
    case "rate":
      return "the site's request rate is reached";
    case "in-flight":
      return "other requests to the site are in flight";
  }
}
