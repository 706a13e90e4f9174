/** What the host hands a sandbox thread, and what comes back: plain, structured-clonable data. */
import type { Json } from "../../../protocol/atp/agent-package.js";

export interface SandboxLimits {
  readonly timeMs: number;
  readonly memoryBytes: number;
  readonly stackBytes: number;
  readonly maxResultBytes: number;
  readonly maxResultRecords: number;
  readonly maxReadBytes: number;
  readonly maxListEntries: number;
  readonly maxStateLength: number;
}

/** What `heed.info` shows the agent. */
export interface AgentInfo {
  readonly id: string;
  readonly site: string;
  readonly path: string;
  readonly robot: string;
  /** This host's ATP address. */
  readonly host: string;
}

export interface SandboxJob {
  readonly code: string;
  readonly state: Json;
  readonly info: AgentInfo;
  /** The site's document root, real path. */
  readonly root: string;
  /** The site's robots.txt as text ("" when it has none: everything allowed). */
  readonly robotsText: string;
  /** ATP services the agent may ask to move on to: the agent hosts the site's records name. */
  readonly moveTargets: readonly string[];
  readonly limits: SandboxLimits;
}

export type SandboxErrorCode =
  /** The agent ran past its time limit. */
  | "time-limit"
  /** The agent's heap reached its memory limit. */
  | "memory-limit"
  | "stack-overflow"
  /** The agent emitted more records, or more bytes of them, than allowed. */
  | "result-too-large"
  /** The agent threw, or its code does not compile. */
  | "agent-error"
  /** The thread did not stop by itself and was terminated from outside. */
  | "terminated"
  /** The sandbox itself failed (a bug or a resource limit of the thread). */
  | "sandbox-failure";

export interface SandboxOutcome {
  readonly status: "finished" | "failed";
  /** Each record as JSON text, in the order emitted. */
  readonly records: readonly string[];
  readonly state: Json;
  readonly error: { readonly code: SandboxErrorCode; readonly message: string } | null;
  /** The agent's running time in ms (an upper bound on its CPU time). */
  readonly cpuMs: number;
  /** The agent asked to move on to this host and path when done. */
  readonly moveTo: { readonly url: string; readonly path: string } | null;
  readonly files: number;
  readonly bytesRead: number;
  /**
   * What the interpreter wrote to its own error stream (an `Aborted(…)` when QuickJS fails to
   * free a runtime): for the host's log, never the process's stderr nor the agent's report.
   */
  readonly notes?: readonly string[];
}
