/**
 * What one robot's answers depend on, as a string: two parses with the same key answer every URL
 * alike for that robot, so an edit inside GPTBot's group re-answers GPTBot's column only.
 *
 * Outside REGP a robot's answers follow from the groups chosen for its token (RFC 9309 §2.2.1;
 * seeds/004 3.2.1), chosen by the User-agent lines, and from the lines outside every group
 * (Sitemap, usage preferences). So the key is every line of the file less the lines of the
 * groups not chosen, plus every User-agent line (an edited one may change the choice). Line
 * numbers are part of it: answers name their lines. REGP weighs IP, time and requirements from
 * anywhere in the file, so there the key is the whole file and the whole robot.
 */
import type { Robot, RobotsPolicy } from "../../protocol/robots/index.js";
import type { SiteWide } from "./answer-text.js";

/**
 * Past this many lines the key is the whole file: working out the groups' spans costs more than
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
  const skipped: [number, number][] = [];
  const groups = policy.groups;
  groups.forEach((group, i) => {
    const first = group.agents[0]?.line;
    if (first === undefined || group.agents.some((a) => chosen.has(a.line))) return;
    const next = groups[i + 1]?.agents[0]?.line ?? Number.MAX_SAFE_INTEGER;
    skipped.push([first, next - 1]);
  });
  const agentLines = new Set(groups.flatMap((g) => g.agents.map((a) => a.line)));
  const kept: string[] = [head];
  let span = 0;
  for (const line of lines) {
    while (span < skipped.length && (skipped[span] as [number, number])[1] < line.number) span++;
    const inSkipped =
      span < skipped.length && (skipped[span] as [number, number])[0] <= line.number;
    if (!inSkipped || agentLines.has(line.number)) kept.push(`${line.number}\t${line.text}`);
  }
  return kept.join("\n");
}
