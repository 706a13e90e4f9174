/**
 * One answer of the tester, worked out and put in words: the fetched status when it decided for
 * the whole site, else the file's rules; the reason, the group and the usage preferences as
 * the answers table, the grid's cells and the diff show them.
 */
import {
  BASIS_TEXT,
  type Decision,
  productToken,
  type Robot,
  type RobotsPolicy,
  siteWideDecision,
} from "../../protocol/robots/index.js";
import { hasUsageLines, usageFor } from "../../protocol/usage/index.js";
import { moment } from "./dom.js";
import type { SiteWide } from "./site-wide.js";

export type { SiteWide } from "./site-wide.js";

/** What one answer is asked of. */
export interface Question {
  readonly policy: RobotsPolicy;
  readonly robot: Robot;
  readonly siteWide: SiteWide | null;
}

const REASON_TEXT: Readonly<Record<Decision["reason"], string>> = {
  rule: "a rule decided",
  default: "no rule decided",
  ip: "the robot's IP is refused: the whole site is closed to it",
  time: "outside the visiting hours",
  language: "the robot supports none of the languages the site requires",
  encoding: "the robot supports none of the encodings the site requires",
  charset: "the robot supports none of the charsets the site requires",
  "robots-txt": "/robots.txt itself is always allowed",
  "fetch-status": "the answer to GET /robots.txt decided for the whole site",
  "other-origin": "the URL is on another site",
  "invalid-url": "the URL cannot be read",
  "invalid-query": "the question cannot be answered",
};

/** The answer for one URL: the fetched status when it decided for the whole site, else the rules. */
export function decide(question: Question, url: string): Decision {
  const { policy, robot, siteWide } = question;
  if (robot.agent === "") {
    return {
      ...siteWideDecision(false, "", "", policy.dialect),
      reason: "invalid-query",
      error: "no robot named",
    };
  }
  if (siteWide !== null && !/\/robots\.txt([?#]|$)/.test(url)) {
    return siteWideDecision(
      siteWide.allowed,
      siteWide.detail,
      productToken(robot.agent),
      policy.dialect,
    );
  }
  return policy.check(url, robot);
}

export function verdictText(decision: Decision): string {
  return decision.allowed ? "allowed" : "disallowed";
}

/** `disallowed (line 7)` */
export function shortText(decision: Decision): string {
  return `${verdictText(decision)}${decision.line === null ? "" : ` (line ${decision.line})`}`;
}

export function groupText(decision: Decision): string {
  const group = decision.group;
  if (group === null) return decision.reason === "default" ? "none" : "";
  return group.agents
    .map((agent, i) => `User-agent: ${agent} (line ${group.lines[i] ?? "?"})`)
    .join(", ");
}

export function reasonText(decision: Decision): string {
  if (decision.error !== undefined && decision.error !== "")
    return `${REASON_TEXT[decision.reason]}: ${decision.error}`;
  if (decision.reason === "default" && decision.basis !== undefined)
    return BASIS_TEXT[decision.basis];
  if (decision.reason === "time") {
    const next = decision.next;
    return `${REASON_TEXT.time}${next === null || next === undefined ? "; it does not open again" : `; opens ${moment(next)}`}`;
  }
  // Their detail says the whole reason in its own words (the IP refused, the status answered).
  if (decision.reason === "fetch-status" || decision.reason === "ip")
    return decision.detail ?? REASON_TEXT[decision.reason];
  const base = REASON_TEXT[decision.reason];
  return decision.detail === undefined ? base : `${base}: ${decision.detail}`;
}

/**
 * The usage preferences robots.txt states for the URL and the robot (docs/usage-preferences.md):
 * each category with a value, and the line that said it.
 */
export function usageText(question: Question, url: string, decision: Decision): string {
  const { policy, robot, siteWide } = question;
  if (!hasUsageLines(policy)) return "";
  if (decision.error !== undefined || siteWide !== null) return "";
  if (!decision.allowed) return "none: not crawlable";
  const answer = usageFor({ url, agent: robot.agent, robots: policy, crawlable: true });
  const said = Object.entries(answer.categories)
    .filter(([, a]) => a.value !== "unknown")
    .map(
      ([category, a]) => `${category} ${a.value}${a.from?.line ? ` (line ${a.from.line})` : ""}`,
    );
  return said.length === 0 ? "none stated" : said.join("; ");
}
