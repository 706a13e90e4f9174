/**
 * The robots stage: each site's robots.txt, read before any other URL of the site under the
 * site's reservation (its request keeps the gap the rules last read ask, or an older copy's),
 * logged, and kept in the store (SiteRules). Owns each site's plan as this process last read it.
 */
import { ROBOTS_DEADLINE_MS } from "../../net/deadline.js";
import { fetchRobots, type RobotsFetchResult } from "../../net/robots-fetch.js";
import { type AccessPlan, robotsLicenses } from "../../protocol/robots/index.js";
import { LICENSE } from "../report.js";
import { MAX_ROBOTS_BYTES } from "../../protocol/robots/limits.js";
import type { CachedRobots } from "../../store/types.js";
import { copyPlan } from "../robots-copy.js";
import { tellOpenFilesShortage } from "../open-files-shortage.js";
import type { SiteGate, Ticket } from "../site-gate.js";
import { type RobotsTurn, SiteRules, type SiteView } from "../site-rules.js";
import { sleepUnlessStopped } from "../sleep.js";
import { originOf } from "../url-normal.js";
import { decide } from "../verdict.js";
import type { CrawlRun } from "./run.js";

/** Longest a robots.txt request may take in all, by default (one deadline for every fetch). */
export { ROBOTS_DEADLINE_MS };

export class RobotsStage {
  /**
   * Each site's rules as last read by this process: what a robots.txt request, made before the
   * new rules are known, keeps; and the reservation's rule the pages of a site compare with.
   */
  readonly plans = new Map<string, AccessPlan>();
  readonly sites: SiteRules;

  constructor(
    private readonly run: CrawlRun,
    private readonly gate: SiteGate,
  ) {
    const { options, client, signal, now } = run;
    this.sites = new SiteRules({
      cache: run.store.robots,
      now,
      fetch: async (url, turn) => {
        const result = await fetchRobots(url, {
          userAgent: options.userAgent,
          client,
          // A total deadline: a robots.txt sent a byte a second would hold a slot for minutes.
          deadlineMs: options.robotsDeadlineMs ?? ROBOTS_DEADLINE_MS,
          signal,
          ...(turn?.hop === undefined ? {} : { beforeRedirect: turn.hop }),
        });
        if (result.openFilesShortage === true) tellOpenFilesShortage(run);
        return result;
      },
      reserve: (origin, previous) => this.reserve(origin, previous),
      ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
    });
  }

  private async reserve(origin: string, previous: CachedRobots | null): Promise<RobotsTurn | null> {
    const { gate, run } = this;
    const { dialect } = run.options;
    // Until this process reads the rules, the copy the store holds (even an expired one) paces.
    const plan =
      this.plans.get(origin) ?? copyPlan(previous, origin, run.robot(run.now()), dialect);
    const first = await gate.take(origin, plan, "robots.txt");
    if (first === null) return null;
    // The reservation of the site the exchange is at: a redirect hop moves it (`hopTurn`).
    let ticket: Ticket | null = first;
    let released = false;
    return {
      hop: async (from, to) => {
        if (ticket === null || originOf(to) === originOf(from)) return;
        const held = ticket;
        ticket = null;
        await gate.release(held, true);
        ticket = await this.hopTurn(origin, to, first.at);
      },
      release: async (asked: boolean, got: RobotsFetchResult | null) => {
        if (released) return;
        released = true;
        const held = ticket;
        ticket = null;
        // The gap counts from the end of the exchange, after every redirect hop.
        const end = run.now();
        if (held !== null) await gate.release(held, asked, end);
        if (!asked) return;
        await run.log(
          `${origin}/robots.txt`,
          origin,
          first.at,
          end - first.at,
          got?.status ?? null,
          got?.body?.length ?? 0,
          "robots",
          robotsDetail(got),
        );
        // RSL License: lines, each a record of its own for heed report (shown, agreed to nothing).
        const body = got?.status === 200 ? (got.body ?? null) : null;
        const licenses = body === null ? [] : robotsLicenses(body, `${origin}/`);
        for (const license of licenses) {
          await run.log(
            `${origin}/robots.txt`,
            origin,
            end,
            0,
            null,
            0,
            LICENSE,
            `${license.where}: ${license.url}`,
          );
        }
      },
    };
  }

  /**
   * A redirect hop of `reading`'s robots.txt exchange (begun at `began`) to `to`, on another
   * site: the hop is a request to that site, so it waits for that site's own rules (its
   * robots.txt read first, under its own reservation, unless that reading waits on this one),
   * then for its Visit-time and its reservation, as any request to it. The rules the exchange
   * reads still apply to `reading` (RFC 9309 §2.3.1.2). A wait longer than the exchange's
   * deadline ends it as unreachable: `reading` is asked again later.
   */
  private async hopTurn(reading: string, to: string, began: number): Promise<Ticket> {
    const { run, gate } = this;
    const site = originOf(to);
    const deadline = began + (run.options.robotsDeadlineMs ?? ROBOTS_DEADLINE_MS);
    for (;;) {
      const view = await this.sites.viewDuring(site, reading);
      const pace = view?.kind === "rules" ? hopPace(view, to, run) : await this.lastPace(site);
      if (pace.opensAt === null) {
        const ticket = await gate.take(site, pace.plan, "robots.txt redirect");
        if (ticket === null) throw new Error("the crawl was stopped");
        // The gap waited for may have run past the window's end: asked again, as it leaves.
        if (view?.kind !== "rules" || hopPace(view, to, run).opensAt === null) return ticket;
        await gate.release(ticket, false);
      } else {
        if (pace.opensAt > deadline)
          throw new Error(`the redirect to ${to} is outside its site's Visit-time`);
        await sleepUnlessStopped(Math.max(1, pace.opensAt - run.now()), run.signal);
      }
      if (run.signal.aborted) throw new Error("the crawl was stopped");
    }
  }

  /**
   * A site's pace when its rules cannot be read now: the plan this process last read, or the
   * store's copy's (null: none known, the pace of a site not read yet).
   */
  private async lastPace(origin: string): Promise<HopPace> {
    const { run } = this;
    const known = this.plans.get(origin);
    if (known !== undefined) return { plan: known, opensAt: null };
    const copy = await run.store.robots.get(origin);
    return {
      plan: copyPlan(copy, origin, run.robot(run.now()), run.options.dialect),
      opensAt: null,
    };
  }
}

/** What a redirect hop keeps: the plan of the site it reaches, or when its Visit-time opens. */
interface HopPace {
  readonly plan: AccessPlan | null;
  /** Null: the window is open now. */
  readonly opensAt: number | null;
}

/**
 * A hop to `url` under its site's rules, as they stand for the site's root (a robots.txt URL
 * is always allowed, window or not). Only the time holds a hop back: a robots.txt is not a
 * page, and the exchange's other rules are those of the site it began at.
 */
function hopPace(view: SiteView & { kind: "rules" }, url: string, run: CrawlRun): HopPace {
  const verdict = decide(view, `${originOf(url)}/`, run.robot(run.now()));
  const opensAt = verdict.allowed ? null : verdict.retryAt;
  return { plan: verdict.plan, opensAt };
}

/** What the crawl log says of a robots.txt answer: none, or one cut at the size limit. */
export function robotsDetail(
  got: { readonly body: Uint8Array | null; readonly bodyCut?: boolean } | null,
): string | null {
  if (got === null) return "no answer";
  const size = got.body?.length ?? 0;
  // RFC 9309 §2.5: rules past the first 500 KiB are not read; the log says so.
  if (got.bodyCut === true || size > MAX_ROBOTS_BYTES)
    return (
      `robots.txt is ${got.bodyCut === true ? "over " : ""}${size} bytes; only the first ` +
      `${MAX_ROBOTS_BYTES} were read: rules after them are not seen`
    );
  return null;
}
