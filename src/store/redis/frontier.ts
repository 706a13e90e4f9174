/**
 * The frontier in Redis: sorted sets per origin, a ready set of origins by due time, and Lua
 * scripts (./scripts.ts) for every step that reads and then writes, so that it is atomic across
 * processes and machines.
 */
import { randomUUID } from "node:crypto";
import { StoreError, checkCount, checkNewUrls, checkNumber } from "../errors.js";
import type { Frontier, Lease, NewUrl, Outcome } from "../types.js";
import type { RedisClient, RedisKeys } from "./keys.js";

/** The scripts as ioredis commands (defined in ./index.ts); arguments are ARGV. */
export interface FrontierCommands {
  heedAdd(...argv: string[]): Promise<number>;
  heedLease(...argv: string[]): Promise<(string | null)[] | null>;
  heedSettle(...argv: string[]): Promise<number>;
  heedRecover(...argv: string[]): Promise<number>;
  heedSetNext(...argv: string[]): Promise<number>;
}

export type FrontierClient = RedisClient & FrontierCommands;

/**
 * URLs a script call adds: one call is atomic and blocks the server while it runs, so a large
 * batch goes in slices of this many (a few milliseconds each).
 */
export const ADD_SLICE = 500;

export function nullable(value: string | null): string {
  return value === null ? "0" : `1${value}`;
}

export function toNumber(value: string | null | undefined, what: string): number {
  const n = Number(value);
  if (value === null || value === undefined || value === "" || !Number.isFinite(n)) {
    throw new StoreError("HEED_STORE_CORRUPT", `${what}: expected a number, got ${String(value)}`);
  }
  return n;
}

export function outcomeArgs(outcome: Outcome): [string, string] {
  switch (outcome.kind) {
    case "done":
      return [String(outcome.at), String(outcome.status)];
    case "skipped":
    case "failed":
      return [String(outcome.at), outcome.reason];
    case "retry":
    case "defer":
      return [String(outcome.notBefore), outcome.reason];
  }
}

/** The 8 strings the add script takes a URL (./scripts.ts ADD_BODY). */
export function urlArgs(entry: NewUrl): string[] {
  return [
    entry.url,
    entry.origin,
    String(entry.depth),
    String(entry.priority),
    String(-entry.priority),
    String(entry.notBefore),
    nullable(entry.referrer),
    nullable(entry.meta),
  ];
}

/** A lease from the lease script's answer: url, depth, priority, notBefore, referrer, meta, attempts. */
export function leaseOut(
  got: readonly (string | null)[],
  origin: string,
  id: string,
  until: number,
): Lease {
  const [url, depth, priority, notBefore, referrer, meta, attempts] = got;
  if (url === null || url === undefined) {
    throw new StoreError("HEED_STORE_CORRUPT", `lease of ${origin}: no URL in the answer`);
  }
  return {
    id,
    until,
    entry: {
      url,
      origin,
      depth: toNumber(depth, `depth of ${url}`),
      priority: toNumber(priority, `priority of ${url}`),
      notBefore: toNumber(notBefore, `notBefore of ${url}`),
      referrer: referrer ?? null,
      meta: meta ?? null,
      attempts: toNumber(attempts, `attempts of ${url}`),
    },
  };
}

export function redisFrontier(client: FrontierClient, prefix: string, keys: RedisKeys): Frontier {
  const addOrRevisit = async (urls: readonly NewUrl[], mode: "add" | "revisit") => {
    checkNewUrls(urls);
    let queued = 0;
    for (let start = 0; start < urls.length; start += ADD_SLICE) {
      const argv = [prefix, mode];
      for (const entry of urls.slice(start, start + ADD_SLICE)) argv.push(...urlArgs(entry));
      queued += await client.heedAdd(...argv);
    }
    return queued;
  };

  return {
    add: (urls) => addOrRevisit(urls, "add"),
    revisit: (urls) => addOrRevisit(urls, "revisit"),

    async readyOrigins(now, limit, exclude) {
      checkNumber("now", now);
      checkCount("limit", limit);
      if (limit === 0) return [];
      // The excluded origins may be among the first: read enough to pass over them all.
      const due = await client.zrangebyscore(
        keys.ready,
        "-inf",
        String(now),
        "LIMIT",
        0,
        limit + exclude.size,
      );
      return due.filter((origin) => !exclude.has(origin)).slice(0, limit);
    },

    async nextReadyAt(exclude) {
      const soonest = await client.zrange(keys.ready, 0, String(exclude.size), "WITHSCORES");
      for (let i = 0; i + 1 < soonest.length; i += 2) {
        if (!exclude.has(soonest[i] ?? "")) return toNumber(soonest[i + 1], "ready time");
      }
      return null;
    },

    async lease(origin, now, leaseMs, nextAt, owner) {
      checkNumber("now", now);
      checkNumber("leaseMs", leaseMs);
      if (nextAt !== null) checkNumber("nextAt", nextAt);
      const id = randomUUID();
      const until = now + leaseMs;
      const got = await client.heedLease(
        prefix,
        origin,
        String(now),
        String(until),
        nextAt === null ? "" : String(nextAt),
        id,
        owner ?? "",
      );
      return got === null ? null : leaseOut(got, origin, id, until);
    },

    async settle(lease, outcome) {
      const [moment, detail] = outcomeArgs(outcome);
      checkNumber("outcome time", Number(moment));
      await client.heedSettle(prefix, lease.entry.url, lease.id, outcome.kind, moment, detail);
    },

    async setNextAt(origin, at) {
      checkNumber("at", at);
      await client.heedSetNext(prefix, origin, String(at));
    },

    async nextAt(origin) {
      const at = await client.hget(keys.next, origin);
      return at === null ? 0 : toNumber(at, `next request of ${origin}`);
    },

    async recover(now) {
      checkNumber("now", now);
      return client.heedRecover(prefix, String(now));
    },

    async counts() {
      // One transaction: the six numbers are of one moment.
      const replies = await client
        .multi()
        .hmget(keys.counts, "queued", "leased", "done", "skipped", "failed")
        .zcard(keys.ready)
        .exec();
      if (replies === null) throw new StoreError("HEED_STORE_UNAVAILABLE", "counts: aborted");
      const [[countsError, counts], [readyError, ready]] = replies as [
        [Error | null, (string | null)[]],
        [Error | null, number],
      ];
      if (countsError ?? readyError) {
        throw new StoreError("HEED_STORE_UNAVAILABLE", "counts failed", {
          cause: countsError ?? readyError,
        });
      }
      const n = (i: number) => Number(counts[i] ?? 0);
      return {
        queued: n(0),
        leased: n(1),
        done: n(2),
        skipped: n(3),
        failed: n(4),
        origins: ready,
      };
    },
  };
}
