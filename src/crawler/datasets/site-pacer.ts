/**
 * One robot's pace on one site outside the crawl frontier (`heed datasets`, `heed crawl
 * --datasets`): every request — robots.txt, /data.txt, manifests, sitemaps, downloads — takes
 * the site's reservation in the store first (../site-gate.ts, DESIGN §2), as pages do, so that
 * the site's Crawl-delay, Request-rate, Ip-delay and Ip-rate (seeds/003 §3.2.6-3.2.7) hold over
 * every process sharing the store. Gaps count from the answer, as in the crawler.
 */
import type { AccessPlan } from "../../protocol/robots/plan.js";
import { openSqliteStore } from "../../store/sqlite/index.js";
import { openSiteGate, type SiteGate, type Ticket } from "../site-gate.js";

export interface PacerOptions {
  /** The site's door; default: one on a store of this process alone (in memory). */
  readonly gate?: SiteGate;
  /** Default `Date.now`. */
  readonly now?: () => number;
  /** For a store of its own: default a timer (tests give a clock of their own). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Longest gap kept: a site asking for more than an hour between requests is not waited on. */
export const MAX_WAIT_MS = 60 * 60_000;

export class SitePacer {
  private plan: AccessPlan | null = null;
  private ticket: Ticket | null = null;
  /** The last release, awaited before the next request; it fails that request if it failed. */
  private released: Promise<void> = Promise.resolve();
  /** Time spent waiting, in ms, for reports. */
  waitedMs = 0;

  private constructor(
    private readonly origin: string,
    private readonly gate: SiteGate,
    private readonly now: () => number,
    private readonly onClose: () => Promise<void>,
  ) {}

  /** A pacer for `site` through `options.gate`, or through a store of its own. */
  static async open(site: string, options: PacerOptions = {}): Promise<SitePacer> {
    const now = options.now ?? Date.now;
    const origin = new URL(site).origin;
    if (options.gate !== undefined) return new SitePacer(origin, options.gate, now, async () => {});
    const store = await openSqliteStore(":memory:");
    const { gate, close } = await openSiteGate({
      store,
      now,
      ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
    });
    return new SitePacer(origin, gate, now, async () => {
      await close();
      await store.close();
    });
  }

  /** The site's rules, once robots.txt is read (or known from the crawl). */
  setPlan(plan: AccessPlan): void {
    const cap = (d: AccessPlan["crawlDelay"]) =>
      d === null ? null : { ...d, value: Math.min(d.value, MAX_WAIT_MS / 1000) };
    this.plan = { ...plan, crawlDelay: cap(plan.crawlDelay), ipDelay: cap(plan.ipDelay) };
  }

  /** The gap between requests the rules ask for, in ms (Crawl-delay or Ip-delay, the larger). */
  get delayMs(): number {
    const p = this.plan;
    return p === null ? 0 : Math.max(p.crawlDelay?.value ?? 0, p.ipDelay?.value ?? 0) * 1000;
  }

  /** Waits for the site's reservation; the request may start when this returns. */
  async before(): Promise<void> {
    // A request whose end was not told (it threw) ends now.
    this.after();
    await this.released;
    const start = this.now();
    const ticket = await this.gate.take(this.origin, this.plan, "datasets");
    if (ticket === null) throw new Error(`stopped while waiting for ${this.origin}`);
    this.waitedMs += Math.max(0, ticket.at - start);
    this.ticket = ticket;
  }

  /** The answer has come: the reservation goes back, and the next gap counts from now. */
  after(): void {
    const ticket = this.ticket;
    this.ticket = null;
    if (ticket === null) return;
    const end = this.now();
    const earlier = this.released;
    this.released = earlier.then(() => this.gate.release(ticket, true, end));
    // Failures surface in the next before() or in close().
    this.released.catch(() => {});
  }

  /** Gives back what is held and closes a store of its own. */
  async close(): Promise<void> {
    this.after();
    try {
      await this.released;
    } finally {
      await this.onClose();
    }
  }
}
