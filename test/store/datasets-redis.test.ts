// Dataset catalogs in Redis, on a real redis-server started here: the shared contract, and
// the key they live under starting with the store's prefix.
import assert from "node:assert/strict";
import { it } from "node:test";
import { Redis } from "ioredis";
import { openRedisStore } from "../../src/store/redis/index.js";
import { redisForFile } from "../helpers/redis-server.js";
import { datasetCatalogsContract } from "./datasets.suite.js";

const redisUrl = redisForFile().url;

let prefixes = 0;
const freshPrefix = () => `heed-datasets-test:${process.pid}:${++prefixes}:`;

datasetCatalogsContract("redis", {
  async fresh() {
    const prefix = freshPrefix();
    const url = await redisUrl();
    return { open: () => openRedisStore({ url, prefix }) };
  },
});

it("redis: catalogs live under the store's prefix", async () => {
  const url = await redisUrl();
  const prefix = freshPrefix();
  const store = await openRedisStore({ url, prefix });
  const raw = new Redis(url);
  try {
    await store.datasets.put({
      origin: "https://a.example",
      agent: "bot",
      at: 1,
      outcome: "found",
      status: 200,
      form: "draft",
      datasets: 1,
      fetchable: 1,
      guesses: 0,
      body: "{}",
    });
    const keys = await raw.keys(`${prefix}*`);
    assert.deepEqual(keys, [`${prefix}datasets`]);
  } finally {
    raw.disconnect();
    await store.close();
  }
});
