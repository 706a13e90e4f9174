/**
 * The connection policy's flags, shared by every server command (`heed serve DIR`, `heed agents
 * host`, `heed ui`): `--max-connections N`, `--max-connections-per-address N`,
 * `--progress-timeout SECONDS` (docs/connection-policy.md). Each command names its own defaults
 * in --help; a flag not given leaves the server's default.
 */
import type { Command } from "commander";
import {
  MAX_CONNECTIONS as AGENT_HOST_MAX_CONNECTIONS,
  MAX_CONNECTIONS_PER_ADDRESS as AGENT_HOST_MAX_CONNECTIONS_PER_ADDRESS,
} from "../site/agent-host/limits.js";
import { MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS } from "../site/connection-defaults.js";
import { PROGRESS_MS, type TableLimits } from "../net/connection-table.js";
import { CliError } from "./errors.js";
import { positiveInteger } from "./positive-integer.js";

export interface ConnectionFlags {
  readonly maxConnections?: string;
  readonly maxConnectionsPerAddress?: string;
  readonly progressTimeout?: string;
}

/** The defaults a command's --help names. */
export interface ConnectionDefaults {
  readonly total: number;
  readonly perAddress: number;
  readonly progressSeconds: number;
}

/** `heed serve DIR` and `heed ui`. */
export const HTTP_CONNECTION_DEFAULTS: ConnectionDefaults = {
  total: MAX_CONNECTIONS,
  perAddress: MAX_CONNECTIONS_PER_ADDRESS,
  progressSeconds: PROGRESS_MS / 1000,
};

/** `heed agents host`. */
export const AGENT_HOST_CONNECTION_DEFAULTS: ConnectionDefaults = {
  total: AGENT_HOST_MAX_CONNECTIONS,
  perAddress: AGENT_HOST_MAX_CONNECTIONS_PER_ADDRESS,
  progressSeconds: PROGRESS_MS / 1000,
};

/** Adds the three flags to `command`. */
export function connectionOptions(command: Command, defaults: ConnectionDefaults): Command {
  return command
    .option(
      "--max-connections <n>",
      `connections open at once; when full, the idlest gives way (default ${defaults.total}; docs/connection-policy.md)`,
    )
    .option(
      "--max-connections-per-address <n>",
      `connections one remote address may have open at once (default ${defaults.perAddress})`,
    )
    .option(
      "--progress-timeout <seconds>",
      `drop an answer whose reader takes no byte of it for this long (default ${defaults.progressSeconds})`,
    );
}

/** The limits the flags given ask for; the server's defaults for the rest. */
export function connectionLimitsOf(flags: ConnectionFlags): Partial<TableLimits> {
  const limits: { -readonly [K in keyof TableLimits]?: number } = {};
  if (flags.maxConnections !== undefined)
    limits.total = positiveInteger("--max-connections", flags.maxConnections);
  if (flags.maxConnectionsPerAddress !== undefined)
    limits.perAddress = positiveInteger(
      "--max-connections-per-address",
      flags.maxConnectionsPerAddress,
    );
  if (flags.progressTimeout !== undefined) {
    const seconds = Number(flags.progressTimeout);
    if (!/^\d+(?:\.\d+)?$/.test(flags.progressTimeout) || seconds <= 0)
      throw new CliError(
        `--progress-timeout: expected seconds > 0, got "${flags.progressTimeout}"`,
      );
    limits.progressMs = seconds * 1000;
  }
  return limits;
}
