/**
 * `heed agents host --root DIR --listen HOST:PORT [--site URL] [--assign PATH …]`: an ATP/0.1
 * agent host that runs visiting heed agents in a sandbox on the subtrees the site assigns it.
 * Prints its address and paths on standard output, a log line per request on standard error;
 * runs until SIGINT or SIGTERM. Exit 0 after a signal; 2 on bad options or a port in use.
 */
import { stat } from "node:fs/promises";
import { AgentHost, type AgentHostLimits } from "../../site/agent-host/host.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { VERSION } from "../version.js";
import { untilStopped } from "../until-stopped.js";
import { printable } from "../printable.js";
import { type ConnectionFlags, connectionLimitsOf } from "../connection-flags.js";
import { positiveInteger } from "../positive-integer.js";

export interface HostCommandOptions extends ConnectionFlags {
  readonly root?: string;
  readonly listen: string;
  readonly site?: string;
  readonly assign: readonly string[];
  readonly timeLimit?: string;
  readonly memoryLimit?: string;
  readonly maxRunning?: string;
  readonly maxPerSender?: string;
  readonly allowPrivate?: boolean;
  readonly quiet?: boolean;
}

export async function runAgentsHost(
  options: HostCommandOptions,
  io: Io,
  signal?: AbortSignal,
): Promise<number> {
  if (options.root === undefined) throw new CliError("--root: give the site's document root");
  const root = options.root;
  const isDir = await stat(root).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) throw new CliError(`--root: ${root} is not a directory`);
  const { host, port } = readListen(options.listen);
  if (options.site !== undefined && !/^https?:\/\/[^/]+/i.test(options.site)) {
    throw new CliError(`--site: expected an http(s) URL, got "${options.site}"`);
  }
  for (const path of options.assign) {
    if (!path.startsWith("/"))
      throw new CliError(`--assign: a path starts with "/", got "${path}"`);
  }
  const limits: Partial<Record<keyof AgentHostLimits, number>> = {};
  if (options.timeLimit !== undefined)
    limits.timeMs = positiveInteger("--time-limit", options.timeLimit);
  if (options.memoryLimit !== undefined)
    limits.memoryBytes = positiveInteger("--memory-limit", options.memoryLimit) * 1024 * 1024;
  if (options.maxRunning !== undefined)
    limits.maxRunning = positiveInteger("--max-running", options.maxRunning);
  if (options.maxPerSender !== undefined)
    limits.maxPerSender = positiveInteger("--max-per-sender", options.maxPerSender);
  const agentHost = new AgentHost({
    root,
    host,
    port,
    ...(options.site === undefined ? {} : { site: options.site }),
    assign: options.assign,
    limits,
    connections: connectionLimitsOf(options),
    allowPrivate: options.allowPrivate === true,
    userAgent: `heed/${VERSION} agent host`,
    log:
      options.quiet === true
        ? () => {}
        : // A log line names visiting agents and what they asked: control characters shown.
          (line) => io.stderr.write(`${new Date().toISOString()} ${printable(line)}\n`),
  });
  let address: string;
  try {
    address = await agentHost.listen();
  } catch (error) {
    throw new CliError(
      `cannot listen on ${options.listen}: ${error instanceof Error ? error.message : String(error)}`,
      2,
      { cause: error },
    );
  }
  const paths = agentHost.assignments();
  const closed = agentHost.closedBecause();
  io.stdout.write(
    `${printable(
      `listening on ${address}; ${
        closed !== null
          ? `no agent accepted for now: the site is closed to robots (${closed}); its robots.txt is read again every 5 minutes`
          : `agents accepted for ${paths.length === 0 ? "no path (no Mobile-agent-server record names this host)" : paths.join(" ")}`
      }`,
    )}\n`,
  );
  await untilStopped(signal);
  await agentHost.close();
  return EXIT_OK;
}

/** `127.0.0.1:4434`, `[::1]:4434`, or a bare port (on 127.0.0.1). */
export function readListen(text: string): { host: string; port: number } {
  const match =
    /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text) ?? /^()()(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (match === null || !Number.isInteger(port) || port > 65535) {
    throw new CliError(`--listen: expected HOST:PORT (127.0.0.1:4434), got "${text}"`);
  }
  return { host: match[1] || match[2] || "127.0.0.1", port };
}
