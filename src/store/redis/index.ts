/**
 * The distributed store: Redis (ioredis), shared by crawler processes on many machines. Every
 * key starts with `prefix` (layout: ./keys.ts); the frontier's steps are Lua scripts, atomic
 * on the server. Needs one Redis server (or one cluster slot: put a hash tag in the prefix).
 */
import { Redis } from "ioredis";
import { StoreError } from "../errors.js";
import type { CrawlStore } from "../types.js";
import { redisFrontier, type FrontierClient } from "./frontier.js";
import { redisKeys } from "./keys.js";
import { redisDatasetCatalogs } from "./datasets.js";
import { redisCrawlLog, redisHostStore, redisPageStore, redisRobotsCache } from "./records.js";
import { ADD, LEASE, RECOVER, SETTLE, SET_NEXT } from "./scripts.js";
import {
  defineReservationCommands,
  redisReservations,
  type ReservationCommands,
} from "./reservations.js";

export interface RedisStoreOptions {
  /** `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS). */
  readonly url: string;
  /** Starts every key, e.g. `heed:crawl-1:`; crawls with different prefixes do not meet. */
  readonly prefix: string;
  /** How long the first connection may take, in ms (default 10000). */
  readonly connectTimeoutMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** After the first connection, a lost one is tried again after at most this long (ms). */
const MAX_RECONNECT_DELAY_MS = 2_000;

export async function openRedisStore(options: RedisStoreOptions): Promise<CrawlStore> {
  const { url, prefix } = options;
  if (!/^rediss?:\/\//i.test(url)) {
    throw new StoreError(
      "HEED_STORE_BAD_ARGUMENT",
      `url: expected redis://… or rediss://…, got ${JSON.stringify(url)}`,
    );
  }
  if (typeof prefix !== "string") {
    throw new StoreError(
      "HEED_STORE_BAD_ARGUMENT",
      `prefix: expected a string, got ${typeof prefix}`,
    );
  }

  let connected = false;
  let lastError: unknown = null;
  const client = new Redis(url, {
    lazyConnect: true,
    // RESP2: the scripts' replies (false → null) and the reply shapes are those of every Redis
    // since 2.6, whatever the server speaks.
    protocol: 2,
    connectTimeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // Fail the first connection at once (a wrong URL should say so); later, reconnect.
    retryStrategy: (times) => (connected ? Math.min(times * 100, MAX_RECONNECT_DELAY_MS) : null),
  });
  // Without a listener ioredis prints every connection error; keep the last as the cause.
  client.on("error", (error: unknown) => {
    lastError = error;
  });
  try {
    await client.connect();
    connected = true;
  } catch (error) {
    client.disconnect();
    throw new StoreError("HEED_STORE_UNAVAILABLE", `cannot connect to Redis at ${redact(url)}`, {
      cause: lastError ?? error,
    });
  }

  client.defineCommand("heedAdd", { lua: ADD, numberOfKeys: 0 });
  client.defineCommand("heedLease", { lua: LEASE, numberOfKeys: 0 });
  client.defineCommand("heedSettle", { lua: SETTLE, numberOfKeys: 0 });
  client.defineCommand("heedRecover", { lua: RECOVER, numberOfKeys: 0 });
  client.defineCommand("heedSetNext", { lua: SET_NEXT, numberOfKeys: 0 });
  defineReservationCommands(client);

  const keys = redisKeys(prefix);
  return {
    shared: true,
    frontier: redisFrontier(client as FrontierClient, prefix, keys),
    robots: redisRobotsCache(client, keys),
    hosts: redisHostStore(client, keys),
    reservations: redisReservations(client as Redis & ReservationCommands, prefix),
    log: redisCrawlLog(client, keys),
    pages: redisPageStore(client, keys),
    datasets: redisDatasetCatalogs(client, keys),
    async close() {
      connected = false;
      // Connected: QUIT lets the replies in flight arrive; otherwise there is nothing to wait for.
      if (client.status === "ready") await client.quit();
      else client.disconnect();
    },
  };
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}
