// issue 27, row 8: a page handler that passes a page's links through `ctx.enqueue` gets each bad
// one back in `refused`, with its reason, as every other bad URL: a link over MAX_URL_CHARS
// (RFC 9110 §4.1's 8000 octets) among good ones neither throws nor loses the good ones.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Crawler, type EnqueueResult } from "heed";
import { MAX_URL_CHARS } from "../../src/crawler/api/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { startSite } from "../helpers/synthetic-site.js";

describe("ctx.enqueue with a link over 8,000 characters", () => {
  it("refuses it in `refused`, queues the good links beside it, throws nothing", async () => {
    const temp = await tempDir();
    const site = await startSite({ pages: 3, links: 0, robots: "User-agent: *\nAllow: /\n" });
    try {
      const long = `/${"a".repeat(MAX_URL_CHARS)}`;
      const results: EnqueueResult[] = [];
      const errors: unknown[] = [];
      const crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        handler: async (page, ctx) => {
          if (new URL(page.url).pathname !== "/") return;
          for (const links of [[long], ["/page/1.html", long, "http://[bad", "/page/2.html"]])
            await ctx.enqueue(links).then(
              (result) => results.push(result),
              (error: unknown) => errors.push(error),
            );
        },
      });
      await crawler.run();
      assert.deepEqual(errors, []);
      assert.equal(results.length, 2);
      const [alone, mixed] = results as [EnqueueResult, EnqueueResult];
      assert.equal(alone.queued, 0);
      assert.deepEqual(
        alone.refused.map((r) => r.reason),
        [`a URL of ${long.length} characters, over ${MAX_URL_CHARS}`],
      );
      assert.equal(mixed.queued, 2);
      assert.deepEqual(mixed.refused.map((r) => r.reason).sort(), [
        `a URL of ${long.length} characters, over ${MAX_URL_CHARS}`,
        "not an http(s) URL",
      ]);
      assert.ok(site.paths().includes("/page/1.html") && site.paths().includes("/page/2.html"));
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});
