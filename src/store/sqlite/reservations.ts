/**
 * Each site's shared reservation in the SQLite file (DESIGN §2; tables in ./schema.ts, version
 * 7). Each step is one write transaction (BEGIN IMMEDIATE), so processes sharing the file keep
 * one site's gaps, rate windows and in-flight limit together, as the Redis scripts do.
 */
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { checkCount, checkNumber, checkRule } from "../errors.js";
import { FULL_HOLD_MS } from "../ready-holds.js";
import type {
  PaceRule,
  PaceState,
  ProcessBeat,
  Reservation,
  Reservations,
  SitemapsClaim,
} from "../types.js";

/** Requests of one key kept for rate windows: more than any Request-rate a site would set. */
const WINDOW_KEPT = 1000;

export function sqliteReservations(
  db: Database.Database,
  recoverOwner: (owner: string) => number,
): Reservations {
  const sql = {
    nextAt: db.prepare<[string], number>("SELECT next_at FROM origins WHERE origin = ?").pluck(),
    moveNext: db.prepare<[string, number]>(
      `INSERT INTO origins (origin, next_at) VALUES (?, ?)
       ON CONFLICT (origin) DO UPDATE SET next_at = max(next_at, excluded.next_at)`,
    ),
    ended: db.prepare<[string], number>("SELECT ended_at FROM pace_ends WHERE key = ?").pluck(),
    moveEnd: db.prepare<[string, number]>(
      `INSERT INTO pace_ends (key, ended_at) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET ended_at = max(ended_at, excluded.ended_at)`,
    ),
    nth: db
      .prepare<[string, number], number>(
        "SELECT at FROM pace_windows WHERE key = ? ORDER BY at DESC LIMIT 1 OFFSET ?",
      )
      .pluck(),
    recent: db
      .prepare<[string, number], number>(
        "SELECT at FROM pace_windows WHERE key = ? ORDER BY at DESC LIMIT ?",
      )
      .pluck(),
    flying: db.prepare<[string], number>("SELECT count(*) FROM pace_flights WHERE key = ?").pluck(),
    fly: db.prepare<[string, string, string]>(
      "INSERT INTO pace_flights (key, id, owner) VALUES (?, ?, ?)",
    ),
    land: db.prepare<[string, string]>("DELETE FROM pace_flights WHERE key = ? AND id = ?"),
    owned: db.prepare<[string], { key: string; id: string }>(
      "SELECT key, id FROM pace_flights WHERE owner = ?",
    ),
    window: db.prepare<[string, string, number]>(
      "INSERT INTO pace_windows (key, id, at) VALUES (?, ?, ?)",
    ),
    moveWindow: db.prepare<[number, string, string]>(
      "UPDATE pace_windows SET at = ? WHERE key = ? AND id = ?",
    ),
    // The visit's reservation: a claim on the origin is spent (../ready-holds.ts), and the origin
    // leaves the ready set while it holds every request in flight it lets (its row made when
    // none is yet: URLs queued later find it full, as on Redis).
    seat: db.prepare<[{ key: string; full: number }]>(
      `INSERT INTO origins (origin, full_until) VALUES (@key, @full)
       ON CONFLICT (origin) DO UPDATE SET claimed_until = 0, full_until = excluded.full_until`,
    ),
    unclaim: db.prepare<[string]>(
      "UPDATE origins SET claimed_until = 0 WHERE origin = ? AND claimed_until <> 0",
    ),
    unfill: db.prepare<[string]>(
      "UPDATE origins SET full_until = 0 WHERE origin = ? AND full_until <> 0",
    ),
    unwindow: db.prepare<[string, string]>("DELETE FROM pace_windows WHERE key = ? AND id = ?"),
    trim: db.prepare<[string, string, number]>(
      `DELETE FROM pace_windows WHERE key = ? AND at < coalesce(
         (SELECT at FROM pace_windows WHERE key = ? ORDER BY at DESC LIMIT 1 OFFSET ?), -1)`,
    ),
    beat: db.prepare<[string, string, number, number]>(
      `INSERT INTO processes (id, host, pid, until) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, until = excluded.until`,
    ),
    processes: db.prepare<[], ProcessBeat>("SELECT id, host, pid, until FROM processes"),
    forget: db.prepare<[string]>("DELETE FROM processes WHERE id = ?"),
    dropReading: db.prepare<[string]>(
      "UPDATE sitemaps_read SET owner = NULL, claimed_at = NULL WHERE owner = ? AND read_at IS NULL",
    ),
    sitemaps: db.prepare<
      [string],
      { origin: string; owner: string | null; claimed_at: number | null; read_at: number | null }
    >("SELECT origin, owner, claimed_at, read_at FROM sitemaps_read WHERE origin = ?"),
    unread: db.prepare<[number], { origin: string; owner: string | null }>(
      "SELECT origin, owner FROM sitemaps_read WHERE read_at IS NULL LIMIT ?",
    ),
    claim: db.prepare<[string, string, number]>(
      `INSERT INTO sitemaps_read (origin, owner, claimed_at, read_at) VALUES (?, ?, ?, NULL)
       ON CONFLICT (origin) DO UPDATE SET owner = excluded.owner, claimed_at = excluded.claimed_at,
         read_at = NULL`,
    ),
    read: db.prepare<[string, number]>(
      `INSERT INTO sitemaps_read (origin, owner, claimed_at, read_at) VALUES (?, NULL, NULL, ?)
       ON CONFLICT (origin) DO UPDATE SET owner = NULL, read_at = excluded.read_at`,
    ),
    identity: db.prepare<[], string>("SELECT identity FROM crawl_identity WHERE one = 1").pluck(),
    seeds: db.prepare<[], string>("SELECT seeds FROM crawl_identity WHERE one = 1").pluck(),
    setIdentity: db.prepare<[string, string]>(
      `INSERT INTO crawl_identity (one, identity, seeds) VALUES (1, ?, ?)
       ON CONFLICT (one) DO NOTHING`,
    ),
  };

  const releaseOne = (key: string, id: string, end: number, gapMs: number, used: boolean) => {
    if (sql.land.run(key, id).changes === 0) return 0;
    sql.unfill.run(key);
    if (!used) {
      sql.unwindow.run(key, id);
      return 1;
    }
    sql.moveEnd.run(key, end);
    // The window counts the request from its end: it reached the site by then.
    sql.moveWindow.run(end, key, id);
    sql.moveNext.run(key, end + gapMs);
    return 1;
  };

  const take = db.transaction(
    (key: string, owner: string, now: number, rule: PaceRule): Reservation => {
      const { gapMs, inFlight } = rule;
      const r = rule.rate;
      let due = now;
      let why: "gap" | "rate" = "gap";
      due = Math.max(due, sql.nextAt.get(key) ?? 0);
      const ended = sql.ended.get(key);
      if (ended !== undefined) due = Math.max(due, ended + gapMs);
      if (r !== null) {
        // seeds/003 3.2.7: at most `requests` requests in any window of `windowMs`.
        const nth = sql.nth.get(key, r.requests - 1);
        if (nth !== undefined && nth + r.windowMs > due) {
          due = nth + r.windowMs;
          why = "rate";
        }
      }
      if (due > now) {
        sql.moveNext.run(key, due);
        sql.unclaim.run(key);
        return { granted: false, retryAt: due, why };
      }
      const flying = sql.flying.get(key) ?? 0;
      if (flying >= inFlight) return { granted: false, retryAt: now, why: "in-flight" };
      sql.seat.run({ key, full: flying + 1 >= inFlight ? now + FULL_HOLD_MS : 0 });
      const id = randomUUID();
      sql.fly.run(key, id, owner);
      sql.window.run(key, id, now);
      sql.trim.run(key, key, WINDOW_KEPT - 1);
      return { granted: true, id };
    },
  );

  const reap = db.transaction((owner: string, now: number) => {
    let reservations = 0;
    for (const { key, id } of sql.owned.all(owner))
      reservations += releaseOne(key, id, now, 0, true);
    const leases = recoverOwner(owner);
    sql.dropReading.run(owner);
    sql.forget.run(owner);
    return { leases, reservations };
  });

  const claim = db.transaction((origin: string, owner: string, now: number, since: number) => {
    const found = sql.sitemaps.get(origin);
    if (found !== undefined) {
      if (found.read_at !== null && found.read_at >= since) return false;
      if (found.owner !== null) return false;
    }
    sql.claim.run(origin, owner, now);
    return true;
  });

  const release = db.transaction(releaseOne);

  return {
    async take(key, owner, now, rule): Promise<Reservation> {
      checkNumber("now", now);
      checkRule(rule);
      return take.immediate(key, owner, now, rule);
    },
    async release(key, id, end, gapMs, used) {
      checkNumber("end", end);
      checkNumber("gapMs", gapMs);
      release.immediate(key, id, end, gapMs, used);
    },
    async pace(key, latest): Promise<PaceState> {
      checkCount("latest", latest);
      // One read transaction: the four parts are of one moment.
      return db.transaction(() => ({
        nextAt: sql.nextAt.get(key) ?? 0,
        endedAt: sql.ended.get(key) ?? null,
        inFlight: sql.flying.get(key) ?? 0,
        recent: sql.recent.all(key, Math.min(latest, WINDOW_KEPT)),
      }))();
    },
    async beat(process) {
      sql.beat.run(process.id, process.host, process.pid, process.until);
    },
    async processes() {
      return sql.processes.all();
    },
    async reap(owner, now) {
      checkNumber("now", now);
      return reap.immediate(owner, now);
    },
    async claimSitemaps(origin, owner, now, since) {
      return claim.immediate(origin, owner, now, since);
    },
    async sitemapsRead(origin, at) {
      sql.read.run(origin, at);
    },
    async sitemaps(origin): Promise<SitemapsClaim | null> {
      const found = sql.sitemaps.get(origin);
      if (found === undefined) return null;
      return {
        origin,
        owner: found.owner ?? "",
        claimedAt: found.claimed_at ?? 0,
        readAt: found.read_at,
      };
    },
    async unreadSitemaps(limit) {
      checkCount("limit", limit);
      return sql.unread.all(limit);
    },
    async identity() {
      return sql.identity.get() ?? null;
    },
    async setIdentity(id, seeds) {
      sql.setIdentity.run(id, JSON.stringify(seeds));
      return sql.identity.get() ?? id;
    },
    async seeds() {
      const text = sql.seeds.get();
      if (text === undefined) return [];
      try {
        const value: unknown = JSON.parse(text);
        return Array.isArray(value) ? value.filter((s): s is string => typeof s === "string") : [];
      } catch {
        return [];
      }
    },
  };
}
