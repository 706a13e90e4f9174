/**
 * The sitemap stage: each site's sitemaps, read once in the crawl by whichever process comes
 * first (the store records who reads them and when), each request under the site's
 * reservation. Owns the sites this process has fed, and the original pages a sitemap snapshot
 * stands for (REGP `<srcloc>`, seeds/003 §4.2), which are never fetched themselves.
 */
import type { AccessPlan } from "../../protocol/robots/index.js";
import type { SiteGate, Ticket } from "../site-gate.js";
import type { SiteView } from "../site-rules.js";
import { feedSitemaps } from "../sitemap-feed.js";
import { trapReason } from "../traps.js";
import { SITEMAP_DEADLINE_MS } from "../../net/deadline.js";
import { originOf } from "../url-normal.js";
import type { Verdict } from "../verdict.js";
import type { RobotsStage } from "./robots.js";
import type { CrawlRun } from "./run.js";

/** Longest a sitemap request may take in all, by default. */
export { SITEMAP_DEADLINE_MS };

/**
 * Whether a site is read for sitemaps now: only one that admits the robot and does not send
 * it to a mirror, not with --no-sitemaps, not when a --queued run does not follow, and not at
 * --max-depth 0 (sitemap entries are one step from the site).
 */
export function wantsSitemaps(site: {
  readonly view: SiteView;
  readonly base: Verdict;
  readonly sitemaps: boolean;
  readonly following: boolean;
  readonly maxDepth: number;
}): boolean {
  const { view, base } = site;
  if (view.kind === "closed" || !base.allowed || base.plan.mirror !== null) return false;
  return site.sitemaps && site.following && site.maxDepth >= 1;
}

export class SitemapStage {
  /** Sites this process has considered for sitemaps in this run. */
  private readonly fed = new Set<string>();
  /** Original pages a sitemap snapshot stands for (`<srcloc>` → `<loc>`). */
  private readonly standIns = new Map<string, string>();

  constructor(
    private readonly run: CrawlRun,
    private readonly gate: SiteGate,
    private readonly robots: RobotsStage,
  ) {}

  /** The snapshot that stands for `url`, when a sitemap named one. */
  standInFor(url: string): string | undefined {
    return this.standIns.get(url);
  }

  /**
   * Reads a site's sitemaps once in the crawl (a revisit run reads them again once), when
   * {@link wantsSitemaps}.
   */
  async feedOnce(origin: string, view: SiteView, base: Verdict): Promise<void> {
    const { run } = this;
    if (
      this.fed.has(origin) ||
      view.kind === "closed" ||
      !base.allowed ||
      base.plan.mirror !== null
    )
      return;
    this.fed.add(origin);
    const wanted = wantsSitemaps({
      view,
      base,
      sitemaps: run.options.sitemaps !== false,
      following: run.following,
      maxDepth: run.options.maxDepth,
    });
    if (!wanted) return;
    const since = run.options.revisit === true ? run.started : 0;
    if (!(await run.store.reservations.claimSitemaps(origin, run.owner, run.now(), since))) return;
    await this.feedSite(origin, view, base.plan);
    if (!run.signal.aborted) await run.store.reservations.sitemapsRead(origin, run.now());
  }

  private feedSite(origin: string, view: SiteView, plan: AccessPlan): Promise<unknown> {
    const { run, gate } = this;
    const { options } = run;
    let ticket: Ticket | null = null;
    return feedSitemaps({
      origin,
      policy: view.kind === "rules" ? view.policy : null,
      robot: run.robot(run.now()),
      store: run.store,
      client: run.client,
      cookie: plan.cookie?.value ?? null,
      awaitTurn: async (url) => {
        const site = originOf(url);
        ticket = await gate.take(
          site,
          site === origin ? plan : (this.robots.plans.get(site) ?? null),
          "sitemap",
        );
        return ticket !== null;
      },
      requestEnded: async (url, status, detail, bytes) => {
        const held = ticket;
        ticket = null;
        if (held === null) return;
        const end = run.now();
        await gate.release(held, true, end);
        await run.log(url, held.origin, held.at, end - held.at, status, bytes, "sitemap", detail);
      },
      normal: (url) => run.normal(url),
      accept: (url) => {
        const loc = run.normal(url);
        return loc !== null && run.inScope(loc) && trapReason(loc) === null ? loc : null;
      },
      standIn: (srcloc, snapshot) => this.standIns.set(srcloc, snapshot),
      limit: options.maxPages,
      revisitChanged: options.revisit === true,
      fallback: options.sitemapFallback !== false,
      now: run.now,
      deadlineMs: options.sitemapDeadlineMs ?? SITEMAP_DEADLINE_MS,
      signal: run.signal,
    });
  }
}
