/**
 * `heed` as a process: its standard streams, its exit status, and the report of an internal
 * error. bin.ts runs it; `node dist/src/cli/process-main.js` runs the same command line from
 * tsc's modules, unbundled (bench/startup.bench.ts compares the two).
 */
import { setFlagsFromString } from "node:v8";
import { lowerHelperThreads } from "./helper-threads.js";
import { main } from "./main.js";
import { sourceStack } from "./source-stack.js";
import { applyTestClockSkew } from "./test-clock-skew.js";

/**
 * Commands that run until stopped, or long enough to gain from V8's optimizing compiler for
 * WebAssembly: the crawler, the servers, and the agent host, whose agents run in QuickJS.
 */
const LONG_RUNNING = new Set(["crawl", "serve", "ui", "agents", "demo"]);

/** TurboFan's inlining budget, in bytecode, for `heed check` (see below): V8's default is 920. */
const CHECK_INLINING_BUDGET = 200;

// V8's young generation starts at 1 MiB and grows to its most (16 MiB) by doublings, one per
// collection that found it too small; until then each collection copies what is in use and
// moves it on to the old generation. Loading the command line fills it several times, and
// `check --batch` parses robots.txt files into objects that live while their lines are
// answered, megabytes a second: growing at once to the most saves a batch about 4% of its
// time. V8 reads the setting whenever it grows the generation, so it can be made here.
setFlagsFromString("--semi-space-growth-factor=16");

// The first HTTP request compiles undici's parser (WebAssembly), and V8 goes on compiling it
// with its optimizing tier in the background; a process waits for that before it can end, which
// held a `heed check URL` 80 ms or more after its answer was written. Commands that end in a
// moment run the parser on the baseline tier only. Process-wide, so set before any request.
const [command, subcommand] = process.argv.slice(2);
if (!LONG_RUNNING.has(command ?? "") && !(command === "rup" && subcommand === "inbox")) {
  setFlagsFromString("--liftoff-only");
}

// TurboFan inlines the functions a hot function calls up to a budget of bytecode (920 by
// default): the more it inlines, the longer the compile, and on a busy machine the thread that
// answers runs unoptimised code while the compile waits for a core. `heed check --batch` ends
// before its code is fully warm: on the bench's real batch (111,215 queries) a budget of 200
// cost 10-25% less CPU time at load 9-13, and no more on a batch four times as long; without
// inlining at all, the longer batch cost 10% more. Read at each compile, so it can be set here.
if (command === "check")
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${CHECK_INLINING_BUDGET}`);

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

// Tests only: a process whose clock is off (test-clock-skew.ts); nothing unless asked for.
applyTestClockSkew();

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // Read when a command reads it: making the stream loads Node's socket or TTY code, which
  // `heed --help` and a check of a file need not pay for.
  get stdin() {
    return process.stdin;
  },
  cwd: process.cwd(),
  lowerHelperThreads,
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
