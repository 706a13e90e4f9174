/**
 * What one robot's answers depend on, as a string: two parses with the same key answer every URL
 * alike for that robot, so an edit inside GPTBot's group re-answers GPTBot's column only.
 *
 * Outside REGP a robot's answers follow from the groups chosen for its token (RFC 9309 §2.2.1;
 * seeds/004 3.2.1), chosen by the User-agent lines, and from the lines no group owns (Sitemap,
 * which the access plan lists, and the rest). So the key is every line of the file less the
 * rules, Crawl-delay and other lines of the groups not chosen. Line numbers are part of it:
 * answers name their lines.
 *
 * REGP is keyed by the whole file and the whole robot, and an edit there answers every URL
 * again. Each REGP answer carries the access plan, which draws on the global section and the
 * header as well as the robot's sequence (seeds/003 §3.2), and is judged at the visit's moment
 * against the time windows (§3.2.8), with the robot's IP and languages: when the tester asks
 * for "now", that moment moves with every edit, and an answer kept from the last edit could
 * say a window is open after it closed. So nothing is kept; the answering worker does the work,
 * off the page's main thread, and sends back only the rows whose cells changed.
 */
import type { Robot, RobotsPolicy } from "../../protocol/robots/index.js";
import type { SiteWide } from "./site-wide.js";

/**
 * Past this many lines the key is the whole file: sorting out the groups' lines costs more than
 * it saves on a file that is parsed only once typing pauses.
 */
export const MAX_KEYED_LINES = 5000;

export function columnKey(policy: RobotsPolicy, robot: Robot, siteWide: SiteWide | null): string {
  const head = JSON.stringify([
    policy.dialect,
    policy.origin,
    policy.truncated,
    siteWide,
    // REGP answers weigh the whole robot; the others only its name.
    policy.dialect === "regp" ? robot : robot.agent,
  ]);
  const lines = policy.text.lines;
  if (policy.dialect === "regp" || lines.length > MAX_KEYED_LINES || robot.agent === "")
    return `${head}\n${lines.map((l) => l.text).join("\n")}`;
  const chosen = new Set(policy.check("/", robot).group?.lines ?? []);
  // The lines the groups not chosen own, less their User-agent lines (an edited one may change
  // the choice); every other line is kept.
  const skipped = new Set<number>();
  for (const group of policy.groups) {
    if (group.agents.some((a) => chosen.has(a.line))) continue;
    for (const rule of group.rules) skipped.add(rule.line);
    for (const line of group.extensions) skipped.add(line.number);
    if (group.crawlDelayLine !== null) skipped.add(group.crawlDelayLine);
  }
  const kept: string[] = [head];
  for (const line of lines)
    if (!skipped.has(line.number)) kept.push(`${line.number}\t${line.text}`);
  return kept.join("\n");
}
