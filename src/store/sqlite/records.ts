/** The robots cache, host state, crawl log and page validators in the SQLite file. */
import type Database from "better-sqlite3";
import { StoreError, checkCount } from "../errors.js";
import type {
  CachedRobots,
  CrawlLog,
  CrawlRecord,
  HostState,
  HostStore,
  PageStore,
  PageValidators,
  RateWindowState,
  RobotsCache,
} from "../types.js";

interface RobotsRow {
  readonly origin: string;
  readonly fetched_at: number;
  readonly expires_at: number;
  readonly status: number | null;
  readonly action: string;
  readonly body: Buffer | null;
  readonly last_good_body: Buffer | null;
  readonly first_failure_at: number | null;
  readonly attempts: number;
}

const ACTIONS: ReadonlySet<string> = new Set(["parse", "allow-all", "disallow-all", "unreachable"]);

function isAction(value: string): value is CachedRobots["action"] {
  return ACTIONS.has(value);
}

/** SQLite hands back a Buffer; callers get a plain Uint8Array of their own. */
function bytesOut(blob: Buffer | null): Uint8Array | null {
  return blob === null ? null : new Uint8Array(blob);
}

function bytesIn(bytes: Uint8Array | null): Buffer | null {
  return bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function sqliteRobotsCache(db: Database.Database): RobotsCache {
  const get = db.prepare<[string], RobotsRow>("SELECT * FROM robots WHERE origin = ?");
  const put = db.prepare<[RobotsRow]>(
    `INSERT OR REPLACE INTO robots
       (origin, fetched_at, expires_at, status, action, body, last_good_body, first_failure_at, attempts)
     VALUES (@origin, @fetched_at, @expires_at, @status, @action, @body, @last_good_body,
       @first_failure_at, @attempts)`,
  );
  return {
    async get(origin) {
      const row = get.get(origin);
      if (row === undefined) return null;
      if (!isAction(row.action)) {
        throw new StoreError(
          "HEED_STORE_CORRUPT",
          `robots cache of ${origin}: action ${row.action}`,
        );
      }
      return {
        origin: row.origin,
        fetchedAt: row.fetched_at,
        expiresAt: row.expires_at,
        status: row.status,
        action: row.action,
        body: bytesOut(row.body),
        lastGoodBody: bytesOut(row.last_good_body),
        firstFailureAt: row.first_failure_at,
        attempts: row.attempts,
      };
    },
    async put(entry) {
      put.run({
        origin: entry.origin,
        fetched_at: entry.fetchedAt,
        expires_at: entry.expiresAt,
        status: entry.status,
        action: entry.action,
        body: bytesIn(entry.body),
        last_good_body: bytesIn(entry.lastGoodBody),
        first_failure_at: entry.firstFailureAt,
        attempts: entry.attempts,
      });
    },
  };
}

export function sqliteHostStore(db: Database.Database): HostStore {
  const get = db.prepare<[string], { last_request_at: number | null; windows: string }>(
    "SELECT last_request_at, windows FROM hosts WHERE origin = ?",
  );
  const put = db.prepare<[string, number | null, string]>(
    "INSERT OR REPLACE INTO hosts (origin, last_request_at, windows) VALUES (?, ?, ?)",
  );
  return {
    async get(origin) {
      const row = get.get(origin);
      if (row === undefined) return null;
      const windows = JSON.parse(row.windows) as readonly RateWindowState[];
      return { origin, lastRequestAt: row.last_request_at, windows };
    },
    async put(state: HostState) {
      const windows = state.windows.map(({ scope, start, count }) => ({ scope, start, count }));
      put.run(state.origin, state.lastRequestAt, JSON.stringify(windows));
    },
  };
}

export function sqliteCrawlLog(db: Database.Database): CrawlLog {
  const append = db.prepare<[CrawlRecord]>(
    `INSERT INTO crawl_log (url, origin, at, ms, status, bytes, outcome, detail)
     VALUES (@url, @origin, @at, @ms, @status, @bytes, @outcome, @detail)`,
  );
  const list = db.prepare<[number, number], CrawlRecord>(
    `SELECT url, origin, at, ms, status, bytes, outcome, detail FROM crawl_log
     ORDER BY id LIMIT ? OFFSET ?`,
  );
  const count = db.prepare<[], number>("SELECT count(*) FROM crawl_log").pluck();
  return {
    async append(record) {
      const { url, origin, at, ms, status, bytes, outcome, detail } = record;
      append.run({ url, origin, at, ms, status, bytes, outcome, detail });
    },
    async list(limit, offset) {
      checkCount("limit", limit);
      checkCount("offset", offset);
      return list.all(limit, offset);
    },
    async count() {
      return count.get() ?? 0;
    },
  };
}

export function sqlitePageStore(db: Database.Database): PageStore {
  const get = db.prepare<
    [string],
    { etag: string | null; last_modified: string | null; fetched_at: number; status: number }
  >("SELECT etag, last_modified, fetched_at, status FROM pages WHERE url = ?");
  const put = db.prepare<[PageValidators]>(
    `INSERT OR REPLACE INTO pages (url, etag, last_modified, fetched_at, status)
     VALUES (@url, @etag, @lastModified, @fetchedAt, @status)`,
  );
  return {
    async get(url) {
      const row = get.get(url);
      if (row === undefined) return null;
      return {
        url,
        etag: row.etag,
        lastModified: row.last_modified,
        fetchedAt: row.fetched_at,
        status: row.status,
      };
    },
    async put(page) {
      const { url, etag, lastModified, fetchedAt, status } = page;
      put.run({ url, etag, lastModified, fetchedAt, status });
    },
  };
}
