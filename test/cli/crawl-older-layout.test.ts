// A Redis prefix holding a crawl in the key layout before shards (one hash a queued URL, one
// ready set) is refused with exit 3, naming the prefix and what to do: read as empty, the crawl
// would start over and fetch every page again. Its keys are left as they were.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { redisForFile } from "../helpers/redis-server.js";
import { runCli } from "../helpers/run-cli.js";
import { startSite } from "../helpers/synthetic-site.js";

const redisUrl = redisForFile().url;

describe("heed crawl on a Redis prefix of the older layout", () => {
  it("exits 3 naming the prefix and the ways on, fetching nothing", async () => {
    const url = await redisUrl();
    const prefix = `older-${process.pid}:`;
    const site = await startSite({ pages: 3, links: 2 });
    const raw = new Redis(url);
    try {
      // What the older heed wrote for a crawl of one queued URL.
      await raw.hset(`${prefix}u:${site.origin}/`, "s", "q", "o", site.origin, "n", "1");
      await raw.zadd(`${prefix}q:${site.origin}`, 0, `000000000000001${site.origin}/`);
      await raw.zadd(`${prefix}ready`, 0, site.origin);
      await raw.set(`${prefix}seq`, "1");
      const before = (await raw.keys(`${prefix}*`)).sort();
      const r = await runCli(["crawl", `${site.origin}/`, "--store", `${url}#${prefix}`], {
        timeoutMs: 30_000,
      });
      assert.equal(r.code, 3, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(`prefix "${prefix}" holds a crawl stored by an older heed`),
      );
      assert.match(r.stderr, /another prefix/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.equal(site.log.length, 0);
      assert.deepEqual((await raw.keys(`${prefix}*`)).sort(), before);
    } finally {
      raw.disconnect();
      await site.close();
    }
  });
});
