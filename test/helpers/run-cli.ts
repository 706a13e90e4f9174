/** Runs the built `heed` binary as a user would, with a time limit. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../src/cli/bin.js", import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly cwd?: string;
  /** The script node runs; default the built `heed` ({@link BIN}), else a copy of it elsewhere. */
  readonly script?: string;
  /** Default 20 s; the process is killed with SIGKILL after it. */
  readonly timeoutMs?: number;
  /**
   * Variables to set on top of this process's environment; one set to undefined is removed
   * (`{ HEED_AGENT: undefined }`), and `PATH` may be replaced (node is started by its full path).
   */
  readonly env?: NodeJS.ProcessEnv;
  /** A shell command run first, in the shell that then becomes node (`ulimit -n 256`). */
  readonly shellFirst?: string;
}

function withEnv(env: NodeJS.ProcessEnv | undefined): { env?: NodeJS.ProcessEnv } {
  if (env === undefined) return {};
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name];
  return { env: merged };
}

export function runCli(
  args: readonly string[],
  options: CliOptions & { readonly input?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, options.script ?? BIN, ...args];
    const [file, ...rest] =
      options.shellFirst === undefined
        ? command
        : ["sh", "-c", `${options.shellFirst} && exec "$0" "$@"`, ...command];
    const child = spawn(file as string, rest, {
      cwd: options.cwd ?? process.cwd(),
      ...withEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`heed ${args.join(" ")} took longer than ${options.timeoutMs ?? 20_000} ms`),
      );
    }, options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** `heed crawl` of `seeds` as the tests' agent (heedtest) on `store`, then `extra`. */
export function crawlArgs(
  seeds: string | readonly string[],
  store: string,
  ...extra: readonly string[]
): string[] {
  const from = typeof seeds === "string" ? [seeds] : seeds;
  return ["crawl", ...from, "--agent", "heedtest", "--store", store, ...extra];
}

export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  /** Settles when the process is gone: its exit code, or the signal that ended it. */
  readonly done: Promise<CliResult & { readonly signal: NodeJS.Signals | null }>;
}

/**
 * Starts the built `heed` binary and hands back the process, for tests that signal or kill it;
 * the process is killed with SIGKILL if it is still running after `timeoutMs`.
 */
export function spawnCli(args: readonly string[], options: CliOptions = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    ...withEnv(options.env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => err.push(c));
  child.stdin.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
  const done = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
  return { child, done };
}

/** Resolves with a server's origin (`heed serve` and the like) once the CLI has printed it. */
export function originOf(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no address printed: ${out}`)), 15_000);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const m = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.once("exit", () => reject(new Error(`exited before printing its address: ${out}`)));
  });
}
