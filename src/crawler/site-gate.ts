/**
 * The one door to a site (DESIGN §2, one reservation per site): every request the crawl makes to
 * a site — robots.txt, sitemaps, pages, /data.txt and downloads, RUP actions, agent exchanges —
 * takes the site's reservation in the store
 * first, and gives it back when the exchange ends. The store keeps the gap since the last
 * exchange ended (Crawl-delay), the rate window (Request-rate) and the requests in flight
 * (`--per-host`) for every process sharing it, so processes and restarts keep them together.
 *
 * Two bindings (seeds/003 §3.2.6-3.2.7): Crawl-delay and Request-rate bind the name token (key:
 * the origin); Ip-delay and Ip-rate bind one IP address (key: origin and IP).
 */
import type { HttpClient } from "../net/http-client.js";
import { fetchRobots } from "../net/robots-fetch.js";
import type { AccessPlan } from "../protocol/robots/plan.js";
import type { CrawlStore, Lease, PaceRule, PageValidators, Reservation } from "../store/types.js";
import { ProcessWatch } from "./process-watch.js";
import { copyPlan } from "./robots-copy.js";
import { SiteRules } from "./site-rules.js";
import { sleep, sleepUnlessStopped } from "./sleep.js";

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
  /** A site's own cap in place of `perHost` (the library's per-site concurrency), at most it. */
  readonly perHostOf?: (origin: string) => number;
  /** The IP address the crawler sends from (Ip-* rules). */
  readonly ip?: string;
  readonly now: () => number;
  readonly signal?: AbortSignal;
  /** Told each time a wait starts, with its reason, for people watching. */
  readonly onWait?: (origin: string, until: number, why: string) => void;
  /** Default: a timer (tests give a clock of their own). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * How long a request refused only because others are in flight first waits before asking
 * again. The store cannot say when they end (a robots.txt or sitemap of another process may take
 * its whole deadline), so each refusal in a row doubles the wait, up to {@link MAX_SLEEP_MS}:
 * a short exchange is followed closely, a long one costs a store call a second, not twenty.
 */
const IN_FLIGHT_POLL_MS = 50;
/** The longest wait between two asks; a stop ends any wait at once (sleepUnlessStopped). */
const MAX_SLEEP_MS = 1000;

/** Does the plan set a gap or a rate for this binding (seeds/003 §3.2.6-3.2.7)? */
export function paced(plan: AccessPlan, scope: "agent" | "ip"): boolean {
  const delay = scope === "agent" ? plan.crawlDelay : plan.ipDelay;
  return (delay !== null && delay.value > 0) || plan.rates.some((r) => r.scope === scope);
}

/** The store key of an origin's IP-bound pace (Ip-delay, Ip-rate bind one IP address). */
export function ipKey(origin: string, ip: string | undefined): string {
  return `${origin} ip=${ip ?? "default"}`;
}

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
    const { store, owner, now } = this.options;
    const perHost = this.options.perHostOf?.(origin) ?? this.options.perHost;
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

  /**
   * Tries once to take the site's reservation under `plan` and lease its best due URL: when the
   * plan binds only the name token, one store step (the site's reservation, the lease and the
   * URL's validators together); with an IP-bound pace, {@link tryTake} then the lease. A null
   * lease (nothing due) holds nothing: the reservation is given back already.
   */
  async tryLease(
    origin: string,
    plan: AccessPlan,
    leaseMs: number,
  ): Promise<
    | {
        readonly ticket: Ticket;
        readonly lease: Lease;
        readonly validators?: PageValidators | null;
      }
    | { readonly ticket: null; readonly lease: null }
    | Extract<Reservation, { granted: false }>
  > {
    const { store, owner, now } = this.options;
    if (paced(plan, "ip")) {
      const got = await this.tryTake(origin, plan);
      if (!("held" in got)) return got;
      const lease = await store.frontier.lease(origin, now(), leaseMs, null, owner);
      if (lease !== null) return { ticket: got, lease };
      await this.release(got, false);
      return { ticket: null, lease: null };
    }
    const rule = ruleOf(plan, "agent", this.options.perHostOf?.(origin) ?? this.options.perHost);
    const at = now();
    const got = await store.steps.leaseReserved(origin, owner, at, rule, leaseMs);
    if (!got.granted) return got;
    if (got.lease === null) return { ticket: null, lease: null };
    const ticket = { origin, at, held: [{ key: origin, id: got.id, gapMs: rule.gapMs }] };
    return { ticket, lease: got.lease, validators: got.validators };
  }

  /** Waits for the site's reservation; null when the crawl was stopped meanwhile. */
  async take(origin: string, plan: AccessPlan | null, why: string): Promise<Ticket | null> {
    const { now, signal } = this.options;
    let told = 0;
    let inFlightMs = IN_FLIGHT_POLL_MS;
    for (;;) {
      if (signal?.aborted === true) return null;
      const got = await this.tryTake(origin, plan);
      if ("held" in got) return got;
      let until = got.retryAt;
      if (got.why === "in-flight") {
        until = now() + inFlightMs;
        inFlightMs = Math.min(inFlightMs * 2, MAX_SLEEP_MS);
      } else inFlightMs = IN_FLIGHT_POLL_MS;
      if (until - now() > MAX_SLEEP_MS && until !== told) {
        told = until;
        this.options.onWait?.(origin, until, `${why}: ${reasonOf(got.why)}`);
      }
      const ms = Math.max(1, Math.min(until - now(), MAX_SLEEP_MS));
      if (this.options.sleep !== undefined) {
        await this.options.sleep(ms);
        continue;
      }
      if (signal === undefined) await sleep(ms);
      else await sleepUnlessStopped(ms, signal);
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

/**
 * One exchange with a site under its reservation: waits for it, runs `exchange`, gives it back
 * as used (the next gap counts from the exchange's end). Null when the crawl was stopped first.
 */
export async function inTurn<T>(
  gate: SiteGate,
  origin: string,
  plan: AccessPlan | null,
  why: string,
  exchange: () => Promise<T>,
): Promise<T | null> {
  const ticket = await gate.take(origin, plan, why);
  if (ticket === null) return null;
  try {
    return await exchange();
  } finally {
    await gate.release(ticket, true);
  }
}

/**
 * Exchanges outside the frontier (RUP actions) through the gate: each under its site's
 * reservation and the rules of its robots.txt. With `client`, a site whose robots.txt the store
 * holds no fresh copy of has it read first, under the same reservation, so that its delay
 * governs from the first exchange; without, the store's copy (if any) is all there is.
 */
export function siteTurn(
  gate: SiteGate,
  store: CrawlStore,
  agent: string,
  now: () => number,
  client?: HttpClient,
): <T>(url: string, exchange: () => Promise<T>) => Promise<T> {
  const rules =
    client === undefined
      ? null
      : new SiteRules({
          cache: store.robots,
          now,
          fetch: (robotsUrl) => fetchRobots(robotsUrl, { client, now }),
          reserve: async (origin, previous) => {
            const plan = copyPlan(previous, origin, { agent, at: now() });
            const ticket = await gate.take(origin, plan, "robots.txt");
            return ticket === null
              ? null
              : { release: (asked: boolean) => gate.release(ticket, asked) };
          },
        });
  return async <T>(url: string, exchange: () => Promise<T>): Promise<T> => {
    const origin = new URL(url).origin;
    const view = rules === null ? null : await rules.view(origin);
    const plan =
      view === null
        ? await keptPlan(store, origin, agent, now())
        : view.kind === "rules"
          ? (view.policy.check(`${origin}/`, { agent, at: now() }).plan ?? null)
          : null;
    const done = await inTurn(gate, origin, plan, "site", async () => ({
      value: await exchange(),
    }));
    if (done === null) throw new Error(`stopped while waiting for ${origin}`);
    return done.value;
  };
}

/** A site's rules as the store's copy of its robots.txt gives them, or null (none kept). */
export async function keptPlan(
  store: CrawlStore,
  origin: string,
  agent: string,
  at: number,
): Promise<AccessPlan | null> {
  return copyPlan(await store.robots.get(origin), origin, { agent, at });
}

/**
 * A gate for requests made outside a crawl run (`heed crawl --datasets` after the pages, RUP
 * actions): this process beats in the store while it is open, so that a reservation it holds
 * when it dies comes back (./process-watch.ts). `close` gives back what it still holds.
 */
export async function openSiteGate(
  options: Omit<SiteGateOptions, "owner" | "perHost"> & { readonly perHost?: number },
): Promise<{ readonly gate: SiteGate; close(): Promise<void> }> {
  const watch = new ProcessWatch({ store: options.store, now: options.now });
  await watch.start();
  const gate = new SiteGate({ ...options, owner: watch.id, perHost: options.perHost ?? 1 });
  return { gate, close: () => watch.stop() };
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
