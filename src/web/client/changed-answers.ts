/** The answers that differ between the live file and the edited one, for the diff. */
import type { Decision, Robot, RobotsPolicy } from "../../protocol/robots/index.js";
import { decide } from "./answer-text.js";
import type { SiteWide } from "./site-wide.js";

export interface ChangedAnswer {
  readonly url: string;
  readonly robot: string;
  readonly live: Decision;
  readonly edited: Decision;
}

/** The answers whose verdict differs between the live file and the edited one. */
export function changedAnswers(
  live: { policy: RobotsPolicy; siteWide: SiteWide | null },
  edited: RobotsPolicy,
  robots: readonly Robot[],
  urls: readonly string[],
): ChangedAnswer[] {
  const out: ChangedAnswer[] = [];
  for (const robot of robots) {
    for (const url of urls) {
      const before = decide({ ...live, robot }, url);
      const after = decide({ policy: edited, robot, siteWide: null }, url);
      if (before.allowed !== after.allowed)
        out.push({ url, robot: robot.agent, live: before, edited: after });
    }
  }
  return out;
}
