/**
 * `heed check`: is a URL allowed for a robot? (DESIGN §6.) One robots.txt with `--url` or
 * `--queries`, or many with `--batch`; both stream, so a million queries run in constant memory.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { isIP } from "node:net";
import { createInterface } from "node:readline";
import {
  BASIS_TEXT,
  type Decision,
  htmlPageLine,
  type DialectChoice,
  parseRobots,
  type Robot,
  type RobotsPolicy,
  siteWideDecision,
} from "../../protocol/robots/index.js";
import { CliError, EXIT_BAD_INPUT, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { loadRobots, type RobotsSource } from "../robots-source.js";

export interface CheckOptions {
  readonly agent?: string;
  readonly url: readonly string[];
  readonly queries?: string;
  readonly batch?: string;
  readonly dialect: DialectChoice;
  readonly ip?: string;
  readonly at?: string;
  readonly languages?: string;
  readonly encodings?: string;
  readonly charsets?: string;
  readonly json: boolean;
}

/** A parsed robots.txt, or the site-wide answer its fetch gave. */
interface Rules {
  readonly policy: RobotsPolicy;
  readonly siteWide: RobotsSource["siteWide"];
  readonly bytes: number;
  /** The status code of the robots.txt answer, for URLs. */
  readonly status: number | null;
  /** What a person should know about the file itself (an HTML page served as robots.txt). */
  readonly warnings: readonly string[];
}

interface Answer {
  readonly decision: Decision;
  readonly agent: string;
  readonly url: string;
  readonly robots?: string;
  readonly status?: number | null;
  readonly warnings?: readonly string[];
}

export async function runCheck(
  source: string | undefined,
  options: CheckOptions,
  io: Io,
): Promise<number> {
  const defaults = robotDefaults(options);
  const out = new LineWriter(io.stdout);
  const tally = { disallowed: 0, errors: 0 };
  const emit = async (answer: Answer) => {
    if (answer.decision.error !== undefined) tally.errors++;
    else if (!answer.decision.allowed) tally.disallowed++;
    await out.line(options.json ? JSON.stringify(toJson(answer)) : toText(answer));
  };

  if (options.batch !== undefined) {
    if (source !== undefined || options.queries !== undefined || options.url.length > 0) {
      throw new CliError(
        "--batch names its robots.txt files itself; give no file, --url or --queries with it",
      );
    }
    await runBatch(options, defaults, io, emit);
  } else {
    if (source === undefined)
      throw new CliError("missing the robots.txt file or URL to check against");
    if (options.queries === undefined) {
      if (options.agent === undefined) throw new CliError("--agent NAME is required with --url");
      if (options.url.length === 0)
        throw new CliError("give at least one --url, or --queries FILE");
    } else if (options.url.length > 0) {
      throw new CliError("give either --url or --queries, not both");
    }
    const loaded = await loadRobots(source, {
      stdin: io.stdin,
      ...userAgent(options.agent),
      onNote: (text) => io.stderr.write(`heed check: ${text}\n`),
    });
    const rules = compile(loaded, options.dialect);
    for (const warning of rules.warnings) io.stderr.write(`heed check: warning: ${warning}\n`);
    if (options.queries === undefined) {
      for (const url of options.url) {
        await emit(ask(rules, url, { ...defaults, agent: options.agent ?? "" }));
      }
    } else {
      await forEachLine(options.queries, io, async (line) => emit(askLine(rules, line, defaults)));
    }
  }
  await out.flush();
  if (tally.errors > 0) {
    io.stderr.write(
      `heed check: ${tally.errors} ${tally.errors === 1 ? "query" : "queries"} could not be answered (see "error")\n`,
    );
    return EXIT_BAD_INPUT;
  }
  return tally.disallowed > 0 ? EXIT_NOT_ALLOWED : EXIT_OK;
}

function robotDefaults(options: CheckOptions): Omit<Robot, "agent"> {
  if (options.ip !== undefined && isIP(options.ip) === 0) {
    throw new CliError(`--ip: expected an IPv4 or IPv6 address, got "${options.ip}"`);
  }
  const at =
    options.at === undefined
      ? undefined
      : options.at === "now"
        ? Date.now()
        : parseInstant(options.at);
  if (at === null) {
    throw new CliError(
      `--at: expected an RFC 3339 date-time such as 2026-11-21T08:00:00Z, or "now"; got "${options.at}"`,
    );
  }
  return {
    ...(options.ip === undefined ? {} : { ip: options.ip }),
    ...(at === undefined ? {} : { at }),
    ...list("languages", options.languages),
    ...list("encodings", options.encodings),
    ...list("charsets", options.charsets),
  };
}

/** `--languages en,fr` → `{ languages: ["en", "fr"] }`; absent → nothing. */
function list<K extends string>(name: K, value: string | undefined): Partial<Record<K, string[]>> {
  if (value === undefined) return {};
  const items = value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
  if (items.length === 0 || items.some((v) => !/^[A-Za-z0-9*._-]+$/.test(v))) {
    throw new CliError(`--${name}: expected a comma-separated list such as en,fr; got "${value}"`);
  }
  return { [name]: items } as Partial<Record<K, string[]>>;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function parseInstant(text: string): number | null {
  if (!RFC3339.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

function userAgent(agent: string | undefined): { userAgent?: string } {
  return agent === undefined ? {} : { userAgent: agent };
}

function compile(source: RobotsSource, dialect: DialectChoice): Rules {
  const policy = parseRobots(source.bytes, {
    dialect,
    ...(source.origin === null ? {} : { origin: source.origin }),
  });
  const html = htmlPageLine(policy.text);
  const warnings =
    html === null
      ? []
      : [
          `${source.label} line ${html} starts an HTML page, not a robots.txt; read per RFC 9309 all the same (docs/fetching.md#html-pages)`,
        ];
  return {
    policy,
    siteWide: source.siteWide,
    bytes: source.bytes.byteLength,
    status: source.status,
    warnings,
  };
}

function ask(rules: Rules, url: string, robot: Robot): Answer {
  if (url.trim() === "") return failed(rules, robot.agent, url, "empty URL", "invalid-url");
  if (robot.agent.trim() === "") return failed(rules, robot.agent, url, "empty agent");
  const decision =
    rules.siteWide === null
      ? rules.policy.check(url, robot)
      : siteWideDecision(
          rules.siteWide.allowed,
          rules.siteWide.detail,
          robot.agent,
          rules.policy.dialect,
        );
  return {
    decision,
    agent: robot.agent,
    url,
    ...(rules.status === null ? {} : { status: rules.status }),
    ...(rules.warnings.length === 0 ? {} : { warnings: rules.warnings }),
  };
}

function failed(
  rules: Rules | null,
  agent: string,
  url: string,
  error: string,
  reason: "invalid-url" | "invalid-query" = "invalid-query",
): Answer {
  const decision: Decision = {
    allowed: false,
    reason,
    dialect: rules?.policy.dialect ?? "rfc9309",
    agent,
    group: null,
    line: null,
    rule: null,
    error,
  };
  return { decision, agent, url };
}

/** `agent<TAB>url[<TAB>ip[<TAB>time]]` */
function askLine(rules: Rules, line: string, defaults: Omit<Robot, "agent">): Answer {
  const [agent = "", url, ip, time] = line.split("\t");
  if (url === undefined) return failed(rules, agent, "", "expected agent<TAB>url");
  const robot = lineRobot(agent, ip, time, defaults);
  return typeof robot === "string" ? failed(rules, agent, url, robot) : ask(rules, url, robot);
}

function lineRobot(
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

// Policies kept while a batch runs: files usually come in runs, and a bound keeps memory flat.
const BATCH_CACHE_BYTES = 64 * 1024 * 1024;
const BATCH_CACHE_FILES = 4096;

/** `robots-file<TAB>agent<TAB>url[<TAB>ip[<TAB>time]]`, each file parsed once while it is in use. */
async function runBatch(
  options: CheckOptions,
  defaults: Omit<Robot, "agent">,
  io: Io,
  emit: (answer: Answer) => Promise<void>,
): Promise<void> {
  const cache = new Map<string, Rules | string>();
  let cachedBytes = 0;
  const rulesFor = async (file: string): Promise<Rules | string> => {
    const hit = cache.get(file);
    if (hit !== undefined) {
      cache.delete(file);
      cache.set(file, hit);
      return hit;
    }
    let rules: Rules | string;
    try {
      rules = compile(await loadRobots(file, { stdin: io.stdin }), options.dialect);
    } catch (error) {
      rules = error instanceof CliError ? error.message : String(error);
    }
    cache.set(file, rules);
    cachedBytes += typeof rules === "string" ? 0 : rules.bytes;
    for (const [key, value] of cache) {
      if (cachedBytes <= BATCH_CACHE_BYTES && cache.size <= BATCH_CACHE_FILES) break;
      cache.delete(key);
      cachedBytes -= typeof value === "string" ? 0 : value.bytes;
    }
    return rules;
  };
  await forEachLine(options.batch as string, io, async (line) => {
    const tab = line.indexOf("\t");
    if (tab < 0) return emit(failed(null, "", "", "expected robots-file<TAB>agent<TAB>url"));
    const file = line.slice(0, tab);
    const rules = await rulesFor(file);
    if (typeof rules === "string") {
      const [agent = "", url = ""] = line.slice(tab + 1).split("\t");
      return emit({ ...failed(null, agent, url, rules), robots: file });
    }
    return emit({ ...askLine(rules, line.slice(tab + 1), defaults), robots: file });
  });
}

async function forEachLine(
  file: string,
  io: Io,
  handle: (line: string) => Promise<void>,
): Promise<void> {
  // A folder opens without error and fails only on the first read: refuse it here.
  if (file !== "-" && (await stat(file).catch(() => null))?.isDirectory() === true)
    throw new CliError(`cannot read ${file}: it is a folder, not a file of queries`);
  const input = file === "-" ? io.stdin : createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    if (file === "-") return resolve();
    (input as ReturnType<typeof createReadStream>)
      .once("open", () => resolve())
      .once("error", reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, 2, { cause: error });
  }
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line === "") continue;
    await handle(line);
  }
}

function toJson(answer: Answer): Record<string, unknown> {
  const d = answer.decision;
  return {
    allowed: d.allowed,
    agent: answer.agent,
    url: answer.url,
    dialect: d.dialect,
    line: d.line,
    rule: d.rule,
    reason: d.reason,
    delay: d.plan?.delaySeconds ?? 0,
    next: d.next === undefined || d.next === null ? null : new Date(d.next).toISOString(),
    ...(d.basis === undefined ? {} : { basis: d.basis }),
    token: d.agent,
    group: d.group,
    ...(answer.robots === undefined ? {} : { robots: answer.robots }),
    ...(d.detail === undefined ? {} : { detail: d.detail }),
    ...(d.error === undefined ? {} : { error: d.error }),
    ...(d.plan === undefined ? {} : { plan: d.plan }),
    ...(d.reason === "fetch-status" && answer.status !== undefined
      ? { status: answer.status }
      : {}),
    ...(answer.warnings === undefined ? {} : { warnings: answer.warnings }),
  };
}

function toText(answer: Answer): string {
  const d = answer.decision;
  const verdict = d.allowed ? "allowed" : "disallowed";
  const where = answer.robots === undefined ? "" : ` [${answer.robots}]`;
  if (d.error !== undefined) return `${verdict} ${answer.url}${where} error: ${d.error}`;
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
  const tail = more.length === 0 ? "" : `; ${more.join("; ")}`;
  return `${verdict} ${answer.url}${where} (${d.agent}, ${d.dialect}: ${why}${tail})`;
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
