// Every request counted and bounded, read from the test servers' logs: a redirect chain is
// followed 5 hops from the URL first queued and then recorded as failed; a robots.txt sent a
// byte at a time is cut at its total deadline; --queued fetches what is queued and no more;
// --max-depth covers sitemap entries; --no-sitemaps reads none.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { newUrl } from "../../src/crawler/frontier-entry.js";
import { openStore } from "../../src/store/index.js";
import { runCrawl, tempDir } from "../helpers/crawl-harness.js";
import { startSite } from "../helpers/synthetic-site.js";

describe("requests counted and bounded", { concurrency: true, timeout: 60_000 }, () => {
  it("an endless redirect chain: 5 hops followed, then the URL failed with the reason", async () => {
    const site = await startSite({
      pages: 1,
      route: (req, res) => {
        const m = /^\/r\/(\d+)$/.exec(req.url ?? "");
        if (m === null) return false;
        res.writeHead(302, { location: `/r/${Number(m[1]) + 1}` });
        res.end();
        return true;
      },
    });
    const temp = await tempDir();
    try {
      const storePath = join(temp.dir, "crawl.db");
      const run = await runCrawl([`${site.origin}/r/0`], { storePath, maxDepth: 1 });
      const hops = site.log.filter((r) => r.path.startsWith("/r/"));
      assert.equal(hops.length, 6, "the URL and 5 hops");
      assert.equal(run.summary.failed, 1);
      assert.equal(run.summary.stoppedBy, "finished");
      const store = await openStore(storePath);
      try {
        const records = await store.log.list(100, 0);
        const failed = records.find((r) => r.url.endsWith("/r/5"));
        assert.match(failed?.detail ?? "", /more than 5 redirects/);
      } finally {
        await store.close();
      }
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });

  it("a redirect to no URL fails; one out of scope is logged as not followed", async () => {
    const site = await startSite({
      pages: 1,
      route: (req, res) => {
        const to: Record<string, string> = {
          "/nowhere": "http://[::1",
          "/away": "http://203.0.113.9/elsewhere",
        };
        const location = to[req.url ?? ""];
        if (req.url === "/bare") res.writeHead(301);
        else if (location === undefined) return false;
        else res.writeHead(302, { location });
        res.end();
        return true;
      },
    });
    const temp = await tempDir();
    try {
      const storePath = join(temp.dir, "crawl.db");
      const seeds = ["/nowhere", "/bare", "/away"].map((p) => `${site.origin}${p}`);
      const run = await runCrawl(seeds, { storePath, maxDepth: 1 });
      assert.equal(run.summary.failed, 2, "no usable Location: failed, not done");
      assert.equal(
        site.log.filter((r) => r.path === "/elsewhere").length,
        0,
        "the out-of-scope target is not asked for",
      );
      const store = await openStore(storePath);
      try {
        const records = await store.log.list(100, 0);
        const of = (path: string) => records.find((r) => r.url === `${site.origin}${path}`);
        assert.equal(of("/nowhere")?.outcome, "error");
        assert.match(of("/nowhere")?.detail ?? "", /not an http\(s\) URL/);
        assert.match(of("/bare")?.detail ?? "", /without a Location/);
        assert.equal(of("/away")?.outcome, "redirect");
        assert.match(of("/away")?.detail ?? "", /elsewhere \(not followed: outside/);
      } finally {
        await store.close();
      }
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });

  it("sitemap requests are logged with the bytes received", async () => {
    const site = await startSite({
      pages: 3,
      route: (req, res) => {
        if (req.url !== "/sitemap.xml") return false;
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(
          '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/p/1.html</loc></url></urlset>',
        );
        return true;
      },
    });
    const temp = await tempDir();
    try {
      const storePath = join(temp.dir, "crawl.db");
      await runCrawl([`${site.origin}/`], { storePath, maxDepth: 1 });
      const store = await openStore(storePath);
      try {
        const records = await store.log.list(100, 0);
        const sitemap = records.find((r) => r.outcome === "sitemap");
        assert.ok(sitemap !== undefined, "the sitemap request is in the log");
        assert.ok(sitemap.bytes > 0, `bytes ${sitemap.bytes}`);
      } finally {
        await store.close();
      }
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });

  it("a robots.txt sent a byte at a time is cut at its total deadline", async () => {
    let sent = 0;
    const timers: NodeJS.Timeout[] = [];
    const site = await startSite({
      pages: 3,
      robots: (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        const body = "User-agent: *\nDisallow: /private/\n".repeat(10);
        let i = 0;
        const drip = setInterval(() => {
          if (i >= body.length || res.destroyed) {
            clearInterval(drip);
            res.end();
            return;
          }
          res.write(body[i++]);
          sent = i;
        }, 100);
        timers.push(drip);
      },
    });
    try {
      const run = await runCrawl([`${site.origin}/`], {
        robotsDeadlineMs: 1000,
        abortAfterMs: 4000,
      });
      // 340 bytes at 10 a second would take 34 s; the deadline ended the exchange long before.
      assert.ok(sent < 200, `${sent} bytes were sent`);
      assert.equal(run.summary.fetched, 0, "no page without robots.txt");
    } finally {
      for (const t of timers) clearInterval(t);
      await site.close();
    }
  });

  it("--queued fetches exactly what is queued: no links followed, no sitemaps read", async () => {
    const site = await startSite({ pages: 20, links: 4 });
    const temp = await tempDir();
    try {
      const storePath = join(temp.dir, "crawl.db");
      const store = await openStore(storePath);
      await store.frontier.add([
        newUrl(`${site.origin}/page/3.html`, 0, 0, null, { via: "revisit" }),
        newUrl(`${site.origin}/page/7.html`, 0, 0, null, { via: "revisit" }),
      ]);
      await store.close();
      const run = await runCrawl([], { storePath, queued: true });
      assert.deepEqual(site.paths().sort(), ["/page/3.html", "/page/7.html", "/robots.txt"]);
      assert.equal(run.summary.fetched, 2);
      const again = await openStore(storePath);
      await again.frontier.add([newUrl(`${site.origin}/page/11.html`, 0, 0, null)]);
      await again.close();
      const more = await runCrawl([], { storePath, queued: true, follow: true, maxPages: 5 });
      assert.equal(more.summary.fetched, 5, "--follow follows the links");
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });

  it("--max-depth 0 reads no sitemap; --no-sitemaps neither", async () => {
    const site = await startSite({ pages: 10, links: 0 });
    try {
      await runCrawl([`${site.origin}/`], { maxDepth: 0 });
      assert.deepEqual(site.paths(), ["/robots.txt", "/"]);
    } finally {
      await site.close();
    }
    const other = await startSite({ pages: 10, links: 2 });
    try {
      await runCrawl([`${other.origin}/`], { sitemaps: false });
      assert.ok(!other.paths().includes("/sitemap.xml"), other.paths().join(" "));
      assert.ok(other.paths().length > 3);
    } finally {
      await other.close();
    }
  });

  it("a robots.txt over 500 KiB: the crawl log says only the first 500 KiB were read", async () => {
    const body = `User-agent: *\n${`Allow: /ok/${"x".repeat(80)}\n`.repeat(6000)}Disallow: /private/\n`;
    const site = await startSite({ pages: 2, robots: body });
    const temp = await tempDir();
    try {
      const storePath = join(temp.dir, "crawl.db");
      await runCrawl([`${site.origin}/`], { storePath });
      const store = await openStore(storePath);
      try {
        const records = await store.log.list(100, 0);
        const robots = records.find((r) => r.outcome === "robots");
        assert.match(
          robots?.detail ?? "",
          /robots\.txt is \d+ bytes; only the first 512000 were read/,
        );
      } finally {
        await store.close();
      }
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});
