/**
 * Runs an agent in its own worker thread (QuickJS inside), so that an agent the interpreter's
 * own limits fail to stop is still stopped: the thread is terminated from outside after its
 * time limit and a grace period. The thread's V8 heap and stack are bounded too.
 */
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import {
  SANDBOX_START_LIMIT_MS,
  TERMINATE_GRACE_MS,
  WORKER_HEAP_MB,
  WORKER_STACK_MB,
} from "../limits.js";
import type { SandboxJob, SandboxOutcome } from "./job.js";

export interface RunningAgent {
  readonly done: Promise<SandboxOutcome>;
  /** Queues a message for the agent's `heed.receive()`. */
  send(message: unknown): void;
  /** Stops the agent now; `done` then settles as terminated. */
  stop(reason: string): void;
}

const WORKER_URL = new URL("./worker-main.js", import.meta.url);

/** What the sandbox thread posts: that the agent starts, then its outcome. */
type SandboxMessage =
  { readonly kind: "started" } | { readonly kind: "outcome"; readonly outcome: SandboxOutcome };

export function runSandboxed(job: SandboxJob): RunningAgent {
  const channel = new MessageChannel();
  const worker = new Worker(WORKER_URL, {
    workerData: { job, messages: channel.port2 },
    transferList: [channel.port2 as MessagePort],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, stackSizeMb: WORKER_STACK_MB },
  });
  let stopReason: string | null = null;
  const done = new Promise<SandboxOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: SandboxOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      channel.port1.close();
      resolve(outcome);
    };
    const failed = (code: "terminated" | "sandbox-failure", message: string) =>
      finish({
        status: "failed",
        records: [],
        state: job.state,
        error: { code, message },
        cpuMs: job.limits.timeMs,
        moveTo: null,
        files: 0,
        bytesRead: 0,
      });
    // Until the thread has loaded its interpreter, a start limit; from then on, the agent's
    // time limit and a grace period. The agent's own clock starts at the same moment.
    let timer = setTimeout(() => {
      stopReason = `the sandbox did not start within ${SANDBOX_START_LIMIT_MS} ms and was terminated`;
      void worker.terminate();
    }, SANDBOX_START_LIMIT_MS);
    worker.on("message", (message: SandboxMessage) => {
      if (message.kind === "started") {
        clearTimeout(timer);
        timer = setTimeout(() => {
          stopReason = `the agent did not stop within ${job.limits.timeMs + TERMINATE_GRACE_MS} ms and was terminated`;
          void worker.terminate();
        }, job.limits.timeMs + TERMINATE_GRACE_MS);
        return;
      }
      finish(message.outcome);
      void worker.terminate();
    });
    worker.once("error", (error) =>
      failed("sandbox-failure", `the sandbox thread failed: ${error.message}`),
    );
    worker.once("exit", () => {
      failed("terminated", stopReason ?? "the sandbox thread ended without an outcome");
    });
  });
  return {
    done,
    send: (message) => channel.port1.postMessage(message),
    stop: (reason) => {
      stopReason = reason;
      void worker.terminate();
    },
  };
}
