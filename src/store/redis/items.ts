/** The records page handlers pushed, in Redis: one list (`P items`, ./keys.ts), JSON texts. */
import { checkBatch } from "../crawl-log.js";
import { checkItems } from "../items.js";
import type { ItemLog } from "../types.js";
import type { RedisClient, RedisKeys } from "./keys.js";

export function redisItemLog(client: RedisClient, keys: RedisKeys): ItemLog {
  return {
    async append(items) {
      checkItems(items);
      // One RPUSH: the records of one call land together, in order, or not at all.
      if (items.length > 0) await client.rpush(keys.items, ...items);
    },
    async *scan(batch) {
      checkBatch(batch);
      // The list only grows at its tail, so a position names the same record throughout.
      for (let offset = 0; ; offset += batch) {
        const rows = await client.lrange(keys.items, offset, offset + batch - 1);
        if (rows.length === 0) return;
        yield rows;
        if (rows.length < batch) return;
      }
    },
    async count() {
      return client.llen(keys.items);
    },
  };
}
