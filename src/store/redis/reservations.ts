/**
 * Each site's shared reservation in Redis (DESIGN §2): Lua scripts, atomic on the server, so
 * that crawler processes on many machines keep one site's gaps, rate windows and in-flight
 * limit together. Keys (besides those of ./keys.ts), T being the shard's part of a site's keys
 * (the site of a key `<origin> ip=…` being its origin):
 *
 * | key            | type | holds                                                                 |
 * |----------------|------|-----------------------------------------------------------------------|
 * | T end          | hash | key → when the last exchange with it ended                            |
 * | T win:<key>    | zset | the key's last requests: member reservation id, score start (end once |
 * |                |      | released); the newest 1000 kept                                       |
 * | T fly          | hash | `<key>\n<id>` → owner, for each reservation taken and not released    |
 * | T nfly         | hash | key → reservations in flight                                          |
 * | T full         | hash | key → until when it counts as held, while its requests in flight are  |
 * |                |      | at the cap: out of the ready set meanwhile (./scripts.ts refresh)    |
 * | T smown, smat  | hash | origin → the process reading its sitemaps, and since when             |
 * | T smread       | hash | origin → when its sitemaps were read                                  |
 * | T smfree       | set  | origins whose reader died before it ended: a live process takes them up |
 * | P procs        | hash | process id → its heartbeat as JSON                                    |
 * | P identity     | str  | the crawl's identity; P seeds: its seeds as JSON                       |
 */
import { randomUUID } from "node:crypto";

import { checkCount, checkNumber, checkRule } from "../errors.js";
import type { PaceState, ProcessBeat, Reservation, Reservations } from "../types.js";
import { FULL_HOLD_MS } from "../ready-holds.js";
import { PRELUDE, REQUEUE_BODY, ROUTED } from "./scripts.js";
import type { RedisClient, RedisKeys } from "./keys.js";
import { markShardsHeld } from "./write-count.js";

/** Requests of one key kept for rate windows: more than any Request-rate a site would set. */
const WINDOW_KEPT = 1000;

export const TAKE_BODY = `
-- Takes key's reservation for a request starting at nowArg: {1, id}, or {0, retryAt, why}.
local function takeOne(key, owner, nowArg, gap, n, w, most, id)
  local now = tonumber(nowArg)
  local due, why = now, 'gap'
  local nxt = redis.call('HGET', P .. 'next', key)
  if nxt and tonumber(nxt) > due then due = tonumber(nxt) end
  local ended = redis.call('HGET', P .. 'end', key)
  if ended and tonumber(ended) + gap > due then due = tonumber(ended) + gap end
  if n > 0 then
    -- seeds/003 3.2.7: at most n requests in any window of w ms.
    local nth = redis.call('ZREVRANGE', P .. 'win:' .. key, n - 1, n - 1, 'WITHSCORES')
    if #nth > 0 and tonumber(nth[2]) + w > due then
      due = tonumber(nth[2]) + w
      why = 'rate'
    end
  end
  if due > now then
    -- Only ever later: the ready set then brings the site back when it is due.
    if not nxt or tonumber(nxt) < due then
      redis.call('HSET', P .. 'next', key, string.format('%.0f', due))
      refresh(key)
    end
    return { 0, string.format('%.0f', due), why }
  end
  local flying = tonumber(redis.call('HGET', P .. 'nfly', key) or '0')
  if flying >= most then return { 0, nowArg, 'in-flight' } end
  redis.call('HINCRBY', P .. 'nfly', key, 1)
  if flying + 1 >= most then
    -- Out of the ready set until a release (or FULL_HOLD_MS, should none come).
    redis.call('HSET', P .. 'full', key, string.format('%.0f', now + ${FULL_HOLD_MS}))
  end
  -- Its place in the ready set again, a claim on it (./scripts.ts CLAIM_READY) now spent.
  refresh(key)
  redis.call('HSET', P .. 'fly', key .. '\\n' .. id, owner)
  redis.call('ZADD', P .. 'win:' .. key, nowArg, id)
  redis.call('ZREMRANGEBYRANK', P .. 'win:' .. key, 0, -${WINDOW_KEPT + 1})
  return { 1, id }
end
`;

/**
 * take. ARGV: prefix, key, owner, now, gapMs, requests (0: no rate), windowMs, inFlight, id.
 * Returns {1, id} or {0, retryAt, why}.
 */
export const TAKE = `${PRELUDE}${TAKE_BODY}
return takeOne(ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]),
  tonumber(ARGV[7]), tonumber(ARGV[8]), ARGV[9])
`;

export const RELEASE_BODY = `
local function release(key, id, ended, gap, used)
  if redis.call('HDEL', P .. 'fly', key .. '\\n' .. id) == 0 then return 0 end
  redis.call('HINCRBY', P .. 'nfly', key, -1)
  if redis.call('HDEL', P .. 'full', key) == 1 then refresh(key) end
  if not used then
    redis.call('ZREM', P .. 'win:' .. key, id)
    return 1
  end
  local last = redis.call('HGET', P .. 'end', key)
  if not last or tonumber(last) < tonumber(ended) then redis.call('HSET', P .. 'end', key, ended) end
  -- The window counts the request from its end: it reached the site by then.
  if redis.call('ZSCORE', P .. 'win:' .. key, id) then
    redis.call('ZADD', P .. 'win:' .. key, ended, id)
  end
  local after = tonumber(ended) + tonumber(gap)
  local nxt = redis.call('HGET', P .. 'next', key)
  if not nxt or tonumber(nxt) < after then
    redis.call('HSET', P .. 'next', key, string.format('%.0f', after))
    refresh(key)
  end
  return 1
end
`;

/** release. ARGV: prefix, key, id, end, gapMs, used ('1' or '0'). */
export const RELEASE = `${PRELUDE}${RELEASE_BODY}
return release(ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6] == '1')
`;

/** reap. ARGV: shard part T, owner, now. Returns {leases, reservations}. */
export const REAP = `${PRELUDE}${RELEASE_BODY}${REQUEUE_BODY}
local owner, now = ARGV[2], ARGV[3]
local flights = redis.call('HGETALL', P .. 'fly')
local ended = 0
for i = 1, #flights, 2 do
  if flights[i + 1] == owner then
    local cut = string.find(flights[i], '\\n', 1, true)
    ended = ended + release(string.sub(flights[i], 1, cut - 1), string.sub(flights[i], cut + 1), now, 0, true)
  end
end
local count = 0
for _, url in ipairs(redis.call('ZRANGE', P .. 'leases', 0, -1)) do
  count = count + requeue(url, tonumber(now), owner)
end
if count > 0 then
  redis.call('HINCRBY', COUNTS, 'leased', -count)
  redis.call('HINCRBY', COUNTS, 'queued', count)
end
local readers = redis.call('HGETALL', P .. 'smown')
for i = 1, #readers, 2 do
  if readers[i + 1] == owner then
    redis.call('HDEL', P .. 'smown', readers[i])
    redis.call('SADD', P .. 'smfree', readers[i])
  end
end
return { count, ended }
`;

/** claimSitemaps. ARGV: prefix, origin, owner, now, since. Returns 1 when claimed. */
export const CLAIM_SITEMAPS = `${ROUTED}
local P = ARGV[1]
local read = redis.call('HGET', P .. 'smread', ARGV[2])
if read and tonumber(read) >= tonumber(ARGV[5]) then return 0 end
if redis.call('HEXISTS', P .. 'smown', ARGV[2]) == 1 then return 0 end
redis.call('HSET', P .. 'smown', ARGV[2], ARGV[3])
redis.call('HSET', P .. 'smat', ARGV[2], ARGV[4])
redis.call('SREM', P .. 'smfree', ARGV[2])
return 1
`;

export interface ReservationCommands {
  heedTake(...argv: string[]): Promise<string[]>;
  heedRelease(...argv: string[]): Promise<number>;
  heedReap(...argv: string[]): Promise<number[]>;
  heedClaimSitemaps(...argv: string[]): Promise<number>;
}

export function defineReservationCommands(client: RedisClient): void {
  client.defineCommand("heedTake", { lua: TAKE, numberOfKeys: 1 });
  client.defineCommand("heedRelease", { lua: RELEASE, numberOfKeys: 1 });
  client.defineCommand("heedReap", { lua: REAP, numberOfKeys: 1 });
  client.defineCommand("heedClaimSitemaps", { lua: CLAIM_SITEMAPS, numberOfKeys: 1 });
}

function isBeat(value: unknown): value is ProcessBeat {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v["id"] === "string" &&
    typeof v["host"] === "string" &&
    typeof v["pid"] === "number" &&
    typeof v["until"] === "number"
  );
}

export function redisReservations(
  client: RedisClient & ReservationCommands,
  keys: RedisKeys,
): Reservations {
  const T = keys.site;
  return {
    async take(key, owner, now, rule): Promise<Reservation> {
      checkNumber("now", now);
      checkRule(rule);
      const id = randomUUID();
      const reply = await client.heedTake(
        T(key),
        key,
        owner,
        String(Math.floor(now)),
        String(Math.ceil(rule.gapMs)),
        String(rule.rate?.requests ?? 0),
        String(Math.ceil(rule.rate?.windowMs ?? 0)),
        String(rule.inFlight),
        id,
      );
      if (String(reply[0]) === "1") return { granted: true, id };
      const why = reply[2] === "rate" ? "rate" : reply[2] === "in-flight" ? "in-flight" : "gap";
      return { granted: false, retryAt: Number(reply[1]), why };
    },
    async release(key, id, end, gapMs, used) {
      checkNumber("end", end);
      checkNumber("gapMs", gapMs);
      await client.heedRelease(
        T(key),
        key,
        id,
        String(Math.ceil(end)),
        String(Math.ceil(gapMs)),
        used ? "1" : "0",
      );
    },
    async pace(key, latest): Promise<PaceState> {
      checkCount("latest", latest);
      const n = Math.min(latest, WINDOW_KEPT);
      // One MULTI: the four parts are of one moment.
      const P = T(key);
      const replies = await client
        .multi()
        .hget(`${P}next`, key)
        .hget(`${P}end`, key)
        .hget(`${P}nfly`, key)
        .zrevrange(`${P}win:${key}`, 0, Math.max(n - 1, 0), "WITHSCORES")
        .exec();
      const value = (i: number): unknown => {
        const [error, reply] = replies?.[i] ?? [new Error("no reply"), null];
        if (error !== null) throw error;
        return reply;
      };
      const number = (reply: unknown): number | null =>
        typeof reply === "string" ? Number(reply) : null;
      const scored = n === 0 ? [] : (value(3) as string[]);
      return {
        nextAt: number(value(0)) ?? 0,
        endedAt: number(value(1)),
        inFlight: number(value(2)) ?? 0,
        recent: scored.filter((_, i) => i % 2 === 1).map(Number),
      };
    },
    async beat(process) {
      await client.hset(keys.procs, process.id, JSON.stringify(process));
    },
    async processes() {
      const all = await client.hgetall(keys.procs);
      return Object.values(all).flatMap((text) => {
        try {
          const value: unknown = JSON.parse(text);
          return isBeat(value) ? [value] : [];
        } catch {
          return [];
        }
      });
    },
    async reap(owner, now) {
      checkNumber("now", now);
      // Each shard's own step, all at once; the heartbeat goes last, with nothing left to reap.
      const reaped = await Promise.all(
        keys.shards.map((P) => client.heedReap(P, owner, String(Math.ceil(now)))),
      );
      await client.hdel(keys.procs, owner);
      return {
        leases: reaped.reduce((sum, [leases]) => sum + Number(leases), 0),
        reservations: reaped.reduce((sum, [, reservations]) => sum + Number(reservations), 0),
      };
    },
    async claimSitemaps(origin, owner, now, since) {
      return (
        (await client.heedClaimSitemaps(T(origin), origin, owner, String(now), String(since))) === 1
      );
    },
    async sitemapsRead(origin, at) {
      const P = T(origin);
      await client
        .multi()
        .hset(`${P}smread`, origin, String(at))
        .hdel(`${P}smown`, origin)
        .srem(`${P}smfree`, origin)
        .exec();
    },
    async sitemaps(origin) {
      const P = T(origin);
      const [owner, at, read] = await Promise.all([
        client.hget(`${P}smown`, origin),
        client.hget(`${P}smat`, origin),
        client.hget(`${P}smread`, origin),
      ]);
      if (owner === null && read === null) return null;
      return {
        origin,
        owner: owner ?? "",
        claimedAt: Number(at ?? 0),
        readAt: read === null ? null : Number(read),
      };
    },
    async unreadSitemaps(limit) {
      checkCount("limit", limit);
      // Both are as small as the sitemap readings in progress or cut short.
      const [owned, freed] = await Promise.all([
        Promise.all(keys.shards.map((P) => client.hgetall(`${P}smown`))),
        Promise.all(keys.shards.map((P) => client.smembers(`${P}smfree`))),
      ]);
      return [
        ...owned.flatMap((o) => Object.entries(o).map(([origin, owner]) => ({ origin, owner }))),
        ...freed.flat().map((origin) => ({ origin, owner: null })),
      ].slice(0, limit);
    },
    identity: () => client.get(keys.identity),
    async setIdentity(id, seeds) {
      if ((await client.set(keys.identity, id, "NX")) === "OK")
        await client.set(keys.seeds, JSON.stringify(seeds));
      await markShardsHeld(client, keys);
      return (await client.get(keys.identity)) ?? id;
    },
    async seeds() {
      const text = await client.get(keys.seeds);
      if (text === null) return [];
      try {
        const value: unknown = JSON.parse(text);
        return Array.isArray(value) ? value.filter((s): s is string => typeof s === "string") : [];
      } catch {
        return [];
      }
    },
  };
}
