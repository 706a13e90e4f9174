// The crawl log a shard (src/store/redis/log-shards.ts): a page's log line goes into its settle
// script, so a page costs the same client commands on a real 3-master Redis Cluster as on one
// Redis, counted with MONITOR on every server; and the log reads back in the order its lines
// were written, merged over the shards, on both.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { openRedisStore } from "../../src/store/redis/index.js";
import { redisKeys } from "../../src/store/redis/keys.js";
import type { CrawlRecord, CrawlStore } from "../../src/store/types.js";
import { clusterForFile } from "../helpers/redis-cluster.js";
import { monitorCommands } from "../helpers/redis-monitor.js";
import { redisForFile } from "../helpers/redis-server.js";
import { newUrl } from "./new-url.js";

const cluster = clusterForFile();
const redis = redisForFile();

/** Sites enough that every master of the cluster holds some (8 shards over 3 masters). */
const SITES = Array.from({ length: 16 }, (_, i) => `https://site-${i}.example`);
const T0 = 1_700_000_000_000;
const LEASE_MS = 60_000;
const RULE = { gapMs: 0, rate: null, inFlight: 1 } as const;

let prefixes = 0;

interface Place {
  readonly name: string;
  /** The store's URL and every server's own URL (what MONITOR is asked on). */
  servers(): Promise<{ url: string; nodes: readonly string[] }>;
}

const places: readonly Place[] = [
  {
    name: "redis",
    servers: async () => {
      const url = await redis.url();
      return { url, nodes: [url] };
    },
  },
  {
    name: "redis-cluster",
    servers: async () => {
      const c = await cluster.cluster();
      return { url: c.url, nodes: c.nodes.map((n) => n.url) };
    },
  },
];

function record(origin: string, path: string, at: number): CrawlRecord {
  return {
    url: `${origin}${path}`,
    origin,
    at,
    ms: 1,
    status: 200,
    bytes: 10,
    outcome: "fetched",
    detail: null,
  };
}

/** One page of `origin` through the page steps: reserve and lease, release, settle with its log line. */
async function onePage(store: CrawlStore, origin: string, at: number): Promise<string> {
  const got = await store.steps.leaseReserved(origin, "p1", at, RULE, LEASE_MS);
  assert.ok(got.granted && got.lease !== null, JSON.stringify(got));
  await store.reservations.release(origin, got.id, at + 1, 0, true);
  const path = new URL(got.lease.entry.url).pathname;
  await store.steps.settle(
    got.lease,
    { kind: "done", status: 200, at: at + 1 },
    { record: record(origin, path, at) },
  );
  return got.lease.entry.url;
}

for (const place of places) {
  describe(`${place.name}: the crawl log a shard`, { timeout: 120_000 }, () => {
    it("a page costs three client commands, its log line inside the settle", async () => {
      const { url, nodes } = await place.servers();
      const store = await openRedisStore({ url, prefix: `heed-log-${process.pid}-${++prefixes}:` });
      try {
        await store.frontier.add(SITES.flatMap((o) => [newUrl(o, "/1"), newUrl(o, "/2")]));
        // Each script loaded on each server first: a first call may be EVALSHA, then EVAL.
        for (const origin of SITES) await onePage(store, origin, T0);
        const count = await monitorCommands(nodes);
        try {
          for (const origin of SITES) await onePage(store, origin, T0 + 10);
        } finally {
          count.stop();
        }
        const byName = JSON.stringify([...count.byName]);
        assert.equal(count.byName.get("RPUSH") ?? 0, 0, byName);
        // Lease, release, settle: the store's clock may read its time once meanwhile.
        assert.ok(count.commands <= 3 * SITES.length + 1, `${count.commands}: ${byName}`);
        assert.equal(await store.log.count(), 2 * SITES.length);
      } finally {
        await store.close();
      }
    });

    it("reads back every line in the order written, over the shards, by any page", async () => {
      const { url } = await place.servers();
      const prefix = `heed-log-${process.pid}-${++prefixes}:`;
      const store = await openRedisStore({ url, prefix });
      const other = await openRedisStore({ url, prefix });
      try {
        // A log written before the shards: its lines are read first.
        const raw = url.startsWith("redis+cluster:") ? null : new Redis(url);
        const old = record(SITES[0] ?? "", "/before", T0 - 1);
        if (raw !== null) {
          await raw.rpush(redisKeys(prefix).legacyLog, JSON.stringify(old));
          raw.disconnect();
        }
        await store.frontier.add(SITES.map((o) => newUrl(o, "/1")));
        const written: string[] = raw === null ? [] : [old.url];
        // Appended lines and settled pages' lines in turn, site after site: every shard's.
        for (const [i, origin] of SITES.entries()) {
          if (i % 2 === 0) written.push(await onePage(store, origin, T0 + i));
          else {
            await store.log.append(record(origin, "/appended", T0 + i));
            written.push(`${origin}/appended`);
          }
        }
        const urls = (records: readonly CrawlRecord[]) => records.map((r) => r.url);
        assert.deepEqual(urls(await store.log.list(100, 0)), written);
        assert.equal(await other.log.count(), written.length);
        // Page after page, and a page from an offset not read up to.
        assert.deepEqual(urls(await other.log.list(5, 0)), written.slice(0, 5));
        assert.deepEqual(urls(await other.log.list(5, 5)), written.slice(5, 10));
        assert.deepEqual(urls(await other.log.list(4, 12)), written.slice(12, 16));
        assert.deepEqual(urls(await other.log.list(3, 7)), written.slice(7, 10));
        const scanned: string[] = [];
        for await (const batch of other.log.scan(3)) scanned.push(...urls(batch));
        assert.deepEqual(scanned, written);
        // Read to the end, then more written: the next page from there has it.
        const more = record(SITES[5] ?? "", "/later", T0 + 100);
        await store.log.append(more);
        assert.deepEqual(urls(await other.log.list(10, written.length)), [more.url]);
      } finally {
        await store.close();
        await other.close();
      }
    });
  });
}
