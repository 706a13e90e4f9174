/**
 * The site's robots.txt as the agent host sees it: fetched from `--site`, or read from the
 * document root. It gives the Mobile-agent-server records (which paths this host serves) and
 * the rules that bind each visiting agent to what its robot may fetch. A robots.txt that
 * closes the site (401/403, unreachable: DESIGN §3) closes it to agents too.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isPrivateHost } from "../../net/address-guard.js";
import { fetchRobots } from "../../net/robots-fetch.js";
import {
  MobileAgentServers,
  parseRobots,
  readRobotsText,
  type RobotsPolicy,
} from "../../protocol/robots/index.js";

export interface SiteRules {
  /** The robots.txt text ("" when the site has none: nothing is forbidden). */
  readonly robotsText: string;
  readonly policy: RobotsPolicy;
  readonly servers: MobileAgentServers;
  /** Why the whole site is closed to robots, or null. */
  readonly closed: string | null;
  /** When these rules were read (ms since the epoch). */
  readonly readAt: number;
}

export async function loadSiteRules(options: {
  readonly site: string | null;
  readonly root: string;
  readonly userAgent: string;
  readonly now: number;
}): Promise<SiteRules> {
  if (options.site !== null) {
    // The operator named the site: a private one may be reached, and nothing else it redirects to.
    const result = await fetchRobots(`${options.site}/robots.txt`, {
      userAgent: options.userAgent,
      allowPrivateAddresses: isPrivateHost(new URL(options.site).hostname),
    });
    const verdict = result.verdict;
    if (verdict.action === "parse")
      return rules(new TextDecoder().decode(result.body ?? new Uint8Array()), null, options);
    if (verdict.action === "allow-all") return rules("", null, options);
    return rules("", `robots.txt of ${options.site}: ${verdict.why}`, options);
  }
  try {
    return rules(await readFile(join(options.root, "robots.txt"), "utf8"), null, options);
  } catch (error) {
    // No robots.txt in the root: as a 404 would say, nothing is forbidden.
    if ((error as { code?: unknown }).code === "ENOENT") return rules("", null, options);
    throw error;
  }
}

function rules(
  robotsText: string,
  closed: string | null,
  options: { readonly site: string | null; readonly now: number },
): SiteRules {
  return {
    robotsText,
    policy: parseRobots(robotsText, options.site === null ? {} : { origin: options.site }),
    servers: new MobileAgentServers(readRobotsText(robotsText)),
    closed,
    readAt: options.now,
  };
}
