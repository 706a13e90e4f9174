/**
 * The Redis store's write count (../write-counter.ts): one key, `<prefix>writes`, incremented
 * inside the lease and page-settle scripts, so that the count a call returns comes from the
 * very state it leased from or settled into. A snapshot restored, or a replica promoted, holds
 * the count it had then: lower than what a process saw since.
 */
import { WriteCounter } from "../write-counter.js";
import type { StoreError } from "../errors.js";
import type { RedisClient } from "./keys.js";

/**
 * Lua: `countWrite()` increments the count and returns it, negated when the store holds no
 * crawl identity (needs PRELUDE's `P`). Read by {@link wroteCount}.
 */
export const COUNT_WRITE_BODY = `
local function countWrite()
  local n = redis.call('INCR', P .. 'writes')
  if redis.call('EXISTS', P .. 'identity') == 0 then return -n end
  return n
end
`;

/** Hands `countWrite()`'s answer to the counter. */
export function wroteCount(counter: WriteCounter, answer: unknown): void {
  const n = Number(answer);
  counter.wrote(Math.abs(n), n > 0);
}

export function redisWriteCounter(
  client: RedisClient,
  prefix: string,
  onWentBack: (error: StoreError) => void,
): WriteCounter {
  return new WriteCounter(
    async () => Number((await client.get(`${prefix}writes`)) ?? 0),
    onWentBack,
  );
}
