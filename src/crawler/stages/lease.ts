/**
 * The lease stage: a visit to a site due in the frontier. The site's robots.txt first (read
 * under the robots stage); a site closed for now is waited for a bounded time, then set aside
 * for the run; a closed time window keeps it waiting without taking a URL; its sitemaps are
 * fed once; then the site's reservation in the store and a URL leased, in one store step.
 * Owns since when each site has been closed and waited on, the sites set aside, and the sites
 * to leave alone briefly because others' requests to them are in flight.
 */
import type { SiteGate } from "../site-gate.js";
import type { TdmRepFiles } from "../usage-site-files.js";
import { decide } from "../verdict.js";
import type { FetchStage } from "./fetch.js";
import type { RobotsStage } from "./robots.js";
import type { CrawlRun } from "./run.js";
import type { SitemapStage } from "./sitemaps.js";

/**
 * How long a fetcher holds a URL before its lease counts as lost: longer than the HTTP
 * client's whole-exchange limit (120 s) plus a path's own gap.
 */
export const LEASE_MS = 3 * 60_000;
/** How long a run waits for a site closed for now, by default. */
export const SITE_WAIT_MS = 600_000;
/** A site refused only because other requests to it are in flight is asked again after this. */
export const IN_FLIGHT_COOL_MS = 50;

/**
 * A site closed for now (robots.txt unreachable, 5xx), first seen closed at `first`: waited for
 * until `until`, or set aside once the run has waited `limit` (its URLs stay queued).
 */
export function closedSiteWait(
  first: number,
  now: number,
  limit: number,
  retryAt: number,
): { readonly setAside: true } | { readonly setAside: false; readonly until: number } {
  if (now - first >= limit) return { setAside: true };
  return { setAside: false, until: Math.min(retryAt, first + limit) };
}

export class LeaseStage {
  /** Since when each site has been closed for now, in this run. */
  private readonly closedSince = new Map<string, number>();
  /** Since when this process has waited on each site's reservation, for the crawl log. */
  private readonly waitingSince = new Map<string, number>();
  /** Sites closed for longer than the site wait in this run: set aside. */
  readonly setAside = new Set<string>();
  /** Sites refused only because others' requests are in flight: not asked again until then. */
  readonly coolUntil = new Map<string, number>();
  /** Page reservations this process holds on each site (see schedule.ts). */
  readonly holding = new Map<string, number>();

  constructor(
    private readonly run: CrawlRun,
    private readonly gate: SiteGate,
    private readonly robots: RobotsStage,
    private readonly sitemaps: SitemapStage,
    private readonly fetch: FetchStage,
    /** Sites' tdmrep.json, read before their pages are weighed; null: the crawl does not ask. */
    private readonly tdmrep: TdmRepFiles | null,
    /** Told once the visit is past the site's reservation (taken or refused). */
    private readonly reserved: (origin: string) => void,
  ) {}

  async visit(origin: string): Promise<void> {
    const { run, gate } = this;
    const { store, now } = run;
    const view = await this.robots.sites.view(origin);
    if (view.kind === "closed" && !view.forbidden) {
      // A site closed for now is waited for a bounded time in a run, then set aside: its URLs
      // stay queued for a later run, and a run whose only site is unreachable ends.
      const first = this.closedSince.get(origin) ?? now();
      this.closedSince.set(origin, first);
      const wait = closedSiteWait(
        first,
        now(),
        run.options.siteWaitMs ?? SITE_WAIT_MS,
        view.retryAt,
      );
      if (wait.setAside) {
        this.setAside.add(origin);
        run.emit({
          type: "notice",
          message: `giving up on ${origin} in this run after ${Math.round((now() - first) / 1000)} s: ${view.detail}; its URLs stay queued`,
        });
        return;
      }
      await store.frontier.setNextAt(origin, wait.until);
      run.emit({ type: "waiting", origin, until: wait.until, why: view.detail });
      return;
    }
    this.closedSince.delete(origin);
    // The site as a whole first: a closed time window or a gap still running keeps it waiting
    // without taking a URL out of the queue.
    const base = decide(view, `${origin}/`, run.robot(now()));
    if (!base.allowed && base.retryAt !== null) {
      await store.frontier.setNextAt(origin, base.retryAt);
      run.emit({ type: "waiting", origin, until: base.retryAt, why: base.why });
      return;
    }
    this.robots.plans.set(origin, base.plan);
    await this.sitemaps.feedOnce(origin, view, base);
    await this.tdmrep?.ensure(origin);
    // The site's reservation first (DESIGN §2): its gap, rate window and requests in flight,
    // over every process sharing the store. A refusal moves the site's next moment in the store.
    const got = await gate.tryLease(origin, base.plan, LEASE_MS);
    this.reserved(origin);
    if (!("ticket" in got)) {
      if (!this.waitingSince.has(origin)) this.waitingSince.set(origin, now());
      if (got.why === "in-flight") this.coolUntil.set(origin, now() + IN_FLIGHT_COOL_MS);
      return;
    }
    if (got.ticket === null) return;
    this.holding.set(origin, (this.holding.get(origin) ?? 0) + 1);
    try {
      const since = this.waitingSince.get(origin) ?? got.ticket.at;
      this.waitingSince.delete(origin);
      await this.fetch.one(origin, view, got.lease, got.ticket, since, got.validators);
    } finally {
      const n = (this.holding.get(origin) ?? 1) - 1;
      if (n === 0) this.holding.delete(origin);
      else this.holding.set(origin, n);
    }
  }
}
