/**
 * The schedule stage: the loop that asks the frontier for sites due, sends a visit (lease.ts)
 * to each while there is room under the run's concurrency and page budget, sleeps until the
 * next site is due or a visit ends, and decides when the run is over. Owns the visits in
 * flight, the sites with a visit not yet past its reservation, and the loop's wake-up.
 */
import type { CrawlSummary } from "../crawl-options.js";
import type { ProcessWatch } from "../process-watch.js";
import { ruleOf } from "../site-gate.js";
import { cancellableSleep, sleep } from "../sleep.js";
import { isStorageFailure } from "../storage-failure.js";
import type { LeaseStage } from "./lease.js";
import { IN_FLIGHT_COOL_MS } from "./lease.js";
import type { RobotsStage } from "./robots.js";
import type { CrawlRun } from "./run.js";

/** Longest single sleep, so that aborts and new work are noticed. */
export const MAX_SLEEP_MS = 1000;
/** How often a process with nothing to do looks again while others hold the last URLs. */
export const LEASED_POLL_MS = 100;

/**
 * Why a run with nothing left to do now ended: everything fetched, or URLs left queued on
 * sites whose page budget it spent, or on sites it set aside as unreachable.
 */
export function endReason(left: {
  readonly queued: number;
  readonly spent: number;
  readonly setAside: number;
}): CrawlSummary["stoppedBy"] {
  if (left.queued > 0 && left.spent > 0) return "max-per-host";
  if (left.queued > 0 && left.setAside > 0) return "sites-unreachable";
  return "finished";
}

export class Schedule {
  private readonly tasks = new Set<Promise<void>>();
  /**
   * Sites with a visit of this process not yet past its reservation: one at a time, so that a
   * ready site does not get a visit for every free slot. Not a cap: requests in flight are
   * capped in the store alone (`--per-host` per crawl, over every process sharing it).
   */
  private readonly starting = new Map<string, object>();
  /** A visit met its storage failing (a full disk): the run ends with this error. */
  private storageFailure: Error | null = null;
  /** Wakes the loop before its nap ends; a wake while the loop is busy is kept. */
  private readonly loop: { poked: boolean; poke: (() => void) | null } = {
    poked: false,
    poke: null,
  };

  constructor(
    private readonly run: CrawlRun,
    private readonly robots: RobotsStage,
    private readonly watch: ProcessWatch,
    /** Sitemaps a dead process was reading, taken up before the crawl ends (SitemapStage). */
    private readonly takeUpFreedSitemaps: () => Promise<"read" | "waiting" | "none">,
  ) {}

  /** The lease stage tells this once a visit is past the site's reservation. */
  reserved(origin: string): void {
    this.starting.delete(origin);
    // The loop may send the site's next visit now (the store caps requests in flight).
    this.wake();
  }

  private wake(): void {
    this.loop.poked = true;
    this.loop.poke?.();
  }

  /** Runs visits until the run ends; resolves to why it ended once every visit has. */
  async drive(lease: LeaseStage): Promise<CrawlSummary["stoppedBy"]> {
    try {
      return await this.loopUntilDone(lease);
    } finally {
      await Promise.allSettled([...this.tasks]);
    }
  }

  private launch(lease: LeaseStage, origin: string): void {
    const token = {};
    this.starting.set(origin, token);
    const task: Promise<void> = lease
      .visit(origin)
      .catch((error: unknown) => {
        // The store's disk full or read-only, or the store given up on (it went back to an
        // older state): the run ends with it (storage-failure.ts).
        if (isStorageFailure(error) || this.run.store.failure() !== null) {
          this.storageFailure ??= error as Error;
          this.wake();
          return;
        }
        this.run.emit({
          type: "failed",
          url: origin,
          reason: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => {
        if (this.starting.get(origin) === token) this.starting.delete(origin);
        this.tasks.delete(task);
      });
    this.tasks.add(task);
  }

  /** Sites not to visit now: starting, holding all the requests they take, spent, set aside, cooling. */
  private busy(lease: LeaseStage): Set<string> {
    const { run } = this;
    const busy = new Set(this.starting.keys());
    // A site holding as many page reservations of this process as its rule lets in flight
    // would be refused by the store too: not visited again until one ends. Never stricter
    // than the store's cap, only spares it the asking.
    for (const [origin, n] of lease.holding)
      if (
        n >= ruleOf(this.robots.plans.get(origin) ?? null, "agent", run.perHostOf(origin)).inFlight
      )
        busy.add(origin);
    for (const origin of run.spent) busy.add(origin);
    for (const origin of lease.setAside) busy.add(origin);
    for (const [origin, until] of lease.coolUntil) {
      if (until > run.now()) busy.add(origin);
      else lease.coolUntil.delete(origin);
    }
    return busy;
  }

  private async loopUntilDone(lease: LeaseStage): Promise<CrawlSummary["stoppedBy"]> {
    const { run, tasks, loop } = this;
    const { store, options, now } = run;
    let napMs = MAX_SLEEP_MS;
    for (;;) {
      if (run.signal.aborted) return "aborted";
      // A store given up on fails every call: visiting on would only spin on its errors.
      const failed = store.failure() ?? this.storageFailure;
      if (failed !== null) throw failed;
      if (run.done >= options.maxPages) return "max-pages";
      loop.poked = false;
      const room = Math.min(
        options.concurrency - tasks.size,
        options.maxPages - run.done - tasks.size,
      );
      if (room > 0) {
        const busy = this.busy(lease);
        // Claimed: a store shared by processes hands each ready site to one of them, so that
        // they do not race for its reservation (and the loser ask again).
        const running = tasks.size;
        const ready = await store.frontier.claimReady(now(), room, busy);
        for (const origin of ready.origins) this.launch(lease, origin);
        const next = ready.nextAt;
        if (ready.origins.length === room) {
          // More may be ready. A store that answers at once (SQLite) would keep this loop in
          // microtasks: let timers and sockets run.
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        // The visits that made sites busy all ended while the store was asked (on a cluster, a
        // call a shard): the answer left those sites out, so it cannot say the crawl is over.
        if (tasks.size === 0 && running > 0) continue;
        if (tasks.size === 0) {
          if (next === null && lease.coolUntil.size > 0) {
            // Only sites whose requests by other processes are in flight: ask again shortly.
            await sleep(IN_FLIGHT_COOL_MS);
            continue;
          }
          if (next === null) {
            // Nothing queued: finished, unless URLs are still leased (by another process), or
            // the store lost everything it held.
            const sitemaps = await this.takeUpFreedSitemaps();
            if (sitemaps === "read") continue;
            const counts = await store.frontier.counts();
            // The identity is read after the counts: a store emptied before they were read (a
            // Redis restarted without its data) answers zeros, which would read as finished.
            if (!(await this.watch.holds())) continue;
            if (counts.leased === 0 && sitemaps === "none")
              return endReason({
                queued: counts.queued,
                spent: run.spent.size,
                setAside: lease.setAside.size,
              });
            // Others hold the last URLs: their pages may bring links, and their end is this
            // run's end, so look again soon rather than a whole nap later.
            await sleep(LEASED_POLL_MS);
            await store.frontier.recover(now());
            continue;
          }
          await sleep(Math.min(Math.max(next - now(), 1), MAX_SLEEP_MS));
          continue;
        }
        // Visits run, and there is room: wake for the next site due as well as for a visit's end.
        napMs = next === null ? MAX_SLEEP_MS : Math.min(Math.max(next - now(), 1), MAX_SLEEP_MS);
      }
      const nap = cancellableSleep(napMs);
      napMs = MAX_SLEEP_MS;
      if (!loop.poked) {
        const woken = new Promise<void>((resolve) => {
          loop.poke = resolve;
        });
        await Promise.race([...tasks, nap.done, woken]);
        loop.poke = null;
      }
      nap.cancel();
    }
  }
}
