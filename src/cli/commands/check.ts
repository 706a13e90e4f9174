/**
 * `heed check`: is a URL allowed for a robot? (DESIGN §6.) One robots.txt with `--url` or
 * `--queries`, or many with `--batch`; both stream, so a million queries run in constant memory.
 */
import type { JsonFields } from "../choices.js";
import { createReadStream, statSync } from "node:fs";
import { isIP } from "node:net";
import type { DialectChoice } from "../../protocol/robots/dialect.js";
import type { Robot } from "../../protocol/robots/policy.js";
import { robotsLicenses } from "../../protocol/robots/license.js";
import { runBatch } from "../batch/run.js";
import type { RequestSigner } from "../../net/request-signer.js";
import { proxyChoice, type ProxyFlags } from "../proxy-flags.js";
import {
  allowedOf,
  type Answer,
  ask,
  askLine,
  compile,
  defaultsOrNull,
  failed,
  type Origin,
  parseInstant,
  type Rules,
  sources,
  tooLong,
  toJsonText,
  toText,
} from "../check-answer.js";
import { readError } from "../read-error.js";
import { CliError, EXIT_BAD_INPUT, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { type QueryLine, queryLines } from "../query-lines.js";
import {
  usageOfAnswer,
  type UsageSettings,
  usageSettings,
  usageWarnings,
} from "../usage-answer.js";
import { deadlineOf } from "../deadline-flag.js";
import { printable } from "../printable.js";

export interface CheckOptions extends ProxyFlags {
  readonly agent?: string;
  /** A private JWK file: sign the robots.txt fetch with Web Bot Auth (docs/web-bot-auth.md). */
  readonly sign?: string;
  readonly signatureAgent?: string;
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
  /**
   * --batch --json: `contract` (the default) writes the fields DESIGN §6 promises, `all` every
   * field `--queries` writes (reason, delay, next, basis, token, group, robots, input, detail).
   */
  readonly fields?: JsonFields;
  /** --batch: worker threads besides the main one; default one per spare core for large batches on 4+ cores. */
  readonly jobs?: string;
  /** Usage preferences (docs/usage-preferences.md): purposes, response headers, tdmrep.json. */
  readonly purpose?: readonly string[];
  readonly header?: readonly string[];
  readonly tdmrep?: string;
  /** --deadline: the robots.txt fetch's total seconds. */
  readonly deadline?: string;
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
      options.batch,
      options.jobs,
      {
        dialect: options.dialect,
        defaults,
        json: options.json,
        plan: options.plan === true,
        fields: options.fields ?? "contract",
      },
      io,
      out,
      tally,
    );
  } else {
    if (options.fields !== undefined)
      throw new CliError("--fields goes with --batch; --url and --queries write every field");
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
      // A warning names the file, whose name may hold control characters: shown, not sent.
      for (const warning of rules.warnings)
        io.stderr.write(`heed check: warning: ${printable(warning)}\n`);
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
        for (const line of lines) {
          emit(withUsage(askQueryLine(rules, line, defaults)));
          // An answer can be large (a robots.txt of thousands of groups for one robot lists
          // them in each): what is written goes out before the chunk's other answers pile up.
          if (out.full) await out.ready();
        }
        // Queries on standard input may come from a program waiting for each answer.
        if (options.queries === "-") await out.flush();
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

// Output is written in chunks of about this many characters.
const OUTPUT_CHUNK = 1024 * 1024;

/**
 * The robots.txt to check against. With --json, a robots.txt that cannot be had (a fetch that
 * fails, a missing file) is answered in every query's own JSON object, so that the output
 * stays JSON; as text it is one message and exit 2.
 */
async function load(source: string, options: CheckOptions, io: Io): Promise<Rules | string> {
  let signer: RequestSigner | null = null;
  if (options.sign !== undefined || options.signatureAgent !== undefined) {
    if (!/^https?:\/\//i.test(source)) {
      throw new CliError("--sign signs a fetch: give a robots.txt URL");
    }
    // Loaded only for --sign: a check of a local file costs no key code.
    signer = await (await import("../request-signing.js")).signerFromFlags(options, io.cwd);
  }
  try {
    const loaded = await (
      await sources()
    ).loadRobots(source, {
      stdin: io.stdin,
      ...(signer === null ? {} : { signer }),
      proxies: proxyChoice(options),
      ...userAgent(options.agent),
      ...deadlineOf(options.deadline),
      onNote: (text) => io.stderr.write(`heed check: ${text}\n`),
    });
    // RSL License: lines are shown, on standard error beside the answers; heed agrees to nothing.
    const base = loaded.origin === null ? undefined : `${loaded.origin}/`;
    for (const license of robotsLicenses(loaded.bytes, base)) {
      io.stderr.write(
        `heed check: ${license.where} names a license (RSL): ${printable(license.url)}\n`,
      );
    }
    for (const license of loaded.linkLicenses ?? []) {
      io.stderr.write(
        `heed check: the robots.txt answer's ${license.where} names a license: ${printable(license.url)}\n`,
      );
    }
    return compile(loaded, options.dialect);
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

function userAgent(agent: string | undefined): { userAgent?: string } {
  return agent === undefined ? {} : { userAgent: agent };
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

/** Hands the query lines of `file` (`-`: standard input) to `handle`, a chunk at a time. */
async function forEachLines(
  file: string,
  io: Io,
  handle: (lines: QueryLine[]) => Promise<void>,
): Promise<void> {
  // A folder opens without error and fails only on the first read: refuse it here.
  if (file !== "-" && isFolder(file))
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

/** Is `file` a folder? Not when it cannot be looked at: opening it then says why. */
function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
