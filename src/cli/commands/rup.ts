/**
 * `heed rup …`: the robot's side of the Remote Update Protocol (seeds/001). Registrations and
 * their keys live in the crawl store (an SQLite file); `heed rup inbox` takes reports in by
 * SMTP and queues what changed for the next `heed crawl`.
 *
 * Exit codes: 0 done; 1 the site refused (or, for `seq`, reports were lost); 2 bad input, an
 * unreachable site, or a store that cannot be opened.
 */
import { startInbox, type InboxEvent } from "../../crawler/rup/inbox.js";
import { openSiteGate, siteTurn } from "../../crawler/site-gate.js";
import {
  index,
  modify,
  type Preferences,
  type RobotContext,
  register,
  sequence,
  unregister,
} from "../../crawler/rup/robot.js";
import { openRobotState } from "../../crawler/rup/open-robot-state.js";
import type { RobotState } from "../../crawler/rup/robot-state.js";
import { fetchRupInfo, RupClientError } from "../../crawler/rup/rup-client.js";
import { createHttpClient, type HttpClient } from "../../net/http-client.js";
import {
  emailProblem,
  isCallbackUrl,
  formatLatency,
  formatReport,
  type Latency,
  parseLatency,
  type PathFilter,
} from "../../protocol/rup/index.js";
import { openStore } from "../../store/open.js";
import { agentToken } from "../agent-token.js";
import { CliError, EXIT_BAD_INPUT, EXIT_NOT_ALLOWED, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { VERSION } from "../version.js";
import { isPrivateHost } from "../private-host.js";
import { untilStopped } from "../until-stopped.js";
import { printable, printableLines } from "../printable.js";

export interface RupCommonOptions {
  readonly store: string;
  readonly agent: string;
  readonly json?: boolean;
}

export interface RupPrefsOptions extends RupCommonOptions {
  readonly email?: string;
  readonly latency?: string;
  readonly exclude: string[];
  readonly includeOnly: string[];
}

function siteUrl(site: string): string {
  const withScheme = /^https?:\/\//i.test(site) ? site : `http://${site}`;
  if (!URL.canParse(withScheme)) throw new CliError(`not a site URL: ${site}`);
  return new URL("/", withScheme).href;
}

function client(options: RupCommonOptions, site: string | null): HttpClient {
  const agent = agentToken(options.agent);
  return createHttpClient({
    userAgent: `${agent}/${VERSION} (+https://www.npmjs.com/package/heed)`,
    // A loopback or private site is asked for by name; the SSRF guard stays on for others.
    allowPrivateAddresses: site === null || isPrivateHost(new URL(site).hostname),
  });
}

async function openState(spec: string): Promise<RobotState> {
  try {
    return await openRobotState(spec);
  } catch (error) {
    throw new CliError(`cannot open the store ${spec}: ${(error as Error).message}`, 2, {
      cause: error,
    });
  }
}

function preferences(options: RupPrefsOptions): Preferences {
  const out: { latency?: Latency; filter?: PathFilter } = {};
  if (options.latency !== undefined) {
    const l = parseLatency(options.latency);
    if (!l.ok) throw new CliError(`--latency: ${l.message}`);
    out.latency = l.value;
  }
  if (options.exclude.length > 0 && options.includeOnly.length > 0) {
    throw new CliError("give --exclude or --include-only, not both (docs/rup.md)");
  }
  const split = (list: string[]): string[] =>
    list.flatMap((p) => p.split(/\s+/)).filter((p) => p !== "");
  if (options.exclude.length > 0)
    out.filter = { kind: "exclude", patterns: split(options.exclude) };
  if (options.includeOnly.length > 0)
    out.filter = { kind: "include-only", patterns: split(options.includeOnly) };
  return out;
}

/** Runs one action, turning the client's errors into exit codes. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RupClientError) {
      throw new CliError(error.message, error.code === "HEED_RUP_REFUSED" ? EXIT_NOT_ALLOWED : 2, {
        cause: error,
      });
    }
    throw error;
  }
}

async function withRobot<T>(
  options: RupCommonOptions,
  site: string,
  work: (ctx: RobotContext) => Promise<T>,
): Promise<T> {
  const http = client(options, site);
  const state = await openState(options.store);
  const store = await openCrawlStore(options.store, state);
  // Each action takes the site's reservation in the crawl store, as the crawl's pages do.
  // The store's clock for its reservations: other processes judge the gaps by it too.
  const { gate, close } = await openSiteGate({ store, now: store.now });
  const turn = siteTurn(gate, store, agentToken(options.agent), store.now, http);
  try {
    return await guarded(() => work({ client: http, state, now: Date.now, turn }));
  } finally {
    await close();
    await http.close();
    await store.close();
    await state.close();
  }
}

async function openCrawlStore(spec: string, state: RobotState) {
  return openStore(spec).catch(async (error: unknown) => {
    await state.close();
    throw new CliError(`cannot open the store ${spec}: ${(error as Error).message}`, 2, {
      cause: error,
    });
  });
}

export async function runRupInfo(site: string, options: RupCommonOptions, io: Io): Promise<number> {
  const url = siteUrl(site);
  const http = client(options, url);
  try {
    const info = await guarded(() => fetchRupInfo(http, url));
    if (options.json === true) {
      io.stdout.write(
        `${JSON.stringify({ url: info.url, cgiUrl: info.cgiUrl, info: info.info, diagnostics: info.diagnostics })}\n`,
      );
    } else {
      const i = info.info;
      // Every value below is the site's /rupinfo.txt: control characters shown, not sent.
      const say = (text: string): boolean => io.stdout.write(printableLines(text));
      say(`${info.url}\n`);
      if (i !== null) {
        say(
          `  RUP-CGI:      ${info.cgiUrl ?? i.cgiUrl}\n  Authentifier: ${i.authentifier ?? "(not said)"}\n`,
        );
        say(`  Latency:      ${i.latencies.join(", ") || "(not said)"}\n`);
        say(
          `  Exclude:      ${i.exclude.join(", ") || "(none)"}\n  IncludeOnly:  ${i.includeOnly.join(", ") || "(none)"}\n`,
        );
        say(
          `  MaxQuerySpan: ${i.maxQuerySpan === null ? "(not said)" : formatLatency(i.maxQuerySpan, { alwaysCount: true })}\n`,
        );
      }
      for (const d of info.diagnostics)
        io.stderr.write(
          printableLines(
            `${info.url}:${d.line ?? "-"}: ${d.severity}: ${d.field ?? ""} ${d.message}\n`,
          ),
        );
    }
    return info.info === null ? 2 : EXIT_OK;
  } finally {
    await http.close();
  }
}

export async function runRupRegister(
  site: string,
  options: RupPrefsOptions,
  io: Io,
): Promise<number> {
  const url = siteUrl(site);
  if (options.email === undefined) throw new CliError("--email ADDR is required");
  const problem = reportTargetProblem(options.email);
  if (problem !== null) throw new CliError(`--email: ${problem}`);
  const prefs = preferences(options);
  const email = options.email;
  const { registration, key } = await withRobot(options, url, (ctx) =>
    register(ctx, url, email, prefs),
  );
  if (options.json === true)
    io.stdout.write(
      `${JSON.stringify({ site: registration.origin, email, registrationKey: key, cgiUrl: registration.cgiUrl })}\n`,
    );
  else {
    io.stdout.write(`registered ${email} with ${registration.origin}\nRegistrationKey: ${key}\n`);
    io.stderr.write(
      `heed rup: the key is kept in ${options.store} and not shown again (heed rup key ${registration.origin} prints it)\n`,
    );
  }
  return EXIT_OK;
}

export async function runRupModify(
  site: string,
  options: RupPrefsOptions,
  io: Io,
): Promise<number> {
  const url = siteUrl(site);
  if (options.email !== undefined && reportTargetProblem(options.email) !== null)
    throw new CliError(`--email: ${reportTargetProblem(options.email) ?? ""}`);
  const prefs = preferences(options);
  if (options.email === undefined && prefs.latency === undefined && prefs.filter === undefined) {
    throw new CliError("nothing to change: give --email, --latency, --exclude or --include-only");
  }
  const r = await withRobot(options, url, (ctx) =>
    modify(ctx, url, {
      ...prefs,
      ...(options.email === undefined ? {} : { email: options.email }),
    }),
  );
  if (options.json === true) {
    io.stdout.write(
      `${JSON.stringify({ site: r.origin, changed: { ...(options.email === undefined ? {} : { email: options.email }), ...(prefs.latency === undefined ? {} : { latency: formatLatency(prefs.latency) }), ...(prefs.filter === undefined ? {} : { filter: prefs.filter }) } })}\n`,
    );
  } else io.stdout.write(`preferences changed at ${r.origin}\n`);
  return EXIT_OK;
}

export async function runRupUnregister(
  site: string,
  options: RupCommonOptions,
  io: Io,
): Promise<number> {
  const url = siteUrl(site);
  await withRobot(options, url, (ctx) => unregister(ctx, url));
  if (options.json === true)
    io.stdout.write(`${JSON.stringify({ site: new URL(url).origin, unregistered: true })}\n`);
  else io.stdout.write(`unregistered from ${new URL(url).origin}\n`);
  return EXIT_OK;
}

export async function runRupSeq(site: string, options: RupCommonOptions, io: Io): Promise<number> {
  const url = siteUrl(site);
  const n = await withRobot(options, url, (ctx) => sequence(ctx, url));
  const lost = n.site > n.received;
  // A site behind the robot lost its RUP state (or a report came from elsewhere): the reports it
  // numbers from now on look old, so they are as good as lost until it passes the robot's count.
  const behind = n.site < n.received;
  if (options.json === true)
    io.stdout.write(
      `${JSON.stringify({ sequenceNumber: n.site, received: n.received, lost: Math.max(0, n.site - n.received), behind })}\n`,
    );
  else
    io.stdout.write(
      `SequenceNumber=${n.site} (last received: ${n.received}${lost ? `; ${n.site - n.received} not received` : ""})\n`,
    );
  if (behind)
    io.stderr.write(
      `heed rup: ${new URL(url).origin} numbers its reports from ${n.site}, behind the ${n.received} received: its RUP state was reset, or a report did not come from it; unregister and register again\n`,
    );
  return lost || behind ? EXIT_NOT_ALLOWED : EXIT_OK;
}

export async function runRupKey(site: string, options: RupCommonOptions, io: Io): Promise<number> {
  const origin = new URL(siteUrl(site)).origin;
  const state = await openState(options.store);
  try {
    const r = await state.site(origin);
    if (r === null)
      // Exit 2 as unregister, modify and seq give for a site the store has no registration with.
      throw new CliError(`not registered with ${origin} in ${options.store}`, EXIT_BAD_INPUT);
    io.stdout.write(`RegistrationKey: ${r.key}\n`);
    return EXIT_OK;
  } finally {
    await state.close();
  }
}

export async function runRupIndex(
  site: string,
  options: RupCommonOptions & { span?: string },
  io: Io,
): Promise<number> {
  const url = siteUrl(site);
  if (options.span === undefined) throw new CliError("--span N-unit is required (e.g. 2-week)");
  const span = parseLatency(options.span, { countRequired: true });
  if (!span.ok) throw new CliError(`--span: ${span.message}`);
  const http = client(options, url);
  try {
    const result = await guarded(() => index(http, url, span.value));
    if (result.report === null)
      throw new CliError(
        `the index is not a report: ${result.diagnostics.map((d) => d.message).join("; ")}`,
      );
    if (options.json === true)
      io.stdout.write(`${JSON.stringify({ ...result.report, diagnostics: result.diagnostics })}\n`);
    // A report is the site's text: control characters shown, not sent.
    else io.stdout.write(printableLines(formatReport(result.report)));
    return EXIT_OK;
  } finally {
    await http.close();
  }
}

export async function runRupInbox(
  options: RupCommonOptions & { listen: string; checkEvery: string },
  io: Io,
): Promise<number> {
  const minutes = Number(options.checkEvery);
  if (!Number.isFinite(minutes) || minutes < 0) {
    throw new CliError(`--check-every: expected minutes ≥ 0, got "${options.checkEvery}"`);
  }
  const m = /^(.*):(\d{1,5})$/.exec(options.listen);
  const port = Number(m?.[2]);
  if (m === null || port > 65_535)
    throw new CliError(`--listen: expected HOST:PORT, got "${options.listen}"`);
  const host = (m[1] ?? "").replace(/^\[|\]$/g, "");
  const state = await openState(options.store);
  const store = await openCrawlStore(options.store, state);
  const http = client(options, null);
  // The store's clock for its reservations: other processes judge the gaps by it too.
  const { gate, close } = await openSiteGate({ store, now: store.now });
  const turn = siteTurn(gate, store, agentToken(options.agent), store.now, http);
  const print = (event: InboxEvent): void => {
    if (options.json === true) io.stdout.write(`${JSON.stringify(event)}\n`);
    else if (event.kind === "taken")
      io.stdout.write(
        `${printable(`report ${event.seq} from ${event.origin}: ${event.outcome}; ${event.detail}`)}\n`,
      );
    else
      io.stdout.write(
        `${printable(`refused (${event.permanent ? "for good" : "for now"}): ${event.reason}`)}\n`,
      );
  };
  try {
    const inbox = await startInbox({
      host,
      port,
      state,
      store,
      client: http,
      now: Date.now,
      turn,
      checkEveryMs: minutes * 60_000,
      onReport: print,
    }).catch((error: unknown) => {
      throw new CliError(`--listen ${options.listen}: ${(error as Error).message}`, 2, {
        cause: error,
      });
    });
    // With --json, standard output holds only the reports' objects.
    (options.json === true ? io.stderr : io.stdout).write(`listening on ${host}:${inbox.port}\n`);
    await untilStopped();
    await inbox.close();
    return EXIT_OK;
  } finally {
    await close();
    await http.close();
    await store.close();
    await state.close();
  }
}

/**
 * Where reports go: an e-mail address (the protocol), or an http(s) URL the site posts them to
 * as signed JSON (docs/rup.md#webhooks). The site decides whether it posts to that URL.
 */
function reportTargetProblem(target: string): string | null {
  if (/^https?:/i.test(target)) {
    return isCallbackUrl(target)
      ? null
      : `expected an e-mail address or an http(s) URL, got "${target}"`;
  }
  const problem = emailProblem(target);
  // An address the robot means as mail, or a webhook URL: say both forms it may take.
  return problem === null
    ? null
    : `${problem} (an e-mail address, or an http(s) URL for a webhook), got "${target.length > 100 ? `${target.slice(0, 100)}…` : target}"`;
}
