/**
 * What robots.txt lets one robot fetch on one site, read once before anything else (the issue:
 * "the site's robots.txt first"). Every dataset, manifest, sitemap and download URL is asked
 * here; DESIGN §3 decides what a robots.txt answer other than 2xx means.
 */
import { fetchRobots, robotsUrlFor } from "../../net/robots-fetch.js";
import type { HttpClient } from "../../net/http-client.js";
import { parseRobots, type RobotsPolicy } from "../../protocol/robots/index.js";
import { type AccessPlan, EMPTY_PLAN } from "../../protocol/robots/plan.js";
import type { SitePacer } from "./site-pacer.js";

export interface Permission {
  readonly allowed: boolean;
  /** For a person: the line that decided, or the robots.txt answer that did. */
  readonly why: string;
  /** The deciding line of robots.txt, or null. */
  readonly line: number | null;
}

export interface SiteAccess {
  readonly robotsUrl: string;
  /** The robots.txt status, or null after a network error. */
  readonly status: number | null;
  readonly action: "parse" | "allow-all" | "disallow-all" | "unreachable";
  /** What the robots.txt answer means, for a person. */
  readonly why: string;
  readonly policy: RobotsPolicy | null;
  readonly plan: AccessPlan;
  check(url: string): Permission;
}

export interface SiteAccessOptions {
  readonly client: HttpClient;
  /** The robot's name token. */
  readonly agent: string;
  readonly pacer: SitePacer;
  readonly now?: () => number;
  /** The robots.txt fetch's total deadline in ms (default 30 s). */
  readonly deadlineMs?: number;
}

export async function readSiteAccess(
  site: string,
  options: SiteAccessOptions,
): Promise<SiteAccess> {
  const now = options.now ?? Date.now;
  const robotsUrl = robotsUrlFor(site);
  await options.pacer.before();
  const result = await fetchRobots(robotsUrl, {
    client: options.client,
    now,
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
  });
  options.pacer.after();
  const { verdict } = result;
  const action = verdict.action === "follow" ? "unreachable" : verdict.action;
  const base = { robotsUrl, status: result.status, action, why: `robots.txt ${verdict.why}` };
  if (action === "parse") {
    const policy = parseRobots(result.body ?? new Uint8Array(), { origin: new URL(site).origin });
    const ask = (url: string) => policy.check(url, { agent: options.agent, at: now() });
    const plan = ask(new URL("/", site).href).plan ?? EMPTY_PLAN;
    options.pacer.setPlan(plan);
    return {
      ...base,
      policy,
      plan,
      check(url) {
        const d = ask(url);
        const where = d.line === null ? "" : `robots.txt line ${d.line}: ${d.rule ?? ""}`;
        if (d.allowed) {
          return {
            allowed: true,
            line: d.line,
            why: where === "" ? "no robots.txt rule forbids it" : where,
          };
        }
        return {
          allowed: false,
          line: d.line,
          why:
            where === ""
              ? `robots.txt: ${d.error ?? d.detail ?? d.reason}`
              : `forbidden by ${where}`,
        };
      },
    };
  }
  const allowed = action === "allow-all";
  return {
    ...base,
    policy: null,
    plan: EMPTY_PLAN,
    check: () => ({ allowed, line: null, why: base.why }),
  };
}
