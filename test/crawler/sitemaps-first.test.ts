// Sitemaps first (seeds/003 §3.2.12, §4.2), read from the server's log: deep pages that no
// link reaches are crawled through the sitemap; a `<srcloc>` snapshot is fetched instead of
// its original page, which is never asked for; `data` pages are fetched without following
// their links, `list` pages have every link followed.
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { runCrawl } from "../helpers/crawl-harness.js";
import { isPage, startSite } from "../helpers/synthetic-site.js";

function html(res: ServerResponse, links: readonly string[]): true {
  res
    .writeHead(200, { "content-type": "text/html" })
    .end(`<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}</body></html>`);
  return true;
}

describe("sitemaps first", { timeout: 60_000 }, () => {
  it("deep pages, snapshots and page types, as the sitemap says", async () => {
    let origin = "";
    const site = await startSite({
      pages: 1,
      robots: "User-agent: *\nDisallow: /admin\nSitemap: /maps/sitemap.xml\n",
      route: (req, res) => {
        const path = req.url ?? "/";
        if (path === "/maps/sitemap.xml") {
          res.writeHead(200, { "content-type": "application/xml" }).end(`<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>${origin}/deep/a.html</loc><priority>0.9</priority></url>
  <url><loc>${origin}/html/news1.html</loc><srcloc>${origin}/newsItem.do?id=1</srcloc><type>data</type></url>
  <url><loc>${origin}/search/results.html</loc><type>list</type></url>
  <url><loc>${origin}/admin/secret.html</loc></url>
</urlset>`);
          return true;
        }
        if (path === "/") return html(res, ["/newsItem.do?id=1"]);
        if (path === "/html/news1.html") return html(res, ["/from-data-page.html"]);
        if (path === "/search/results.html") return html(res, ["/result/1.html", "/result/2.html"]);
        if (path !== "/robots.txt") return html(res, []);
        return false;
      },
    });
    origin = site.origin;
    try {
      // maxDepth 1 (sitemap entries are one step from the site): only what the seed and the
      // sitemap name, and what list pages link to.
      const srclocs = new Map<string, string | undefined>();
      const run = await runCrawl([`${origin}/`], {
        maxDepth: 1,
        onPage: async (page) => {
          srclocs.set(new URL(page.url).pathname, page.srcloc);
        },
      });
      assert.equal(run.summary.stoppedBy, "finished");
      const paths = site.paths();
      assert.deepEqual(
        paths.slice(0, 2),
        ["/robots.txt", "/maps/sitemap.xml"],
        "robots.txt, then its sitemap",
      );
      const pages = new Set(paths.filter(isPage).filter((p) => p !== "/maps/sitemap.xml"));
      assert.deepEqual(
        pages,
        new Set([
          "/",
          "/deep/a.html",
          "/html/news1.html",
          "/search/results.html",
          "/result/1.html",
          "/result/2.html",
        ]),
      );
      assert.ok(
        !paths.includes("/newsItem.do?id=1"),
        "the original of a snapshot is never fetched",
      );
      assert.ok(!paths.includes("/from-data-page.html"), "a data page's links are not followed");
      assert.ok(
        !paths.some((p) => p.startsWith("/admin")),
        "robots.txt still rules what the sitemap lists",
      );
      assert.equal(new Set(paths).size, paths.length, "nothing asked twice");
      // The snapshot is recorded as the content of its original (the WARC metadata names it).
      assert.equal(srclocs.get("/html/news1.html"), `${origin}/newsItem.do?id=1`);
      assert.equal(srclocs.get("/deep/a.html"), undefined);
    } finally {
      await site.close();
    }
  });
});

describe("a sitemap on another site keeps that site's rules", () => {
  it("its own robots.txt refusing it: read, obeyed, the sitemap never fetched", async () => {
    const other = await startSite({
      pages: 2,
      robots: "User-agent: *\nDisallow: /sitemap.xml\n",
      route: (req, res) => {
        if (req.url !== "/sitemap.xml") return false;
        res.writeHead(200, { "content-type": "application/xml" }).end("<urlset/>");
        return true;
      },
    });
    const site = await startSite({
      pages: 2,
      robots: `User-agent: *\nDisallow: /private/\nSitemap: ${other.origin}/sitemap.xml\n`,
    });
    try {
      const run = await runCrawl([`${site.origin}/`], { limitMs: 20_000 });
      assert.equal(run.summary.stoppedBy, "finished");
      assert.deepEqual(other.paths(), ["/robots.txt"]);
    } finally {
      await site.close();
      await other.close();
    }
  });

  it("named by a robots.txt reached through a redirect: the sitemap's own site refuses it", async () => {
    // RFC 9309 §2.3.1.2: the redirect is followed, and the other site's file is the rules read
    // for this one; the sitemap it names is on the other site, whose robots.txt refuses it.
    let otherOrigin = "";
    const other = await startSite({
      pages: 2,
      robots: (_req, res) => {
        res
          .writeHead(200, { "content-type": "text/plain" })
          .end(`User-agent: *\nDisallow: /sitemap.xml\nSitemap: ${otherOrigin}/sitemap.xml\n`);
      },
      route: (req, res) => {
        if (req.url !== "/sitemap.xml") return false;
        res.writeHead(200, { "content-type": "application/xml" }).end("<urlset/>");
        return true;
      },
    });
    otherOrigin = other.origin;
    const site = await startSite({
      pages: 2,
      robots: (_req, res) => {
        res.writeHead(301, { location: `${other.origin}/robots.txt` }).end();
      },
    });
    try {
      const run = await runCrawl([`${site.origin}/`], { limitMs: 20_000 });
      assert.equal(run.summary.stoppedBy, "finished");
      assert.ok(other.paths().includes("/robots.txt"), "the redirect was followed");
      assert.ok(!other.paths().includes("/sitemap.xml"), other.paths().join(" "));
    } finally {
      await site.close();
      await other.close();
    }
  });
});
