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
import { decide, type Verdict } from "../verdict.js";
import { sleepUnlessStopped } from "../sleep.js";
import { tellOpenFilesShortage } from "../open-files-shortage.js";
import type { RobotsStage } from "./robots.js";
import type { CrawlRun } from "./run.js";

/** Unfinished sitemap readings looked at, at most, each time the crawl would end. */
const UNREAD_ASKED = 100;

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
    if (await this.claim(origin)) await this.read(origin, view, base.plan);
  }

  /**
   * Before the crawl ends here: the sitemaps other processes began to read. `read` when one
   * whose reader died (and was reaped) was taken up and read here; `waiting` while a reader,
   * alive or not yet reaped, still holds one; `none` when nothing is left unread.
   */
  async takeUpFreed(): Promise<"read" | "waiting" | "none"> {
    const { run } = this;
    let waiting = false;
    for (const { origin, owner } of await run.store.reservations.unreadSitemaps(UNREAD_ASKED)) {
      if (run.signal.aborted) return "none";
      if (owner === null && (await this.claim(origin))) {
        const view = await this.robots.sites.view(origin);
        const base = decide(view, `${origin}/`, run.robot(run.now()));
        if (view.kind !== "closed" && base.allowed) await this.read(origin, view, base.plan);
        else await run.store.reservations.sitemapsRead(origin, run.now());
        return "read";
      }
      if (owner !== null && owner !== run.owner) {
        waiting = true;
        const why = "its sitemaps are being read by another process";
        run.emit({ type: "waiting", origin, until: run.now(), why });
      }
    }
    return waiting ? "waiting" : "none";
  }

  private claim(origin: string): Promise<boolean> {
    const { run } = this;
    const since = run.options.revisit === true ? run.started : 0;
    return run.store.reservations.claimSitemaps(origin, run.owner, run.now(), since);
  }

  private async read(origin: string, view: SiteView, plan: AccessPlan): Promise<void> {
    const { run } = this;
    await this.feedSite(origin, view, plan);
    if (!run.signal.aborted) await run.store.reservations.sitemapsRead(origin, run.now());
  }

  /**
   * The rules a sitemap request keeps: those of the site it reaches (a sitemap on another host,
   * a redirect hop), whose robots.txt may refuse it (null: not fetched, and logged so) and whose
   * Visit-time holds it back until the window opens again (seeds/003 §3.2.8: a robot outside
   * its window waits), however long the reading of a large sitemap index runs. With `wait`
   * false, any refusal is null at once, unlogged: the caller asks again, waiting.
   */
  private async turnPlan(url: string, wait = true): Promise<AccessPlan | null> {
    const { run } = this;
    const site = originOf(url);
    for (;;) {
      const view = await this.robots.sites.view(site);
      const verdict = decide(view, url, run.robot(run.now()));
      if (verdict.allowed) return verdict.plan;
      if (!wait) return null;
      if (verdict.retryAt === null || view.kind === "closed") {
        await run.log(url, site, run.now(), 0, null, 0, "disallowed", `sitemap: ${verdict.why}`);
        return null;
      }
      run.emit({
        type: "waiting",
        origin: site,
        until: verdict.retryAt,
        why: `sitemap: ${verdict.why}`,
      });
      await sleepUnlessStopped(Math.max(1, verdict.retryAt - run.now()), run.signal);
      if (run.signal.aborted) return null;
    }
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
        for (;;) {
          const turnPlan = await this.turnPlan(url);
          if (turnPlan === null) return false;
          const taken = await gate.take(originOf(url), turnPlan, "sitemap");
          if (taken === null) return false;
          // The gap waited for may have run past the window's end: asked again at the moment
          // the request would leave, and given back unused if it is closed now.
          if ((await this.turnPlan(url, false)) !== null) {
            ticket = taken;
            return true;
          }
          await gate.release(taken, false);
        }
      },
      requestEnded: async (url, status, detail, bytes) => {
        const held = ticket;
        ticket = null;
        if (held === null) return;
        const end = run.now();
        await gate.release(held, true, end);
        await run.log(url, held.origin, held.at, end - held.at, status, bytes, "sitemap", detail);
      },
      notAsked: async () => {
        const held = ticket;
        ticket = null;
        if (held !== null) await gate.release(held, false);
        tellOpenFilesShortage(run);
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
