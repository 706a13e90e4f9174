/**
 * One robot's pace on one site outside the crawl frontier (`heed datasets`): every request —
 * robots.txt, /data.txt, manifests, sitemaps, downloads — waits for the site's Crawl-delay,
 * Request-rate, Ip-delay and Ip-rate (seeds/003 §3.2.6-3.2.7), with the crawler's own pure pace
 * rules (../pace.ts). Gaps count from the answer, as in the crawler.
 */
import type { AccessPlan } from "../../protocol/robots/plan.js";
import { EMPTY_PLAN } from "../../protocol/robots/plan.js";
import { afterStart, earliestStart, FRESH_PACE, type Pace } from "../pace.js";

export interface PacerOptions {
  /** Default `Date.now`. */
  readonly now?: () => number;
  /** Default: a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Longest single wait: a site asking for more than an hour between requests is not waited on. */
export const MAX_WAIT_MS = 60 * 60_000;

export class SitePacer {
  private plan: AccessPlan = EMPTY_PLAN;
  private agentPace: Pace = FRESH_PACE;
  private ipPace: Pace = FRESH_PACE;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Time spent waiting, in ms, for reports. */
  waitedMs = 0;

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The site's rules, once robots.txt is read. */
  setPlan(plan: AccessPlan): void {
    this.plan = plan;
  }

  /** The last request to the site ended at `at` (before this pacer): the next gap counts from it. */
  startAfter(at: number): void {
    this.agentPace = { ...this.agentPace, lastAt: at };
    this.ipPace = { ...this.ipPace, lastAt: at };
  }

  /** The gap between requests the rules ask for, in ms (Crawl-delay or Ip-delay, the larger). */
  get delayMs(): number {
    return Math.max(this.plan.crawlDelay?.value ?? 0, this.plan.ipDelay?.value ?? 0) * 1000;
  }

  /** Waits until the next request may start, and counts it as started. */
  async before(): Promise<void> {
    const start = this.now();
    const due = Math.max(
      earliestStart(this.plan, "agent", this.agentPace, start),
      earliestStart(this.plan, "ip", this.ipPace, start),
    );
    const wait = Math.min(due - start, MAX_WAIT_MS);
    if (wait > 0) {
      await this.sleep(wait);
      this.waitedMs += wait;
    }
    const at = this.now();
    this.agentPace = afterStart(this.plan, "agent", this.agentPace, at);
    this.ipPace = afterStart(this.plan, "ip", this.ipPace, at);
  }

  /** The answer has come: the next gap counts from now. */
  after(): void {
    const at = this.now();
    this.agentPace = { ...this.agentPace, lastAt: at };
    this.ipPace = { ...this.ipPace, lastAt: at };
  }
}
