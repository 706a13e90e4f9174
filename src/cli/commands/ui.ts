/**
 * `heed ui [--port N] [--host ADDR] [--store PATH|redis://…] [--open]`: the robots.txt tester
 * and, with `--store`, a live view of a crawl, served on this machine (src/web/). Binds
 * 127.0.0.1 unless told otherwise; another address is warned about. Runs until SIGINT or
 * SIGTERM. Exit 0 when stopped; 2 on a bad option or a port that cannot be had.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { isLoopback } from "../../web/request-gate.js";
import { startUiServer } from "../../web/server.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { untilStopped } from "../until-stopped.js";

export interface UiCommandOptions {
  readonly port: string;
  readonly host: string;
  readonly store?: string;
  readonly open?: boolean;
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

/** Best effort: the desktop's opener; the URL is printed anyway. */
function openBrowser(url: string, io: Io): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () => io.stderr.write(`heed ui: could not open a browser; open ${url}\n`));
    child.unref();
  } catch {
    io.stderr.write(`heed ui: could not open a browser; open ${url}\n`);
  }
}
