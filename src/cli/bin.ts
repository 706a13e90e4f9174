#!/usr/bin/env node
import { main } from "./main.js";

// A reader that goes away (`heed --help | head -1`, `heed lint … | true`) ends the output
// quietly, as for any Unix tool: without a listener the broken pipe is an unhandled 'error'
// event and a stack trace. The exit status stays what the command returns.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") return;
    if (stream !== process.stderr)
      process.stderr.write(`heed: cannot write to standard output: ${error.message}\n`);
    process.exitCode = 2;
  });
}

main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `heed: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
