/**
 * Runs one agent in a fresh QuickJS runtime (WebAssembly): its own heap with a memory limit,
 * a stack limit, an interrupt handler that stops it at its time limit or at a broken result
 * limit, and no host objects but the one capability function the prelude wraps. QuickJS has
 * no `process`, `require`, `fetch`, timers or modules unless given them; none are given.
 */
import type { MessagePort } from "node:worker_threads";
import { getQuickJS, type QuickJSContext, type QuickJSHandle } from "quickjs-emscripten";
import { Capabilities, CapabilityError } from "./capabilities.js";
import type { SandboxErrorCode, SandboxJob, SandboxOutcome } from "./job.js";
import { PRELUDE } from "./prelude.js";

// Pending jobs (promise reactions) run after the script: bounded like everything else.
const MAX_PENDING_JOB_ROUNDS = 10_000;

export async function runInQuickJs(
  job: SandboxJob,
  messages: MessagePort | null,
): Promise<SandboxOutcome> {
  const quickjs = await getQuickJS();
  const caps = new Capabilities(job, messages);
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(job.limits.memoryBytes);
  runtime.setMaxStackSize(job.limits.stackBytes);
  const started = performance.now();
  const deadline = started + job.limits.timeMs;
  let timedOut = false;
  runtime.setInterruptHandler(() => {
    if (performance.now() > deadline) timedOut = true;
    return timedOut || caps.fatal !== null;
  });
  const vm = runtime.newContext();
  let error: { code: SandboxErrorCode; message: string } | null;
  try {
    installCapabilities(vm, caps);
    const result = vm.evalCode(job.code, "agent.js");
    error = settle(vm, result);
    for (let round = 0; error === null && round < MAX_PENDING_JOB_ROUNDS; round++) {
      const pending = runtime.executePendingJobs();
      if (pending.error !== undefined) {
        error = describe(vm, pending.error);
        pending.error.dispose();
        break;
      }
      if (pending.value === 0) break;
    }
  } catch (thrown) {
    error = {
      code: "sandbox-failure",
      message: thrown instanceof Error ? thrown.message : String(thrown),
    };
  } finally {
    vm.dispose();
    runtime.dispose();
  }
  // The limit the host broke is the reason, whatever the agent made of the error it saw.
  if (caps.fatal !== null) error = caps.fatal;
  else if (timedOut)
    error = {
      code: "time-limit",
      message: `the agent ran past its time limit of ${job.limits.timeMs} ms`,
    };
  return {
    status: error === null ? "finished" : "failed",
    records: caps.records,
    state: caps.state,
    error,
    cpuMs: Math.round(performance.now() - started),
    moveTo: error === null ? caps.moveTo : null,
    files: caps.files,
    bytesRead: caps.bytesRead,
  };
}

function installCapabilities(vm: QuickJSContext, caps: Capabilities): void {
  const call = vm.newFunction("call", (opHandle, argsHandle) => {
    if (vm.typeof(opHandle) !== "string" || vm.typeof(argsHandle) !== "string") {
      return { error: vm.newError("capability arguments must be strings") };
    }
    try {
      return vm.newString(caps.call(vm.getString(opHandle), vm.getString(argsHandle)));
    } catch (thrown) {
      const message =
        thrown instanceof CapabilityError
          ? thrown.message
          : `host error: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
      return { error: vm.newError(message) };
    }
  });
  const prelude = vm.unwrapResult(vm.evalCode(PRELUDE, "prelude.js"));
  const done = vm.callFunction(prelude, vm.undefined, call);
  prelude.dispose();
  call.dispose();
  vm.unwrapResult(done).dispose();
}

type EvalResult =
  { value: QuickJSHandle; error?: undefined } | { error: QuickJSHandle; value?: undefined };

function settle(
  vm: QuickJSContext,
  result: EvalResult,
): { code: SandboxErrorCode; message: string } | null {
  if (result.error !== undefined) {
    const error = describe(vm, result.error);
    result.error.dispose();
    return error;
  }
  result.value.dispose();
  return null;
}

function describe(
  vm: QuickJSContext,
  handle: QuickJSHandle,
): { code: SandboxErrorCode; message: string } {
  // Read name and message as properties, not through vm.dump: dump goes through the VM's
  // JSON.stringify, which the agent may have replaced (a toJSON on Object.prototype, say).
  const text = (key: string): string | null => {
    try {
      const prop = vm.getProp(handle, key);
      const value = vm.typeof(prop) === "string" ? vm.getString(prop) : null;
      prop.dispose();
      return value;
    } catch {
      return null;
    }
  };
  const isObject = vm.typeof(handle) === "object";
  const name = (isObject ? text("name") : null) ?? "Error";
  let message =
    (isObject ? text("message") : null) ??
    (vm.typeof(handle) === "string"
      ? vm.getString(handle)
      : `the agent threw a ${vm.typeof(handle)}`);
  message = message.slice(0, 500);
  if (name === "InternalError" && message === "out of memory") {
    return { code: "memory-limit", message: "the agent ran out of its memory limit" };
  }
  if (name === "InternalError" && message === "stack overflow") {
    return { code: "stack-overflow", message: "the agent overflowed its stack" };
  }
  return { code: "agent-error", message: `${name}: ${message}` };
}
