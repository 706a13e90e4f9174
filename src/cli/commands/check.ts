/**
 * `heed check`: is a URL allowed for a robot? (DESIGN §6.) One robots.txt with `--url` or
 * `--queries`, or many with `--batch`; both stream, so a million queries run in constant memory.
 */
import { closeSync, createReadStream, openSync, readSync } from "node:fs";
import { stat } from "node:fs/promises";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
// The modules themselves, not the robots index: a batch run starts without lint and the rest.
import { BASIS_TEXT, type Decision, siteWideDecision } from "../../protocol/robots/decision.js";
import type { DialectChoice } from "../../protocol/robots/dialect.js";
import { htmlPageLine } from "../../protocol/robots/html-page.js";
import { MAX_ROBOTS_BYTES } from "../../protocol/robots/limits.js";
import { parseRobots, type Robot, type RobotsPolicy } from "../../protocol/robots/policy.js";
import { CliError, EXIT_BAD_INPUT, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { LineBytes, type WrittenLines } from "../line-bytes.js";
import { MAX_QUERY_LINE_BYTES, packLines, type QueryLine, queryLines } from "../query-lines.js";
import type * as RobotsSources from "../robots-source.js";
import type { RobotsSource } from "../robots-source.js";
import {
  type UsageOfAnswer,
  usageJsonFields,
  usageOfAnswer,
  type UsageSettings,
  usageSettings,
  usageTextTail,
  usageWarnings,
} from "../usage-answer.js";

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
  /**
   * --batch --json: every answer carries its `plan`. Without it a batch answer under Koster 1996
   * or RFC 9309 leaves the plan out (its `delay` field stays): the plan repeats the file's
   * sitemaps on every line, most of a batch's output. REGP answers always carry it.
   */
  readonly plan?: boolean;
  /** --batch: worker threads besides the main one; default one per spare core for large batches on 4+ cores. */
  readonly jobs?: string;
  /** Usage preferences (docs/usage-preferences.md): purposes, response headers, tdmrep.json. */
  readonly purpose?: readonly string[];
  readonly header?: readonly string[];
  readonly tdmrep?: string;
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
function allowedOf(answer: Answer): boolean {
  return answer.decision.allowed && (answer.usage?.refused ?? null) === null;
}

/** Answers one query line without waiting: what --queries and --batch do per line. */
type Emit = (answer: Answer) => void;

export async function runCheck(
  source: string | undefined,
  options: CheckOptions,
  io: Io,
): Promise<number> {
  const defaults = robotDefaults(options);
  // Large chunks: a batch run writes millions of lines.
  const out = new LineWriter(io.stdout, OUTPUT_CHUNK);
  const tally = { disallowed: 0, errors: 0 };
  const format = options.json ? toJsonText : toText;
  const emit: Emit = (answer) => {
    if (answer.decision.error !== undefined) tally.errors++;
    else if (!allowedOf(answer)) tally.disallowed++;
    out.add(format(answer));
  };

  const usage = await usageSettings(options);
  if (options.batch !== undefined) {
    if (usage !== null)
      throw new CliError(
        "--purpose, --header and --tdmrep go with --url or --queries, not --batch",
      );
    if (source !== undefined || options.queries !== undefined || options.url.length > 0) {
      throw new CliError(
        "--batch names its robots.txt files itself; give no file, --url or --queries with it",
      );
    }
    await runBatch(
      options,
      { dialect: options.dialect, defaults, json: options.json, plan: options.plan === true },
      io,
      out,
      tally,
    );
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
    const rules = await load(source, options, io);
    if (typeof rules !== "string") {
      for (const warning of rules.warnings) io.stderr.write(`heed check: warning: ${warning}\n`);
    }
    // Usage preferences join the answers of one robots.txt (not --batch's: docs/usage-preferences.md).
    const withUsage = (answer: Answer): Answer =>
      typeof rules === "string" ? answer : addUsage(answer, rules, usage);
    if (options.queries === undefined) {
      for (const url of options.url) {
        emit(
          typeof rules === "string"
            ? failed(null, options.agent ?? "", url, rules)
            : withUsage(ask(rules, url, { ...defaults, agent: options.agent ?? "" })),
        );
        await out.ready();
      }
    } else {
      await forEachLines(options.queries, io, async (lines) => {
        for (const line of lines) emit(withUsage(askQueryLine(rules, line, defaults)));
        await out.ready();
      });
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

/**
 * robots-source.js and the network layer under it, loaded when a robots.txt is fetched or read
 * from standard input: a batch worker that reads local files starts without them.
 */
function sources(): Promise<typeof RobotsSources> {
  return import("../robots-source.js");
}

// Output is written in chunks of about this many characters.
const OUTPUT_CHUNK = 1024 * 1024;

/**
 * The robots.txt to check against. With --json, a robots.txt that cannot be had (a fetch that
 * fails, a missing file) is answered in every query's own JSON object, so that the output
 * stays JSON; as text it is one message and exit 2.
 */
async function load(source: string, options: CheckOptions, io: Io): Promise<Rules | string> {
  try {
    return compile(
      await (
        await sources()
      ).loadRobots(source, {
        stdin: io.stdin,
        ...userAgent(options.agent),
        onNote: (text) => io.stderr.write(`heed check: ${text}\n`),
      }),
      options.dialect,
    );
  } catch (error) {
    if (options.json && error instanceof CliError) return error.message;
    throw error;
  }
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

/**
 * A source with a label is the one robots.txt of `--url`/`--queries`, whose answers carry its
 * status and warnings; --batch files go without, so a batch never reads a file's text twice.
 */
function compile(
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
      `${source.label} is ${source.bytes.byteLength} bytes; only its first ${MAX_ROBOTS_BYTES} are read (RFC 9309 §2.5), so its later lines decide nothing`,
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
interface Origin {
  readonly input?: number;
  readonly robots?: string;
}

const NOWHERE: Origin = {};

function ask(rules: Rules, url: string, robot: Robot | string, from: Origin = NOWHERE): Answer {
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

/** The answer with the usage preferences that apply to its URL, when there are any to give. */
function addUsage(answer: Answer, rules: Rules, settings: UsageSettings | null): Answer {
  if (answer.decision.error !== undefined) return answer;
  const crawlable = rules.siteWide === null && answer.decision.allowed;
  const found = usageOfAnswer(settings, rules.policy, answer.url, answer.agent, crawlable);
  if (found === null) return answer;
  const warned = usageWarnings(found, settings);
  const warnings = warned.length === 0 ? answer.warnings : [...(answer.warnings ?? []), ...warned];
  return { ...answer, usage: found, usageSettings: settings, warnings };
}

function failed(
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
function askLine(
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
function defaultsOrNull(defaults: Omit<Robot, "agent">): Omit<Robot, "agent"> | null {
  return Object.keys(defaults).length > 0 ? defaults : null;
}

/** A --queries line, its input line number named in any error. */
function askQueryLine(
  rules: Rules | string,
  line: QueryLine,
  defaults: Omit<Robot, "agent">,
  robots?: string,
): Answer {
  const from: Origin =
    robots === undefined ? { input: line.number } : { input: line.number, robots };
  return line.tooLong
    ? failed(rules, "", "", tooLong(), undefined, from)
    : askLine(rules, line.text, 0, defaultsOrNull(defaults), from);
}

function tooLong(): string {
  return `longer than ${MAX_QUERY_LINE_BYTES / 1024} KiB; skipped`;
}

/** A piece of an input line for a message: quoted, and cut when long. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
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
// A parsed policy takes several times its file's bytes, so the bound is on bytes and files.
const BATCH_CACHE_BYTES = 8 * 1024 * 1024;
const BATCH_CACHE_FILES = 256;

/** What a share of a batch chunk came to: one output line per input line, in order. */
export interface BatchResult {
  /** The output lines, in the order of the input lines. */
  readonly lines: WrittenLines;
  readonly disallowed: number;
  readonly errors: number;
}

/** How batch lines are answered; plain data, so that a worker can be given it. */
export interface BatchSettings {
  readonly dialect: DialectChoice;
  readonly defaults: Omit<Robot, "agent">;
  readonly json: boolean;
  /** JSON answers carry the plan under every dialect ({@link CheckOptions.plan}). */
  readonly plan: boolean;
}

/**
 * Answers `robots-file<TAB>agent<TAB>url[<TAB>ip[<TAB>time]]` lines, each file parsed once
 * while it is in use: a bounded cache keeps the files of recent lines, and the files the next
 * lines need are read ahead. The main thread and each batch worker (batch-worker.ts) have one.
 */
export class BatchAnswerer {
  private readonly cache = new Map<string, Rules | string>();
  private cachedBytes = 0;
  private readonly write: (out: LineBytes, answer: Answer) => void;
  private readonly defaults: Omit<Robot, "agent"> | null;
  private outputSize = 64 * 1024;

  constructor(
    private readonly settings: BatchSettings,
    private readonly stdin: NodeJS.ReadableStream | null,
  ) {
    const withPlan = settings.plan;
    this.write = settings.json
      ? (out, answer) => writeJson(out, answer, withPlan)
      : (out, answer) => out.text(toText(answer));
    this.defaults = defaultsOrNull(settings.defaults);
  }

  async answer(lines: readonly QueryLine[]): Promise<BatchResult> {
    // A writer per call: a chunk's answers may wait on a fetch while the next chunk's start.
    // Sized as the last chunk's output was, so that it rarely grows by copying.
    const out = new LineBytes(this.outputSize);
    let disallowed = 0;
    let errors = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as QueryLine;
      const tab = line.tooLong ? -1 : line.text.indexOf("\t");
      let answer: Answer;
      if (tab < 0) {
        const error = line.tooLong
          ? tooLong()
          : `expected robots-file<TAB>agent<TAB>url, got ${quoted(line.text)}`;
        answer = failed(null, "", "", error, undefined, { input: line.number });
      } else {
        const file = line.text.slice(0, tab);
        let rules = this.cache.get(file);
        if (rules === undefined) {
          rules = isLocal(file) ? this.readLocal(file) : await this.read(file);
          this.keep(file, rules);
        } else if (this.cache.size > 1) {
          // Most recently used last.
          this.cache.delete(file);
          this.cache.set(file, rules);
        }
        answer = askLine(rules, line.text, tab + 1, this.defaults, {
          input: line.number,
          robots: file,
        });
      }
      if (answer.decision.error !== undefined) errors++;
      else if (!answer.decision.allowed) disallowed++;
      this.write(out, answer);
      out.end();
    }
    const written = out.take();
    this.outputSize = Math.max(64 * 1024, written.bytes.length + (written.bytes.length >> 3));
    return { lines: written, disallowed, errors };
  }

  /**
   * A local file, read with blocking calls: with the file in the page cache, as a batch's
   * files mostly are, the read takes a few microseconds and the promise API's open, read and
   * close cost several times more than parsing a small robots.txt (issue 17's profile). Threads
   * (--jobs) give the parallelism.
   */
  private readLocal(file: string): Rules | string {
    try {
      return compile(
        { bytes: readBytes(file), origin: null, siteWide: null },
        this.settings.dialect,
      );
    } catch (error) {
      return error instanceof CliError ? error.message : String(error);
    }
  }

  /** `-` and URLs need the network layer; a batch of local files, as most are, does not load it. */
  private async read(file: string): Promise<Rules | string> {
    try {
      if (file === "-" && this.stdin === null) {
        return "cannot read a robots.txt from standard input here: name a file";
      }
      const source = await (
        await sources()
      ).loadRobots(file, { stdin: this.stdin as NodeJS.ReadableStream });
      return compile(source, this.settings.dialect);
    } catch (error) {
      return error instanceof CliError ? error.message : String(error);
    }
  }

  private keep(file: string, rules: Rules | string): void {
    this.cache.set(file, rules);
    this.cachedBytes += typeof rules === "string" ? 0 : rules.bytes;
    for (const [key, value] of this.cache) {
      if (this.cachedBytes <= BATCH_CACHE_BYTES && this.cache.size <= BATCH_CACHE_FILES) break;
      this.cache.delete(key);
      this.cachedBytes -= typeof value === "string" ? 0 : value.bytes;
    }
  }
}

/** A robots-file field naming a local file (not `-`, not a URL). */
function isLocal(file: string): boolean {
  return file !== "-" && !file.includes("://");
}

const NO_RESULT: BatchResult = {
  lines: { bytes: new Uint8Array(0), ends: new Uint32Array(0) },
  disallowed: 0,
  errors: 0,
};

const WORKERS_FROM_CORES = 4;
// A batch file this large is shared with workers; a small one is answered before they start.
const WORKERS_FROM_BYTES = 1024 * 1024;

/** The whole --batch run: the main thread answers a share of each chunk, workers the rest. */
async function runBatch(
  options: CheckOptions,
  settings: BatchSettings,
  io: Io,
  out: LineWriter,
  tally: { disallowed: number; errors: number },
): Promise<void> {
  const file = options.batch as string;
  const main = new BatchAnswerer(settings, io.stdin);
  const jobs = await workerCount(options, file);
  const pool = jobs === 0 ? null : new BatchPool(jobs, settings);
  const emit = async (result: BatchResult): Promise<void> => {
    tally.disallowed += result.disallowed;
    tally.errors += result.errors;
    await out.addBytes(result.lines.bytes);
    await out.ready();
  };
  // One chunk in flight: the next chunk's share goes to the workers before this chunk's
  // answers are awaited and written, so that neither side waits for the other each chunk.
  let previous: Promise<BatchResult> | null = null;
  try {
    await forEachLines(file, io, async (lines) => {
      const current = pool === null ? main.answer(lines) : pool.answer(lines, main);
      if (previous !== null) await emit(await previous);
      previous = current;
    });
    if (previous !== null) await emit(await previous);
  } finally {
    await pool?.close();
  }
}

async function workerCount(options: CheckOptions, file: string): Promise<number> {
  if (options.jobs !== undefined) {
    const n = Number(options.jobs);
    if (!Number.isInteger(n) || n < 0 || n > 64) {
      throw new CliError(`--jobs: expected a whole number from 0 to 64, got "${options.jobs}"`);
    }
    return n;
  }
  if (file === "-") return 0;
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  // On two cores a worker thread competes with the main thread and the collector's helpers:
  // measured on the bench corpus, one worker took 1.3 times the CPU time of none and no less
  // wall time. Workers are the default from four cores on.
  const cores = availableParallelism();
  return size >= WORKERS_FROM_BYTES && cores >= WORKERS_FROM_CORES ? Math.min(4, cores - 1) : 0;
}

/**
 * Batch workers. Each line goes to a share chosen by its robots.txt file, so that a file is
 * read and parsed by one thread and stays in that thread's cache; the main thread keeps a
 * share of its own and answers it while the workers answer theirs.
 */
class BatchPool {
  private readonly workers: Worker[] = [];
  private readonly waiting: ((result: BatchResult) => void)[][] = [];
  private failure: Error | null = null;

  constructor(count: number, settings: BatchSettings) {
    for (let i = 0; i < count; i++) {
      const worker = new Worker(new URL("../batch-worker.js", import.meta.url), {
        workerData: settings,
      });
      const queue: ((result: BatchResult) => void)[] = [];
      worker.on("message", (result: BatchResult) => queue.shift()?.(result));
      worker.on("error", (error) => {
        this.failure = error;
        for (const resolve of queue.splice(0)) resolve(NO_RESULT);
      });
      this.workers.push(worker);
      this.waiting.push(queue);
    }
  }

  async answer(lines: readonly QueryLine[], main: BatchAnswerer): Promise<BatchResult> {
    const shares = this.workers.length + 1;
    const parts: QueryLine[][] = Array.from({ length: shares }, () => []);
    const owner = new Uint8Array(lines.length);
    lines.forEach((line, i) => {
      const file = fileOf(line);
      const k = file === null ? shares - 1 : shareOf(file, shares);
      owner[i] = k;
      (parts[k] as QueryLine[]).push(line);
    });
    const asked = parts.map((part, k) =>
      part.length === 0
        ? Promise.resolve(NO_RESULT)
        : k === shares - 1
          ? main.answer(part)
          : this.ask(k, part),
    );
    const results = await Promise.all(asked);
    if (this.failure !== null) throw this.failure;
    // The shares' lines back in input order: each share's lines are in its input order.
    const next = new Uint32Array(shares);
    let size = 0;
    for (const r of results) size += r.lines.bytes.length;
    const bytes = new Uint8Array(size);
    const ends = new Uint32Array(lines.length);
    let used = 0;
    for (let i = 0; i < lines.length; i++) {
      const k = owner[i] as number;
      const share = (results[k] as BatchResult).lines;
      const n = next[k] as number;
      const from = n === 0 ? 0 : (share.ends[n - 1] as number);
      const to = share.ends[n] as number;
      bytes.set(share.bytes.subarray(from, to), used);
      used += to - from;
      ends[i] = used;
      next[k] = n + 1;
    }
    let disallowed = 0;
    let errors = 0;
    for (const r of results) {
      disallowed += r.disallowed;
      errors += r.errors;
    }
    return { lines: { bytes, ends }, disallowed, errors };
  }

  private ask(k: number, lines: QueryLine[]): Promise<BatchResult> {
    const packed = packLines(lines);
    return new Promise((resolve) => {
      (this.waiting[k] as ((result: BatchResult) => void)[]).push(resolve);
      (this.workers[k] as Worker).postMessage(packed, [packed.numbers.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Which share a robots.txt file belongs to: a hash of its name (FNV-1a). */
function shareOf(file: string, shares: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) h = Math.imul(h ^ file.charCodeAt(i), 0x01000193);
  return (h >>> 0) % shares;
}

// A batch reads no more of a robots.txt than parsing uses (RFC 9309 §2.5's 500 KiB) and one
// byte more to know the file was longer: a 1 GB file named in a batch costs 500 KiB, not 1 GB
// (times the files read ahead).
const BATCH_READ_BYTES = MAX_ROBOTS_BYTES + 1;

// Most robots.txt files are small: one read into this buffer, then a copy of what was read,
// so that a kept file holds no spare memory.
const SCRATCH = Buffer.allocUnsafe(16 * 1024);

/** The first {@link BATCH_READ_BYTES} of a local file, with one open and as few reads as it takes. */
function readBytes(file: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
  }
  try {
    let buffer = SCRATCH;
    let got = 0;
    for (;;) {
      if (got === buffer.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 4, BATCH_READ_BYTES));
        buffer.copy(bigger, 0, 0, got);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, got, buffer.length - got, got);
      got += n;
      if (n === 0 || got === BATCH_READ_BYTES) break;
    }
    return buffer === SCRATCH || buffer.length - got > 4096
      ? Buffer.from(buffer.subarray(0, got))
      : buffer.subarray(0, got);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
  } finally {
    closeSync(fd);
  }
}

/** The robots-file field of a --batch line, or null when the line has none. */
function fileOf(line: QueryLine): string | null {
  if (line.tooLong) return null;
  const tab = line.text.indexOf("\t");
  return tab < 0 ? null : line.text.slice(0, tab);
}

/** Hands the query lines of `file` (`-`: standard input) to `handle`, a chunk at a time. */
async function forEachLines(
  file: string,
  io: Io,
  handle: (lines: QueryLine[]) => Promise<void>,
): Promise<void> {
  // A folder opens without error and fails only on the first read: refuse it here.
  if (file !== "-" && (await stat(file).catch(() => null))?.isDirectory() === true)
    throw new CliError(`cannot read ${file}: it is a folder, not a file of queries`);
  const input = file === "-" ? io.stdin : createReadStream(file, { highWaterMark: 64 * 1024 });
  const opened = new Promise<void>((resolve, reject) => {
    if (file === "-") return resolve();
    (input as ReturnType<typeof createReadStream>)
      .once("open", () => resolve())
      .once("error", reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
  }
  try {
    for await (const lines of queryLines(input as AsyncIterable<Uint8Array | string>)) {
      await handle(lines);
    }
  } catch (error) {
    // EISDIR arrives with the first read, not with open.
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string") throw error;
    throw new CliError(`cannot read ${file}: ${readError(error)}`, 2, { cause: error });
  }
}

function readError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "it is a directory";
  if (code === "EACCES") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}

/**
 * One answer as a JSON object (DESIGN §6 fields first). Without `withPlan`, only REGP answers
 * carry their plan (see {@link CheckOptions.plan}). Fields left undefined are left out.
 */
function toJsonText(answer: Answer, withPlan = true): string {
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

/** {@link toJsonText}'s line written straight into bytes, for --batch: the same text. */
function writeJson(out: LineBytes, answer: Answer, withPlan: boolean): void {
  const d = answer.decision;
  out.text(d.allowed ? '{"allowed":true,"agent":' : '{"allowed":false,"agent":');
  out.json(answer.agent);
  out.text(',"url":');
  out.json(answer.url);
  out.text(',"dialect":');
  out.json(d.dialect);
  out.text(',"line":');
  if (d.line === null) out.text("null");
  else out.number(d.line);
  out.text(',"rule":');
  if (d.rule === null) out.text("null");
  else out.json(d.rule);
  out.text(',"reason":');
  out.json(d.reason);
  out.text(',"delay":');
  out.number(d.plan?.delaySeconds ?? 0);
  out.text(',"next":');
  if (d.next === undefined || d.next === null) out.text("null");
  else out.json(new Date(d.next).toISOString());
  if (d.basis !== undefined) {
    out.text(',"basis":');
    out.json(d.basis);
  }
  out.text(',"token":');
  out.json(d.agent);
  out.text(',"group":');
  out.text(cachedJson(d.group));
  if (answer.robots !== undefined) {
    out.text(',"robots":');
    out.json(answer.robots);
  }
  if (answer.input !== undefined) {
    out.text(',"input":');
    out.number(answer.input);
  }
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

function cachedJson(value: object | null): string {
  if (value === null) return "null";
  let text = jsonOf.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    jsonOf.set(value, text);
  }
  return text;
}

function toText(answer: Answer): string {
  const d = answer.decision;
  const verdict = allowedOf(answer) ? "allowed" : "disallowed";
  const where = answer.robots === undefined ? "" : ` [${answer.robots}]`;
  // DESIGN §6: a query that cannot be answered says so; it is not a refusal.
  if (d.error !== undefined) {
    return `error${answer.url === "" ? "" : ` ${answer.url}`}${where}: ${d.error}`;
  }
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
  const refused = answer.usage?.refused ?? null;
  if (refused !== null) more.unshift(`may not be used for ${refused.purpose}`);
  const tail = more.length === 0 ? "" : `; ${more.join("; ")}`;
  const usage =
    answer.usage === undefined ? "" : usageTextTail(answer.usage, answer.usageSettings ?? null);
  return `${verdict} ${answer.url}${where} (${d.agent}, ${d.dialect}: ${why}${tail}${usage})`;
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
