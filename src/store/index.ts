/**
 * Where a crawl keeps its frontier, robots cache, host state, log and page validators: an
 * SQLite file (the embedded default) or Redis (many crawler processes on many machines), behind
 * the interfaces of ./types.ts (DESIGN §2).
 */
import { openRedisStore, type RedisStoreOptions } from "./redis/index.js";
import { openSqliteStore } from "./sqlite/index.js";
import type { CrawlStore } from "./types.js";

export type * from "./types.js";
export { StoreError, type StoreErrorCode } from "./errors.js";
export { MAX_ITEM_CHARS } from "./items.js";
export { openRedisStore, type RedisStoreOptions } from "./redis/index.js";
export { openSqliteStore, type SqliteStoreOptions } from "./sqlite/index.js";

/** The key prefix of a Redis store opened by {@link openStore} without `#prefix`. */
export const DEFAULT_REDIS_PREFIX = "heed:";

/**
 * Opens a store from one string, as a command line gives it: `redis://…` or `rediss://…` is
 * Redis (the URL's fragment, if any, is the key prefix: `redis://host:6379/0#crawl-1:`);
 * anything else is the path of an SQLite file, created when missing.
 */
export async function openStore(
  spec: string,
  redis: Omit<RedisStoreOptions, "url" | "prefix"> = {},
): Promise<CrawlStore> {
  if (/^rediss?:\/\//i.test(spec)) {
    const hash = spec.indexOf("#");
    const url = hash === -1 ? spec : spec.slice(0, hash);
    const prefix = hash === -1 ? DEFAULT_REDIS_PREFIX : decodeURIComponent(spec.slice(hash + 1));
    return openRedisStore({ ...redis, url, prefix });
  }
  return openSqliteStore(spec);
}
