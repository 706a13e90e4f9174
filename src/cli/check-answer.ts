/**
 * One `heed check` answer: asking a parsed robots.txt about a query line, and the answer as a
 * JSON object or a line of text (DESIGN §6's fields). Shared by `--url`, `--queries` and the
 * `--batch` answerer (batch/answerer.ts), which writes the same lines straight into bytes.
 */
import { isIP } from "node:net";
import { BASIS_TEXT, type Decision, type DefaultBasis } from "../protocol/robots/decision.js";
import type { DialectChoice } from "../protocol/robots/dialect.js";
import { htmlPageLine } from "../protocol/robots/html-page.js";
import { MAX_ROBOTS_BYTES } from "../protocol/robots/limits.js";
import { parseRobots, type Robot, type RobotsPolicy } from "../protocol/robots/policy.js";
import { siteWideDecision } from "../protocol/robots/decision.js";
import type { JsonFields } from "./choices.js";
import type { LineBytes } from "./line-bytes.js";
import { printable } from "./printable.js";
import { MAX_QUERY_LINE_BYTES } from "./query-lines.js";
import type * as RobotsSources from "./robots-source.js";
import type { RobotsSource } from "./robots-source.js";
import {
  type UsageOfAnswer,
  usageJsonFields,
  type UsageSettings,
  usageTextTail,
} from "./usage-answer.js";

/** A parsed robots.txt, or the site-wide answer its fetch gave. */
export interface Rules {
  readonly policy: RobotsPolicy;
  readonly siteWide: RobotsSource["siteWide"];
  readonly bytes: number;
  /** The status code of the robots.txt answer, for URLs. */
  readonly status: number | null;
  /** What a person should know about the file itself (an HTML page served as robots.txt). */
  readonly warnings: readonly string[];
}

export interface Answer {
  readonly decision: Decision;
  readonly agent: string;
  readonly url: string;
  readonly robots?: string | undefined;
  readonly status?: number | undefined;
  readonly warnings?: readonly string[] | undefined;
  /** The line of the --queries or --batch input that asked. */
  readonly input?: number | undefined;
  /** Usage preferences, when asked for or when the file has some (not with --batch). */
  readonly usage?: UsageOfAnswer;
  readonly usageSettings?: UsageSettings | null;
}

/** Allowed to fetch and, with --purpose, to use for every purpose named. */
export function allowedOf(answer: Answer): boolean {
  return answer.decision.allowed && (answer.usage?.refused ?? null) === null;
}

/**
 * robots-source.js and the network layer under it, loaded when a robots.txt is fetched or read
 * from standard input: a batch worker that reads local files starts without them.
 */
export function sources(): Promise<typeof RobotsSources> {
  return import("./robots-source.js");
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

export function parseInstant(text: string): number | null {
  if (!RFC3339.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * A source with a label is the one robots.txt of `--url`/`--queries`, whose answers carry its
 * status and warnings; --batch files go without, so a batch never reads a file's text twice.
 */
export function compile(
  source: Pick<RobotsSource, "bytes" | "origin" | "siteWide"> &
    Partial<Pick<RobotsSource, "label" | "status">>,
  dialect: DialectChoice,
): Rules {
  const policy = parseRobots(source.bytes, {
    dialect,
    ...(source.origin === null ? {} : { origin: source.origin }),
  });
  const html = source.label === undefined ? null : htmlPageLine(policy.text);
  const warnings =
    html === null
      ? []
      : [
          `${source.label} line ${html} starts an HTML page, not a robots.txt; read per RFC 9309 all the same (docs/fetching.md#html-pages)`,
        ];
  // RFC 9309 §2.5: lines past 500 KiB are no rules; an answer must not hide that it came from part of the file.
  if (source.label !== undefined && source.bytes.byteLength > MAX_ROBOTS_BYTES)
    warnings.push(
      `${source.label} is over ${MAX_ROBOTS_BYTES} bytes; only its first ${MAX_ROBOTS_BYTES} are read (RFC 9309 §2.5), so its later lines decide nothing`,
    );
  return {
    policy,
    siteWide: source.siteWide,
    bytes: source.bytes.byteLength,
    status: source.status ?? null,
    warnings,
  };
}

/** Where a query came from: its input line, and for --batch its robots.txt file. */
export interface Origin {
  readonly input?: number;
  readonly robots?: string;
}

const NOWHERE: Origin = {};

export function ask(
  rules: Rules,
  url: string,
  robot: Robot | string,
  from: Origin = NOWHERE,
): Answer {
  const agent = typeof robot === "string" ? robot : robot.agent;
  if (url.trim() === "") return failed(rules, agent, url, "empty URL", "invalid-url", from);
  if (agent.trim() === "") return failed(rules, agent, url, "empty agent", "invalid-query", from);
  let decision =
    rules.siteWide === null
      ? rules.policy.check(url, robot)
      : siteWideDecision(
          rules.siteWide.allowed,
          rules.siteWide.detail,
          agent,
          rules.policy.dialect,
        );
  if (decision.error !== undefined && from.input !== undefined) {
    // The URL could not be read: the error names the input line, as every query error does.
    decision = { ...decision, error: `line ${from.input}: ${decision.error}` };
  }
  // Built whole, not spread: a batch makes one of these per query.
  return {
    decision,
    agent,
    url,
    status: rules.status ?? undefined,
    warnings: rules.warnings.length === 0 ? undefined : rules.warnings,
    input: from.input,
    robots: from.robots,
  };
}

export function failed(
  rules: Rules | string | null,
  agent: string,
  url: string,
  error: string,
  reason: "invalid-url" | "invalid-query" = "invalid-query",
  from: Origin = NOWHERE,
): Answer {
  const decision: Decision = {
    allowed: false,
    reason,
    dialect: rules === null || typeof rules === "string" ? "rfc9309" : rules.policy.dialect,
    agent,
    group: null,
    line: null,
    rule: null,
    // A query line's error names the line it came from.
    error: from.input === undefined ? error : `line ${from.input}: ${error}`,
  };
  return { decision, agent, url, ...from };
}

/** `agent<TAB>url[<TAB>ip[<TAB>time]]`, read from `start` of `line`. */
export function askLine(
  rules: Rules | string,
  line: string,
  start: number,
  defaults: Omit<Robot, "agent"> | null,
  from: Origin,
): Answer {
  // Fields found by position, not split: a batch reads millions of these lines.
  const tab = line.indexOf("\t", start);
  if (tab < 0) {
    const text = line.slice(start);
    return failed(rules, text, "", `expected agent<TAB>url, got ${quoted(text)}`, undefined, from);
  }
  const agent = line.slice(start, tab);
  const next = line.indexOf("\t", tab + 1);
  const url = next < 0 ? line.slice(tab + 1) : line.slice(tab + 1, next);
  if (typeof rules === "string") return failed(null, agent, url, rules, undefined, from);
  // The common line names only the robot and the URL: the robot is then its name alone.
  if (next < 0 && defaults === null) return ask(rules, url, agent, from);
  const [ip, time] = next < 0 ? [] : line.slice(next + 1).split("\t");
  const robot = lineRobot(agent, ip, time, defaults ?? {});
  return typeof robot === "string"
    ? failed(rules, agent, url, robot, undefined, from)
    : ask(rules, url, robot, from);
}

/** The robot defaults, or null when there are none (the query lines' robots are their names alone). */
export function defaultsOrNull(defaults: Omit<Robot, "agent">): Omit<Robot, "agent"> | null {
  return Object.keys(defaults).length > 0 ? defaults : null;
}

export function tooLong(): string {
  return `longer than ${MAX_QUERY_LINE_BYTES / 1024} KiB; skipped`;
}

/** A piece of an input line for a message: quoted, and cut when long. */
export function quoted(text: string): string {
  if (text.length <= 80) return JSON.stringify(text);
  // Never between the halves of a surrogate pair: half a character is a lone surrogate,
  // which a message shows as "\ud83d" or U+FFFD.
  const high = text.charCodeAt(76);
  const cut = high >= 0xd800 && high <= 0xdbff ? 76 : 77;
  return JSON.stringify(`${text.slice(0, cut)}...`);
}

export function lineRobot(
  agent: string,
  ip: string | undefined,
  time: string | undefined,
  defaults: Omit<Robot, "agent">,
): Robot | string {
  const robot: { agent: string; ip?: string; at?: number } = { ...defaults, agent };
  if (ip !== undefined && ip !== "") {
    if (isIP(ip) === 0) return `not an IP address: "${ip}"`;
    robot.ip = ip;
  }
  if (time !== undefined && time !== "") {
    const at = parseInstant(time);
    if (at === null) return `not an RFC 3339 date-time: "${time}"`;
    robot.at = at;
  }
  return robot;
}

/**
 * One answer as a JSON object (DESIGN §6 fields first). Without `withPlan`, only REGP answers
 * carry their plan (see {@link CheckOptions.plan}). Fields left undefined are left out.
 */
export function toJsonText(answer: Answer, withPlan = true): string {
  const d = answer.decision;
  // One JSON.stringify writes one flat string. A line concatenated from pieces is a rope that
  // must be copied flat again before it can be encoded, which made writing the output cost
  // more than answering the queries.
  const text = JSON.stringify({
    allowed: allowedOf(answer),
    agent: answer.agent,
    url: answer.url,
    dialect: d.dialect,
    line: d.line,
    rule: d.rule,
    reason: d.reason,
    delay: d.plan?.delaySeconds ?? 0,
    next: d.next === undefined || d.next === null ? null : new Date(d.next).toISOString(),
    basis: d.basis,
    token: d.agent,
    group: d.group,
    robots: answer.robots,
    input: answer.input,
    detail: d.detail,
    error: d.error,
    plan: withPlan || d.dialect === "regp" ? d.plan : undefined,
    status: d.reason === "fetch-status" ? answer.status : undefined,
    warnings: answer.warnings,
  });
  // Usage preferences (never asked in a batch) follow the contract's fields.
  return answer.usage === undefined
    ? text
    : `${text.slice(0, -1)}${usageJsonFields(answer.usage, answer.usageSettings ?? null)}}`;
}

/**
 * {@link toJsonText}'s line written straight into bytes, for --batch: the same text, or with
 * `fields` `contract` the fields DESIGN §6 promises only (`allowed`, `agent`, `url`, `dialect`,
 * `line`, `rule`; `error` when the query could not be answered).
 */
export function writeJson(
  out: LineBytes,
  answer: Answer,
  withPlan: boolean,
  fields: JsonFields = "all",
): void {
  const d = answer.decision;
  out.text(d.allowed ? '{"allowed":true,"agent":' : '{"allowed":false,"agent":');
  out.json(answer.agent);
  out.text(',"url":');
  out.json(answer.url);
  if (fields === "contract") {
    writeJsonContract(out, d);
    writeJsonContractEnd(out, d, withPlan);
    return;
  }
  writeJsonMiddle(out, d);
  if (answer.robots !== undefined) {
    out.text(',"robots":');
    out.json(answer.robots);
  }
  if (answer.input !== undefined) {
    out.text(',"input":');
    out.number(answer.input);
  }
  writeJsonEnd(out, answer, withPlan);
}

/** The fields between `url` and `robots`: what the decision says, the same for every URL it decides alike. */
export function writeJsonMiddle(out: LineBytes, d: Decision): void {
  writeJsonVerdict(out, d);
  out.text(',"token":');
  out.json(d.agent);
  out.text(',"group":');
  out.text(cachedJson(d.group));
}

/** The fields from `dialect` to `basis`: the decision's verdict, without whom it is for. */
export function writeJsonVerdict(out: LineBytes, d: Decision): void {
  writeJsonContract(out, d);
  out.piece(REASON_FIELD[d.reason]);
  out.number(d.plan?.delaySeconds ?? 0);
  if (d.next === undefined || d.next === null) out.piece(NO_NEXT);
  else {
    out.piece(NEXT_FIELD);
    out.json(new Date(d.next).toISOString());
  }
  if (d.basis !== undefined) out.piece(BASIS_FIELD[d.basis]);
}

/** `dialect`, `line` and `rule`: the contract's fields after `url`. */
export function writeJsonContract(out: LineBytes, d: Decision): void {
  // The fixed text between the values, as bytes made once: a batch writes tens of thousands.
  out.piece(DIALECT_FIELD[d.dialect]);
  if (d.line === null) out.piece(NULL);
  else out.number(d.line);
  out.piece(RULE_FIELD);
  if (d.rule === null) out.piece(NULL);
  else out.json(d.rule);
}

/** The end of a contract line: `error` when there is one, the plan when asked for, the brace. */
export function writeJsonContractEnd(out: LineBytes, d: Decision, withPlan: boolean): void {
  if (d.error !== undefined) {
    out.text(',"error":');
    out.json(d.error);
  }
  if (withPlan && d.plan !== undefined) {
    out.text(',"plan":');
    out.text(cachedJson(d.plan));
  }
  out.text("}");
}

/** The fields after `input`, and the closing brace. */
export function writeJsonEnd(
  out: LineBytes,
  answer: Pick<Answer, "decision" | "status" | "warnings">,
  withPlan: boolean,
): void {
  const d = answer.decision;
  if (d.detail !== undefined) {
    out.text(',"detail":');
    out.json(d.detail);
  }
  if (d.error !== undefined) {
    out.text(',"error":');
    out.json(d.error);
  }
  if (d.plan !== undefined && (withPlan || d.dialect === "regp")) {
    out.text(',"plan":');
    out.text(cachedJson(d.plan));
  }
  if (d.reason === "fetch-status" && answer.status !== undefined) {
    out.text(',"status":');
    out.number(answer.status);
  }
  if (answer.warnings !== undefined) {
    out.text(',"warnings":');
    out.text(cachedJson(answer.warnings));
  }
  out.text("}");
}

// A policy hands out the same group and plan objects for every query of one robot: their JSON
// is written once.
const jsonOf = new WeakMap<object, string>();

export function cachedJson(value: object | null): string {
  if (value === null) return "null";
  let text = jsonOf.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    jsonOf.set(value, text);
  }
  return text;
}

export function toText(answer: Answer): string {
  const d = answer.decision;
  const verdict = allowedOf(answer) ? "allowed" : "disallowed";
  const where = answer.robots === undefined ? "" : ` [${answer.robots}]`;
  // DESIGN §6: a query that cannot be answered says so; it is not a refusal.
  if (d.error !== undefined) {
    return printable(`error${answer.url === "" ? "" : ` ${answer.url}`}${where}: ${d.error}`);
  }
  const refused = answer.usage?.refused ?? null;
  const usage =
    answer.usage === undefined ? "" : usageTextTail(answer.usage, answer.usageSettings ?? null);
  return printable(
    `${verdict} ${answer.url}${where} (${decisionText(d, refused?.purpose ?? null)}${usage})`,
  );
}

/**
 * What decided, as a text answer says it after the URL: the token, the dialect, the line or
 * reason, and what the robot must keep to.
 */
export function decisionText(d: Decision, refusedFor: string | null = null): string {
  const why =
    d.reason === "rule" && d.line !== null
      ? `line ${d.line}: ${d.rule}`
      : d.basis !== undefined
        ? BASIS_TEXT[d.basis]
        : `${d.detail ?? REASON_TEXT[d.reason]}${d.line === null ? "" : ` (line ${d.line})`}`;
  const more: string[] = [];
  if (d.next !== undefined && d.next !== null)
    more.push(`reopens ${new Date(d.next).toISOString()}`);
  if (d.allowed && d.plan !== undefined && d.plan.delaySeconds > 0) {
    more.push(`keep ${d.plan.delaySeconds} s between requests`);
  }
  if (refusedFor !== null) more.unshift(`may not be used for ${refusedFor}`);
  const tail = more.length === 0 ? "" : `; ${more.join("; ")}`;
  return printable(`${d.agent}, ${d.dialect}: ${why}${tail}`);
}

const REASON_TEXT: Record<Decision["reason"], string> = {
  rule: "a rule",
  default: "no rule decides",
  ip: "the robot's IP address is refused",
  time: "outside the visiting hours",
  language: "a language the robot lacks is required",
  encoding: "an encoding the robot lacks is required",
  charset: "a charset the robot lacks is required",
  "robots-txt": "/robots.txt is always allowed",
  "fetch-status": "the robots.txt answer",
  "other-origin": "not on this robots.txt's origin",
  "invalid-url": "invalid URL",
  "invalid-query": "malformed query",
};

// writeJsonVerdict's fixed text, after REASON_TEXT, which it is made from.
const ascii = (text: string): Uint8Array => Buffer.from(text, "latin1");
/** `,"dialect":"…","line":`, then the line. */
const DIALECT_FIELD: Readonly<Record<Decision["dialect"], Uint8Array>> = {
  koster1996: ascii(',"dialect":"koster1996","line":'),
  rfc9309: ascii(',"dialect":"rfc9309","line":'),
  regp: ascii(',"dialect":"regp","line":'),
};
const NULL = ascii("null");
const RULE_FIELD = ascii(',"rule":');
/** `,"reason":"…","delay":`, then the delay. */
const REASON_FIELD = Object.fromEntries(
  Object.keys(REASON_TEXT).map((reason) => [reason, ascii(`,"reason":"${reason}","delay":`)]),
) as Readonly<Record<Decision["reason"], Uint8Array>>;
const NO_NEXT = ascii(',"next":null');
const NEXT_FIELD = ascii(',"next":');
const BASIS_FIELD = Object.fromEntries(
  Object.keys(BASIS_TEXT).map((basis) => [basis, ascii(`,"basis":"${basis}"`)]),
) as Readonly<Record<DefaultBasis, Uint8Array>>;
