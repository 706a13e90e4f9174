/**
 * `heed verify-request FILE`: the Web Bot Auth check `heed serve --verify-bots` makes, on one
 * request recorded by another server. Exit 0: verified; 1: refused, with its reason.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { readRecordedRequest } from "../../protocol/web-bot-auth/index.js";
import { parseInstant } from "../check-answer.js";
import { BotVerifier } from "../../site/bot-verifier.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { readKeyFile } from "../key-files.js";
import { readAll } from "../read-stream.js";

export interface VerifyRequestOptions {
  readonly key?: readonly string[];
  readonly at?: string;
  readonly https?: boolean;
  readonly allowPrivate?: boolean;
  readonly json?: boolean;
}

/** The most of a recording read: its head is bounded anyway (recorded-request.ts). */
const MAX_RECORDING_BYTES = 1024 * 1024;

export async function runVerifyRequest(
  file: string,
  options: VerifyRequestOptions,
  io: Io,
): Promise<number> {
  const at = options.at === undefined ? Date.now() : parseInstant(options.at);
  if (at === null) {
    throw new CliError(
      `--at: expected an RFC 3339 date-time such as 2026-11-21T08:00:00Z, got "${options.at}"`,
    );
  }
  const bytes =
    file === "-"
      ? await readAll(io.stdin, MAX_RECORDING_BYTES)
      : await readFile(resolve(io.cwd, file)).catch((error: NodeJS.ErrnoException) => {
          throw new CliError(`${file}: cannot read: ${error.code ?? "error"}`);
        });
  const request = readRecordedRequest(
    Buffer.from(bytes).subarray(0, MAX_RECORDING_BYTES).toString("latin1"),
    options.https === true ? "https" : "http",
  );
  if (!request.ok) throw new CliError(`${file}: ${request.message}`);
  const keys = await Promise.all((options.key ?? []).map((k) => readKeyFile(resolve(io.cwd, k))));
  const verifier = new BotVerifier({
    keys,
    allowPrivateAddresses: options.allowPrivate === true,
    now: () => at,
  });
  const verdict = await verifier.verify(request.value);
  if (options.json === true) io.stdout.write(`${JSON.stringify(verdict)}\n`);
  else if (verdict.ok) {
    io.stdout.write(
      `verified ${verdict.keyid}${verdict.directory === null ? "" : ` (key directory ${verdict.directory})`}\n`,
    );
  } else io.stdout.write(`refused ${verdict.reason}: ${verdict.message}\n`);
  return verdict.ok ? EXIT_OK : 1;
}
