/**
 * `heed serve --demo news`: the news site of seeds/003 §4.1 on a real port, with the robots.txt
 * of one of §5's runs, until interrupted. Prints where it is and the administrator's password,
 * then one line a request on standard error (the site's request log).
 */
import { MAX_ITEMS } from "../../site/news/limits.js";
import { ROBOTS_VARIANTS, type RobotsVariant } from "../../site/news/robots.js";
import { startNewsSite } from "../../site/news/server.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { untilStopped } from "../until-stopped.js";

export const DEMO_SITES = ["news"] as const;

export interface ServeDemoOptions {
  readonly demo?: string;
  readonly host: string;
  readonly port: string;
  readonly robots: string;
  readonly items: string;
  readonly adminPassword?: string;
  readonly url?: string;
  readonly quiet?: boolean;
}

export async function runServeDemo(
  options: ServeDemoOptions,
  io: Io,
  signal?: AbortSignal,
): Promise<number> {
  if (options.demo === undefined) throw new CliError("give --demo news (the only demo site)");
  if (!(DEMO_SITES as readonly string[]).includes(options.demo))
    throw new CliError(`--demo: expected one of ${DEMO_SITES.join(", ")}, got "${options.demo}"`);
  const port = whole("--port", options.port, 0, 65535);
  const items = whole("--items", options.items, 0, MAX_ITEMS);
  if (!(ROBOTS_VARIANTS as readonly string[]).includes(options.robots))
    throw new CliError(
      `--robots: expected one of ${ROBOTS_VARIANTS.join(", ")}, got "${options.robots}"`,
    );
  const running = await startNewsSite({
    host: options.host,
    port,
    robots: options.robots as RobotsVariant,
    items,
    ...(options.adminPassword === undefined ? {} : { adminPassword: options.adminPassword }),
    ...(options.url === undefined ? {} : { url: publicUrl(options.url) }),
    log: (r) => {
      if (options.quiet !== true)
        io.stderr.write(`${new Date(r.at).toISOString()} ${r.method} ${r.path} ${r.status}\n`);
    },
  }).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    if (code === "EADDRINUSE")
      throw new CliError(`port ${port} is in use on ${options.host}; choose another with --port`);
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
      throw new CliError(`--host: cannot listen on "${options.host}"`);
    if (error instanceof RangeError) throw new CliError(error.message);
    throw error;
  });
  io.stdout.write(
    `heed serve: the news site of the REGP paper (docs/demo.md) at ${running.origin}/ ` +
      `(robots.txt: ${options.robots}, ${items} news items)` +
      (running.listening === running.origin ? "\n" : `, listening on ${running.listening}/\n`) +
      `administrator: admin, password ${running.adminPassword} (log in at ${running.origin}/login.do)\n`,
  );
  await untilStopped(signal);
  await running.close();
  io.stderr.write("heed serve: stopped\n");
  return EXIT_OK;
}

function whole(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min || n > max)
    throw new CliError(`${flag}: expected a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

function publicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`--url: expected an http(s) URL, got "${value}"`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.pathname !== "/")
    throw new CliError(`--url: expected an http(s) URL of a site's root, got "${value}"`);
  return url.origin;
}
