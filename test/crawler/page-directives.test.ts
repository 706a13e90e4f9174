// What pages say to robots, read from the server's log and what the crawl keeps: rel=nofollow
// links are not followed; <meta name=robots content=nofollow> (or one naming the robot) and
// X-Robots-Tag: nofollow stop link-following on that page; noindex pages are fetched but not
// kept; and a per-site page budget bounds a crawl trap.
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { AGENT, runCrawl } from "../helpers/crawl-harness.js";
import { isPage, startSite } from "../helpers/synthetic-site.js";

function page(res: ServerResponse, body: string, headers: Record<string, string> = {}): true {
  res.writeHead(200, { "content-type": "text/html", ...headers }).end(`<html>${body}</html>`);
  return true;
}

describe("page directives", { concurrency: true, timeout: 60_000 }, () => {
  it("nofollow, meta robots, X-Robots-Tag and noindex", async () => {
    const site = await startSite({
      pages: 1,
      route: (req, res) => {
        switch (req.url) {
          case "/":
            return page(
              res,
              `<a href="/a.html">a</a> <a rel="nofollow" href="/nofollowed.html">n</a>
               <a href="/meta.html">m</a> <a href="/agent-meta.html">am</a>
               <a href="/header.html">h</a> <a href="/noindex.html">x</a>`,
            );
          case "/meta.html":
            return page(
              res,
              `<head><meta name="robots" content="nofollow"></head><a href="/behind-meta.html">b</a>`,
            );
          case "/agent-meta.html":
            return page(
              res,
              `<head><meta name="${AGENT.toLowerCase()}" content="none"></head><a href="/behind-agent-meta.html">b</a>`,
            );
          case "/header.html":
            return page(res, `<a href="/behind-header.html">b</a>`, { "x-robots-tag": "nofollow" });
          case "/noindex.html":
            return page(
              res,
              `<head><meta name="robots" content="noindex"></head><a href="/behind-noindex.html">b</a>`,
            );
          case "/robots.txt":
          case "/sitemap.xml":
            return false;
          default:
            return page(res, "leaf");
        }
      },
    });
    try {
      const kept: string[] = [];
      const run = await runCrawl([`${site.origin}/`], {
        onPage: async (p) => {
          kept.push(new URL(p.url).pathname);
        },
      });
      assert.equal(run.summary.stoppedBy, "finished");
      const asked = new Set(site.paths().filter(isPage));
      assert.deepEqual(
        asked,
        new Set([
          "/",
          "/a.html",
          "/meta.html",
          "/agent-meta.html",
          "/header.html",
          "/noindex.html",
          "/behind-noindex.html",
        ]),
        "nofollow links and the links of nofollow pages are never asked for",
      );
      assert.ok(!kept.includes("/noindex.html"), "a noindex page is not kept");
      assert.ok(kept.includes("/behind-noindex.html") && kept.includes("/a.html"));
    } finally {
      await site.close();
    }
  });

  it("a per-site page budget bounds an endless site", async () => {
    let n = 0;
    const site = await startSite({
      pages: 1,
      route: (req, res) => {
        if (req.url === "/robots.txt" || req.url === "/sitemap.xml") return false;
        n++;
        return page(res, `<a href="/p${n}.html">next</a>`);
      },
    });
    try {
      const run = await runCrawl([`${site.origin}/`], { maxPerHost: 5, maxDepth: 1000 });
      // The trap's next page stays queued: the budget was this run's.
      assert.equal(run.summary.stoppedBy, "max-per-host");
      assert.equal(run.summary.skipped, 0);
      assert.equal(site.paths().filter(isPage).length, 5);
    } finally {
      await site.close();
    }
  });
});
