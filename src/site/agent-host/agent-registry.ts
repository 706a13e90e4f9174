/**
 * The agents a host holds: queued, running, finished (kept until retracted or expired), or
 * moved on. Owns the limits on how many run at once, how many are held, how many one sender
 * and one sender's network (/24, /64) may hold, and how many bytes of results all of them
 * keep; starts queued agents as slots free up. An ended agent whose results were not taken is
 * the first to go: before a newcomer is refused, the oldest ended agent is dropped.
 */
import { randomBytes } from "node:crypto";
import type { AgentPackage } from "../../protocol/atp/agent-package.js";
import type { RunningAgent } from "./sandbox/spawn.js";
import type { SandboxOutcome } from "./sandbox/job.js";
import { networkOf } from "../client-network.js";

export type AgentStatus = "queued" | "running" | "finished" | "failed" | "moved";

export interface HeldAgent {
  readonly id: string;
  /** The remote address that dispatched it: per-sender limits count by it. */
  readonly sender: string;
  /** The sender's network (/24 or /64): per-network limits count by it. */
  readonly network: string;
  readonly agent: AgentPackage;
  readonly receivedAt: number;
  status: AgentStatus;
  running: RunningAgent | null;
  outcome: SandboxOutcome | null;
  /** Messages sent to it by MESSAGE. */
  messages: number;
  /** `atp://host:port#id` when the agent moved on. */
  movedTo: string | null;
  endedAt: number | null;
  /** UTF-8 bytes of the records it emitted, once ended. */
  resultBytes: number;
  /** Settles when the agent has ended (finished, failed or moved). */
  readonly ended: Promise<void>;
  readonly end: () => void;
}

export interface RegistryLimits {
  readonly maxRunning: number;
  readonly maxHeld: number;
  readonly maxPerSender: number;
  readonly maxPerNetwork: number;
  readonly expiryMs: number;
  /** Bytes of results all ended agents may keep together; beyond, the oldest are dropped. */
  readonly maxHeldResultBytes: number;
}

export type Admission =
  { readonly ok: true; readonly held: HeldAgent } | { readonly ok: false; readonly reason: string };

export class AgentRegistry {
  private readonly agents = new Map<string, HeldAgent>();
  private readonly queue: HeldAgent[] = [];
  private running = 0;

  constructor(
    private readonly limits: RegistryLimits,
    private readonly start: (held: HeldAgent) => RunningAgent,
    private readonly settle: (held: HeldAgent, outcome: SandboxOutcome) => Promise<void>,
    private readonly now: () => number,
  ) {}

  /** Takes an agent in, or says which limit refuses it. */
  admit(sender: string, agent: AgentPackage): Admission {
    const network = networkOf(sender);
    this.sweep();
    // Ended agents make room first: a finished agent must not lock a newcomer out.
    const refusal = (): string | null => {
      let fromSender = 0;
      let fromNetwork = 0;
      for (const held of this.agents.values()) {
        if (held.sender === sender) fromSender++;
        if (held.network === network) fromNetwork++;
      }
      if (fromSender >= this.limits.maxPerSender) {
        if (this.evictOldestEnded((h) => h.sender === sender)) return refusal();
        return `${sender} already has ${fromSender} agents here, the limit per sender; retract some first`;
      }
      if (fromNetwork >= this.limits.maxPerNetwork) {
        if (this.evictOldestEnded((h) => h.network === network)) return refusal();
        return `${network} already has ${fromNetwork} agents here, the limit per network; retract some first`;
      }
      if (this.agents.size >= this.limits.maxHeld) {
        if (this.evictOldestEnded(() => true)) return refusal();
        return `this host holds ${this.agents.size} agents, its limit, none of them ended; try later`;
      }
      return null;
    };
    const reason = refusal();
    if (reason !== null) return { ok: false, reason };
    // ATP draft §4.3: an alphanumeric identifier. 128 random bits: knowing it is what lets
    // one retract or message the agent, so it must not be guessable.
    const id = randomBytes(16).toString("hex");
    let end = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const held: HeldAgent = {
      id,
      sender,
      network,
      agent,
      receivedAt: this.now(),
      status: "queued",
      running: null,
      outcome: null,
      messages: 0,
      movedTo: null,
      endedAt: null,
      resultBytes: 0,
      ended,
      end,
    };
    this.agents.set(id, held);
    this.queue.push(held);
    this.pump();
    return { ok: true, held };
  }

  get(id: string): HeldAgent | undefined {
    return this.agents.get(id);
  }

  /** Forgets an agent (retracted); stops it first if it still runs. */
  remove(id: string): void {
    const held = this.agents.get(id);
    if (held === undefined) return;
    this.agents.delete(id);
    const queued = this.queue.indexOf(held);
    if (queued >= 0) this.queue.splice(queued, 1);
    held.running?.stop("retracted");
  }

  /** Drops the oldest ended agent that `which` picks; false when there is none. */
  private evictOldestEnded(which: (held: HeldAgent) => boolean): boolean {
    let oldest: HeldAgent | null = null;
    for (const held of this.agents.values()) {
      if (held.endedAt === null || !which(held)) continue;
      if (oldest === null || (oldest.endedAt as number) > held.endedAt) oldest = held;
    }
    if (oldest === null) return false;
    this.agents.delete(oldest.id);
    return true;
  }

  /** Bytes of results kept by ended agents. */
  private heldResultBytes(): number {
    let total = 0;
    for (const held of this.agents.values()) total += held.resultBytes;
    return total;
  }

  /** Drops agents that ended longer ago than the expiry. */
  sweep(): number {
    const cutoff = this.now() - this.limits.expiryMs;
    let dropped = 0;
    for (const [id, held] of this.agents) {
      if (held.endedAt !== null && held.endedAt < cutoff) {
        this.agents.delete(id);
        dropped++;
      }
    }
    return dropped;
  }

  counts(): { readonly held: number; readonly running: number; readonly queued: number } {
    return { held: this.agents.size, running: this.running, queued: this.queue.length };
  }

  /** Stops every running agent (the host is closing). */
  stopAll(): void {
    this.queue.length = 0;
    for (const held of this.agents.values()) held.running?.stop("the host is closing");
  }

  private pump(): void {
    while (this.running < this.limits.maxRunning && this.queue.length > 0) {
      const held = this.queue.shift() as HeldAgent;
      this.running++;
      held.status = "running";
      const run = this.start(held);
      held.running = run;
      void run.done.then(async (outcome) => {
        held.running = null;
        held.outcome = outcome;
        let bytes = 0;
        for (const r of outcome.records) bytes += Buffer.byteLength(r);
        held.resultBytes = bytes;
        try {
          await this.settle(held, outcome);
        } finally {
          held.endedAt = this.now();
          // Results kept for RETRACT are memory: past the budget, the oldest ended ones go.
          while (this.heldResultBytes() > this.limits.maxHeldResultBytes) {
            if (!this.evictOldestEnded((h) => h !== held)) break;
          }
          this.running--;
          held.end();
          this.pump();
        }
      });
    }
  }
}
