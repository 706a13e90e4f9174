/**
 * The distributed store: Redis (ioredis), shared by crawler processes on many machines. Every
 * key starts with `prefix` (layout: ./keys.ts); the frontier's steps are Lua scripts, atomic
 * on the server. One Redis server, or a Redis Cluster over which the sites' shards spread.
 */
import { Cluster, type Command, Redis } from "ioredis";
import { SampledClock } from "../clock.js";
import { StoreError } from "../errors.js";
import { redisTime } from "./clock.js";
import { redisWriteCounter } from "./write-count.js";
import type { CrawlStore } from "../types.js";
import { redisFrontier, type FrontierClient } from "./frontier.js";
import { SHARDS, redisKeys, type RedisClient, type RedisKeys } from "./keys.js";
import { redisDatasetCatalogs } from "./datasets.js";
import { redisItemLog } from "./items.js";
import { definePageStepCommands, redisPageSteps, type PageStepCommands } from "./page-steps.js";
import { redisCrawlLog } from "./log-shards.js";
import { redisPageStore, redisRobotsCache } from "./records.js";
import { storeRefusal } from "./refusals.js";
import { clusterGaveUp } from "./cluster-gave-up.js";
import { ADD, CLAIM_READY, LEASE, READY, RECOVER, SETTLE, SET_NEXT } from "./scripts.js";
import {
  defineReservationCommands,
  redisReservations,
  type ReservationCommands,
} from "./reservations.js";

export interface RedisStoreOptions {
  /**
   * `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS), or a Redis Cluster:
   * `redis+cluster://host:port,host:port,…` (any of its nodes; the client finds the others).
   */
  readonly url: string;
  /** Starts every key, e.g. `heed:crawl-1:`; crawls with different prefixes do not meet. */
  readonly prefix: string;
  /** How long the first connection may take, in ms (default 10000). */
  readonly connectTimeoutMs?: number;
  /**
   * How long a connection lost later is waited for, in ms (default 60000); calls wait meanwhile.
   * Then the store gives up: calls fail and {@link CrawlStore.failure} says why. A server that
   * keeps its connection open but answers no call for this long is given up the same way.
   */
  readonly unreachableMs?: number;
  /** Told when the connection is lost (`back` false, with since when) and when it is back. */
  readonly onConnection?: (event: { readonly back: boolean; readonly since: number }) => void;
  /**
   * Told when the store gives up on the server: unreachable or silent for `unreachableMs`, or
   * refusing writes (out of memory, read-only, unable to save); calls may never settle.
   */
  readonly onFailure?: (error: Error) => void;
}

const DEFAULT_UNREACHABLE_MS = 60_000;

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** How often a connection that is open is checked for answers that stopped coming (ms). */
const SILENCE_CHECK_MS = 1000;
/** After the first connection, a lost one is tried again after at most this long (ms). */
const MAX_RECONNECT_DELAY_MS = 2_000;
/** How often a call answered CLUSTERDOWN is made again (ms). */
const CLUSTER_DOWN_RETRY_MS = 200;
/** MOVED and ASK answers a call may follow (ioredis's default), on top of CLUSTERDOWN's. */
const CLUSTER_REDIRECTIONS = 16;

export async function openRedisStore(options: RedisStoreOptions): Promise<CrawlStore> {
  const { url } = options;
  const nodes = clusterNodes(url);
  if (nodes === null && !/^rediss?:\/\//i.test(url)) {
    throw new StoreError(
      "HEED_STORE_BAD_ARGUMENT",
      `url: expected redis://…, rediss://… or redis+cluster://…, got ${JSON.stringify(url)}`,
    );
  }
  if (typeof options.prefix !== "string") {
    throw new StoreError(
      "HEED_STORE_BAD_ARGUMENT",
      `prefix: expected a string, got ${typeof options.prefix}`,
    );
  }
  // Each shard of sites is one hash slot (./keys.ts); a prefix with its own hash tag keeps the
  // whole crawl in that tag's slot.
  const prefix = options.prefix;

  let connected = false;
  let lastError: unknown = null;
  const unreachableMs = options.unreachableMs ?? DEFAULT_UNREACHABLE_MS;
  let failure: StoreError | null = null;
  const giveUpOn = (error: StoreError): void => {
    if (failure !== null) return;
    failure = error;
    // Calls waiting for the connection, or for answers that will not come, fail now.
    client.disconnect();
    options.onFailure?.(failure);
  };
  const connection = {
    // RESP2: the scripts' replies (false → null) and the reply shapes are those of every Redis
    // since 2.6, whatever the server speaks.
    protocol: 2,
    connectTimeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // Calls made while the connection is lost wait for it (not 20 tries and a stack trace).
    maxRetriesPerRequest: null,
  } as const;
  // Fail the first connection at once (a wrong URL should say so); later, reconnect until the
  // bounded wait below gives up.
  const retry = (times: number): number | null =>
    connected && failure === null ? Math.min(times * 100, MAX_RECONNECT_DELAY_MS) : null;
  const client: RedisClient =
    nodes === null
      ? new Redis(url, { ...connection, lazyConnect: true, retryStrategy: retry })
      : new Cluster(nodes, {
          lazyConnect: true,
          clusterRetryStrategy: retry,
          redisOptions: connection,
          // A master restarting answers CLUSTERDOWN until it has joined again: a call waits
          // for that as for a lost connection, up to the same bounded wait, not 16 tries.
          retryDelayOnClusterDown: CLUSTER_DOWN_RETRY_MS,
          maxRedirections: CLUSTER_REDIRECTIONS + Math.ceil(unreachableMs / CLUSTER_DOWN_RETRY_MS),
        });
  const watched = watchCommands(client);
  watched.onCommandError = (error) => {
    if (failure !== null || !connected) return;
    const gaveUp = error instanceof Error ? clusterGaveUp(error.message) : null;
    if (gaveUp !== null) {
      giveUpOn(
        new StoreError(
          "HEED_STORE_UNAVAILABLE",
          `store ${redact(url)} did not answer: ${gaveUp} ` +
            `(waited up to ${Math.round(unreachableMs / 1000)} s)`,
          { cause: error },
        ),
      );
      return;
    }
    const refused = storeRefusal(error);
    if (refused !== null) {
      giveUpOn(
        new StoreError(
          "HEED_STORE_UNAVAILABLE",
          `store ${redact(url)} refuses writes: ${refused}`,
          {
            cause: error,
          },
        ),
      );
    }
  };
  // A server that holds the connection open and answers nothing (stopped, swapping, stuck in a
  // script) is as gone as one unreachable: the same bounded wait applies. One timer for the
  // store, not one a call (ioredis's commandTimeout keeps a process alive on calls that fail).
  const silence = setInterval(() => {
    if (failure !== null || client.status !== "ready" || watched.silentFor() <= unreachableMs)
      return;
    giveUpOn(
      new StoreError(
        "HEED_STORE_UNAVAILABLE",
        `store ${redact(url)} answered nothing for ${Math.round(unreachableMs / 1000)} s ` +
          "with its connection open",
      ),
    );
  }, SILENCE_CHECK_MS);
  silence.unref();
  // Without a listener ioredis prints every connection error; keep the last as the cause.
  client.on("error", (error: unknown) => {
    lastError = error;
  });
  let downSince: number | null = null;
  let giveUp: NodeJS.Timeout | null = null;
  client.on("close", () => {
    if (!connected || downSince !== null || failure !== null) return;
    downSince = Date.now();
    options.onConnection?.({ back: false, since: downSince });
    const since = downSince;
    giveUp = setTimeout(() => {
      giveUpOn(
        new StoreError(
          "HEED_STORE_UNAVAILABLE",
          `store ${redact(url)} unreachable since ${new Date(since).toISOString()} ` +
            `(waited ${Math.round(unreachableMs / 1000)} s)`,
          { cause: lastError },
        ),
      );
    }, unreachableMs);
    // Not unref'd: calls waiting for the connection are all that is left to keep the process
    // alive, and the wait must end with its error, not with an exit as if finished.
  });
  client.on("ready", () => {
    if (downSince === null) return;
    const since = downSince;
    downSince = null;
    if (giveUp !== null) clearTimeout(giveUp);
    options.onConnection?.({ back: true, since });
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

  client.defineCommand("heedAdd", { lua: ADD, numberOfKeys: 1 });
  client.defineCommand("heedLease", { lua: LEASE, numberOfKeys: 1 });
  client.defineCommand("heedSettle", { lua: SETTLE, numberOfKeys: 1 });
  client.defineCommand("heedRecover", { lua: RECOVER, numberOfKeys: 1 });
  client.defineCommand("heedSetNext", { lua: SET_NEXT, numberOfKeys: 1 });
  client.defineCommand("heedReady", { lua: READY, numberOfKeys: SHARDS });
  client.defineCommand("heedClaimReady", { lua: CLAIM_READY });
  defineReservationCommands(client);
  definePageStepCommands(client);
  const clock = await SampledClock.start({ read: redisTime(client, prefix) });

  // Once: a second close (a caller's cleanup after its own) must not send QUIT again on a
  // connection the first one is closing: that command would fail with "Connection is closed."
  // whenever the server's close had not reached the client yet, as on a busy machine.
  let closing: Promise<void> | null = null;
  const closeClient = async (): Promise<void> => {
    connected = false;
    clearInterval(silence);
    clock.stop();
    if (giveUp !== null) clearTimeout(giveUp);
    // Connected: QUIT lets the replies in flight arrive; otherwise there is nothing to wait for.
    if (client.status !== "ready") return client.disconnect();
    await client.quit().catch((error: unknown) => {
      // The connection ended before QUIT's reply: closed all the same.
      if (!(error instanceof Error && error.message === "Connection is closed.")) throw error;
    });
  };
  const keys = redisKeys(prefix);
  try {
    await refuseOlderLayout(client, keys, nodes === null ? null : `{${prefix}}`);
  } catch (error) {
    await closeClient();
    throw error;
  }
  const pages = redisPageStore(client, keys);
  const writes = redisWriteCounter(client, keys, giveUpOn);
  return {
    shared: true,
    frontier: redisFrontier(client as FrontierClient, keys, writes),
    steps: redisPageSteps(client as FrontierClient & PageStepCommands, keys, pages, writes),
    robots: redisRobotsCache(client, keys),
    reservations: redisReservations(client as Redis & ReservationCommands, keys),
    log: redisCrawlLog(client, keys),
    pages,
    datasets: redisDatasetCatalogs(client, keys),
    items: redisItemLog(client, keys),
    now: clock.now,
    writes,
    failure: () => failure,
    close() {
      closing ??= closeClient();
      return closing;
    },
  };
}

/**
 * A crawl written in the layout before shards (one hash for each queued URL, one ready set)
 * cannot be read in this one, and read as empty it would start over: refused, naming the way
 * on. On a cluster that layout had the prefix in braces (`clusterPrefix`).
 */
async function refuseOlderLayout(
  client: RedisClient,
  keys: RedisKeys,
  clusterPrefix: string | null,
): Promise<void> {
  const prefixes = clusterPrefix === null ? [keys.prefix] : [keys.prefix, clusterPrefix];
  // One key a call: on a cluster they are in different slots.
  const found = await Promise.all(
    prefixes.map(async (prefix) => {
      const held = await Promise.all(redisKeys(prefix).older.map((key) => client.exists(key)));
      return held.some((n) => n > 0) ? prefix : null;
    }),
  );
  const older = found.find((prefix) => prefix !== null);
  if (older === undefined || older === null) return;
  throw new StoreError(
    "HEED_STORE_OLDER_LAYOUT",
    `prefix ${JSON.stringify(keys.prefix)} holds a crawl stored by an older heed, in a key ` +
      "layout this one does not read (docs/crawl.md, The Redis layout): finish it with the heed " +
      "that started it, or crawl under another prefix, or delete its keys " +
      `(redis-cli --scan --pattern '${older}*' | xargs redis-cli del)`,
  );
}

/**
 * Every command's error shown to `onCommandError` (the store's give-up rules), and how long
 * calls have waited with no answer coming: the client's sendCommand, wrapped.
 */
function watchCommands(client: RedisClient): {
  onCommandError: (error: unknown) => void;
  silentFor(): number;
} {
  /** Calls sent and not answered yet. */
  let waiting = 0;
  /** When an answer last came, or the first call of a quiet spell went out (ms, monotonic). */
  let lastAnswer = performance.now();
  const watch = {
    onCommandError: (_error: unknown): void => {},
    /** How long calls have waited with no answer coming (ms); 0 when none waits. */
    silentFor: (): number => (waiting === 0 ? 0 : performance.now() - lastAnswer),
  };
  const send = client.sendCommand.bind(client) as (command: Command, ...rest: unknown[]) => unknown;
  const answered = (): void => {
    waiting--;
    lastAnswer = performance.now();
  };
  client.sendCommand = ((command: Command, ...rest: unknown[]): unknown => {
    if (waiting === 0) lastAnswer = performance.now();
    waiting++;
    const sent = send(command, ...rest);
    command.promise.then(answered, (error: unknown) => {
      answered();
      watch.onCommandError(error);
    });
    return sent;
  }) as typeof client.sendCommand;
  return watch;
}

/** The nodes of a `redis+cluster://host:port,host:port,…` URL; null for any other URL. */
export function clusterNodes(url: string): { host: string; port: number }[] | null {
  const m = /^redis\+cluster:\/\/([^/?#]*)\/?$/i.exec(url);
  if (m === null) return null;
  const nodes = (m[1] ?? "").split(",").map((node) => {
    const at = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(node.trim());
    const port = Number(at?.[2] ?? "6379");
    if (at === null || port < 1 || port > 65535)
      throw new StoreError(
        "HEED_STORE_BAD_ARGUMENT",
        `url: expected redis+cluster://host:port,host:port,…, got ${JSON.stringify(node)} in ${JSON.stringify(url)}`,
      );
    return { host: (at[1] ?? "").replace(/^\[|\]$/g, ""), port };
  });
  return nodes;
}

/**
 * A prefix whose keys all fall in one cluster hash slot: its own hash tag when it has one,
 * else the whole prefix in braces (`crawl:` is kept as `{crawl:}`).
 */
export function slotPrefix(prefix: string): string {
  return /\{[^}]+\}/.test(prefix) ? prefix : `{${prefix}}`;
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}
