/**
 * The Redis store's write count (../write-counter.ts): one key a shard, `T writes`, incremented
 * inside the lease and settle scripts of that shard (the page path's and the frontier's own), so
 * that the count a call returns comes from the very state it leased from or settled into, in the
 * script's own slot. A snapshot restored, or a replica promoted, holds the counts it had then:
 * lower than what a process saw.
 */
import { WriteCounter } from "../write-counter.js";
import type { StoreError } from "../errors.js";
import type { RedisClient, RedisKeys } from "./keys.js";

/**
 * Lua: `countWrite()` increments the shard's count and returns it, negated when the shard holds
 * no mark of the crawl's identity (`T held`, set with the identity: the identity itself is in
 * another slot). Needs PRELUDE's `P`. Read by {@link wroteCount}.
 */
export const COUNT_WRITE_BODY = `
local function countWrite()
  local n = redis.call('INCR', P .. 'writes')
  if redis.call('EXISTS', P .. 'held') == 0 then return -n end
  return n
end
`;

/** Hands `countWrite()`'s answer, from shard part `shard`, to the counter. */
export function wroteCount(counter: WriteCounter, answer: unknown, shard: string): void {
  const n = Number(answer);
  counter.wrote(Math.abs(n), n > 0, shard);
}

/** Marks every shard as holding the crawl's identity (after it is set; idempotent). */
export async function markShardsHeld(client: RedisClient, keys: RedisKeys): Promise<void> {
  await Promise.all(keys.shards.map((T) => client.set(`${T}held`, "1")));
}

export function redisWriteCounter(
  client: RedisClient,
  keys: RedisKeys,
  onWentBack: (error: StoreError) => void,
): WriteCounter {
  // Each shard counts apart (a cluster has no key every script could reach): the store's count
  // is their sum, which only grows while no shard goes back.
  const parts = async (): Promise<ReadonlyMap<string, number>> => {
    const counts = await Promise.all(keys.shards.map((T) => client.get(`${T}writes`)));
    return new Map(keys.shards.map((T, i) => [T, Number(counts[i] ?? 0)]));
  };
  return new WriteCounter(parts, onWentBack);
}
