/**
 * `heed crawl` and a store that went back to an older state. While a crawl runs, the store's
 * write count shows it (store/write-counter.ts) and the crawl stops with exit 3. Between runs,
 * the count this machine last saw (./store-mark.ts) shows it: a new run refuses the store until
 * told to take it as it is (`--accept-restored-store`).
 */
import { shown } from "../store/shown-spec.js";
import type { CrawlStore } from "../store/types.js";
import { CliError, EXIT_STORE } from "./errors.js";
import { keepMark, markPath, markWriter, readMark } from "./store-mark.js";

/**
 * How often a running crawl keeps the highest count it saw, in ms (a small file written when
 * the count moved): a process killed with SIGKILL leaves a mark at most this old, and a store
 * restored to within that last stretch is not noticed by the next run (a running crawl notices
 * it at its next lease). The first tick also learns the crawl's identity, while the store
 * still answers.
 */
export const MARK_EVERY_MS = 1_000;

export const ACCEPT_FLAG = "--accept-restored-store";

export interface RestoredStoreOptions {
  /** `--store` as given. */
  readonly spec: string;
  readonly cwd: string;
  /** `--accept-restored-store`: take the store as it is now. */
  readonly accept: boolean;
}

/** Refuses a store that went back since this machine last saw it, then keeps its mark. */
export async function watchRestoredStore(
  store: CrawlStore,
  options: RestoredStoreOptions,
): Promise<{ stop(): Promise<void> }> {
  const path = markPath(options.spec, options.cwd);
  let identity = await store.reservations.identity();
  const count = await store.writes.read();
  const mark = await readMark(path);
  if (mark !== null && identity === mark.identity && count < mark.writes) {
    if (!options.accept) {
      await store.close();
      throw new CliError(
        `the store ${shown(options.spec)} went back to an older state: its write count is ` +
          `${count}, and a crawl on this machine saw ${mark.writes} (restored from an older ` +
          "snapshot or copy, or a failover to a replica that was behind). Pages fetched since " +
          "then would be fetched again. Check the store; to crawl on from what it holds now, " +
          `run again with ${ACCEPT_FLAG}`,
        EXIT_STORE,
      );
    }
    await keepMark(path, { identity: mark.identity, writes: count }, true);
  }
  let kept = count;
  const write = markWriter(path);
  // Each tick writes; the last keeps the higher of its count and the mark another process of
  // this machine may have left meanwhile.
  const keep = async (last: boolean): Promise<void> => {
    const writes = store.writes.highest();
    if (writes <= kept && !last) return;
    identity ??= await store.reservations.identity();
    if (identity === null) return;
    await (last ? keepMark(path, { identity, writes }) : write({ identity, writes }));
    kept = writes;
  };
  // A mark that cannot be written (a read-only home) only loses the check between runs.
  const timer = setInterval(() => void keep(false).catch(() => {}), MARK_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await keep(true).catch(() => {});
    },
  };
}
