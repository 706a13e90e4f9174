/**
 * A RUP site's state in its own SQLite file: the snapshot of its files, the modification log,
 * the registrations (keys hashed) and the outbox of reports not yet accepted by the mail server.
 * WAL journal: a change or a report is on disk before the call returns, so a killed server
 * loses neither.
 */
import Database from "better-sqlite3";
import type { Latency, PathFilter } from "../../protocol/rup/index.js";
import type { Change, ChangeKind } from "../../protocol/rup/report.js";
import { migrate } from "../../store/sqlite/schema.js";
import { SITE_MIGRATIONS } from "./schema.js";

export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
}

/** A change as the log learns it, with the file's new state (none for a deletion). */
export interface LoggedChange extends Change {
  readonly stat?: FileStat;
}

export interface Registration {
  readonly id: number;
  readonly email: string;
  readonly keyHash: string;
  readonly agent: string | null;
  readonly latency: Latency;
  readonly filter: PathFilter;
  readonly seq: number;
  readonly lastChangeId: number;
  readonly nextDue: number;
  readonly createdAt: number;
}

export interface OutboxEntry {
  readonly id: number;
  readonly registrationId: number;
  /** An address, or an http(s) URL for a webhook registration. */
  readonly email: string;
  /** The registration's key digest: a webhook's signing secret. */
  readonly keyHash: string;
  readonly seq: number;
  readonly body: string;
  readonly attempts: number;
  readonly nextTry: number;
}

interface RegistrationRow {
  id: number;
  email: string;
  key_hash: string;
  agent: string | null;
  latency: string;
  filter: string;
  seq: number;
  last_change_id: number;
  next_due: number;
  created_at: number;
}

function fromRow(row: RegistrationRow): Registration {
  return {
    id: row.id,
    email: row.email,
    keyHash: row.key_hash,
    agent: row.agent,
    latency: JSON.parse(row.latency) as Latency,
    filter: JSON.parse(row.filter) as PathFilter,
    seq: row.seq,
    lastChangeId: row.last_change_id,
    nextDue: row.next_due,
    createdAt: row.created_at,
  };
}

export class SiteState {
  private constructor(private readonly db: Database.Database) {}

  static open(path: string): SiteState {
    const db = new Database(path, { timeout: 10_000 });
    try {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.pragma("foreign_keys = ON");
      migrate(db, SITE_MIGRATIONS);
    } catch (error) {
      db.close();
      throw error;
    }
    return new SiteState(db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  meta(key: string): string | null {
    return (
      this.db.prepare<[string], { value: string }>("SELECT value FROM meta WHERE key = ?").get(key)
        ?.value ?? null
    );
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      )
      .run(key, value);
  }

  loadSnapshot(): Map<string, FileStat> {
    const out = new Map<string, FileStat>();
    for (const row of this.db
      .prepare<[], { path: string; size: number; mtime_ms: number }>(
        "SELECT path, size, mtime_ms FROM snapshot",
      )
      .iterate()) {
      out.set(row.path, { size: row.size, mtimeMs: row.mtime_ms });
    }
    return out;
  }

  /**
   * Logs changes and brings the snapshot along, in one transaction. With `log` false the
   * snapshot alone changes: the first scan of a site is its baseline, not a list of news.
   */
  record(changes: readonly LoggedChange[], log = true): void {
    const insert = this.db.prepare("INSERT INTO changes (kind, path, at) VALUES (?, ?, ?)");
    const put = this.db.prepare(
      "INSERT INTO snapshot (path, size, mtime_ms) VALUES (?, ?, ?) ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms",
    );
    const drop = this.db.prepare("DELETE FROM snapshot WHERE path = ?");
    this.db.transaction(() => {
      for (const c of changes) {
        if (log) insert.run(c.kind, c.path, c.at);
        if (c.kind === "Delete") drop.run(c.path);
        else if (c.stat !== undefined) put.run(c.path, c.stat.size, c.stat.mtimeMs);
      }
    })();
  }

  maxChangeId(): number {
    return (
      this.db.prepare<[], { id: number | null }>("SELECT max(id) AS id FROM changes").get()?.id ?? 0
    );
  }

  /** Changes with `after < id <= upTo`, in log order. */
  changesBetween(after: number, upTo: number): Change[] {
    return this.db
      .prepare<[number, number], { kind: ChangeKind; path: string; at: number }>(
        "SELECT kind, path, at FROM changes WHERE id > ? AND id <= ? ORDER BY id",
      )
      .all(after, upTo);
  }

  /** Changes at or after `since` (ms), in log order. */
  changesSince(since: number): Change[] {
    return this.db
      .prepare<[number], { kind: ChangeKind; path: string; at: number }>(
        "SELECT kind, path, at FROM changes WHERE at >= ? ORDER BY id",
      )
      .all(since);
  }

  /**
   * Forgets changes older than `before`, but never one a registration has not had in a report
   * yet: a report is made from the log, and a report is never lost.
   */
  prune(before: number): number {
    const keep =
      this.db
        .prepare<[], { id: number | null }>("SELECT min(last_change_id) AS id FROM registrations")
        .get()?.id ?? null;
    const upTo = keep ?? this.maxChangeId();
    return this.db.prepare("DELETE FROM changes WHERE at < ? AND id <= ?").run(before, upTo)
      .changes;
  }

  findByEmail(email: string): Registration | null {
    const row = this.db
      .prepare<[string], RegistrationRow>("SELECT * FROM registrations WHERE email = ?")
      .get(email);
    return row === undefined ? null : fromRow(row);
  }

  get(id: number): Registration | null {
    const row = this.db
      .prepare<[number], RegistrationRow>("SELECT * FROM registrations WHERE id = ?")
      .get(id);
    return row === undefined ? null : fromRow(row);
  }

  registrations(): Registration[] {
    return this.db
      .prepare<[], RegistrationRow>("SELECT * FROM registrations ORDER BY id")
      .all()
      .map(fromRow);
  }

  insert(r: Omit<Registration, "id" | "seq">): Registration {
    const id = this.db
      .prepare(
        "INSERT INTO registrations (email, key_hash, agent, latency, filter, last_change_id, next_due, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        r.email,
        r.keyHash,
        r.agent,
        JSON.stringify(r.latency),
        JSON.stringify(r.filter),
        r.lastChangeId,
        r.nextDue,
        r.createdAt,
      ).lastInsertRowid;
    return this.get(Number(id)) as Registration;
  }

  update(
    id: number,
    fields: { email?: string; latency?: Latency; filter?: PathFilter; nextDue?: number },
  ): void {
    const r = this.get(id);
    if (r === null) return;
    this.db
      .prepare(
        "UPDATE registrations SET email = ?, latency = ?, filter = ?, next_due = ? WHERE id = ?",
      )
      .run(
        fields.email ?? r.email,
        JSON.stringify(fields.latency ?? r.latency),
        JSON.stringify(fields.filter ?? r.filter),
        fields.nextDue ?? r.nextDue,
        id,
      );
  }

  /** Removes a registration and its unsent reports (seeds/001 §3.3.1: stop sending). */
  remove(id: number): void {
    this.db.prepare("DELETE FROM registrations WHERE id = ?").run(id);
  }

  due(now: number): Registration[] {
    return this.db
      .prepare<[number], RegistrationRow>(
        "SELECT * FROM registrations WHERE next_due <= ? ORDER BY next_due, id",
      )
      .all(now)
      .map(fromRow);
  }

  /**
   * Puts a report in the outbox and moves its registration on, in one transaction: the
   * sequence number, the changes reported, and when the next report is due.
   */
  enqueue(
    r: Registration,
    report: { seq: number; body: string; upTo: number; nextDue: number; now: number },
  ): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          "INSERT INTO outbox (registration_id, seq, body, created_at, next_try) VALUES (?, ?, ?, ?, ?)",
        )
        .run(r.id, report.seq, report.body, report.now, report.now);
      this.db
        .prepare("UPDATE registrations SET seq = ?, last_change_id = ?, next_due = ? WHERE id = ?")
        .run(report.seq, report.upTo, report.nextDue, r.id);
    })();
  }

  /** Unsent reports, oldest first. */
  outbox(): OutboxEntry[] {
    return this.db
      .prepare<
        [],
        {
          id: number;
          registration_id: number;
          email: string;
          key_hash: string;
          seq: number;
          body: string;
          attempts: number;
          next_try: number;
        }
      >(
        "SELECT o.id, o.registration_id, r.email, r.key_hash, o.seq, o.body, o.attempts, o.next_try FROM outbox o JOIN registrations r ON r.id = o.registration_id ORDER BY o.id",
      )
      .all()
      .map((row) => ({
        id: row.id,
        registrationId: row.registration_id,
        email: row.email,
        keyHash: row.key_hash,
        seq: row.seq,
        body: row.body,
        attempts: row.attempts,
        nextTry: row.next_try,
      }));
  }

  sent(id: number): void {
    this.db.prepare("DELETE FROM outbox WHERE id = ?").run(id);
  }

  failed(id: number, error: string, nextTry: number): void {
    this.db
      .prepare(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try = ? WHERE id = ?",
      )
      .run(error, nextTry, id);
  }
}
