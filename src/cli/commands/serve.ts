/**
 * `heed serve <dir>`: a directory as a web site, and with `--rup` its Remote Update Protocol
 * service (seeds/001): /rupinfo.txt, the action endpoint, the modification log, and reports
 * mailed through `--smtp`. Runs until SIGINT or SIGTERM.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import {
  compilePattern,
  emailProblem,
  type Latency,
  LATENCY_UNITS,
  parseLatency,
} from "../../protocol/rup/index.js";
import { parseSmtpUrl, smtpTransport } from "../../site/rup/mailer.js";
import { DEFAULT_LATENCIES } from "../../site/rup/rup-site.js";
import { startSiteServer } from "../../site/site-server.js";
import { type ConnectionFlags, connectionLimitsOf } from "../connection-flags.js";
import { loadUsageDescription } from "../usage-description.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { untilStopped } from "../until-stopped.js";
import { botKeysDocument } from "../key-files.js";

export interface ServeDirOptions extends ConnectionFlags {
  readonly port: string;
  readonly host: string;
  readonly rup?: boolean;
  readonly smtp?: string;
  readonly from?: string;
  readonly state: string;
  readonly base?: string;
  readonly latency?: string;
  readonly maxQuerySpan: string;
  readonly exclude?: string;
  readonly includeOnly?: string;
  readonly scanInterval: string;
  readonly allowPrivateWebhooks?: boolean;
  /** No access log on standard error. */
  readonly quiet?: boolean;
  readonly confirm?: boolean;
  /** A usage preferences description (docs/usage-preferences.md). */
  readonly usage?: string;
  /** A key directory file, or a directory of key files, to serve at the well-known path. */
  readonly botKeys?: string;
  /** Verify Web Bot Auth signatures and log who signed. */
  readonly verifyBots?: boolean;
  /** Paths (robots.txt syntax) where a verified signature is required. */
  readonly requireSignature?: readonly string[];
  /** --verify-bots: authorities accepted beside the one listened on. */
  readonly authority?: readonly string[];
  /** --verify-bots: refuse keys from directories whose answer is not signed by their keys. */
  readonly requireSignedDirectory?: boolean;
  /** --verify-bots: fetch key directories from private and loopback addresses. */
  readonly allowPrivate?: boolean;
}

/** Serves `dir` (and its RUP service with --rup) until the process is told to stop. */
export async function runServeDir(dir: string, options: ServeDirOptions, io: Io): Promise<number> {
  const root = resolve(io.cwd, dir);
  const info = await stat(root).catch(() => null);
  if (info?.isDirectory() !== true) throw new CliError(`${dir}: not a directory`);
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliError(`--port: expected 0 to 65535, got "${options.port}"`);
  }
  const rup = options.rup === true ? rupOptions(options, io) : null;
  if (rup === null) {
    for (const flag of ["smtp", "from", "latency", "exclude", "includeOnly", "base"] as const) {
      if (options[flag] !== undefined) throw new CliError(`--${kebab(flag)} needs --rup`);
    }
    if (options.confirm === true) throw new CliError("--confirm needs --rup");
  }
  const warn = (message: string): void => void io.stderr.write(`heed serve: ${message}\n`);
  const usage =
    options.usage === undefined ? null : await loadUsageDescription(resolve(io.cwd, options.usage));
  const botKeys =
    options.botKeys === undefined ? null : await botKeysDocument(resolve(io.cwd, options.botKeys));
  const botAuth = botAuthOptions(options);
  const server = await startSiteServer({
    root,
    host: options.host,
    port,
    connections: connectionLimitsOf(options),
    ...(usage === null ? {} : { usage }),
    ...(rup === null ? {} : { rup: { ...rup, warn } }),
    ...(botKeys === null ? {} : { botKeys }),
    ...(botAuth === null ? {} : { botAuth }),
    // The access log, one line a request, as `heed serve --demo` writes it; with --verify-bots
    // the verdict on the robot at the end.
    ...(options.quiet === true
      ? {}
      : {
          onRequest: (r: {
            method: string;
            path: string;
            status: number;
            bytes: number;
            bot?: string;
          }) =>
            void io.stderr.write(
              `${new Date().toISOString()} ${r.method} ${r.path} ${r.status} ${r.bytes}${r.bot ? ` ${r.bot}` : ""}\n`,
            ),
        }),
  }).catch((error: unknown) => {
    throw new CliError(`cannot serve ${dir}: ${(error as Error).message}`, 2, { cause: error });
  });
  io.stdout.write(`serving ${root} at ${server.url}\n`);
  if (server.rup !== null) {
    io.stdout.write(
      `RUP: ${new URL("/rupinfo.txt", server.url).href}, action endpoint ${server.rup.info.cgiUrl}, ` +
        `reports ${options.smtp === undefined ? "kept until --smtp is given" : `through ${options.smtp}`}\n`,
    );
    if (options.smtp === undefined)
      warn("no --smtp: reports are made and kept in the state file, not sent");
  }
  await untilStopped();
  await server.close();
  return EXIT_OK;
}

/** --verify-bots and the flags that need it. */
function botAuthOptions(options: ServeDirOptions) {
  const patterns = options.requireSignature ?? [];
  if (options.verifyBots !== true) {
    if (patterns.length > 0) throw new CliError("--require-signature needs --verify-bots");
    if (options.allowPrivate === true) throw new CliError("--allow-private needs --verify-bots");
    if (options.requireSignedDirectory === true) {
      throw new CliError("--require-signed-directory needs --verify-bots");
    }
    if ((options.authority ?? []).length > 0) throw new CliError("--authority needs --verify-bots");
    return null;
  }
  for (const pattern of patterns) {
    if (!/^[/*]/.test(pattern) || /\s/.test(pattern)) {
      throw new CliError(
        `--require-signature: expected a path pattern in robots.txt syntax such as "/*", got "${pattern}"`,
      );
    }
  }
  return {
    requireSignature: patterns,
    allowPrivateAddresses: options.allowPrivate === true,
    requireSignedDirectory: options.requireSignedDirectory === true,
    authorities: (options.authority ?? []).map(authorityOf),
    listenedAuthority: true,
  };
}

/** An --authority value as a request's Host reads (lower case, no default port), or an error. */
function authorityOf(value: string): string {
  // No path, user or query: only a host and a port may follow the scheme here.
  const host = /^[^/@?#\s]+$/.test(value) && URL.canParse(`http://${value}`);
  if (!host) {
    throw new CliError(
      `--authority: expected HOST or HOST:PORT, such as shop.example:8080, got "${value}"`,
    );
  }
  return new URL(`http://${value}`).host;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function rupOptions(options: ServeDirOptions, io: Io) {
  const smtp = options.smtp === undefined ? null : parseSmtpUrl(options.smtp);
  if (options.smtp !== undefined && smtp === null) {
    throw new CliError(
      `--smtp: expected smtp://host:port or smtps://host:port, got "${options.smtp}"`,
    );
  }
  const from = options.from ?? "rup@localhost";
  const problem = emailProblem(from);
  if (problem !== null) throw new CliError(`--from: ${problem} ("${from}")`);
  const latencies = options.latency === undefined ? DEFAULT_LATENCIES : split(options.latency, ",");
  for (const l of latencies) {
    const parsed = parseLatency(l);
    if (!parsed.ok || parsed.value.count !== 1) {
      throw new CliError(
        `--latency: expected a comma-separated list of units (${Object.keys(LATENCY_UNITS).join(", ")}), got "${l}"`,
      );
    }
  }
  const span = parseLatency(options.maxQuerySpan, { countRequired: true });
  if (!span.ok) throw new CliError(`--max-query-span: ${span.message}`);
  const patterns = (flag: string, value: string | undefined): string[] => {
    const list = value === undefined ? [] : split(value, ",");
    for (const p of list) {
      const c = compilePattern(p);
      if (!c.ok) throw new CliError(`${flag}: ${c.message}`);
    }
    return list;
  };
  const scan = Number(options.scanInterval);
  if (!Number.isFinite(scan) || scan < 0) {
    throw new CliError(`--scan-interval: expected seconds ≥ 0, got "${options.scanInterval}"`);
  }
  if (options.base !== undefined && !/^https?:\/\//i.test(options.base)) {
    throw new CliError(`--base: expected an http(s) URL, got "${options.base}"`);
  }
  const maxQuerySpan: Latency = span.value;
  return {
    statePath: resolve(io.cwd, options.state),
    transport: smtp === null ? null : smtpTransport(smtp),
    from,
    latencies,
    maxQuerySpan,
    exclude: patterns("--exclude", options.exclude),
    includeOnly: patterns("--include-only", options.includeOnly),
    scanIntervalMs: scan * 1000,
    allowPrivateWebhooks: options.allowPrivateWebhooks === true,
    confirm: options.confirm === true,
    ...(options.base === undefined ? {} : { urlBase: new URL("/", options.base).href }),
  };
}

function split(value: string, by: string): string[] {
  return value
    .split(by)
    .map((v) => v.trim())
    .filter((v) => v !== "");
}
