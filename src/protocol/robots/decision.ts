import type { Dialect } from "./dialect.js";
import type { AccessPlan } from "./plan.js";

/**
 * Why a URL is allowed or not. The first seven are the reasons of issue-level contracts
 * (`heed check --json`); the rest say why a question could not be put to the rules at all.
 */
export type DecisionReason =
  /** An Allow or Disallow line decided; `line` and `rule` name it. */
  | "rule"
  /** No line decided; `basis` says what did. */
  | "default"
  /** REGP: the robot's IP is refused by the matched sequence; the whole site is closed to it. */
  | "ip"
  /** REGP: outside Visit-time or inside Time-forbidden; `next` says when it reopens. */
  | "time"
  /** REGP: the robot supports none of the languages the site requires. */
  | "language"
  /** REGP: the robot supports none of the encodings the site requires. */
  | "encoding"
  /** REGP: the robot supports none of the charsets the site requires. */
  | "charset"
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

/** What decided when no line did. */
export type DefaultBasis =
  /** No group applies to the robot: allowed. */
  | "no-group"
  /** A group applies but none of its rules matches: allowed. */
  | "no-matching-rule"
  /** REGP §3.2.5: a group starting with a non-root Allow implies `Disallow: /` before it. */
  | "implicit-disallow"
  /** REGP §3.2.5: a group starting with a non-root Disallow implies `Allow: /` before it. */
  | "implicit-allow";

export const BASIS_TEXT: Readonly<Record<DefaultBasis, string>> = {
  "no-group": "no group applies to this robot",
  "no-matching-rule": "no rule matches",
  "implicit-disallow": "the implicit first line Disallow: / (the group starts with an Allow)",
  "implicit-allow": "the implicit first line Allow: / (the group starts with a Disallow)",
};

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
  /** When `reason` is `default`: what decided. */
  readonly basis?: DefaultBasis;
  /** When a time window refuses: the moment (ms since the epoch) it reopens, or null if never. */
  readonly next?: number | null;
  /** How to fetch this URL: delays, rates, windows, cookie, mirror, sitemaps, guidance. */
  readonly plan?: AccessPlan;
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
