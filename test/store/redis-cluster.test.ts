// The Redis back end on a real 3-master Redis Cluster (started here): the shared contract, then
// what only a cluster shows: the URL form, and a crawl's sites spread over the masters, each
// site's keys in one slot.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Cluster } from "ioredis";
import { openStore, StoreError } from "../../src/store/index.js";
import { clusterNodes, openRedisStore } from "../../src/store/redis/index.js";
import { redisKeys } from "../../src/store/redis/keys.js";
import { clusterForFile } from "../helpers/redis-cluster.js";
import { readyLeavesOutFullSites } from "./ready-full.suite.js";
import { storeContract } from "./store.suite.js";

const cluster = clusterForFile();

let prefixes = 0;
const freshPrefix = () => `{heed-test:${process.pid}:${++prefixes}}:`;

const harness = {
  async fresh() {
    const prefix = freshPrefix();
    const url = await cluster.url();
    return { open: () => openRedisStore({ url, prefix }) };
  },
};

storeContract("redis-cluster", harness);

readyLeavesOutFullSites("redis-cluster", harness);

describe("redis cluster: the store's URL and keys", () => {
  it("reads every node of redis+cluster://host:port,host:port,…, and says which part is wrong", () => {
    assert.deepEqual(clusterNodes("redis+cluster://127.0.0.1:7000,[::1]:7001,node-c"), [
      { host: "127.0.0.1", port: 7000 },
      { host: "::1", port: 7001 },
      { host: "node-c", port: 6379 },
    ]);
    assert.equal(clusterNodes("redis://127.0.0.1:7000"), null);
    assert.throws(
      () => clusterNodes("redis+cluster://127.0.0.1:7000,127.0.0.1:99999"),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === "HEED_STORE_BAD_ARGUMENT" &&
        /"127\.0\.0\.1:99999"/.test(error.message),
    );
  });

  it("a prefix without a hash tag spreads the crawl: each site's keys in one slot, keys on every master", async () => {
    const url = await cluster.url();
    const tag = `heed-notag-${process.pid}:`;
    const store = await openStore(`${url}#${tag}`);
    const raw = new Cluster(clusterNodes(url) ?? []);
    const sites = Array.from({ length: 40 }, (_, i) => `https://site-${i}.example`);
    try {
      for (const origin of sites) {
        await store.frontier.add([
          {
            url: `${origin}/`,
            origin,
            depth: 0,
            priority: 0,
            notBefore: 0,
            referrer: `${origin}/from`,
            meta: null,
          },
        ]);
      }
      const lease = await store.frontier.lease("https://site-3.example", 1, 1000, 1);
      assert.ok(lease);
      const perMaster: string[][] = [];
      for (const node of raw.nodes("master")) perMaster.push(await node.keys(`${tag}*`));
      assert.equal(perMaster.length, 3);
      for (const keys of perMaster) assert.ok(keys.length > 0, "a master without keys");
      const keys = perMaster.flat();
      const layout = redisKeys(tag);
      for (const origin of sites) {
        const slot = await raw.cluster("KEYSLOT", layout.site(origin));
        const own = keys.filter((key) => key.includes(origin));
        // The dedup, the site's counters and referrers, and its queue or its leased URL.
        assert.ok(own.length >= 4, own.join(" "));
        for (const key of own) assert.equal(await raw.cluster("KEYSLOT", key), slot, key);
      }
      assert.equal((await store.frontier.counts()).queued, 39);
      // Every site but the one leased is ready, read from all the shards.
      assert.equal((await store.frontier.readyOrigins(2, 100, new Set())).length, 39);
    } finally {
      await store.close();
      raw.disconnect();
    }
  });

  it("refuses a prefix holding a crawl in the layout before shards, saying what to do", async () => {
    const url = await cluster.url();
    const prefix = `heed-older-${process.pid}:`;
    const raw = new Cluster(clusterNodes(url) ?? []);
    try {
      // The older heed put a prefix without a tag in braces.
      await raw.set(`{${prefix}}seq`, "12");
      await assert.rejects(
        openRedisStore({ url, prefix }),
        (error: unknown) =>
          error instanceof StoreError &&
          error.code === "HEED_STORE_OLDER_LAYOUT" &&
          /older heed/.test(error.message) &&
          /another prefix/.test(error.message),
      );
    } finally {
      await raw.del(`{${prefix}}seq`);
      raw.disconnect();
    }
  });
});
