/**
 * The layout of a RUP site's own state file (`heed serve --state PATH`), as numbered
 * migrations applied by the store's migrator. It is not the crawl store: a site keeps its
 * registrations, its modification log, the snapshot of its files and its outgoing reports.
 */
import type { Migration } from "../../store/sqlite/schema.js";

export const SITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "RUP site: registrations, modification log, file snapshot, report outbox",
    sql: `
      -- Facts about the log itself: when it started (the first snapshot).
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      -- The files as last seen: URL path, size and modification time.
      CREATE TABLE snapshot (
        path TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        mtime_ms REAL NOT NULL
      );

      -- The modification log (seeds/001 §3.2): one row per change of one path.
      CREATE TABLE changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('New', 'Change', 'Delete')),
        path TEXT NOT NULL,
        at INTEGER NOT NULL
      );
      CREATE INDEX changes_at ON changes (at);

      CREATE TABLE registrations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        email TEXT NOT NULL UNIQUE,
        -- SHA-256 of the key, hex: the key itself is shown once and never stored.
        key_hash TEXT NOT NULL,
        -- The robot's name token (its User-Agent at registration), for the site's robots.txt.
        agent TEXT,
        -- {count, unit}, JSON.
        latency TEXT NOT NULL,
        -- {kind: all | exclude | include-only, patterns}, JSON.
        filter TEXT NOT NULL,
        -- The sequence number of the last report made (0 before the first).
        seq INTEGER NOT NULL DEFAULT 0,
        -- Changes up to this id are in a report already.
        last_change_id INTEGER NOT NULL,
        -- When the next report is due (ms).
        next_due INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );

      -- Reports made and not yet accepted by the mail server: kept until they are, in order.
      CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        registration_id INTEGER NOT NULL REFERENCES registrations (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_try INTEGER NOT NULL,
        last_error TEXT
      );
      CREATE INDEX outbox_due ON outbox (next_try);
    `,
  },
  {
    version: 2,
    name: "RUP site: abuse limits (network, last heard of, confirmation), outbox by registration",
    sql: `
      -- The registering client's network (/24 or /64): registrations are bounded per network.
      ALTER TABLE registrations ADD COLUMN network TEXT NOT NULL DEFAULT '';
      -- The address with its domain in lower case (RFC 5321 §2.4: the domain is not
      -- case-sensitive; the local part is left as written).
      ALTER TABLE registrations ADD COLUMN email_key TEXT NOT NULL DEFAULT '';
      -- When the robot was last heard of: registered, used its key, or took a report.
      ALTER TABLE registrations ADD COLUMN last_seen INTEGER NOT NULL DEFAULT 0;
      -- 1 once the recipient confirmed (always 1 without --confirm); the token's SHA-256.
      ALTER TABLE registrations ADD COLUMN confirmed INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE registrations ADD COLUMN confirm_hash TEXT;
      UPDATE registrations SET last_seen = created_at,
        email_key = CASE WHEN instr(email, '@') > 0
          THEN substr(email, 1, length(email) - length(substr(email, instr(email, '@'))))
               || lower(substr(email, instr(email, '@')))
          ELSE email END;
      CREATE INDEX registrations_email_key ON registrations (email_key);
      CREATE INDEX registrations_network ON registrations (network);
      CREATE INDEX registrations_last_seen ON registrations (last_seen);
      CREATE INDEX registrations_due ON registrations (next_due);
      CREATE INDEX registrations_created ON registrations (created_at);
      -- 'report' or 'confirm' (the one mail sent before a confirmation).
      ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'report';
      -- A registration's reports in order: the head of each is found without reading the rest.
      CREATE INDEX outbox_registration ON outbox (registration_id, id);
    `,
  },
];
