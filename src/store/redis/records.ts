/** The robots cache, the crawl log's records and page validators in Redis (layout: ./keys.ts). */
import { OPTIONAL_FIELDS, storedRecord, viaOut, type StoredRecord } from "../crawl-log.js";
import { StoreError } from "../errors.js";
import type {
  CachedRobots,
  CrawlRecord,
  PageStore,
  PageValidators,
  RobotsCache,
} from "../types.js";
import { urlSite, type RedisClient, type RedisKeys } from "./keys.js";

const ACTIONS: ReadonlySet<string> = new Set(["parse", "allow-all", "disallow-all", "unreachable"]);

function isAction(value: string): value is CachedRobots["action"] {
  return ACTIONS.has(value);
}

export function redisRobotsCache(client: RedisClient, keys: RedisKeys): RobotsCache {
  return {
    async get(origin) {
      const fields = await client.hgetallBuffer(keys.robots(origin));
      const text = (name: string) => fields[name]?.toString("utf8") ?? null;
      const number = (name: string) => {
        const value = text(name);
        return value === null ? null : Number(value);
      };
      const bytes = (name: string) => {
        const value = fields[name];
        return value === undefined ? null : new Uint8Array(value);
      };
      const action = text("action");
      if (action === null) return null;
      if (!isAction(action)) {
        throw new StoreError("HEED_STORE_CORRUPT", `robots cache of ${origin}: action ${action}`);
      }
      return {
        origin,
        fetchedAt: number("fetchedAt") ?? 0,
        expiresAt: number("expiresAt") ?? 0,
        status: number("status"),
        action,
        body: bytes("body"),
        lastGoodBody: bytes("lastGoodBody"),
        firstFailureAt: number("firstFailureAt"),
        attempts: number("attempts") ?? 0,
      };
    },
    async put(entry) {
      const fields: Record<string, string | Buffer> = {
        fetchedAt: String(entry.fetchedAt),
        expiresAt: String(entry.expiresAt),
        action: entry.action,
        attempts: String(entry.attempts),
      };
      // A null is an absent field.
      if (entry.status !== null) fields["status"] = String(entry.status);
      if (entry.firstFailureAt !== null) fields["firstFailureAt"] = String(entry.firstFailureAt);
      if (entry.body !== null) fields["body"] = Buffer.from(entry.body);
      if (entry.lastGoodBody !== null) fields["lastGoodBody"] = Buffer.from(entry.lastGoodBody);
      const key = keys.robots(entry.origin);
      await client.multi().del(key).hset(key, fields).exec();
    },
  };
}

/** A record as kept in the list: JSON, the optional fields left out when null. */
export function recordIn(record: CrawlRecord): string {
  const stored = storedRecord(record);
  const json: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored)) {
    if (value !== null || !(OPTIONAL_FIELDS as readonly string[]).includes(key)) json[key] = value;
  }
  return JSON.stringify(json);
}

/** A record read back from {@link recordIn}'s JSON. */
export function recordOut(text: string): StoredRecord {
  const json = JSON.parse(text) as Partial<Record<keyof CrawlRecord, unknown>>;
  const url = String(json.url);
  const as = <T>(value: unknown): T | null => (value === undefined ? null : (value as T));
  return {
    url,
    origin: String(json.origin),
    at: Number(json.at),
    ms: Number(json.ms),
    status: as<number>(json.status),
    bytes: Number(json.bytes),
    outcome: String(json.outcome),
    detail: as<string>(json.detail),
    canonical: as<string>(json.canonical),
    via: viaOut(as<string>(json.via), url),
    requiredGapMs: as<number>(json.requiredGapMs),
    gapMs: as<number>(json.gapMs),
    waitedMs: as<number>(json.waitedMs),
    usage: as<string>(json.usage),
    referrer: as<string>(json.referrer),
  };
}

/** A page's validators as kept in the pages hash: JSON without the URL (revisitAt absent when null). */
export function pageValue(page: PageValidators): string {
  const { etag, lastModified, fetchedAt, status } = page;
  const revisitAt = page.revisitAt ?? null;
  const fields = { etag, lastModified, fetchedAt, status };
  return JSON.stringify(revisitAt === null ? fields : { ...fields, revisitAt });
}

/** A page's validators read back from {@link pageValue}'s JSON. */
export function pageOut(url: string, json: string): PageValidators {
  const page = JSON.parse(json) as Omit<PageValidators, "url">;
  return { url, ...page, revisitAt: page.revisitAt ?? null };
}

export function redisPageStore(client: RedisClient, keys: RedisKeys): PageStore {
  return {
    async get(url) {
      const json = await client.hget(keys.pages(url), url);
      return json === null ? null : pageOut(url, json);
    },
    async put(page) {
      const { url } = page;
      const revisitAt = page.revisitAt ?? null;
      // The pages hash and the revisits set of one shard: one slot, one transaction.
      const P = keys.site(urlSite(url));
      const step = client.multi().hset(`${P}pages`, url, pageValue(page));
      if (revisitAt === null) step.zrem(`${P}revisits`, url);
      else step.zadd(`${P}revisits`, revisitAt, url);
      await step.exec();
    },
    due: (now, batch) => dueAcrossShards(client, keys, now, batch),
  };
}

/**
 * The pages due for a revisit at `now`, soonest first over all shards, in batches: each
 * shard's set read in batches, merged.
 */
async function* dueAcrossShards(
  client: RedisClient,
  keys: RedisKeys,
  now: number,
  batch: number,
): AsyncGenerator<string[]> {
  // Offsets, not a cursor: a member that becomes due is scored below `now`, so pages put
  // during the scan shift later batches at most by what was put.
  const read = async (P: string, offset: number) => {
    const reply = await client.zrangebyscore(
      `${P}revisits`,
      "-inf",
      now,
      "WITHSCORES",
      "LIMIT",
      offset,
      batch,
    );
    const rows: { url: string; at: number }[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      rows.push({ url: reply[i] ?? "", at: Number(reply[i + 1]) });
    }
    return rows;
  };
  const heads = await Promise.all(
    keys.shards.map(async (P) => ({ P, offset: 0, rows: await read(P, 0) })),
  );
  let out: string[] = [];
  for (;;) {
    let next: (typeof heads)[number] | null = null;
    for (const head of heads) {
      const first = head.rows[0];
      if (first !== undefined && (next === null || first.at < (next.rows[0]?.at ?? Infinity))) {
        next = head;
      }
    }
    if (next === null) break;
    const row = next.rows.shift();
    if (row !== undefined) out.push(row.url);
    next.offset++;
    if (next.rows.length === 0 && next.offset % batch === 0) {
      next.rows = await read(next.P, next.offset);
    }
    if (out.length === batch) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}
