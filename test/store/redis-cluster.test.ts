// The Redis back end on a real 3-master Redis Cluster (started here): the shared contract, then
// what only a cluster shows: the URL form, the prefix's hash tag, and every key in one slot.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Cluster } from "ioredis";
import { openStore, StoreError } from "../../src/store/index.js";
import { clusterNodes, openRedisStore } from "../../src/store/redis/index.js";
import { clusterForFile } from "../helpers/redis-cluster.js";
import { storeContract } from "./store.suite.js";

const cluster = clusterForFile();

let prefixes = 0;
const freshPrefix = () => `{heed-test:${process.pid}:${++prefixes}}:`;

storeContract("redis-cluster", {
  async fresh() {
    const prefix = freshPrefix();
    const url = await cluster.url();
    return { open: () => openRedisStore({ url, prefix }) };
  },
});

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

  it("a prefix without a hash tag gets one: every key of the crawl lands in one slot", async () => {
    const url = await cluster.url();
    const tag = `heed-notag-${process.pid}:`;
    const store = await openStore(`${url}#${tag}`);
    const raw = new Cluster(clusterNodes(url) ?? []);
    try {
      for (let i = 0; i < 20; i++) {
        const origin = `https://site-${i}.example`;
        await store.frontier.add([
          {
            url: `${origin}/`,
            origin,
            depth: 0,
            priority: 0,
            notBefore: 0,
            referrer: null,
            meta: null,
          },
        ]);
      }
      const lease = await store.frontier.lease("https://site-3.example", 1, 1000, 1);
      assert.ok(lease);
      const slot = await raw.cluster("KEYSLOT", `{${tag}}`);
      const keys: string[] = [];
      for (const node of raw.nodes("master")) keys.push(...(await node.keys(`{${tag}}*`)));
      assert.ok(keys.length > 20, keys.join(" "));
      for (const key of keys) assert.equal(await raw.cluster("KEYSLOT", key), slot, key);
      assert.equal((await store.frontier.counts()).queued, 19);
    } finally {
      await store.close();
      raw.disconnect();
    }
  });
});
