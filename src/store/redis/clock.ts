/**
 * The Redis store's time: `TIME` on the server holding the crawl's keys. Asked through a
 * script naming a key of the crawl, so that on a cluster it is the master of the crawl's slot
 * that answers, the one whose scripts keep the gaps.
 */
import type { Redis } from "ioredis";
import type { RedisClient } from "./keys.js";

/** ms since the epoch by the server's clock. */
const TIME = `
local t = redis.call('TIME')
return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

interface ClockCommands {
  heedTime(key: string): Promise<number>;
}

/** Defines the script and returns the reading: one round trip. */
export function redisTime(client: RedisClient, prefix: string): () => Promise<number> {
  client.defineCommand("heedTime", { lua: TIME, numberOfKeys: 1 });
  const commands = client as Redis & ClockCommands;
  // Never written: it only routes the script to the crawl's slot.
  const key = `${prefix}clock`;
  return () => commands.heedTime(key).then(Number);
}
