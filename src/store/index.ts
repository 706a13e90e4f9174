/**
 * Where a crawl keeps its frontier, robots cache, site reservations, log and page validators: an
 * SQLite file (the embedded default) or Redis (many crawler processes on many machines), behind
 * the interfaces of ./types.ts (DESIGN §2).
 */
export type * from "./types.js";
export { StoreError, type StoreErrorCode } from "./errors.js";
export { MAX_ITEM_CHARS } from "./items.js";
import type { CrawlStore } from "./types.js";
import type { RedisStoreOptions } from "./redis/index.js";
export type { RedisStoreOptions } from "./redis/index.js";
export { openSqliteStore, type SqliteStoreOptions } from "./sqlite/index.js";
export { DEFAULT_REDIS_PREFIX, openStore } from "./open.js";

/**
 * Opens the store in Redis (redis/index.ts). The Redis client is loaded on first use, as
 * openStore does: a program that never opens a Redis store does not carry it in memory.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<CrawlStore> {
  const redis = await import("./redis/index.js");
  return redis.openRedisStore(options);
}
