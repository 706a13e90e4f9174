/**
 * The robot's RUP state in Redis, beside a shared crawl store (same URL, same prefix). Layout,
 * every key after the prefix:
 *
 *     rup:sites              set of the origins registered with
 *     rup:site:<origin>      hash: the registration's fields
 *     rup:reports:<origin>   list of JSON records of the reports taken in, oldest first
 *     rup:gone:<origin>      hash: URL → JSON { at, seq } of URLs reported deleted
 *
 * `took` is one Lua script: the record, the URLs gone and the sequence number move together,
 * and the sequence number never moves back, whichever inbox process takes a report in.
 */
import { Cluster, Redis } from "ioredis";
import { StoreError } from "../../store/errors.js";
import { clusterNodes, slotPrefix } from "../../store/redis/index.js";
import type { ReceivedReport, RobotState, SiteRegistration } from "./robot-state.js";

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * KEYS: site hash, reports list, gone hash. ARGV: report JSON, seq, receivedAt, duplicate
 * ("1"/"0"), then url, gone JSON pairs.
 */
const TOOK = `
redis.call('RPUSH', KEYS[2], ARGV[1])
for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
if ARGV[4] == '0' and redis.call('EXISTS', KEYS[1]) == 1 then
  local last = tonumber(redis.call('HGET', KEYS[1], 'lastSeq') or '0')
  if tonumber(ARGV[2]) > last then redis.call('HSET', KEYS[1], 'lastSeq', ARGV[2]) end
  redis.call('HSET', KEYS[1], 'lastReportAt', ARGV[3])
end
return 1
`;

type TookClient = (Redis | Cluster) & {
  heedRupTook(k1: string, k2: string, k3: string, ...args: string[]): Promise<number>;
};

const FIELDS = [
  "urlBase",
  "cgiUrl",
  "email",
  "key",
  "latency",
  "maxQuerySpanMs",
  "spanUnit",
  "lastSeq",
  "lastReportAt",
  "registeredAt",
] as const;

function fromHash(origin: string, h: Record<string, string>): SiteRegistration | null {
  if (h.cgiUrl === undefined) return null;
  const num = (v: string | undefined): number => Number(v ?? "0");
  return {
    origin,
    urlBase: h.urlBase ?? "",
    cgiUrl: h.cgiUrl,
    email: h.email ?? "",
    key: h.key ?? "",
    latency: h.latency === undefined || h.latency === "" ? null : h.latency,
    maxQuerySpanMs:
      h.maxQuerySpanMs === undefined || h.maxQuerySpanMs === "" ? null : num(h.maxQuerySpanMs),
    spanUnit: h.spanUnit ?? "day",
    lastSeq: num(h.lastSeq),
    lastReportAt: num(h.lastReportAt),
    registeredAt: num(h.registeredAt),
  };
}

export async function openRedisRobotState(options: {
  url: string;
  prefix: string;
}): Promise<RobotState> {
  // On a Redis Cluster, the crawl store's hash tag: every key in one slot, as `took` and the
  // transactions below need.
  const nodes = clusterNodes(options.url);
  const connection = { protocol: 2, connectTimeout: CONNECT_TIMEOUT_MS } as const;
  const client = (
    nodes === null
      ? new Redis(options.url, { ...connection, lazyConnect: true, retryStrategy: () => null })
      : new Cluster(nodes, {
          lazyConnect: true,
          clusterRetryStrategy: () => null,
          redisOptions: connection,
        })
  ) as TookClient;
  let lastError: unknown = null;
  client.on("error", (error: unknown) => {
    lastError = error;
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new StoreError(
      "HEED_STORE_UNAVAILABLE",
      `cannot connect to Redis at ${options.url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@")}`,
      { cause: lastError ?? error },
    );
  }
  client.defineCommand("heedRupTook", { lua: TOOK, numberOfKeys: 3 });
  const p = `${nodes === null ? options.prefix : slotPrefix(options.prefix)}rup:`;
  const key = {
    sites: `${p}sites`,
    site: (origin: string) => `${p}site:${origin}`,
    reports: (origin: string) => `${p}reports:${origin}`,
    gone: (origin: string) => `${p}gone:${origin}`,
  };

  const state: RobotState = {
    async site(origin) {
      return fromHash(origin, await client.hgetall(key.site(origin)));
    },
    async sites() {
      const origins = (await client.smembers(key.sites)).sort();
      const out: SiteRegistration[] = [];
      for (const origin of origins) {
        const r = await state.site(origin);
        if (r !== null) out.push(r);
      }
      return out;
    },
    async save(r) {
      const fields: Record<string, string> = {};
      for (const f of FIELDS) fields[f] = r[f] === null ? "" : String(r[f]);
      await client
        .multi()
        .del(key.site(r.origin))
        .hset(key.site(r.origin), fields)
        .sadd(key.sites, r.origin)
        .exec();
    },
    async remove(origin) {
      await client.multi().del(key.site(origin)).srem(key.sites, origin).exec();
    },
    async took(report, gone) {
      const args = [
        JSON.stringify(report),
        String(report.seq),
        String(report.receivedAt),
        report.outcome === "duplicate" ? "1" : "0",
        ...gone.flatMap((g) => [g.url, JSON.stringify({ at: g.at, seq: report.seq })]),
      ];
      await client.heedRupTook(
        key.site(report.origin),
        key.reports(report.origin),
        key.gone(report.origin),
        ...args,
      );
    },
    async back(urls) {
      if (urls.length === 0) return;
      // The gone hash of each URL's origin.
      const byOrigin = new Map<string, string[]>();
      for (const u of urls) {
        const o = new URL(u).origin;
        byOrigin.set(o, [...(byOrigin.get(o) ?? []), u]);
      }
      const multi = client.multi();
      for (const [o, list] of byOrigin) multi.hdel(key.gone(o), ...list);
      await multi.exec();
    },
    async reports(origin) {
      return (await client.lrange(key.reports(origin), 0, -1)).map(
        (j) => JSON.parse(j) as ReceivedReport,
      );
    },
    async gone(origin) {
      return (await client.hkeys(key.gone(origin))).sort();
    },
    async close() {
      if (client.status === "ready") await client.quit();
      else client.disconnect();
    },
  };
  return state;
}
