/**
 * Runs one agent in a fresh QuickJS runtime (WebAssembly): its own heap with a memory limit,
 * a stack limit, an interrupt handler that stops it at its time limit or at a broken result
 * limit, and no host objects but the one capability function the prelude wraps. QuickJS has
 * no `process`, `require`, `fetch`, timers or modules unless given them; none are given.
 */
import type { MessagePort } from "node:worker_threads";
import {
  type CustomizeVariantOptions,
  type EmscriptenModuleLoaderOptions,
  newQuickJSWASMModule,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  RELEASE_SYNC,
} from "quickjs-emscripten";
import { Capabilities, CapabilityError } from "./capabilities.js";
import type { SandboxErrorCode, SandboxJob, SandboxOutcome } from "./job.js";
import { PRELUDE } from "./prelude.js";

// Pending jobs (promise reactions) run after the script: bounded like everything else.
const MAX_PENDING_JOB_ROUNDS = 10_000;
/** WebAssembly pages are 64 KiB; the QuickJS build starts with 16 MiB (its code's data, its stack). */
const PAGE = 64 * 1024;
const INITIAL_PAGES = 256;
/** Room above the agent's heap for the module's own data and stack. */
const MODULE_HEADROOM_BYTES = 32 * 1024 * 1024;

type MemoryOption = NonNullable<CustomizeVariantOptions["wasmMemory"]>;
/** Node's WebAssembly.Memory (the compiler's libraries here do not declare WebAssembly). */
const WasmMemory = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => MemoryOption };
  }
).WebAssembly.Memory;

/**
 * A QuickJS module of its own for one agent, on a WebAssembly memory that cannot grow past the
 * agent's heap and some headroom. QuickJS's own memory limit does not count every allocation
 * (typed arrays' bytes and large array storage escaped it and grew the module to 2 GiB, and
 * near its limit the collector runs at every allocation, so an agent took many seconds to be
 * stopped); a memory that cannot grow makes every allocation past it fail at once, as an
 * out-of-memory error inside the agent.
 */
function loadQuickJs(
  memoryBytes: number,
  notes: string[],
): ReturnType<typeof newQuickJSWASMModule> {
  const maximum = Math.max(INITIAL_PAGES, Math.ceil((memoryBytes + MODULE_HEADROOM_BYTES) / PAGE));
  const wasmMemory = new WasmMemory({ initial: INITIAL_PAGES, maximum });
  // Emscripten writes to the process's stdout and stderr unless given `print` and `printErr`
  // (QuickJS's `Aborted(Assertion failed: list_empty(&rt->gc_obj_list) …)`, see runInQuickJs):
  // kept as notes for the host's log instead, bounded.
  const note = (text: string): void => {
    if (notes.length < MAX_NOTES) notes.push(String(text).slice(0, MAX_NOTE_CHARS));
  };
  const emscriptenModule: EmscriptenModuleLoaderOptions & {
    print: (text: string) => void;
    printErr: (text: string) => void;
  } = { print: note, printErr: note };
  return newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory, emscriptenModule }));
}

/** Lines of the interpreter's own output kept for the host's log, and their length. */
const MAX_NOTES = 8;
const MAX_NOTE_CHARS = 500;

export async function runInQuickJs(
  job: SandboxJob,
  messages: MessagePort | null,
  onStart: () => void = () => {},
): Promise<SandboxOutcome> {
  const notes: string[] = [];
  const quickjs = await loadQuickJs(job.limits.memoryBytes, notes);
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
  onStart();
  try {
    installCapabilities(vm, caps);
    const result = vm.evalCode(job.code, "agent.js");
    let value: QuickJSHandle | null = null;
    error = null;
    if (result.error !== undefined) {
      error = describe(vm, result.error);
      result.error.dispose();
    } else value = result.value;
    for (let round = 0; error === null && round < MAX_PENDING_JOB_ROUNDS; round++) {
      const pending = runtime.executePendingJobs();
      if (pending.error !== undefined) {
        error = describe(vm, pending.error);
        pending.error.dispose();
        break;
      }
      if (pending.value === 0) break;
    }
    // An agent written as `(async () => { ... })()` ends in a promise: its rejection (an out
    // of memory inside a promise job, say) is the agent's outcome, not a quiet success.
    if (error === null && value !== null) error = rejection(vm, value);
    value?.dispose();
  } catch (thrown) {
    error = {
      code: "sandbox-failure",
      message: thrown instanceof Error ? thrown.message : String(thrown),
    };
  }
  try {
    vm.dispose();
    runtime.dispose();
  } catch {
    // QuickJS fails to free a runtime whose agent ran out of memory inside an async function:
    // JS_FreeRuntime finds objects still on its list and asserts (quickjs.c, `list_empty(&rt->
    // gc_obj_list)`), and the WebAssembly module aborts. heed holds no handle by then (it
    // happens with the rejection left unread too): the reference is left by QuickJS's
    // out-of-memory path. The outcome is known and the
    // thread ends right after, taking its heap along: report the memory limit, keep what was
    // emitted; the abort's text goes to the host's log (`notes`), not to stderr.
    error ??= OUT_OF_MEMORY;
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
    notes,
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

const OUT_OF_MEMORY = {
  code: "memory-limit",
  message: "the agent ran out of its memory limit",
} as const satisfies { code: SandboxErrorCode; message: string };

/** The reason of a rejected promise; null for anything else. */
function rejection(
  vm: QuickJSContext,
  value: QuickJSHandle,
): { code: SandboxErrorCode; message: string } | null {
  if (vm.typeof(value) !== "object") return null;
  const state = vm.getPromiseState(value);
  if (state.type !== "rejected") {
    if (state.type === "fulfilled" && !state.notAPromise) state.value.dispose();
    return null;
  }
  const error = describe(vm, state.error);
  state.error.dispose();
  return error;
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
  if (name === "InternalError" && message === "out of memory") return { ...OUT_OF_MEMORY };
  if (name === "InternalError" && message === "stack overflow") {
    return { code: "stack-overflow", message: "the agent overflowed its stack" };
  }
  return { code: "agent-error", message: `${name}: ${message}` };
}
