/**
 * The frontier in an SQLite file (schema in ./schema.ts). Queues stay on disk: every method
 * reads or writes a bounded number of rows through an index, so a million queued URLs cost
 * SQLite's page cache and nothing in JavaScript. Each method is one transaction; writers take
 * the write lock at the start (BEGIN IMMEDIATE), so two processes sharing a file never lease
 * the same URL.
 */
import * as nodeCrypto from "node:crypto";
import { createHash, randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { checkCount, checkNewUrls, checkNumber } from "../errors.js";
import { CLAIM_HOLD_MS } from "../ready-holds.js";
import type { Frontier, FrontierCounts, Lease, NewUrl, Outcome, QueuedUrl } from "../types.js";
import { DONE, FAILED, LEASED, QUEUED, SKIPPED } from "./schema.js";
import type { SqliteWriteCount } from "./write-count.js";

/**
 * The dedup key held by the `urls_hash` index (the URL's text is in the table only): the high
 * 20 bits hash the URL's `scheme://authority`, the low 44 bits hash the whole URL (SHA-256
 * both). A page's links, mostly of one site, then land next to each other in the index, so a
 * batch writes a few index pages instead of one per URL. Equal keys of different URLs are told
 * apart by comparing the text.
 */
export function urlHash(url: string): bigint {
  const scheme = url.indexOf("://");
  const end = scheme === -1 ? -1 : url.indexOf("/", scheme + 3);
  const site = end === -1 ? url : url.slice(0, end);
  let high = siteHashes.get(site);
  if (high === undefined) {
    high = BigInt(Number.parseInt(sha256Hex(site).slice(0, 8), 16) >>> 12) << 44n;
    // A bound on the memo: a crawl of more sites than this starts it over.
    if (siteHashes.size >= MAX_SITE_HASHES) siteHashes.clear();
    siteHashes.set(site, high);
  }
  const low = BigInt(`0x${sha256Hex(url).slice(0, 16)}`) >> 20n;
  return BigInt.asIntN(64, high | low);
}

/** The high bits of urlHash by site: a page's links are mostly of a few sites. */
const siteHashes = new Map<string, bigint>();
const MAX_SITE_HASHES = 10_000;

/**
 * SHA-256 as hex, without a Hash object per call where Node has crypto.hash (20.12 and later):
 * two of them for every URL queued made much of the crawl's garbage.
 */
const sha256Hex: (text: string) => string =
  // A namespace read: a named import of `hash` would fail to link on Node 20.0 to 20.11.
  typeof nodeCrypto.hash === "function"
    ? (text) => nodeCrypto.hash("sha256", text, "hex")
    : (text) => createHash("sha256").update(text).digest("hex");

/** A lease id names the URL's row, so that settle finds it without a lookup. */
function leaseId(row: number): string {
  return `${row}.${randomUUID()}`;
}

function rowOfLease(id: string): number | null {
  const row = Number(id.slice(0, id.indexOf(".")));
  return Number.isSafeInteger(row) && row > 0 ? row : null;
}

interface FoundUrl {
  readonly id: number;
  readonly origin_id: number;
  readonly state: number;
  readonly lease_id: string | null;
}

interface QueueRow {
  readonly id: number;
  readonly url: string;
  readonly priority: number;
  readonly depth: number;
  readonly not_before: number;
  readonly attempts: number;
  readonly referrer: string | null;
  readonly meta: string | null;
}

interface Referrer {
  readonly referrer_id: number | null;
  readonly referrer: string | null;
}

const STATE_OF_OUTCOME = { done: DONE, skipped: SKIPPED, failed: FAILED } as const;

/** The frontier, and the step that gives back a dead process's leases (for the reservations). */
export function sqliteFrontier(
  db: Database.Database,
  writes: SqliteWriteCount,
): Frontier & {
  readonly recoverOwner: (owner: string) => number;
  /** The add and settle steps, run inside a caller's transaction (../sqlite/page-steps.ts). */
  readonly addNow: (urls: readonly NewUrl[]) => number;
  readonly settleNow: (lease: Lease, outcome: Outcome) => void;
} {
  const sql = {
    findUrl: db.prepare<[bigint, string], FoundUrl>(
      "SELECT id, origin_id, state, lease_id FROM urls WHERE hash = ? AND url = ?",
    ),
    findUrlId: db.prepare<[bigint, string], number>(
      "SELECT id FROM urls WHERE hash = ? AND url = ?",
    ),
    findRow: db.prepare<[number], FoundUrl>(
      "SELECT id, origin_id, state, lease_id FROM urls WHERE id = ?",
    ),
    findOrigin: db.prepare<[string], { id: number; next_at: number }>(
      "SELECT id, next_at FROM origins WHERE origin = ?",
    ),
    insertOrigin: db.prepare<[string]>("INSERT INTO origins (origin) VALUES (?)"),
    insertUrl: db.prepare<
      [
        {
          hash: bigint;
          url: string;
          origin: number;
          priority: number;
          depth: number;
          notBefore: number;
        } & Referrer & { meta: string | null },
      ]
    >(
      `INSERT INTO urls (hash, url, origin_id, state, priority, depth, not_before, referrer_id, referrer, meta)
       VALUES (@hash, @url, @origin, ${QUEUED}, @priority, @depth, @notBefore, @referrer_id, @referrer, @meta)`,
    ),
    requeueDone: db.prepare<
      [
        {
          id: number;
          priority: number;
          depth: number;
          notBefore: number;
          meta: string | null;
        } & Referrer,
      ]
    >(
      `UPDATE urls SET state = ${QUEUED}, priority = @priority, depth = @depth, not_before = @notBefore,
         attempts = 0, referrer_id = @referrer_id, referrer = @referrer, meta = @meta,
         status = NULL, reason = NULL, settled_at = NULL
       WHERE id = @id`,
    ),
    lowerMin: db.prepare<[{ id: number; at: number }]>(
      "UPDATE origins SET min_not_before = min(coalesce(min_not_before, @at), @at) WHERE id = @id",
    ),
    refreshMin: db.prepare<[{ id: number }]>(
      `UPDATE origins SET min_not_before =
         (SELECT min(not_before) FROM urls WHERE origin_id = @id AND state = ${QUEUED})
       WHERE id = @id`,
    ),
    addTotal: db.prepare<[number, number]>("UPDATE totals SET n = n + ? WHERE state = ?"),
    // The planner would pick urls_waiting and sort a whole site's queue on every lease
    // (about 100 µs, growing with the queue); urls_queue is already in this order (about 5 µs).
    best: db.prepare<[number, number], QueueRow>(
      `SELECT id, url, priority, depth, not_before, attempts, meta,
         coalesce(referrer, (SELECT r.url FROM urls r WHERE r.id = u.referrer_id)) AS referrer
       FROM urls u INDEXED BY urls_queue
       WHERE origin_id = ? AND state = ${QUEUED} AND not_before <= ?
       ORDER BY priority DESC, id LIMIT 1`,
    ),
    markLeased: db.prepare<[string, number, string | null, number]>(
      `UPDATE urls SET state = ${LEASED}, lease_id = ?, lease_until = ?, lease_owner = ? WHERE id = ?`,
    ),
    // A claim on the origin (claimReady) is spent at its visit's first step: here, a lease
    // taken without the site's reservation.
    unclaimById: db.prepare<[number]>(
      "UPDATE origins SET claimed_until = 0 WHERE id = ? AND claimed_until <> 0",
    ),
    claim: db.prepare<[number, string]>("UPDATE origins SET claimed_until = ? WHERE origin = ?"),
    // A site's next moment only moves later (DESIGN §2).
    setNextById: db.prepare<[number, number]>(
      "UPDATE origins SET next_at = max(next_at, ?) WHERE id = ?",
    ),
    upsertNext: db.prepare<[string, number]>(
      `INSERT INTO origins (origin, next_at) VALUES (?, ?)
       ON CONFLICT (origin) DO UPDATE SET next_at = max(next_at, excluded.next_at),
         claimed_until = 0`,
    ),
    finish: db.prepare<
      [{ id: number; state: number; status: number | null; reason: string | null; at: number }]
    >(
      `UPDATE urls SET state = @state, lease_id = NULL, lease_until = NULL, lease_owner = NULL,
         status = @status, reason = @reason, settled_at = @at
       WHERE id = @id`,
    ),
    requeue: db.prepare<[{ id: number; notBefore: number; reason: string; tried: number }]>(
      `UPDATE urls SET state = ${QUEUED}, lease_id = NULL, lease_until = NULL, lease_owner = NULL,
         attempts = attempts + @tried, not_before = @notBefore, reason = @reason
       WHERE id = @id`,
    ),
    recover: db.prepare<[number], { origin_id: number }>(
      `UPDATE urls SET state = ${QUEUED}, lease_id = NULL, lease_until = NULL, lease_owner = NULL
       WHERE state = ${LEASED} AND lease_until < ?
       RETURNING origin_id`,
    ),
    recoverOwned: db.prepare<[string], { origin_id: number }>(
      `UPDATE urls SET state = ${QUEUED}, lease_id = NULL, lease_until = NULL, lease_owner = NULL
       WHERE lease_owner = ? AND state = ${LEASED}
       RETURNING origin_id`,
    ),
    due: db.prepare<[number, number], string>(
      "SELECT origin FROM origins WHERE due_at <= ? ORDER BY due_at, id LIMIT ?",
    ),
    soonest: db.prepare<[number], { origin: string; due_at: number }>(
      "SELECT origin, due_at FROM origins WHERE due_at IS NOT NULL ORDER BY due_at, id LIMIT ?",
    ),
    nextAt: db.prepare<[string], number>("SELECT next_at FROM origins WHERE origin = ?"),
    totals: db.prepare<[], { state: number; n: number }>("SELECT state, n FROM totals"),
    queuedOrigins: db.prepare<[], number>("SELECT count(*) FROM origins WHERE due_at IS NOT NULL"),
  };
  sql.findUrlId.pluck();
  sql.due.pluck();
  sql.nextAt.pluck();
  sql.queuedOrigins.pluck();

  /** Adds (and, for a revisit, queues again the done ones); one transaction per call. */
  const addOrRevisit = db.transaction((urls: readonly NewUrl[], revisit: boolean): number => {
    const origins = new Map<string, number>();
    const referrers = new Map<string, Referrer>();
    const earliest = new Map<number, number>();
    let added = 0;
    let requeued = 0;

    const originId = (origin: string): number => {
      let id = origins.get(origin);
      if (id === undefined) {
        id = sql.findOrigin.get(origin)?.id;
        if (id === undefined) id = Number(sql.insertOrigin.run(origin).lastInsertRowid);
        origins.set(origin, id);
      }
      return id;
    };
    // A page's links share its URL as referrer: look it up once a batch, and point at its row.
    const referrerOf = (text: string | null): Referrer => {
      if (text === null) return { referrer_id: null, referrer: null };
      let found = referrers.get(text);
      if (found === undefined) {
        const id = sql.findUrlId.get(urlHash(text), text);
        found =
          id === undefined
            ? { referrer_id: null, referrer: text }
            : { referrer_id: id, referrer: null };
        referrers.set(text, found);
      }
      return found;
    };
    const queued = (origin: number, notBefore: number): void => {
      const before = earliest.get(origin);
      if (before === undefined || notBefore < before) earliest.set(origin, notBefore);
    };

    for (const entry of urls) {
      const hash = urlHash(entry.url);
      const found = sql.findUrl.get(hash, entry.url);
      if (found !== undefined) {
        if (!revisit || found.state !== DONE) continue;
        sql.requeueDone.run({
          id: found.id,
          priority: entry.priority,
          depth: entry.depth,
          notBefore: entry.notBefore,
          meta: entry.meta,
          ...referrerOf(entry.referrer),
        });
        queued(found.origin_id, entry.notBefore);
        requeued += 1;
        continue;
      }
      const origin = originId(entry.origin);
      sql.insertUrl.run({
        hash,
        url: entry.url,
        origin,
        priority: entry.priority,
        depth: entry.depth,
        notBefore: entry.notBefore,
        meta: entry.meta,
        ...referrerOf(entry.referrer),
      });
      queued(origin, entry.notBefore);
      added += 1;
    }
    for (const [id, at] of earliest) sql.lowerMin.run({ id, at });
    if (added + requeued > 0) sql.addTotal.run(added + requeued, QUEUED);
    if (requeued > 0) sql.addTotal.run(-requeued, DONE);
    return added + requeued;
  });

  const leaseOne = db.transaction(
    (
      origin: string,
      now: number,
      leaseMs: number,
      nextAt: number | null,
      owner: string | null,
    ): Lease | null => {
      const found = sql.findOrigin.get(origin);
      // The origin's next request is not due: another fetcher (or process) just asked it. With
      // nextAt null the caller holds the site's reservation, which kept the gap.
      if (found === undefined || (nextAt !== null && found.next_at > now)) return null;
      const row = sql.best.get(found.id, now);
      if (row === undefined) return null;
      const id = leaseId(row.id);
      const until = now + leaseMs;
      sql.markLeased.run(id, until, owner, row.id);
      // Under the site's reservation, its take spent the claim already.
      if (nextAt !== null) sql.unclaimById.run(found.id);
      sql.addTotal.run(-1, QUEUED);
      sql.addTotal.run(1, LEASED);
      if (nextAt !== null) sql.setNextById.run(nextAt, found.id);
      sql.refreshMin.run({ id: found.id });
      const entry: QueuedUrl = {
        url: row.url,
        origin,
        depth: row.depth,
        priority: row.priority,
        notBefore: row.not_before,
        referrer: row.referrer,
        meta: row.meta,
        attempts: row.attempts,
      };
      return { id, entry, until };
    },
  );

  const settleOne = db.transaction((lease: Lease, outcome: Outcome): void => {
    const row = rowOfLease(lease.id);
    const found = row === null ? undefined : sql.findRow.get(row);
    // Recovered (and perhaps leased again by someone else) since: not this lease's to end.
    if (found === undefined || found.state !== LEASED || found.lease_id !== lease.id) return;
    sql.addTotal.run(-1, LEASED);
    if (outcome.kind === "retry" || outcome.kind === "defer") {
      // A retry counts an attempt; a deferral (the site closed for now) does not.
      const tried = outcome.kind === "retry" ? 1 : 0;
      const { notBefore, reason } = outcome;
      sql.requeue.run({ id: found.id, notBefore, reason, tried });
      sql.lowerMin.run({ id: found.origin_id, at: notBefore });
      sql.addTotal.run(1, QUEUED);
      return;
    }
    const state = STATE_OF_OUTCOME[outcome.kind];
    sql.finish.run({
      id: found.id,
      state,
      status: outcome.kind === "done" ? outcome.status : null,
      reason: outcome.kind === "done" ? null : outcome.reason,
      at: outcome.at,
    });
    sql.addTotal.run(1, state);
  });

  // Every lease and settle is counted in its own transaction (./write-count.ts).
  const leaseCounted = db.transaction(
    (...args: Parameters<typeof leaseOne>): [Lease | null, number] => {
      const lease = leaseOne(...args);
      return [lease, lease === null ? 0 : writes.countNow()];
    },
  );
  const settleCounted = db.transaction((lease: Lease, outcome: Outcome): number => {
    settleOne(lease, outcome);
    return writes.countNow();
  });

  const recoverRows = (rows: readonly { origin_id: number }[]): number => {
    const origins = new Set(rows.map((row) => row.origin_id));
    for (const id of origins) sql.refreshMin.run({ id });
    if (rows.length > 0) {
      sql.addTotal.run(-rows.length, LEASED);
      sql.addTotal.run(rows.length, QUEUED);
    }
    return rows.length;
  };
  const recoverAll = db.transaction((now: number): number => recoverRows(sql.recover.all(now)));
  const recoverOwner = (owner: string): number => recoverRows(sql.recoverOwned.all(owner));

  const setNext = db.transaction((origin: string, at: number): void => {
    sql.upsertNext.run(origin, at);
  });

  const readCounts = db.transaction((): FrontierCounts => {
    const n = [0, 0, 0, 0, 0];
    for (const row of sql.totals.all()) n[row.state] = row.n;
    return {
      queued: n[QUEUED] ?? 0,
      leased: n[LEASED] ?? 0,
      done: n[DONE] ?? 0,
      skipped: n[SKIPPED] ?? 0,
      failed: n[FAILED] ?? 0,
      origins: sql.queuedOrigins.get() ?? 0,
    };
  });

  const readyOrigins = (now: number, limit: number, exclude: ReadonlySet<string>): string[] => {
    checkNumber("now", now);
    checkCount("limit", limit);
    if (limit === 0) return [];
    const ready: string[] = [];
    // The excluded origins may be among the first: read enough rows to pass over them all.
    for (const origin of sql.due.all(now, limit + exclude.size)) {
      if (exclude.has(origin)) continue;
      ready.push(origin);
      if (ready.length === limit) break;
    }
    return ready;
  };
  const nextReadyAt = (exclude: ReadonlySet<string>): number | null => {
    for (const row of sql.soonest.all(exclude.size + 1)) {
      if (!exclude.has(row.origin)) return row.due_at;
    }
    return null;
  };

  // The ready origins and their claim in one write transaction: processes sharing the file are
  // each handed different sites, as on Redis (../redis/scripts.ts CLAIM_READY).
  const claimReady = db.transaction((now: number, limit: number, exclude: ReadonlySet<string>) => {
    const origins = readyOrigins(now, limit, exclude);
    for (const origin of origins) sql.claim.run(now + CLAIM_HOLD_MS, origin);
    if (origins.length === limit) return { origins, nextAt: now };
    return { origins, nextAt: nextReadyAt(new Set([...exclude, ...origins])) };
  });

  return {
    recoverOwner,
    addNow: (urls) => (urls.length === 0 ? 0 : addOrRevisit(urls, false)),
    settleNow: (lease, outcome) => settleOne(lease, outcome),
    async add(urls) {
      checkNewUrls(urls);
      return urls.length === 0 ? 0 : addOrRevisit.immediate(urls, false);
    },
    readyOrigins: async (now, limit, exclude) => readyOrigins(now, limit, exclude),
    nextReadyAt: async (exclude) => nextReadyAt(exclude),
    async claimReady(now, limit, exclude) {
      checkNumber("now", now);
      checkCount("limit", limit);
      if (limit === 0) return { origins: [], nextAt: now };
      return claimReady.immediate(now, limit, exclude);
    },
    async lease(origin, now, leaseMs, nextAt, owner) {
      checkNumber("now", now);
      checkNumber("leaseMs", leaseMs);
      if (nextAt !== null) checkNumber("nextAt", nextAt);
      const [lease, count] = leaseCounted.immediate(origin, now, leaseMs, nextAt, owner ?? null);
      // Before the URL is fetched: a file that went back stops the crawl here.
      if (lease !== null) writes.counter.wrote(count);
      return lease;
    },
    async settle(lease, outcome) {
      checkNumber("outcome time", "at" in outcome ? outcome.at : outcome.notBefore);
      writes.counter.wrote(settleCounted.immediate(lease, outcome));
    },
    async setNextAt(origin, at) {
      checkNumber("at", at);
      setNext.immediate(origin, at);
    },
    async nextAt(origin) {
      return sql.nextAt.get(origin) ?? 0;
    },
    async revisit(urls) {
      checkNewUrls(urls);
      return urls.length === 0 ? 0 : addOrRevisit.immediate(urls, true);
    },
    async recover(now) {
      checkNumber("now", now);
      return recoverAll.immediate(now);
    },
    async counts() {
      // A read transaction: the six numbers are of one moment.
      return readCounts.deferred();
    },
  };
}
