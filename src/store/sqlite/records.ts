/** The robots cache, crawl log and page validators in the SQLite file. */
import type Database from "better-sqlite3";
import { checkBatch, checkRecord, storedRecord, viaOut, type StoredRecord } from "../crawl-log.js";
import { StoreError, checkCount } from "../errors.js";
import type {
  CachedRobots,
  CrawlLog,
  CrawlRecord,
  PageStore,
  PageValidators,
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

interface LogRow {
  readonly id: number;
  readonly url: string;
  readonly origin: string;
  readonly at: number;
  readonly ms: number;
  readonly status: number | null;
  readonly bytes: number;
  readonly outcome: string;
  readonly detail: string | null;
  readonly canonical: string | null;
  readonly via: string | null;
  readonly referrer: string | null;
  readonly required_gap_ms: number | null;
  readonly gap_ms: number | null;
  readonly waited_ms: number | null;
  readonly usage: string | null;
}

const LOG_COLUMNS = `id, url, origin, at, ms, status, bytes, outcome, detail, canonical, via,
  referrer, required_gap_ms, gap_ms, waited_ms, usage`;

function recordOut(row: LogRow): StoredRecord {
  return {
    url: row.url,
    origin: row.origin,
    at: row.at,
    ms: row.ms,
    status: row.status,
    bytes: row.bytes,
    outcome: row.outcome,
    detail: row.detail,
    canonical: row.canonical,
    via: viaOut(row.via, row.url),
    requiredGapMs: row.required_gap_ms,
    gapMs: row.gap_ms,
    waitedMs: row.waited_ms,
    usage: row.usage,
    referrer: row.referrer,
  };
}

export function sqliteCrawlLog(db: Database.Database): CrawlLog & {
  /** Appends a checked record, inside a caller's transaction (./page-steps.ts). */
  readonly appendNow: (record: CrawlRecord) => void;
} {
  const append = db.prepare<[StoredRecord]>(
    `INSERT INTO crawl_log (url, origin, at, ms, status, bytes, outcome, detail, canonical, via,
       referrer, required_gap_ms, gap_ms, waited_ms, usage)
     VALUES (@url, @origin, @at, @ms, @status, @bytes, @outcome, @detail, @canonical, @via,
       @referrer, @requiredGapMs, @gapMs, @waitedMs, @usage)`,
  );
  const list = db.prepare<[number, number], LogRow>(
    `SELECT ${LOG_COLUMNS} FROM crawl_log ORDER BY id LIMIT ? OFFSET ?`,
  );
  // scan: by the key, so that each batch costs the same wherever it starts.
  const after = db.prepare<[number, number], LogRow>(
    `SELECT ${LOG_COLUMNS} FROM crawl_log WHERE id > ? ORDER BY id LIMIT ?`,
  );
  const count = db.prepare<[], number>("SELECT count(*) FROM crawl_log").pluck();
  return {
    appendNow: (record) => void append.run(storedRecord(record)),
    async append(record) {
      checkRecord(record);
      append.run(storedRecord(record));
    },
    async list(limit, offset) {
      checkCount("limit", limit);
      checkCount("offset", offset);
      return list.all(limit, offset).map(recordOut);
    },
    async *scan(batch) {
      checkBatch(batch);
      let last = 0;
      for (;;) {
        const rows = after.all(last, batch);
        if (rows.length === 0) return;
        last = rows[rows.length - 1]?.id ?? last;
        yield rows.map(recordOut);
        if (rows.length < batch) return;
      }
    },
    async count() {
      return count.get() ?? 0;
    },
  };
}

export function sqlitePageStore(db: Database.Database): PageStore & {
  /** Keeps a page's validators, inside a caller's transaction (./page-steps.ts). */
  readonly putNow: (page: PageValidators) => void;
} {
  const get = db.prepare<
    [string],
    {
      etag: string | null;
      last_modified: string | null;
      fetched_at: number;
      status: number;
      revisit_at: number | null;
    }
  >("SELECT etag, last_modified, fetched_at, status, revisit_at FROM pages WHERE url = ?");
  const put = db.prepare<[Required<PageValidators>]>(
    `INSERT OR REPLACE INTO pages (url, etag, last_modified, fetched_at, status, revisit_at)
     VALUES (@url, @etag, @lastModified, @fetchedAt, @status, @revisitAt)`,
  );
  const putNow = (page: PageValidators): void => {
    const { url, etag, lastModified, fetchedAt, status } = page;
    put.run({ url, etag, lastModified, fetchedAt, status, revisitAt: page.revisitAt ?? null });
  };
  // Keyset paging over the partial index: each batch costs the same wherever it starts.
  const due = db.prepare<[number, number, string, number], { url: string; at: number }>(
    `SELECT url, revisit_at AS at FROM pages
     WHERE revisit_at IS NOT NULL AND revisit_at <= ? AND (revisit_at, url) > (?, ?)
     ORDER BY revisit_at, url LIMIT ?`,
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
        revisitAt: row.revisit_at,
      };
    },
    putNow,
    async put(page) {
      putNow(page);
    },
    async *due(now, batch) {
      let after = { at: Number.MIN_SAFE_INTEGER, url: "" };
      for (;;) {
        const rows = due.all(now, after.at, after.url, batch);
        if (rows.length > 0) yield rows.map((r) => r.url);
        if (rows.length < batch) return;
        const last = rows[rows.length - 1];
        if (last === undefined) return;
        after = last;
      }
    },
  };
}
