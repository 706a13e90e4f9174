// A Redis restored from a snapshot older than a write of the frontier's own steps is noticed:
// a lease under an IP-bound pace (Frontier.lease) and a settle other than a fetched page's
// (robots.txt, a sitemap, a refusal, a site set aside) count as the page path's do. On the old
// code they did not: a snapshot taken before them and restored went unnoticed, and the URL
// leased since was leased again.
import assert from "node:assert/strict";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { StoreError } from "../../src/store/errors.js";
import { openRedisStore } from "../../src/store/redis/index.js";
import type { CrawlStore, NewUrl } from "../../src/store/types.js";
import { startRedisCluster } from "../helpers/redis-cluster.js";
import { startRedisServer } from "../helpers/redis-server.js";
import { newUrl } from "./new-url.js";

const A = "https://a.example";
const T0 = 1_700_000_000_000;
const LEASE_MS = 60_000;

const url = (path: string): NewUrl => newUrl(A, path);

describe("redis: a snapshot older than the frontier's own writes", { timeout: 60_000 }, () => {
  it("restored, it is noticed at the next lease", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-restored-writes-"));
    const args = ["--dir", dir, "--dbfilename", "dump.rdb"];
    let server = await startRedisServer({ args });
    let store: CrawlStore | null = null;
    try {
      store = await openRedisStore({ url: server.url, prefix: "restored:", unreachableMs: 20_000 });
      await store.reservations.setIdentity("crawl-1", [`${A}/`]);
      await store.frontier.add([url("/robots.txt"), url("/1"), url("/2")]);
      const admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
      await admin.save();
      admin.disconnect();
      await copyFile(join(dir, "dump.rdb"), join(dir, "older.rdb"));
      // After the snapshot: robots.txt leased under an IP-bound pace and settled as a refusal.
      const robots = await store.frontier.lease(A, T0, LEASE_MS, null, "p1");
      assert.equal(robots?.entry.url, `${A}/robots.txt`);
      await store.frontier.settle(robots, { kind: "skipped", reason: "robots", at: T0 });
      await server.stop();
      await copyFile(join(dir, "older.rdb"), join(dir, "dump.rdb"));
      server = await startRedisServer({ port: server.port, args });
      const rule = { gapMs: 0, rate: null, inFlight: 1 } as const;
      await assert.rejects(
        store.steps.leaseReserved(A, "p1", T0 + 1, rule, LEASE_MS),
        (error: unknown) => error instanceof StoreError && error.code === "HEED_STORE_WENT_BACK",
      );
      const failed = store.failure();
      assert.ok(failed instanceof StoreError && failed.code === "HEED_STORE_WENT_BACK");
    } finally {
      await store?.close();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a cluster master restored to a lease since settled: no lease finds it, a check does", async () => {
    // The restored shard holds its only URL leased by this very process: nothing is due there
    // until the lease runs out (minutes), so no lease can show the count gone back.
    const cluster = await startRedisCluster();
    let store: CrawlStore | null = null;
    try {
      store = await openRedisStore({
        url: cluster.url,
        prefix: "restored:",
        unreachableMs: 20_000,
      });
      await store.reservations.setIdentity("crawl-1", [`${A}/`]);
      await store.frontier.add([url("/1")]);
      const lease = await store.frontier.lease(A, T0, LEASE_MS, null, "p1");
      assert.ok(lease !== null);
      const nodes = cluster.nodes.map((node) => new Redis(node.url, { maxRetriesPerRequest: 1 }));
      const holders = await Promise.all(nodes.map((node) => node.keys("restored:*writes")));
      const i = holders.findIndex((found) => found.length > 0);
      await nodes[i]?.save();
      for (const node of nodes) node.disconnect();
      await store.frontier.settle(lease, { kind: "done", status: 200, at: T0 });
      await cluster.restart(i);
      await store.writes.check();
      const failed = store.failure();
      assert.ok(
        failed instanceof StoreError && failed.code === "HEED_STORE_WENT_BACK",
        String(failed),
      );
    } finally {
      await store?.close();
      await cluster.stop();
    }
  });
});
