/**
 * The store's write count as one process sees it. The store counts every lease and every settle, a
 * fetched page's or any other (Redis: one key a shard, incremented in the same script; SQLite: one
 * row, in the same transaction) and hands the count back; the process keeps the highest it saw. A
 * count not above it can only come from a store that went back to an older state: a Redis restored
 * from an older snapshot, a failover to a replica that was behind, an older copy of the SQLite
 * file. The lease that shows it is refused before its URL is fetched: the crawl stops there, rather
 * than fetch again pages it fetched and keep gaps from moments the store forgot.
 */
import { STORE_LOST_MESSAGE, StoreError } from "./errors.js";
import type { WriteCount } from "./types.js";

export class WriteCounter implements WriteCount {
  /** The highest count seen, a part of the store (a Redis shard; "" where one count serves). */
  readonly #highest = new Map<string, number>();
  /** The store's whole count when last read. */
  #read = 0;
  #wentBack: StoreError | null = null;
  /** Whether a write was counted while the store held a crawl identity. */
  #held = false;

  constructor(
    /**
     * Reads each part's count without writing (a Redis shard's; one part, "", where one count
     * serves): the store's whole count is their sum.
     */
    private readonly parts: () => Promise<ReadonlyMap<string, number>>,
    /** Told once, when the store is found to have gone back. */
    private readonly onWentBack: (error: StoreError) => void = () => {},
  ) {}

  highest(): number {
    let sum = 0;
    for (const n of this.#highest.values()) sum += n;
    return Math.max(sum, this.#read);
  }

  async read(): Promise<number> {
    let count = 0;
    for (const n of (await this.parts()).values()) count += n;
    if (count > this.#read) this.#read = count;
    return count;
  }

  /**
   * Reads each part's count, writing nothing: one below the highest this process saw of it
   * means the store went back, told as by {@link wrote} but not thrown. This finds a part no
   * lease reaches any more: restored to a moment when this process held leases it has settled
   * since, it has nothing to lease until they run out.
   */
  async check(): Promise<void> {
    if (this.#wentBack !== null) return;
    // The highest seen before the counts are asked for: each came back from a write the store
    // had made before it reads them, so a count below it can only come from an older state
    // (a write answered while the reads are on their way may be above what they return).
    const seen = new Map(this.#highest);
    const counts = await this.parts();
    if (this.#wentBack !== null) return;
    for (const [part, count] of counts) {
      const highest = seen.get(part) ?? 0;
      // None at all: a store that lost everything, which the crawl's identity tells in its own
      // words (a part restored from before its first write has its URLs queued, for a lease
      // to find).
      if (count === 0 || count >= highest) continue;
      this.#wentBack = this.#older(count, highest);
      this.onWentBack(this.#wentBack);
      return;
    }
  }

  /** Why the store is no longer trusted, once it went back; null until then. */
  wentBack(): StoreError | null {
    return this.#wentBack;
  }

  /**
   * The count a counted write returned, from `part` of the store. Each write gets a count above
   * every earlier one of its part: one not above the highest seen means the store went back,
   * and throws (and goes on throwing). `held` false: the store holds no crawl identity. After
   * writes counted while it held one, it lost its data altogether (a Redis restarted without
   * persistence), said as such.
   */
  wrote(count: number, held = true, part = ""): void {
    if (this.#wentBack !== null) throw this.#wentBack;
    const seen = this.#highest.get(part) ?? 0;
    if (count > seen && (held || !this.#held)) {
      this.#highest.set(part, count);
      this.#held ||= held;
      return;
    }
    this.#wentBack = held
      ? this.#older(count, seen)
      : new StoreError("HEED_STORE_LOST", STORE_LOST_MESSAGE);
    this.onWentBack(this.#wentBack);
    throw this.#wentBack;
  }

  #older(count: number, seen: number): StoreError {
    return new StoreError(
      "HEED_STORE_WENT_BACK",
      `the store went back to an older state: its write count is ${count}, and this process ` +
        `had seen ${seen} (restored from an older snapshot or copy, or a failover to a ` +
        "replica that was behind). Pages fetched since then would be fetched again and the " +
        "sites' gaps judged from moments it forgot, so the crawl stops here",
    );
  }
}
