/** The sandbox thread: runs one agent and posts its outcome. Started by spawn.ts only. */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import type { SandboxJob } from "./job.js";
import { runInQuickJs } from "./quickjs-run.js";

const { job, messages } = workerData as { job: SandboxJob; messages: MessagePort };
// "started" once the interpreter is loaded: the host counts the agent's time from there, so
// that a slow thread start on a busy machine does not eat into it.
const outcome = await runInQuickJs(job, messages, () =>
  parentPort?.postMessage({ kind: "started" }),
);
parentPort?.postMessage({ kind: "outcome", outcome });
