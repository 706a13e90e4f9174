import type { Dialect } from "./dialect.js";

/** Why a URL is allowed or not. */
export type DecisionReason =
  /** An Allow or Disallow line decided; `line` and `rule` name it. */
  | "rule"
  /**
   * No line matched and the dialect's implicit first line decided (REGP, seeds/003 §3.2.5:
   * `Disallow: /` before a leading non-root Allow, `Allow: /` before a leading non-root Disallow).
   */
  | "implicit-rule"
  /** A group applies but none of its rules matches the URL: allowed. */
  | "no-matching-rule"
  /** No group applies to the robot: allowed. */
  | "no-group"
  /** `/robots.txt` itself is always allowed (seeds/004 §3.2.2; RFC 9309 §2.2.2). */
  | "robots-txt"
  /**
   * The answer to `GET /robots.txt` decided for the whole site (DESIGN §3): 401/403 and 5xx
   * disallow everything, other 4xx allow everything; `detail` says which.
   */
  | "fetch-status"
  /** The URL is not on the origin the robots.txt is for: this file cannot allow it. */
  | "other-origin"
  /** The URL could not be read; `error` says why. */
  | "invalid-url"
  /** The question itself is malformed (no agent, a query line without a URL); `error` says why. */
  | "invalid-query";

/** The group that applied, as the file has it. */
export interface GroupSummary {
  /** The User-agent values of the group(s) merged for this robot. */
  readonly agents: readonly string[];
  /** Line numbers of those User-agent lines. */
  readonly lines: readonly number[];
}

/** An answer that explains itself. */
export interface Decision {
  readonly allowed: boolean;
  readonly reason: DecisionReason;
  readonly dialect: Dialect;
  /** The product token the robot was matched by. */
  readonly agent: string;
  readonly group: GroupSummary | null;
  /** 1-based number of the deciding line, or null. */
  readonly line: number | null;
  /** Text of the deciding line, or null. */
  readonly rule: string | null;
  /** More about the reason, for a person: the HTTP status that decided, say. */
  readonly detail?: string;
  /** Set when the query could not be answered (`allowed` is then false). */
  readonly error?: string;
}

/** A decision for a whole site, made by the robots.txt fetch and not by its rules. */
export function siteWideDecision(
  allowed: boolean,
  detail: string,
  agent: string,
  dialect: Dialect,
): Decision {
  return {
    allowed,
    reason: "fetch-status",
    dialect,
    agent,
    group: null,
    line: null,
    rule: null,
    detail,
  };
}
