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
import type { SiteGate } from "../site-gate.js";
import { type RobotsTurn, SiteRules } from "../site-rules.js";
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
      fetch: async (url) => {
        const result = await fetchRobots(url, {
          userAgent: options.userAgent,
          client,
          // A total deadline: a robots.txt sent a byte a second would hold a slot for minutes.
          deadlineMs: options.robotsDeadlineMs ?? ROBOTS_DEADLINE_MS,
          signal,
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
    const ticket = await gate.take(origin, plan, "robots.txt");
    if (ticket === null) return null;
    let released = false;
    return {
      release: async (asked: boolean, got: RobotsFetchResult | null) => {
        if (released) return;
        released = true;
        // The gap counts from the end of the exchange, after every redirect hop.
        const end = run.now();
        await gate.release(ticket, asked, end);
        if (!asked) return;
        await run.log(
          `${origin}/robots.txt`,
          origin,
          ticket.at,
          end - ticket.at,
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
