/**
 * The rules a stored robots.txt copy gives a robot, for pacing its site: what a request made
 * before fresh rules are read keeps (the robots.txt request itself, a RUP action), and what the
 * crawl view shows. One reading for every caller, so that they pace a site alike.
 */
import {
  type Decision,
  type DialectChoice,
  parseRobots,
  type Robot,
  type RobotsPolicy,
} from "../protocol/robots/index.js";
import type { AccessPlan } from "../protocol/robots/plan.js";
import type { CachedRobots } from "../store/types.js";

/**
 * The rules of a robots.txt copy (even an expired one), or null when the store holds no body.
 * Through an outage or a 4xx the last body that parsed still paces the site (RFC 9309 §2.3.1.4
 * keeps it through outages): its delay and rates are the site's last word on pace.
 */
export function copyPolicy(
  cached: CachedRobots | null,
  origin: string,
  dialect?: DialectChoice,
): RobotsPolicy | null {
  const body = cached?.body ?? cached?.lastGoodBody ?? null;
  if (body === null) return null;
  return parseRobots(body, { origin, ...(dialect === undefined ? {} : { dialect }) });
}

/** What {@link copyPolicy}'s rules decide for `robot` at the site's root, or null. */
export function copyDecision(
  cached: CachedRobots | null,
  origin: string,
  robot: Robot,
  dialect?: DialectChoice,
): Decision | null {
  return copyPolicy(cached, origin, dialect)?.check(`${origin}/`, robot) ?? null;
}

/** The plan of {@link copyDecision}: the delays, rates and time windows the copy sets. */
export function copyPlan(
  cached: CachedRobots | null,
  origin: string,
  robot: Robot,
  dialect?: DialectChoice,
): AccessPlan | null {
  return copyDecision(cached, origin, robot, dialect)?.plan ?? null;
}
