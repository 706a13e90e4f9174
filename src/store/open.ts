/**
 * Opening a store from the one string a command line gives. The back end's code is loaded only
 * when asked for: a crawl on Redis does not load SQLite's native module, nor one on a file
 * Redis's client, and many processes starting at once start sooner.
 */
import type { RedisStoreOptions } from "./redis/index.js";
import type { CrawlStore } from "./types.js";

/** The key prefix of a Redis store opened by {@link openStore} without `#prefix`. */
export const DEFAULT_REDIS_PREFIX = "heed:";

/** Does a store spec name Redis (`redis://`, `rediss://`, `redis+cluster://`) rather than a file? */
export function isRedisSpec(spec: string): boolean {
  return /^(?:rediss?|redis\+cluster):\/\//i.test(spec);
}

/**
 * Opens a store from one string, as a command line gives it: `redis://…` or `rediss://…` is
 * Redis (the URL's fragment, if any, is the key prefix: `redis://host:6379/0#crawl-1:`), and
 * `redis+cluster://host:port,host:port,…#prefix` a Redis Cluster (the prefix gets braces, a hash
 * tag, unless it has one); anything else is the path of an SQLite file, created when missing.
 */
export async function openStore(
  spec: string,
  redis: Omit<RedisStoreOptions, "url" | "prefix"> = {},
): Promise<CrawlStore> {
  if (isRedisSpec(spec)) {
    const hash = spec.indexOf("#");
    const url = hash === -1 ? spec : spec.slice(0, hash);
    const prefix = hash === -1 ? DEFAULT_REDIS_PREFIX : decodeURIComponent(spec.slice(hash + 1));
    const { openRedisStore } = await import("./redis/index.js");
    return openRedisStore({ ...redis, url, prefix });
  }
  const { openSqliteStore } = await import("./sqlite/index.js");
  return openSqliteStore(spec);
}
