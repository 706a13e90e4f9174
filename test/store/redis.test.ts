// The Redis back end on a real redis-server (started here): the shared contract, then what
// only Redis shows: key prefixes that keep crawls apart, openStore's redis:// URLs, and a
// server that is not there.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { openStore, StoreError } from "../../src/store/index.js";
import { openRedisStore } from "../../src/store/redis/index.js";
import { redisKeys } from "../../src/store/redis/keys.js";
import type { NewUrl } from "../../src/store/types.js";
import { redisForFile } from "../helpers/redis-server.js";
import { storeContract } from "./store.suite.js";

// Started by the first test that needs it, so that without redis-server every test fails
// with REDIS_MISSING (a hook that fails would only cancel them).
const redisUrl = redisForFile().url;

let prefixes = 0;
const freshPrefix = () => `heed-test:${process.pid}:${++prefixes}:`;

storeContract("redis", {
  async fresh() {
    const prefix = freshPrefix();
    const url = await redisUrl();
    return { open: () => openRedisStore({ url, prefix }) };
  },
});

const page = (origin: string, path: string): NewUrl => ({
  url: `${origin}${path}`,
  origin,
  depth: 0,
  priority: 0,
  notBefore: 0,
  referrer: null,
  meta: null,
});

describe("redis: key prefixes", () => {
  it("keep two crawls on one server apart, and every key starts with the prefix", async () => {
    const url = await redisUrl();
    const first = freshPrefix();
    const second = freshPrefix();
    const one = await openRedisStore({ url, prefix: first });
    const two = await openRedisStore({ url, prefix: second });
    const raw = new Redis(url);
    try {
      const keysBefore = await raw.dbsize();
      await one.frontier.add([page("https://a.test", "/1")]);
      await one.frontier.setNextAt("https://a.test", 5);
      await one.log.append({
        url: "https://a.test/1",
        origin: "https://a.test",
        at: 1,
        ms: 1,
        status: 200,
        bytes: 1,
        outcome: "fetched",
        detail: null,
      });
      assert.equal(await two.frontier.add([page("https://a.test", "/1")]), 1);
      assert.equal((await two.frontier.counts()).queued, 1);
      assert.equal(await two.frontier.nextAt("https://a.test"), 0);
      assert.equal(await two.log.count(), 0);
      const lease = await two.frontier.lease("https://a.test", 10, 1000, 10);
      assert.ok(lease);
      assert.equal((await one.frontier.counts()).leased, 0);
      const firsts = await raw.keys(`${first}*`);
      const seconds = await raw.keys(`${second}*`);
      assert.ok(firsts.length > 0 && seconds.length > 0);
      // Nothing else was written: every new key is under one of the two prefixes.
      assert.equal((await raw.dbsize()) - keysBefore, firsts.length + seconds.length);
    } finally {
      raw.disconnect();
      await one.close();
      await two.close();
    }
  });
});

describe("redis: openStore", () => {
  it("opens redis://… as Redis, the fragment being the key prefix", async () => {
    const url = await redisUrl();
    const prefix = freshPrefix();
    const store = await openStore(`${url}#${encodeURIComponent(prefix)}`);
    const raw = new Redis(url);
    try {
      await store.frontier.add([page("https://b.test", "/x")]);
      // A queued URL is one member of its site's priority list, under its shard's part.
      const list = `${redisKeys(prefix).site("https://b.test")}ql:https://b.test 0`;
      assert.ok(list.startsWith(prefix));
      assert.equal(await raw.llen(list), 1);
    } finally {
      raw.disconnect();
      await store.close();
    }
  });

  it("refuses a prefix holding a crawl in the layout before shards, and leaves its keys", async () => {
    const url = await redisUrl();
    const prefix = freshPrefix();
    const raw = new Redis(url);
    try {
      await raw.hset(`${prefix}u:https://a.test/`, "s", "q", "o", "https://a.test");
      await raw.zadd(`${prefix}ready`, 0, "https://a.test");
      await assert.rejects(
        openStore(`${url}#${encodeURIComponent(prefix)}`),
        (error: unknown) =>
          error instanceof StoreError &&
          error.code === "HEED_STORE_OLDER_LAYOUT" &&
          error.message.includes(JSON.stringify(prefix)) &&
          /older heed/.test(error.message),
      );
      assert.equal(await raw.zcard(`${prefix}ready`), 1);
    } finally {
      raw.disconnect();
    }
  });

  it("fails at once with HEED_STORE_UNAVAILABLE when nothing listens", async () => {
    // Port 1 on loopback: refused at once.
    const started = Date.now();
    await assert.rejects(
      openRedisStore({ url: "redis://127.0.0.1:1", prefix: "x:" }),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === "HEED_STORE_UNAVAILABLE" &&
        /ECONNREFUSED/.test(String((error.cause as Error | undefined)?.message)),
    );
    assert.ok(Date.now() - started < 5000);
  });

  it("rejects a URL that is not redis:// with HEED_STORE_BAD_ARGUMENT", async () => {
    await assert.rejects(
      openRedisStore({ url: "http://127.0.0.1:6379", prefix: "x:" }),
      (error: unknown) => error instanceof StoreError && error.code === "HEED_STORE_BAD_ARGUMENT",
    );
  });
});
