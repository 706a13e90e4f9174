/**
 * The store's clock as a process reads it: the store's own time (Redis `TIME`, the SQLite
 * file's machine clock), sampled at the start and every {@link CLOCK_RESYNC_MS}, carried
 * between samples by this process's monotonic clock. Every moment a crawl hands the store
 * (gaps, rate windows, leases, heartbeats) and every wait it computes comes from here, so that
 * processes on machines whose clocks differ keep a site's gaps and each other's heartbeats
 * (DESIGN §2, one clock for politeness), at no cost a page.
 */

/**
 * How often the store's time is read again, in ms: monotonic clocks of two machines part by a
 * few ms an hour at most (NTP-slewed), so a sample every 10 s costs one round trip in 10 s and
 * keeps the two within a round trip of each other.
 */
export const CLOCK_RESYNC_MS = 10_000;
/** Samples taken at the start, the one with the shortest round trip kept. */
const FIRST_SAMPLES = 3;
/**
 * A later sample replaces the one in use when its round trip is at most this many times that
 * one's (a busy moment's slow answer says less about the store's time), or when the one in
 * use is older than {@link STALE_SAMPLE_MS}.
 */
const SLOWER_SAMPLE_FACTOR = 2;
const STALE_SAMPLE_MS = 60_000;

export interface SampledClockOptions {
  /** The store's time, ms since the epoch: one round trip. */
  readonly read: () => Promise<number>;
  /** This process's monotonic clock in ms (default `performance.now`). */
  readonly monotonic?: () => number;
  /** Default {@link CLOCK_RESYNC_MS}. */
  readonly resyncMs?: number;
}

export class SampledClock {
  readonly #read: () => Promise<number>;
  readonly #monotonic: () => number;
  /** The store's time minus the monotonic clock, at the sample in use. */
  #offset = 0;
  /** The sample in use: its round trip and when it was taken (monotonic ms). */
  #rtt = Number.POSITIVE_INFINITY;
  #takenAt = 0;
  /** The last moment given: the clock never goes back, even when a new sample is earlier. */
  #last = 0;
  #syncing = false;
  #timer: NodeJS.Timeout | null = null;

  private constructor(options: SampledClockOptions) {
    this.#read = options.read;
    this.#monotonic = options.monotonic ?? (() => performance.now());
  }

  /** Reads the store's time, then keeps reading it every `resyncMs` until {@link stop}. */
  static async start(options: SampledClockOptions): Promise<SampledClock> {
    const clock = new SampledClock(options);
    for (let i = 0; i < FIRST_SAMPLES; i++) await clock.sync();
    clock.#timer = setInterval(() => {
      // A store unreachable for now says so through its own failure; the last sample holds.
      clock.sync().catch(() => {});
    }, options.resyncMs ?? CLOCK_RESYNC_MS);
    clock.#timer.unref();
    return clock;
  }

  /** The store's time now, in ms since the epoch. */
  readonly now = (): number => {
    const at = Math.round(this.#offset + this.#monotonic());
    if (at > this.#last) this.#last = at;
    return this.#last;
  };

  /**
   * One sample: the store's time against the midpoint of the round trip, so that the reading is
   * off by at most half the round trip.
   */
  async sync(): Promise<void> {
    if (this.#syncing) return;
    this.#syncing = true;
    try {
      const sent = this.#monotonic();
      const at = await this.#read();
      const back = this.#monotonic();
      const rtt = back - sent;
      const stale = back - this.#takenAt > STALE_SAMPLE_MS;
      if (rtt <= this.#rtt * SLOWER_SAMPLE_FACTOR || stale) {
        this.#offset = at - (sent + back) / 2;
        this.#rtt = rtt;
        this.#takenAt = back;
      }
    } finally {
      this.#syncing = false;
    }
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }
}
