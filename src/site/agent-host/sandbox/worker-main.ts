/** The sandbox thread: runs one agent and posts its outcome. Started by spawn.ts only. */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import type { SandboxJob } from "./job.js";
import { runInQuickJs } from "./quickjs-run.js";

const { job, messages } = workerData as { job: SandboxJob; messages: MessagePort };
const outcome = await runInQuickJs(job, messages);
parentPort?.postMessage(outcome);
