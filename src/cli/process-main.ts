/**
 * `heed` as a process: its standard streams, its exit status, and the report of an internal
 * error. bin.ts runs it; `node dist/src/cli/process-main.js` runs the same command line from
 * tsc's modules, unbundled (bench/startup.bench.ts compares the two).
 */
import { main } from "./main.js";
import { sourceStack } from "./source-stack.js";

// A reader that goes away (`heed --help | head -1`, `heed lint … | true`) ends the output
// quietly, as for any Unix tool: without a listener the broken pipe is an unhandled 'error'
// event and a stack trace. The exit status stays what the command returns.
// Any other failure (a full disk) loses output: the command then ends with 2, whatever it
// returns, and says so once.
let lostOutput = false;
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") return;
    if (stream !== process.stderr && !lostOutput)
      process.stderr.write(`heed: cannot write to standard output: ${error.message}\n`);
    lostOutput = true;
    process.exitCode = 2;
  });
}

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // Read when a command reads it: making the stream loads Node's socket or TTY code, which
  // `heed --help` and a check of a file need not pay for.
  get stdin() {
    return process.stdin;
  },
  cwd: process.cwd(),
}).then(
  (code) => {
    process.exitCode = lostOutput ? 2 : code;
  },
  (error: unknown) => {
    process.stderr.write(
      `heed: internal error: ${error instanceof Error ? internalStack(error) : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);

/** The error's stack in source positions, or as Node gave it if mapping fails itself. */
function internalStack(error: Error): string {
  const stack = error.stack ?? error.message;
  try {
    return sourceStack(stack);
  } catch {
    return stack;
  }
}
