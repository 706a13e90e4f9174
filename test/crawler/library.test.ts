// The crawler as a library (`new Crawler(…)` from "heed"), against local sites whose servers
// log every request: the logs, not the crawler's word, are the evidence. A handler cannot make
// the crawl impolite (enqueued URLs go through scope and robots.txt), nor stop it (a handler
// that throws, throws oddities, or never returns is tried again, then recorded), and two
// processes sharing one Redis store fetch each page once and keep the site's gap.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, it } from "node:test";
import { Crawler, type CrawlEvent, CrawlerError, type EnqueueResult, openStore } from "heed";
import { tempDir, TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { isPage, startSite } from "../helpers/synthetic-site.js";
import { redisForFile } from "../helpers/redis-server.js";

const run = promisify(execFile);

describe("a handler that enqueues what it may not fetch", { timeout: 60_000 }, () => {
  it("never causes a disallowed, out-of-scope or non-http request; each refusal says why", async () => {
    const temp = await tempDir();
    const other = await startSite({ pages: 2, robots: "User-agent: *\nAllow: /\n" });
    const site = await startSite({
      pages: 6,
      links: 2,
      robots: "User-agent: *\nDisallow: /private/\nDisallow: /page/3.html\n",
    });
    try {
      const results: EnqueueResult[] = [];
      const crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        maxDepth: 3,
        handler: async (page, ctx) => {
          results.push(
            await ctx.enqueue([
              "/private/a.html",
              `${site.origin}/private/b.html?x=1`,
              "/PRIVATE/../private/c.html",
              "/page/3.html",
              `${other.origin}/`,
              "file:///etc/passwd",
              "javascript:alert(1)",
              "http://10.0.0.1/",
              { url: "/private/d.html", priority: 1000, depth: 0, label: "sneaky" },
            ]),
          );
          // Rules asked directly agree: refused, with the line.
          const verdict = await ctx.rules.check("/private/x");
          assert.equal(verdict.allowed, false);
          assert.match(verdict.allowed ? "" : verdict.why, /Disallow: \/private\//);
        },
      });
      const summary = await crawler.run();
      const paths = site.paths();
      assert.ok(
        !paths.some((p) => p.toLowerCase().startsWith("/private") || p === "/page/3.html"),
        `a disallowed URL was fetched: ${paths.join(" ")}`,
      );
      assert.deepEqual(other.paths(), [], "a host outside the scope was asked");
      assert.ok(summary.fetched >= 5, JSON.stringify(summary));
      assert.equal(results.length, summary.fetched);
      for (const result of results) {
        assert.equal(result.queued, 0, JSON.stringify(result));
        const reasons = result.refused.map((r) => r.reason).join(" | ");
        assert.match(reasons, /robots\.txt/);
        assert.match(reasons, /scope/);
        assert.match(reasons, /not an http\(s\) URL/);
      }
    } finally {
      await site.close();
      await other.close();
      await temp.cleanup();
    }
  });

  it("takes no enqueue of a million URLs: a page's bound is said, nothing is queued past it", async () => {
    const temp = await tempDir();
    const site = await startSite({ pages: 1, links: 0, robots: "User-agent: *\nAllow: /\n" });
    try {
      const errors: unknown[] = [];
      let long: EnqueueResult | null = null;
      const crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        handler: async (page, ctx) => {
          const many = Array.from({ length: 1_000_000 }, (_, i) => `/n/${i}`);
          await ctx.enqueue(many).catch((error: unknown) => errors.push(error));
          await ctx
            .push(Array.from({ length: 100_000 }, () => 1))
            .catch((e: unknown) => errors.push(e));
          await ctx.push({ big: 10n }).catch((e: unknown) => errors.push(e));
          // A URL over the bound is refused as a bad URL, not thrown (test/hostile/enqueue-bad-url).
          long = await ctx.enqueue("/".repeat(10_000));
        },
      });
      const summary = await crawler.run();
      assert.equal(summary.fetched, 1);
      assert.deepEqual(
        errors.map((e) => (e instanceof CrawlerError ? e.code : String(e))),
        ["HEED_TOO_MANY", "HEED_TOO_MANY", "HEED_BAD_ARGUMENT"],
      );
      assert.deepEqual(
        (long as EnqueueResult | null)?.refused.map((r) => r.reason),
        ["a URL of 10000 characters, over 8000"],
      );
      assert.deepEqual(site.paths().filter(isPage), ["/"]);
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});

describe("a handler that fails on every page", { timeout: 60_000 }, () => {
  it("does not stop the crawl: every page is tried maxAttempts times, then recorded as failed", async () => {
    const temp = await tempDir();
    const site = await startSite({ pages: 8, links: 3, robots: "User-agent: *\nAllow: /\n" });
    const oddities: unknown[] = [
      new Error("boom"),
      "a string",
      null,
      undefined,
      {
        toString: () => {
          throw new Error("no");
        },
      },
      Object.create(null) as unknown,
    ];
    let calls = 0;
    try {
      const events: CrawlEvent[] = [];
      const crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        maxAttempts: 2,
        handlerTimeoutMs: 300,
        handler: async (page, ctx) => {
          // Mutating the page changes nothing else: it is frozen.
          assert.throws(() => {
            (page as { url: string }).url = "https://elsewhere.example/";
          });
          await ctx.enqueue("/page/1.html");
          const n = calls++;
          if (n % 7 === 6) return new Promise<void>(() => {}); // never resolves
          throw oddities[n % oddities.length];
        },
      });
      crawler.on("retry", (event) => events.push(event));
      crawler.on("failed", (event) => events.push(event));
      // A listener that throws is told about, and breaks nothing.
      crawler.on("fetched", () => {
        throw new Error("listener");
      });
      const summary = await crawler.run();
      const pages = new Set(site.paths().filter(isPage));
      assert.equal(pages.size, 8, `every page was reached: ${[...pages].join(" ")}`);
      assert.equal(summary.failed, 8, JSON.stringify(summary));
      assert.equal(summary.retried, 8);
      assert.equal(summary.handlerErrors, 16);
      assert.equal(summary.stoppedBy, "finished");
      const reasons = events.map((e) => ("reason" in e ? e.reason : ""));
      assert.ok(
        reasons.every((r) => r.startsWith("page handler: ")),
        reasons.join("\n"),
      );
      assert.ok(
        reasons.some((r) => /ran past 300 ms/.test(r)),
        reasons.join("\n"),
      );
      // A page tried again is fetched again (its validators dropped: a 304 has no body).
      assert.equal(site.paths().filter(isPage).length, 16);
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});

const redis = redisForFile();

describe("two processes on one Redis store, from code", { timeout: 120_000 }, () => {
  it("fetch each page once, keep the site's gap, and push one record a page", async () => {
    const url = await redis.url();
    const site = await startSite({
      pages: 20,
      links: 3,
      robots: "User-agent: *\nDisallow: /page/2\nCrawl-delay: 0.2\n",
    });
    try {
      const spec = `${url}#heed-library-test:${process.pid}:`;
      const child = fileURLToPath(new URL("./library-child.js", import.meta.url));
      const runs = await Promise.all(
        [0, 1].map(() =>
          run(process.execPath, [child, `${site.origin}/`, spec], { timeout: 90_000 }),
        ),
      );
      const pages = site.log.filter((r) => isPage(r.path));
      const paths = pages.map((r) => r.path);
      assert.equal(new Set(paths).size, paths.length, `a page fetched twice: ${paths.join(" ")}`);
      assert.ok(!paths.some((p) => p.startsWith("/page/2")), "a disallowed page was fetched");
      const summaries = runs.map((r) => JSON.parse(r.stdout) as { fetched: number; items: number });
      assert.equal(summaries[0]!.fetched + summaries[1]!.fetched, paths.length);
      for (let i = 1; i < pages.length; i++) {
        const gap = pages[i]!.at - pages[i - 1]!.at;
        assert.ok(
          gap >= 200 - TOLERANCE_MS,
          `${pages[i]!.path} came ${gap} ms after the one before`,
        );
      }
      const store = await openStore(spec);
      try {
        const items: { url: string }[] = [];
        for await (const batch of store.items.scan(100))
          items.push(...batch.map((t) => JSON.parse(t) as { url: string }));
        assert.equal(items.length, paths.length);
        assert.equal(new Set(items.map((i) => i.url)).size, items.length);
      } finally {
        await store.close();
      }
    } finally {
      await site.close();
    }
  });
});
