/**
 * This process's heartbeat in the store, and the reaping of dead ones: the leases and
 * reservations a dead process held come back as soon as its death is known — at once when it
 * ran on this machine and its process id is gone (a crash and restart), else when its heartbeat
 * runs out.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { CrawlStore, ProcessBeat } from "../store/types.js";

export interface ProcessWatchOptions {
  readonly store: CrawlStore;
  readonly now: () => number;
  /** How often the heartbeat is renewed, in ms (default 2000). */
  readonly beatMs?: number;
  /** How long a heartbeat holds without renewal, in ms (default 10000). */
  readonly ttlMs?: number;
  /** Told about each process reaped, for the crawl's log. */
  readonly onReap?: (dead: ProcessBeat, leases: number, reservations: number) => void;
  /** Told when renewing the heartbeat fails (the store is unreachable). */
  readonly onError?: (error: unknown) => void;
  /**
   * Told once when the store no longer holds the crawl's identity (see {@link identify}): a
   * store that lost its data, such as a Redis restarted without persistence.
   */
  readonly onLost?: (found: string | null) => void;
}

export const DEFAULT_BEAT_MS = 2_000;
export const DEFAULT_TTL_MS = 10_000;

export class ProcessWatch {
  readonly id = randomUUID();
  private readonly host = hostname();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private identity: string | null = null;
  private lost = false;

  constructor(private readonly options: ProcessWatchOptions) {}

  /** Registers this process and reaps the dead ones, then keeps beating until {@link stop}. */
  async start(): Promise<void> {
    await this.tick();
    const every = this.options.beatMs ?? DEFAULT_BEAT_MS;
    this.timer = setInterval(() => {
      this.running = this.tick().catch((error: unknown) => this.options.onError?.(error));
    }, every);
    this.timer.unref();
  }

  /**
   * Joins the crawl the store holds, or starts one with these seeds: returns the seeds the
   * crawl was started with. From then on every heartbeat checks that the store still holds it.
   */
  async identify(seeds: readonly string[]): Promise<readonly string[]> {
    const { reservations } = this.options.store;
    this.identity = await reservations.setIdentity(randomUUID(), seeds);
    return reservations.seeds();
  }

  /** Does the store still hold the crawl? False (and `onLost` told) when it does not. */
  async holds(): Promise<boolean> {
    if (this.identity === null || this.lost) return !this.lost;
    const found = await this.options.store.reservations.identity();
    if (found === this.identity) return true;
    this.lost = true;
    this.options.onLost?.(found);
    return false;
  }

  /** Stops beating and gives back what this process still holds (a stopped crawl's leases). */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.options.store.reservations.reap(this.id, this.options.now());
  }

  private async tick(): Promise<void> {
    const { store, now } = this.options;
    if (!(await this.holds())) return;
    // A store that went back is found at a lease; a part of it no lease reaches any more (its
    // URLs leased, in the state restored, by this very process) only by reading its count.
    await store.writes.check();
    const at = now();
    await store.reservations.beat({
      id: this.id,
      host: this.host,
      pid: process.pid,
      until: at + (this.options.ttlMs ?? DEFAULT_TTL_MS),
    });
    for (const other of await store.reservations.processes()) {
      if (other.id === this.id || !this.isDead(other, at)) continue;
      const { leases, reservations } = await store.reservations.reap(other.id, now());
      this.options.onReap?.(other, leases, reservations);
    }
  }

  private isDead(other: ProcessBeat, at: number): boolean {
    if (other.until < at) return true;
    // The same machine can tell at once: a process id that is gone is a process that died.
    return other.host === this.host && other.pid !== process.pid && !pidAlive(other.pid);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
