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
  /** The registering client's network (client-network.ts); "" for registrations made before. */
  readonly network: string;
  /** When the robot was last heard of: registered, used its key, or took a report. */
  readonly lastSeen: number;
  /** False until the recipient confirmed (`heed serve --confirm`). */
  readonly confirmed: boolean;
}

/** A new registration: the state fills in id, seq, lastSeen and the address's key. */
export type NewRegistration = Omit<
  Registration,
  "id" | "seq" | "lastSeen" | "confirmed" | "network"
> & {
  readonly network?: string;
  /** SHA-256 of the confirmation token, when the recipient must confirm first. */
  readonly confirmHash?: string;
};

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
  /** A report, or the one mail that asks the recipient to confirm. */
  readonly kind: "report" | "confirm";
}

/**
 * The address as compared: the domain in lower case (RFC 5321 §2.4: domains are not
 * case-sensitive; a local part may be, and is kept). Webhook URLs are compared as written.
 */
export function emailKey(email: string): string {
  if (/^https?:\/\//i.test(email)) return email;
  const at = email.lastIndexOf("@");
  return at < 0 ? email : email.slice(0, at) + email.slice(at).toLowerCase();
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
  network: string;
  last_seen: number;
  confirmed: number;
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
    network: row.network,
    lastSeen: row.last_seen,
    confirmed: row.confirmed === 1,
  };
}

interface OutboxRow {
  id: number;
  registration_id: number;
  email: string;
  key_hash: string;
  seq: number;
  body: string;
  attempts: number;
  next_try: number;
  kind: "report" | "confirm";
}

function fromOutboxRow(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    registrationId: row.registration_id,
    email: row.email,
    keyHash: row.key_hash,
    seq: row.seq,
    body: row.body,
    attempts: row.attempts,
    nextTry: row.next_try,
    kind: row.kind,
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

  /** The registration of an address, its domain compared case-insensitively. */
  findByEmail(email: string): Registration | null {
    const row = this.db
      .prepare<[string], RegistrationRow>("SELECT * FROM registrations WHERE email_key = ?")
      .get(emailKey(email));
    return row === undefined ? null : fromRow(row);
  }

  count(): number {
    return (
      this.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM registrations").get()?.n ?? 0
    );
  }

  countByNetwork(network: string): number {
    return (
      this.db
        .prepare<[string], { n: number }>(
          "SELECT count(*) AS n FROM registrations WHERE network = ?",
        )
        .get(network)?.n ?? 0
    );
  }

  /** The robot was heard of (it used its key, or a report was delivered to it). */
  seen(id: number, now: number): void {
    this.db
      .prepare("UPDATE registrations SET last_seen = max(last_seen, ?) WHERE id = ?")
      .run(now, id);
  }

  /**
   * Forgets registrations (and their unsent reports) not heard of since `silentBefore`, and
   * unconfirmed ones asked to confirm before `unconfirmedBefore`. Returns how many.
   */
  expire(silentBefore: number, unconfirmedBefore: number): number {
    return this.db
      .prepare("DELETE FROM registrations WHERE last_seen < ? OR (confirmed = 0 AND last_seen < ?)")
      .run(silentBefore, unconfirmedBefore).changes;
  }

  /** Registrations made at or after `since` (ms): a site-wide rate of registering. */
  countSince(since: number): number {
    return (
      this.db
        .prepare<[number], { n: number }>(
          "SELECT count(*) AS n FROM registrations WHERE created_at >= ?",
        )
        .get(since)?.n ?? 0
    );
  }

  /** The registration must be confirmed again (its address changed): nothing is sent until then. */
  requireConfirmation(id: number, tokenHash: string, now: number): void {
    // last_seen dates the request: an unconfirmed registration expires counting from it.
    this.db
      .prepare(
        "UPDATE registrations SET confirmed = 0, confirm_hash = ?, last_seen = ? WHERE id = ?",
      )
      .run(tokenHash, now, id);
    this.db.prepare("DELETE FROM outbox WHERE registration_id = ? AND kind = 'confirm'").run(id);
  }

  /** Confirms the registration whose token has this digest; null when none has. */
  confirm(tokenHash: string): Registration | null {
    const row = this.db
      .prepare<[string], RegistrationRow>(
        "SELECT * FROM registrations WHERE confirm_hash = ? AND confirmed = 0",
      )
      .get(tokenHash);
    if (row === undefined) return null;
    this.db
      .prepare("UPDATE registrations SET confirmed = 1, confirm_hash = NULL WHERE id = ?")
      .run(row.id);
    return this.get(row.id);
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

  insert(r: NewRegistration): Registration {
    const id = this.db
      .prepare(
        "INSERT INTO registrations (email, key_hash, agent, latency, filter, last_change_id, next_due, created_at, network, email_key, last_seen, confirmed, confirm_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
        r.network ?? "",
        emailKey(r.email),
        r.createdAt,
        r.confirmHash === undefined ? 1 : 0,
        r.confirmHash ?? null,
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
        "UPDATE registrations SET email = ?, email_key = ?, latency = ?, filter = ?, next_due = ? WHERE id = ?",
      )
      .run(
        fields.email ?? r.email,
        emailKey(fields.email ?? r.email),
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
        "SELECT * FROM registrations WHERE next_due <= ? AND confirmed = 1 ORDER BY next_due, id",
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

  /** Puts the mail that asks the recipient to confirm in the outbox (sequence number 0). */
  enqueueConfirmation(r: Registration, body: string, now: number): void {
    this.db
      .prepare(
        "INSERT INTO outbox (registration_id, seq, body, created_at, next_try, kind) VALUES (?, 0, ?, ?, ?, 'confirm')",
      )
      .run(r.id, body, now, now);
  }

  /**
   * What may be sent at `now`: of each registration, its oldest unsent mail (later ones wait
   * behind it), when that one is due; oldest first, at most `limit`. The outbox index by
   * registration finds each head without reading the rest, so the cost follows the mails due
   * and the registrations waiting, not the history. Bodies are read one by one when sent.
   * INDEXED BY: left alone, SQLite walks the whole outbox in id order to serve ORDER BY.
   */
  dueOutbox(
    now: number,
    limit: number,
    can: { readonly mail: boolean; readonly webhooks: boolean } = { mail: true, webhooks: true },
  ): OutboxEntry[] {
    return this.db
      .prepare<[number, number, number, number], OutboxRow>(
        `SELECT o.id, o.registration_id, r.email, r.key_hash, o.seq, '' AS body, o.attempts, o.next_try, o.kind
         FROM outbox o INDEXED BY outbox_due JOIN registrations r ON r.id = o.registration_id
         WHERE o.next_try <= ?
           AND (r.confirmed = 1 OR o.kind = 'confirm')
           AND o.id = (SELECT min(h.id) FROM outbox h WHERE h.registration_id = o.registration_id
                         AND (r.confirmed = 1 OR h.kind = 'confirm'))
           AND (CASE WHEN lower(substr(r.email, 1, 7)) = 'http://' OR lower(substr(r.email, 1, 8)) = 'https://'
                THEN ? ELSE ? END) = 1
         ORDER BY o.id LIMIT ?`,
      )
      .all(now, can.webhooks ? 1 : 0, can.mail ? 1 : 0, limit)
      .map(fromOutboxRow);
  }

  /** The body of an outbox entry ("" when it is gone). */
  outboxBody(id: number): string {
    return (
      this.db.prepare<[number], { body: string }>("SELECT body FROM outbox WHERE id = ?").get(id)
        ?.body ?? ""
    );
  }

  /** Unsent mails, oldest first, with their bodies (tests, tools; the schedule uses dueOutbox). */
  outbox(): OutboxEntry[] {
    return this.db
      .prepare<[], OutboxRow>(
        "SELECT o.id, o.registration_id, r.email, r.key_hash, o.seq, o.body, o.attempts, o.next_try, o.kind FROM outbox o JOIN registrations r ON r.id = o.registration_id ORDER BY o.id",
      )
      .all()
      .map(fromOutboxRow);
  }

  /** A mail was accepted: it leaves the outbox, and its robot counts as heard of. */
  sent(id: number, now?: number): void {
    this.db.transaction(() => {
      if (now !== undefined) {
        this.db
          .prepare(
            "UPDATE registrations SET last_seen = max(last_seen, ?) WHERE id = (SELECT registration_id FROM outbox WHERE id = ?)",
          )
          .run(now, id);
      }
      this.db.prepare("DELETE FROM outbox WHERE id = ?").run(id);
    })();
  }

  failed(id: number, error: string, nextTry: number): void {
    this.db
      .prepare(
        "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try = ? WHERE id = ?",
      )
      .run(error, nextTry, id);
  }
}
