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
import { newUrl as page } from "./new-url.js";
import { readyLeavesOutFullSites } from "./ready-full.suite.js";
import { storeContract } from "./store.suite.js";

// Started by the first test that needs it, so that without redis-server every test fails
// with REDIS_MISSING (a hook that fails would only cancel them).
const redisUrl = redisForFile().url;

let prefixes = 0;
const freshPrefix = () => `heed-test:${process.pid}:${++prefixes}:`;

const harness = {
  async fresh() {
    const prefix = freshPrefix();
    const url = await redisUrl();
    return { open: () => openRedisStore({ url, prefix }) };
  },
};

storeContract("redis", harness);

readyLeavesOutFullSites("redis", harness);

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

describe("redis: a queued URL's bytes", () => {
  it("at most 150 bytes a queued URL of 78 characters; the dedup buckets stay intsets", async () => {
    const url = await redisUrl();
    const prefix = freshPrefix();
    const store = await openRedisStore({ url, prefix });
    const raw = new Redis(url);
    const used = async () => Number(/used_memory:(\d+)/.exec(await raw.info("memory"))?.[1]);
    const SITES = 20;
    const URLS = 20_000;
    try {
      const before = await used();
      for (let start = 0; start < URLS; start += 2000) {
        const batch: NewUrl[] = [];
        for (let i = start; i < start + 2000; i++) {
          const origin = `https://www.news-site-${i % SITES}.example.com`;
          batch.push({
            ...page(origin, `/2024/05/${10 + (i % 18)}/council-budget-vote-${i}.html`),
            depth: 2,
            referrer: `${origin}/section/${i % 97}/`,
          });
        }
        assert.equal(await store.frontier.add(batch), 2000);
      }
      const bytes = ((await used()) - before) / URLS;
      assert.ok(bytes <= 150, `${bytes} bytes a queued URL`);
      // 1000 URLs a site: split past 200 a bucket (BUCKET_LOAD), each bucket a compact intset.
      const buckets = await raw.keys(`${prefix}*h:https://www.news-site-0.example.com *`);
      assert.ok(buckets.length >= 4, buckets.join(" "));
      let held = 0;
      for (const bucket of buckets) {
        assert.equal(await raw.object("ENCODING", bucket), "intset", bucket);
        held += await raw.scard(bucket);
      }
      assert.equal(held, URLS / SITES);
      // Each URL is still known after the splits: none is queued twice.
      const again: NewUrl[] = [];
      for (let i = 0; i < URLS; i += SITES) {
        const origin = "https://www.news-site-0.example.com";
        again.push(page(origin, `/2024/05/${10 + (i % 18)}/council-budget-vote-${i}.html`));
      }
      assert.equal(await store.frontier.add(again), 0);
      assert.equal((await store.frontier.counts()).queued, URLS);
    } finally {
      raw.disconnect();
      await store.close();
    }
  });

  it("keeps a URL that does not start with its origin, and meta with spaces and commas", async () => {
    const url = await redisUrl();
    const store = await openRedisStore({ url, prefix: freshPrefix() });
    try {
      const odd: NewUrl = {
        url: "https://a.test:8443/x y,z",
        origin: "https://a.test",
        depth: 3,
        priority: -1.5,
        notBefore: 0,
        referrer: "https://b.test/from, here",
        meta: '{"a": "1, 2 3"}',
      };
      await store.frontier.add([odd, page("https://a.test", "/plain")]);
      const first = await store.frontier.lease("https://a.test", 1, 1000, null);
      assert.equal(first?.entry.url, "https://a.test/plain");
      const second = await store.frontier.lease("https://a.test", 1, 1000, null);
      assert.deepEqual(second?.entry, { ...odd, attempts: 0 });
    } finally {
      await store.close();
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
