/** A server command of the built `heed` (`serve`, `agents host`, `ui`) started for a test. */
import { type RunningCli, spawnCli } from "./run-cli.js";

export interface ServingCli {
  readonly cli: RunningCli;
  readonly port: number;
}

/** Starts `heed ARGS…` and waits for the port it prints (the first group of `printed`). */
export async function startServing(
  args: readonly string[],
  printed: RegExp,
  timeoutMs = 290_000,
): Promise<ServingCli> {
  const cli = spawnCli(args, { timeoutMs });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`no address printed: ${out}`)), 30_000);
    cli.child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      const m = printed.exec(out);
      if (m !== null) {
        clearTimeout(guard);
        resolve(Number(m[1]));
      }
    });
  });
  return { cli, port };
}

/** Stops it as a user would (SIGTERM) and waits until it is gone. */
export async function stopServing(serving: ServingCli): Promise<void> {
  serving.cli.child.kill("SIGTERM");
  await serving.cli.done;
}
