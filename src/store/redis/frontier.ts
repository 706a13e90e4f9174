/**
 * The frontier in Redis: each site's queue and dedup in its shard, each shard's ready set of
 * origins by due time, and Lua scripts (./scripts.ts) for every step that reads and then
 * writes, so that it is atomic across processes and machines. A step about one site is one
 * call; a question about all sites asks every shard at once.
 */
import { randomUUID } from "node:crypto";
import { StoreError, checkCount, checkNewUrls, checkNumber } from "../errors.js";
import type { Frontier, Lease, NewUrl, Outcome } from "../types.js";
import { CLAIM_HOLD_MS } from "../ready-holds.js";
import type { RedisClient, RedisKeys } from "./keys.js";
import type { WriteCounter } from "../write-counter.js";
import { wroteCount } from "./write-count.js";

/** The scripts as ioredis commands (defined in ./index.ts); arguments are ARGV. */
export interface FrontierCommands {
  heedAdd(...argv: string[]): Promise<number>;
  heedLease(...argv: string[]): Promise<(string | null)[] | null>;
  heedSettle(...argv: string[]): Promise<[number, number]>;
  heedRecover(...argv: string[]): Promise<number>;
  heedSetNext(...argv: string[]): Promise<number>;
  heedReady(...keysThenArgv: string[]): Promise<string[]>;
  /** The number of keys first: every shard's on one server, one on a cluster. */
  heedClaimReady(...countKeysThenArgv: string[]): Promise<string[]>;
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

/** The 7 strings the add script takes a URL (./scripts.ts ADD_BODY). */
export function urlArgs(entry: NewUrl): string[] {
  return [
    entry.url,
    entry.origin,
    String(entry.depth),
    String(entry.priority),
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

/** URLs by the shard part T of their site's keys (./keys.ts). */
export function byShard(urls: readonly NewUrl[], keys: RedisKeys): Map<string, NewUrl[]> {
  const shards = new Map<string, NewUrl[]>();
  for (const entry of urls) {
    const T = keys.site(entry.origin);
    const list = shards.get(T);
    if (list === undefined) shards.set(T, [entry]);
    else list.push(entry);
  }
  return shards;
}

/**
 * Adds (or revisits) URLs already grouped by shard: one script call a shard and slice, the
 * shards' calls at once (on a cluster each goes to its own master).
 */
export async function addByShard(
  client: FrontierClient,
  shards: ReadonlyMap<string, readonly NewUrl[]>,
  mode: "add" | "revisit",
): Promise<number> {
  const calls = [...shards].map(async ([T, urls]) => {
    let queued = 0;
    for (let start = 0; start < urls.length; start += ADD_SLICE) {
      const argv = [T, mode];
      for (const entry of urls.slice(start, start + ADD_SLICE)) argv.push(...urlArgs(entry));
      queued += await client.heedAdd(...argv);
    }
    return queued;
  });
  return (await Promise.all(calls)).reduce((sum, n) => sum + n, 0);
}

/**
 * Each shard's first `count` origins of its ready set scored up to `max`, merged soonest first.
 * One script call on one server; on a cluster one call a shard (a slot each), all at once.
 */
async function readySoonest(
  client: FrontierClient,
  keys: RedisKeys,
  max: string,
  count: number,
): Promise<{ origin: string; at: number }[]> {
  const replies = client.isCluster
    ? await Promise.all(
        keys.shards.map((P) =>
          client.zrangebyscore(`${P}ready`, "-inf", max, "WITHSCORES", "LIMIT", 0, count),
        ),
      )
    : [await client.heedReady(...keys.shards, max, String(count))];
  return mergeScored(replies);
}

/** Origin, score pairs, merged soonest first. */
function mergeScored(replies: readonly string[][]): { origin: string; at: number }[] {
  const all: { origin: string; at: number }[] = [];
  for (const reply of replies) {
    for (let i = 0; i + 1 < reply.length; i += 2) {
      all.push({ origin: reply[i] ?? "", at: toNumber(reply[i + 1], "ready time") });
    }
  }
  return all.sort((a, b) => a.at - b.at);
}

/**
 * Claims up to `limit` ready origins, looking at the shards in turn from `start` (a different
 * one each call, so that no shard waits behind another's sites). One script call over every
 * shard on one server; on a cluster a call a shard (each in its own slot), one after another
 * until the limit is reached. The answer's last item is when to look again ('' none queued).
 */
async function claimInShards(
  client: FrontierClient,
  shards: readonly string[],
  start: number,
  argv: { now: number; limit: number; exclude: ReadonlySet<string> },
): Promise<{ origins: string[]; nextAt: number | null }> {
  const order = [...shards.slice(start), ...shards.slice(0, start)];
  const origins: string[] = [];
  let nextAt: number | null = null;
  const groups = client.isCluster ? order.map((P) => [P]) : [order];
  for (const group of groups) {
    const reply = await client.heedClaimReady(
      String(group.length),
      ...group,
      String(argv.now),
      String(argv.limit - origins.length),
      String(argv.now + CLAIM_HOLD_MS),
      ...argv.exclude,
    );
    const again = reply.pop();
    origins.push(...reply);
    if (again !== undefined && again !== "") {
      const at = toNumber(again, "ready time");
      nextAt = nextAt === null ? at : Math.min(nextAt, at);
    }
    if (origins.length === argv.limit) return { origins, nextAt: argv.now };
  }
  return { origins, nextAt };
}

export function redisFrontier(
  client: FrontierClient,
  keys: RedisKeys,
  counter: WriteCounter,
): Frontier {
  const T = keys.site;
  /** The shard claimReady looks at first, moved on at each call. */
  let firstShard = Math.floor(Math.random() * keys.shards.length);
  const addOrRevisit = async (urls: readonly NewUrl[], mode: "add" | "revisit") => {
    checkNewUrls(urls);
    return addByShard(client, byShard(urls, keys), mode);
  };

  return {
    add: (urls) => addOrRevisit(urls, "add"),
    revisit: (urls) => addOrRevisit(urls, "revisit"),

    async readyOrigins(now, limit, exclude) {
      checkNumber("now", now);
      checkCount("limit", limit);
      if (limit === 0) return [];
      // The excluded origins may be among the first: read enough to pass over them all.
      const soonest = await readySoonest(client, keys, String(now), limit + exclude.size);
      return soonest
        .map((due) => due.origin)
        .filter((origin) => !exclude.has(origin))
        .slice(0, limit);
    },

    async claimReady(now, limit, exclude) {
      checkNumber("now", now);
      checkCount("limit", limit);
      if (limit === 0) return { origins: [], nextAt: now };
      firstShard = (firstShard + 1) % keys.shards.length;
      return claimInShards(client, keys.shards, firstShard, { now, limit, exclude });
    },

    async nextReadyAt(exclude) {
      const soonest = await readySoonest(client, keys, "+inf", exclude.size + 1);
      return soonest.find((due) => !exclude.has(due.origin))?.at ?? null;
    },

    async lease(origin, now, leaseMs, nextAt, owner) {
      checkNumber("now", now);
      checkNumber("leaseMs", leaseMs);
      if (nextAt !== null) checkNumber("nextAt", nextAt);
      const id = randomUUID();
      const until = now + leaseMs;
      const got = await client.heedLease(
        T(origin),
        origin,
        String(now),
        String(until),
        nextAt === null ? "" : String(nextAt),
        id,
        owner ?? "",
      );
      if (got === null) return null;
      // Before the URL is fetched: a store that went back stops the crawl here.
      wroteCount(counter, got.pop(), T(origin));
      return leaseOut(got, origin, id, until);
    },

    async settle(lease, outcome) {
      const [moment, detail] = outcomeArgs(outcome);
      checkNumber("outcome time", Number(moment));
      const own = T(lease.entry.origin);
      const [, count] = await client.heedSettle(
        own,
        lease.entry.url,
        lease.id,
        outcome.kind,
        moment,
        detail,
      );
      wroteCount(counter, count, own);
    },

    async setNextAt(origin, at) {
      checkNumber("at", at);
      await client.heedSetNext(T(origin), origin, String(at));
    },

    async nextAt(origin) {
      const at = await client.hget(`${T(origin)}next`, origin);
      return at === null ? 0 : toNumber(at, `next request of ${origin}`);
    },

    async recover(now) {
      checkNumber("now", now);
      const counts = await Promise.all(keys.shards.map((P) => client.heedRecover(P, String(now))));
      return counts.reduce((sum, n) => sum + n, 0);
    },

    async counts() {
      // Each shard's numbers in one transaction; the shards' are read at once, not of one
      // moment across shards (a cluster has no transaction over slots).
      const shards = await Promise.all(
        keys.shards.map(async (P) => {
          const replies = await client
            .multi()
            .hmget(`${P}counts`, "queued", "leased", "done", "skipped", "failed")
            .zcard(`${P}ready`)
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
          return [...counts.map((n) => Number(n ?? 0)), ready];
        }),
      );
      const n = (i: number) => shards.reduce((sum, shard) => sum + (shard[i] ?? 0), 0);
      return {
        queued: n(0),
        leased: n(1),
        done: n(2),
        skipped: n(3),
        failed: n(4),
        origins: n(5),
      };
    },
  };
}
