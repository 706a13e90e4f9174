// Many crawler processes, one crawl: two `heed crawl` processes share a Redis store (DESIGN §2)
// and crawl one site together. The server's log is the evidence: every page fetched once,
// robots.txt obeyed, and the site's Crawl-delay kept across both processes (it binds the
// name token, not the process: seeds/003 §3.2.6).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { redisForFile } from "../helpers/redis-server.js";
import { TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { crawlArgs, runCli } from "../helpers/run-cli.js";
import { startSite } from "../helpers/synthetic-site.js";
import { isPage } from "../helpers/synthetic-site.js";

const redis = redisForFile();

describe("two processes, one Redis crawl", { timeout: 90_000 }, () => {
  it("each page once, no disallowed page, and the gap kept between the processes", async () => {
    const url = await redis.url();
    const site = await startSite({
      pages: 30,
      links: 3,
      robots: "User-agent: *\nDisallow: /page/2\nCrawl-delay: 0.2\n",
    });
    try {
      const store = `${url}#heed-shared-test:${process.pid}:`;
      const args = crawlArgs(`${site.origin}/`, store, "--quiet", "--json");
      const [a, b] = await Promise.all([
        runCli(args, { timeoutMs: 60_000 }),
        runCli(args, { timeoutMs: 60_000 }),
      ]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      const pages = site.log.filter((r) => isPage(r.path));
      const paths = pages.map((r) => r.path);
      assert.equal(new Set(paths).size, paths.length, `a page fetched twice: ${paths.join(" ")}`);
      assert.ok(!paths.some((p) => p.startsWith("/page/2")), "a disallowed page was fetched");
      const fetched = [a, b].map((r) => (JSON.parse(r.stdout) as { fetched: number }).fetched);
      assert.equal(fetched[0]! + fetched[1]!, paths.length, "the two summaries add up to the log");
      for (let i = 1; i < pages.length; i++) {
        const gap = pages[i]!.at - pages[i - 1]!.at;
        assert.ok(
          gap >= 200 - TOLERANCE_MS,
          `${pages[i]!.path} came ${gap} ms after the request before it`,
        );
      }
    } finally {
      await site.close();
    }
  });
});
