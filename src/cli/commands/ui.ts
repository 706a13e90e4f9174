/**
 * `heed ui [--port N] [--host ADDR] [--store PATH|redis://…] [--agent NAME] [--ip ADDR] [--open]
 * [--deadline SECONDS] [--max-connections N] [--max-connections-per-address N]
 * [--progress-timeout SECONDS]`: the robots.txt tester
 * and, with `--store`, a live view of a crawl, served on this machine (src/web/). Binds
 * 127.0.0.1 unless told otherwise; another address is warned about. Runs until SIGINT or
 * SIGTERM. Exit 0 when stopped; 2 on a bad option or a port that cannot be had. A browser that
 * cannot be opened is a note on stderr with the address to open by hand; the page is served on.
 */
import { spawn } from "node:child_process";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { isLoopback } from "../../web/request-gate.js";
import { startUiServer } from "../../web/server.js";
import { agentToken } from "../agent-token.js";
import { type ConnectionFlags, connectionLimitsOf } from "../connection-flags.js";
import { deadlineOf } from "../deadline-flag.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { untilStopped } from "../until-stopped.js";

export interface UiCommandOptions extends ConnectionFlags {
  readonly port: string;
  readonly host: string;
  readonly store?: string;
  /** The crawl's robot name token, whose robots.txt rules the crawl view reads for each site's pace. */
  readonly agent?: string;
  /** The crawl's `--ip`: the address Ip-delay and Ip-rate bind. */
  readonly ip?: string;
  readonly open?: boolean;
  /** Each fetch the page asks for: its total seconds (docs/fetching.md). */
  readonly deadline?: string;
}

export async function runUi(
  options: UiCommandOptions,
  io: Io,
  signal?: AbortSignal,
): Promise<number> {
  const port = Number(options.port);
  if (!/^\d+$/.test(options.port) || port > 65_535) {
    throw new CliError(`--port: expected 0 to 65535, got "${options.port}"`);
  }
  const agent = options.agent === undefined ? undefined : agentToken(options.agent);
  if (options.ip !== undefined && isIP(options.ip) === 0) {
    throw new CliError(`--ip: expected an IPv4 or IPv6 address, got "${options.ip}"`);
  }
  const deadline = deadlineOf(options.deadline);
  const connections = connectionLimitsOf(options);
  const store =
    options.store === undefined
      ? undefined
      : /^rediss?:\/\//i.test(options.store)
        ? options.store
        : resolve(io.cwd, options.store);
  const server = await startUiServer({
    host: options.host,
    port,
    ...(store === undefined ? {} : { store }),
    ...(agent === undefined ? {} : { agent }),
    ...(options.ip === undefined ? {} : { ip: options.ip }),
    ...deadline,
    connections,
  }).catch((error: unknown) => {
    throw new CliError(
      `cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`,
      2,
      {
        cause: error,
      },
    );
  });
  if (!isLoopback(options.host)) {
    io.stderr.write(
      `heed ui: warning: listening on ${options.host}, not only this machine: anyone who can reach it can use heed to fetch robots.txt files and sitemaps${store === undefined ? "" : " and read the crawl"}\n`,
    );
  }
  io.stdout.write(`heed ui: ${server.url}\n`);
  if (options.open === true) openBrowser(server.url, io);
  await untilStopped(signal);
  await server.close();
  return EXIT_OK;
}

/**
 * Best effort: the desktop's opener. When it is missing, cannot start, or ends in failure (an
 * `xdg-open` with no desktop to open in exits non-zero), a note on stderr gives the address to
 * open by hand; the server goes on either way. The opener is not waited for.
 */
function openBrowser(url: string, io: Io): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  let told = false;
  const tell = (why: string) => {
    if (told) return;
    told = true;
    io.stderr.write(`heed ui: could not open a browser (${why}); open ${url} by hand\n`);
  };
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", (error: NodeJS.ErrnoException) =>
      tell(error.code === "ENOENT" ? `${command} not found` : `${command}: ${error.message}`),
    );
    child.on("exit", (code, signal) => {
      // explorer.exe ends with 1 even when it opened the page: only its failing to start counts.
      if (process.platform === "win32") return;
      if (signal !== null) tell(`${command} was ended by ${signal}`);
      else if (code !== null && code !== 0) tell(`${command} ended with status ${code}`);
    });
    child.unref();
  } catch (error) {
    tell(`${command}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
