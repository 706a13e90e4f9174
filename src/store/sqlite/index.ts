/**
 * The embedded store: one SQLite file (better-sqlite3), nothing to install or run.
 *
 * Durability: WAL journal with `synchronous=NORMAL`. A commit is in the WAL file before the
 * call returns, so killing the process (kill -9 mid-crawl) loses nothing committed. SQLite then
 * syncs at checkpoints rather than at every commit, so a power loss or an OS crash may lose the
 * last few transactions, but never corrupts the file: a crawl restarted after that fetches again
 * a handful of URLs it had already settled, which the frontier's contract tolerates. Syncing
 * every commit (`synchronous=FULL`) would cost a disk flush per lease and settle.
 */
import Database from "better-sqlite3";
import { SampledClock } from "../clock.js";
import { StoreError } from "../errors.js";
import { sqliteTime } from "./clock.js";
import { sqliteWriteCount } from "./write-count.js";
import type { CrawlStore } from "../types.js";
import { sqliteDatasetCatalogs } from "./datasets.js";
import { sqliteFrontier } from "./frontier.js";
import { sqlitePageSteps } from "./page-steps.js";
import { sqliteItemLog } from "./items.js";
import { sqliteReservations } from "./reservations.js";
import { sqliteCrawlLog, sqlitePageStore, sqliteRobotsCache } from "./records.js";
import { migrate } from "./schema.js";

export interface SqliteStoreOptions {
  /**
   * SQLite's page cache, in KiB (default 65536 = 64 MiB). The frontier's queues live on disk;
   * this bounds how much of them is kept in memory.
   */
  readonly cacheKiB?: number;
  /** How long a writer waits for another process's write to finish, in ms (default 10000). */
  readonly busyTimeoutMs?: number;
}

const DEFAULT_CACHE_KIB = 65_536;
const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/** Opens (creating if need be) the store in the SQLite file at `path`. */
export async function openSqliteStore(
  path: string,
  options: SqliteStoreOptions = {},
): Promise<CrawlStore> {
  const cacheKiB = options.cacheKiB ?? DEFAULT_CACHE_KIB;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  for (const [name, value] of [
    ["cacheKiB", cacheKiB],
    ["busyTimeoutMs", busyTimeoutMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new StoreError(
        "HEED_STORE_BAD_ARGUMENT",
        `${name}: expected a whole number >= 0, got ${String(value)}`,
      );
    }
  }

  let db: Database.Database;
  try {
    db = new Database(path, { timeout: busyTimeoutMs });
  } catch (error) {
    throw new StoreError(
      "HEED_STORE_UNAVAILABLE",
      `cannot open the SQLite store ${path}${why(error)}`,
      {
        cause: error,
      },
    );
  }
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma(`cache_size = -${cacheKiB}`);
    db.pragma("foreign_keys = ON");
    migrate(db);
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError(
      "HEED_STORE_UNAVAILABLE",
      `cannot open the SQLite store ${path}${why(error)}`,
      {
        cause: error,
      },
    );
  }

  const writes = sqliteWriteCount(db);
  const frontier = sqliteFrontier(db, writes);
  const reservations = sqliteReservations(db, frontier.recoverOwner);
  const log = sqliteCrawlLog(db);
  const pages = sqlitePageStore(db);
  const clock = await SampledClock.start({ read: sqliteTime(db) });
  return {
    shared: false,
    frontier,
    reservations,
    steps: sqlitePageSteps(db, {
      frontier,
      reservations,
      pages,
      appendNow: log.appendNow,
      writes,
    }),
    robots: sqliteRobotsCache(db),
    log,
    pages,
    datasets: sqliteDatasetCatalogs(db),
    items: sqliteItemLog(db),
    now: clock.now,
    writes: writes.counter,
    failure: () => writes.counter.wentBack(),
    async close() {
      clock.stop();
      if (db.open) db.close();
    },
  };
}

/** SQLite's own reason ("file is not a database", a missing directory), for the one-line error. */
function why(error: unknown): string {
  if (!(error instanceof Error) || error.message === "") return "";
  return `: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`;
}
