/**
 * Where a crawl keeps its frontier, robots cache, host state, log and page validators: an
 * SQLite file (the embedded default) or Redis (many crawler processes on many machines), behind
 * the interfaces of ./types.ts (DESIGN §2).
 */
export type * from "./types.js";
export { StoreError, type StoreErrorCode } from "./errors.js";
export { MAX_ITEM_CHARS } from "./items.js";
export { openRedisStore, type RedisStoreOptions } from "./redis/index.js";
export { openSqliteStore, type SqliteStoreOptions } from "./sqlite/index.js";
export { DEFAULT_REDIS_PREFIX, openStore } from "./open.js";
