/**
 * The SQLite layout, as numbered migrations. A file records in `schema_version` every migration
 * applied to it; opening applies the missing ones in order, each in its own transaction, and
 * refuses a file that has a version this code does not know (written by a newer heed).
 * A later change is a new entry at the end of {@link MIGRATIONS}, never an edit of an old one.
 */
import type Database from "better-sqlite3";
import { StoreError } from "../errors.js";

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** URL states, as stored in `urls.state`. */
export const QUEUED = 0;
export const LEASED = 1;
export const DONE = 2;
export const SKIPPED = 3;
export const FAILED = 4;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "frontier, robots cache, host state, crawl log, page validators",
    sql: `
      -- One row per origin ever seen: the unit of politeness.
      CREATE TABLE origins (
        id INTEGER PRIMARY KEY,
        origin TEXT NOT NULL UNIQUE,
        -- When the next request to the origin is due (ms); 0 when never set.
        next_at INTEGER NOT NULL DEFAULT 0,
        -- The earliest not_before over the origin's queued URLs; NULL when none is queued.
        -- Kept in the same transaction as every change of a queued URL.
        min_not_before INTEGER,
        -- When the origin is ready: both a queued URL and the next request are due.
        due_at INTEGER GENERATED ALWAYS AS (
          CASE WHEN min_not_before IS NULL THEN NULL ELSE max(next_at, min_not_before) END
        ) VIRTUAL
      );
      -- readyOrigins and nextReadyAt: the origins with queued URLs, soonest first.
      CREATE INDEX origins_due ON origins (due_at) WHERE due_at IS NOT NULL;

      -- Every URL ever added, in any state; the text of a URL is stored here once.
      CREATE TABLE urls (
        -- Also the order of arrival: "oldest first" within a priority.
        id INTEGER PRIMARY KEY,
        -- The dedup key (frontier.ts urlHash: the site's hash, then the URL's): the index
        -- holds this, not the text, and keeps a site's URLs together.
        hash INTEGER NOT NULL,
        url TEXT NOT NULL,
        origin_id INTEGER NOT NULL REFERENCES origins (id),
        -- 0 queued, 1 leased, 2 done, 3 skipped, 4 failed.
        state INTEGER NOT NULL,
        priority REAL NOT NULL,
        depth INTEGER NOT NULL,
        not_before INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        -- The referrer when it is itself a URL of this table (the usual case), else its text.
        referrer_id INTEGER,
        referrer TEXT,
        meta TEXT,
        lease_id TEXT,
        lease_until INTEGER,
        -- How it ended: the HTTP status (done), the reason (skipped, failed, retry), when.
        status INTEGER,
        reason TEXT,
        settled_at INTEGER
      );
      CREATE INDEX urls_hash ON urls (hash);
      -- lease: the best queued URL of an origin, highest priority then oldest; not_before is in
      -- the index so that URLs not yet due are passed over without reading their rows.
      CREATE INDEX urls_queue ON urls (origin_id, priority DESC, id, not_before) WHERE state = 0;
      -- origins.min_not_before after a URL leaves the queue.
      CREATE INDEX urls_waiting ON urls (origin_id, not_before) WHERE state = 0;
      -- recover: leases that ended.
      CREATE INDEX urls_leases ON urls (lease_until) WHERE state = 1;

      -- How many URLs are in each state, kept with every change so that counts() reads 5 rows.
      CREATE TABLE totals (state INTEGER PRIMARY KEY, n INTEGER NOT NULL);
      INSERT INTO totals (state, n) VALUES (0, 0), (1, 0), (2, 0), (3, 0), (4, 0);

      CREATE TABLE robots (
        origin TEXT PRIMARY KEY,
        fetched_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        status INTEGER,
        action TEXT NOT NULL,
        body BLOB,
        last_good_body BLOB,
        first_failure_at INTEGER,
        attempts INTEGER NOT NULL
      );

      -- No longer read or written: pacing lives in the pace_* tables (version 7). Kept, not
      -- dropped, so that files of every version open alike and an older heed still finds it.
      CREATE TABLE hosts (
        origin TEXT PRIMARY KEY,
        last_request_at INTEGER,
        -- JSON: [{ "scope": "agent" | "ip", "start": ms, "count": n }, …]
        windows TEXT NOT NULL
      );

      CREATE TABLE crawl_log (
        -- The order of appending.
        id INTEGER PRIMARY KEY,
        url TEXT NOT NULL,
        origin TEXT NOT NULL,
        at INTEGER NOT NULL,
        ms INTEGER NOT NULL,
        status INTEGER,
        bytes INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        detail TEXT
      );

      CREATE TABLE pages (
        url TEXT PRIMARY KEY,
        etag TEXT,
        last_modified TEXT,
        fetched_at INTEGER NOT NULL,
        status INTEGER NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: "crawl log: canonical URL, discovery, gaps required and kept, time waited",
    // Added columns are NULL in rows written before: a file of version 1 reads as it was, with
    // nothing known of these. ADD COLUMN rewrites no row, so a large log migrates at once.
    sql: `
      -- The page's canonical URL, when it names one.
      ALTER TABLE crawl_log ADD COLUMN canonical TEXT;
      -- How the URL was found: seed, link, sitemap, srcloc, redirect, revisit, mirror.
      ALTER TABLE crawl_log ADD COLUMN via TEXT;
      -- The gap the site's rules required before the request, and the gap kept (ms).
      ALTER TABLE crawl_log ADD COLUMN required_gap_ms INTEGER;
      ALTER TABLE crawl_log ADD COLUMN gap_ms INTEGER;
      -- Time the request waited on delays, rates and time windows (ms).
      ALTER TABLE crawl_log ADD COLUMN waited_ms INTEGER;
    `,
  },
  {
    version: 3,
    name: "RUP robot side: registrations with their keys and sequence numbers, reports received, paths gone",
    sql: `
      -- One registration per site (seeds/001 §3.1.2): the key is the robot's own secret, kept
      -- to unregister, modify and ask for the sequence number.
      CREATE TABLE rup_sites (
        origin TEXT PRIMARY KEY,
        url_base TEXT NOT NULL,
        cgi_url TEXT NOT NULL,
        email TEXT NOT NULL,
        key TEXT NOT NULL,
        latency TEXT,
        -- From the site's /rupinfo.txt: how far back GetIndex reaches (ms; NULL: not said), and
        -- the smallest unit it offers, for Span.
        max_query_span_ms INTEGER,
        span_unit TEXT NOT NULL,
        -- The sequence number of the last report taken in (0 before the first).
        last_seq INTEGER NOT NULL DEFAULT 0,
        -- When it came (or the registration): what a lost report held is after this.
        last_report_at INTEGER NOT NULL,
        registered_at INTEGER NOT NULL
      );
      -- Every report received, and what was done with it.
      CREATE TABLE rup_reports (
        id INTEGER PRIMARY KEY,
        origin TEXT NOT NULL,
        seq INTEGER NOT NULL,
        received_at INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        detail TEXT
      );
      -- URLs a report said were deleted (seeds/001 §3.2 Delete lines).
      CREATE TABLE rup_gone (
        url TEXT PRIMARY KEY,
        origin TEXT NOT NULL,
        at INTEGER NOT NULL,
        seq INTEGER NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: "dataset catalogs: each host's /data.txt as a robot read it",
    sql: `
      CREATE TABLE dataset_catalogs (
        origin TEXT NOT NULL,
        -- The robot's name token: robots.txt and data.txt may say different things per robot.
        agent TEXT NOT NULL,
        at INTEGER NOT NULL,
        -- found, missing, failed, forbidden
        outcome TEXT NOT NULL,
        status INTEGER,
        -- yaml, draft, empty; NULL when not found
        form TEXT,
        datasets INTEGER NOT NULL,
        fetchable INTEGER NOT NULL,
        guesses INTEGER NOT NULL,
        -- JSON: { "robots", "dataTxt", "datasets": [...], "notes": [...] }
        body TEXT NOT NULL,
        PRIMARY KEY (origin, agent)
      );
    `,
  },
  {
    version: 6,
    name: "pages: when the site's guidance brings a page back",
    sql: `
      -- ms since the epoch; NULL when nothing asks for a revisit.
      ALTER TABLE pages ADD COLUMN revisit_at INTEGER;
      CREATE INDEX pages_revisit ON pages (revisit_at, url) WHERE revisit_at IS NOT NULL;
    `,
  },
  {
    version: 7,
    name: "each site's shared reservation, processes' heartbeats, sitemaps read, crawl identity",
    sql: `
      -- The process that holds a lease, so that its death gives the lease back at once.
      ALTER TABLE urls ADD COLUMN lease_owner TEXT;
      CREATE INDEX urls_lease_owner ON urls (lease_owner) WHERE lease_owner IS NOT NULL;
      -- key (an origin, or an origin and IP) → when the last exchange with it ended (ms).
      CREATE TABLE pace_ends (key TEXT PRIMARY KEY, ended_at INTEGER NOT NULL);
      -- Reservations taken and not released: the requests in flight.
      CREATE TABLE pace_flights (
        key TEXT NOT NULL, id TEXT NOT NULL, owner TEXT NOT NULL,
        PRIMARY KEY (key, id)
      );
      CREATE INDEX pace_flights_owner ON pace_flights (owner);
      -- The last requests of each key, for rate windows: start, then end once released.
      CREATE TABLE pace_windows (key TEXT NOT NULL, id TEXT NOT NULL, at INTEGER NOT NULL,
        PRIMARY KEY (key, id));
      CREATE INDEX pace_windows_at ON pace_windows (key, at);
      CREATE TABLE processes (id TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL,
        until INTEGER NOT NULL);
      CREATE TABLE sitemaps_read (origin TEXT PRIMARY KEY, owner TEXT, claimed_at INTEGER,
        read_at INTEGER);
      CREATE TABLE crawl_identity (one INTEGER PRIMARY KEY CHECK (one = 1), identity TEXT NOT NULL,
        seeds TEXT NOT NULL);
    `,
  },
  {
    version: 8,
    name: "items: the records page handlers pushed",
    sql: `
      -- One JSON text a row, in the order pushed (the library's ctx.push, heed export --items).
      CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
    `,
  },
  {
    version: 9,
    name: "crawl log: the usage preferences of each page",
    sql: `
      -- JSON text: each category's value and where it was stated (docs/usage-preferences.md).
      ALTER TABLE crawl_log ADD COLUMN usage TEXT;
    `,
  },
  {
    version: 10,
    name: "crawl log: the page that led to each URL",
    // NULL in rows written before, and for seeds.
    sql: `
      ALTER TABLE crawl_log ADD COLUMN referrer TEXT;
    `,
  },
  {
    version: 11,
    name: "write count: leases and page settles, to notice an older copy of the file",
    sql: `
      CREATE TABLE write_count (one INTEGER PRIMARY KEY CHECK (one = 1), n INTEGER NOT NULL);
      INSERT INTO write_count VALUES (1, 0);
    `,
  },
  {
    version: 12,
    name: "origins: claimed by a process, or holding every request in flight its reservation lets",
    // A generated column cannot be altered: due_at is made again over the two new columns, its
    // index with it (both read nothing but the row). Rows written before hold neither.
    sql: `
      DROP INDEX origins_due;
      ALTER TABLE origins DROP COLUMN due_at;
      -- Handed to one process by claimReady until then (ms), or until the visit's first step
      -- about the origin (its reservation, lease or next moment) sets it back to 0.
      ALTER TABLE origins ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0;
      -- Holding every request in flight its reservation lets, until a release sets it back to 0
      -- (or until then, should none come).
      ALTER TABLE origins ADD COLUMN full_until INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE origins ADD COLUMN due_at INTEGER GENERATED ALWAYS AS (
        CASE WHEN min_not_before IS NULL THEN NULL
          ELSE max(next_at, min_not_before, claimed_until, full_until) END
      ) VIRTUAL;
      CREATE INDEX origins_due ON origins (due_at) WHERE due_at IS NOT NULL;
    `,
  },
];

/** Brings the file to the newest schema; returns the version it is at. */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[] = MIGRATIONS,
): number {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL)",
  );
  const newest = migrations.reduce((top, m) => Math.max(top, m.version), 0);
  const apply = db.transaction((migration: Migration) => {
    // Read again inside the write lock: another process may have migrated meanwhile.
    const applied = db
      .prepare<[number], { version: number }>(
        "SELECT version FROM schema_version WHERE version = ?",
      )
      .get(migration.version);
    if (applied) return;
    db.exec(migration.sql);
    db.prepare("INSERT INTO schema_version (version, name) VALUES (?, ?)").run(
      migration.version,
      migration.name,
    );
  });
  const current = (): number =>
    db.prepare<[], { v: number | null }>("SELECT max(version) AS v FROM schema_version").get()?.v ??
    0;
  const found = current();
  if (found > newest) {
    throw new StoreError(
      "HEED_STORE_SCHEMA_TOO_NEW",
      `the store has schema version ${found}; this heed knows up to ${newest}: use a newer heed`,
    );
  }
  // Every migration not yet recorded, not only those above the highest: version numbers are
  // handed out per feature, so a file may hold 6 before 5 exists (`apply` skips those it has).
  const applied = new Set(
    db
      .prepare<[], { version: number }>("SELECT version FROM schema_version")
      .all()
      .map((row) => row.version),
  );
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (!applied.has(migration.version)) apply.immediate(migration);
  }
  return current();
}
