/**
 * Making reports (seeds/001 §3.2) from the modification log: for a registration, the changes
 * since its last report, folded per path, with its Exclude or IncludeOnly applied and without
 * the paths the site's robots.txt forbids that robot (seeds/001 §2: "the web server is the best
 * able to know whether some URLs in its domain are not to be indexed by a given robot").
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type Change,
  collapseChanges,
  formatReport,
  groupChanges,
  latencyMs,
  pathFilter,
  type PathFilter,
} from "../../protocol/rup/index.js";
import { parseRobots, type RobotsPolicy } from "../../protocol/robots/index.js";
import type { Registration, SiteState } from "./state.js";

/**
 * The name a registration without a User-Agent is checked under: a token no group names, so
 * that only the `*` groups apply to it.
 */
export const ANONYMOUS_AGENT = "heed-rup-unnamed-robot";

/** The site's robots.txt as it is now, or null when it has none. */
export async function readSiteRobots(root: string): Promise<RobotsPolicy | null> {
  const text = await readFile(join(root, "robots.txt")).catch(() => null);
  return text === null ? null : parseRobots(new Uint8Array(text));
}

/** Which paths a robot hears about: its own filter, then the site's robots.txt for it. */
export function reportFilter(
  filter: PathFilter,
  agent: string | null,
  robots: RobotsPolicy | null,
  urlBase: string,
): (path: string) => boolean {
  const wanted = pathFilter(filter);
  return (path) => {
    if (!wanted(path)) return false;
    if (robots === null) return true;
    return robots.check(new URL(path, urlBase).href, agent ?? ANONYMOUS_AGENT).allowed;
  };
}

export function reportBody(
  seq: number,
  urlBase: string,
  changes: readonly Change[],
  keep: (path: string) => boolean,
): string {
  return formatReport({
    sequenceNumber: seq,
    urlBase,
    changes: groupChanges(collapseChanges(changes).filter((c) => keep(c.path))),
  });
}

/** The first due moment after `now` on the registration's schedule. */
export function nextDue(r: Registration, now: number): number {
  const step = latencyMs(r.latency);
  if (r.nextDue > now) return r.nextDue;
  return r.nextDue + (Math.floor((now - r.nextDue) / step) + 1) * step;
}

/**
 * Makes a report for every registration that is due at `now` and puts it in the outbox. A
 * report is made at each period even when nothing changed: its arrival tells the robot that
 * no report was lost (seeds/001 §3.3.3 expects one "within a fixed period of time").
 */
export async function makeDueReports(
  state: SiteState,
  root: string,
  urlBase: string,
  now: number,
): Promise<number> {
  const due = state.due(now);
  if (due.length === 0) return 0;
  const robots = await readSiteRobots(root);
  const upTo = state.maxChangeId();
  for (const r of due) {
    const seq = r.seq + 1;
    const body = reportBody(
      seq,
      urlBase,
      state.changesBetween(r.lastChangeId, upTo),
      reportFilter(r.filter, r.agent, robots, urlBase),
    );
    state.enqueue(r, { seq, body, upTo, nextDue: nextDue(r, now), now });
  }
  return due.length;
}
