// Revisits and guidance, read from the server's log: the site's own word on how often pages
// change (sitemap <changefreq> and <lastmod>; REGP Index-page and Change-*, seeds/003
// §3.2.14-3.2.15) decides which pages a later `revisit` run fetches again, and Index-page
// paths come before other links. The clock is shifted to stand hours later; the requests are real.
import assert from "node:assert/strict";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCrawl, tempDir } from "../helpers/crawl-harness.js";
import { isPage, startSite } from "../helpers/synthetic-site.js";

const HOUR = 3_600_000;

function html(res: ServerResponse, links: readonly string[]): true {
  res
    .writeHead(200, { "content-type": "text/html", etag: '"v1"' })
    .end(`<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}</body></html>`);
  return true;
}

describe("revisits from the site's guidance", { timeout: 60_000 }, () => {
  it("a revisit run fetches what is due or changed, and nothing else", async () => {
    let origin = "";
    let changedLastmod = new Date(Date.now() - 10 * 24 * HOUR).toISOString();
    const site = await startSite({
      pages: 1,
      route: (req, res) => {
        const path = req.url ?? "/";
        if (path === "/robots.txt") {
          res.writeHead(200, { "content-type": "text/plain" }).end(
            `Robot-version: 3.0

User-agent: *
Allow: /
Index-page: /news/
Change-daily: /daily/
Change-never: /archive/

Sitemap: ${origin}/sitemap.xml
`,
          );
          return true;
        }
        if (path === "/sitemap.xml") {
          res.writeHead(200, { "content-type": "application/xml" }).end(`<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>${origin}/hourly.html</loc><changefreq>hourly</changefreq></url>
  <url><loc>${origin}/weekly.html</loc><changefreq>weekly</changefreq></url>
  <url><loc>${origin}/changed.html</loc><lastmod>${changedLastmod}</lastmod></url>
</urlset>`);
          return true;
        }
        if (path === "/")
          return html(res, ["/plain.html", "/daily/b.html", "/news/a.html", "/archive/c.html"]);
        return html(res, []);
      },
    });
    origin = site.origin;
    const temp = await tempDir();
    const storePath = join(temp.dir, "crawl.db");
    const at = (shift: number) => () => Date.now() + shift;
    try {
      const first = await runCrawl([`${origin}/`], { storePath, concurrency: 1, now: at(0) });
      assert.equal(first.summary.stoppedBy, "finished");
      const firstPages = site.paths().filter(isPage);
      assert.deepEqual(
        new Set(firstPages),
        new Set([
          "/",
          "/news/a.html",
          "/hourly.html",
          "/weekly.html",
          "/changed.html",
          "/plain.html",
          "/daily/b.html",
          "/archive/c.html",
        ]),
      );
      // Index-page first among the page's links, the sitemap's entries before plain links.
      assert.equal(firstPages[1], "/news/a.html");
      assert.ok(firstPages.indexOf("/hourly.html") < firstPages.indexOf("/plain.html"));

      // Two hours on: hourly and Index-page pages are due; the sitemap now says /changed.html
      // changed after it was fetched; daily, weekly, never and unguided pages wait.
      changedLastmod = new Date(Date.now() + HOUR).toISOString();
      site.log.length = 0;
      const second = await runCrawl([`${origin}/`], {
        storePath,
        concurrency: 1,
        revisit: true,
        now: at(2 * HOUR),
      });
      assert.equal(second.summary.revisitsDue, 2);
      const again = site.paths().filter(isPage);
      assert.deepEqual(new Set(again), new Set(["/news/a.html", "/hourly.html", "/changed.html"]));
      assert.equal(again.length, 3, "each once");
      for (const request of site.log.filter((r) => isPage(r.path) && r.path !== "/changed.html")) {
        assert.equal(
          request.headers["if-none-match"],
          '"v1"',
          `${request.path} is asked conditionally`,
        );
      }

      // A minute on, no interval has run out, but the sitemap says /changed.html changed
      // again: the site is read for its sitemaps though none of its pages is due.
      changedLastmod = new Date(Date.now() + 2 * HOUR + 30_000).toISOString();
      site.log.length = 0;
      const third = await runCrawl([`${origin}/`], {
        storePath,
        concurrency: 1,
        revisit: true,
        now: at(2 * HOUR + 60_000),
      });
      assert.equal(third.summary.revisitsDue, 0);
      assert.deepEqual(site.paths().filter(isPage), ["/changed.html"]);

      // Then nothing: each revisit set the page's next moment, and the lastmod is now older
      // than the last fetch. A lastmod in the future is not believed.
      changedLastmod = new Date(Date.now() + 5 * HOUR).toISOString();
      site.log.length = 0;
      const fourth = await runCrawl([`${origin}/`], {
        storePath,
        concurrency: 1,
        revisit: true,
        now: at(2 * HOUR + 120_000),
      });
      assert.equal(fourth.summary.revisitsDue, 0);
      assert.deepEqual(site.paths().filter(isPage), []);
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});

describe("REGP Host: the canonical host", { timeout: 60_000 }, () => {
  const robotsFor = (host: string) => `Robot-version: 3.0

User-agent: *
Allow: /
Host: ${host}
`;
  const mirrorSite = async (robots: () => string) =>
    startSite({
      pages: 1,
      route: (req, res) => {
        const path = req.url ?? "/";
        if (path === "/robots.txt") {
          res.writeHead(200, { "content-type": "text/plain" }).end(robots());
          return true;
        }
        return path === "/" ? html(res, ["/x.html", "/y.html"]) : html(res, []);
      },
    });

  it("crawls a mirror's pages on the canonical host when the crawl's scope takes it", async () => {
    let canonicalHost = "";
    const main = await mirrorSite(() => robotsFor(canonicalHost));
    const mirror = await mirrorSite(() => robotsFor(canonicalHost));
    canonicalHost = new URL(main.origin).host;
    try {
      await runCrawl([`${mirror.origin}/`, `${main.origin}/`], { concurrency: 1 });
      assert.deepEqual(mirror.paths().filter(isPage), ["/"], "the mirror: its seed only");
      assert.deepEqual(new Set(main.paths().filter(isPage)), new Set(["/", "/x.html", "/y.html"]));
      assert.equal(main.paths().filter((p) => p === "/x.html").length, 1);
    } finally {
      await main.close();
      await mirror.close();
    }
  });

  it("out of scope, the canonical host is recorded, not crawled", async () => {
    const mirror = await mirrorSite(() => robotsFor("www.example.com"));
    const temp = await tempDir();
    try {
      const { openStore } = await import("../../src/store/index.js");
      const storePath = join(temp.dir, "crawl.db");
      await runCrawl([`${mirror.origin}/`], { concurrency: 1, storePath });
      assert.deepEqual(
        new Set(mirror.paths().filter(isPage)),
        new Set(["/", "/x.html", "/y.html"]),
      );
      const store = await openStore(storePath);
      try {
        const records = await store.log.list(100, 0);
        const x = records.find((r) => r.url === `${mirror.origin}/x.html`);
        assert.equal(x?.canonical, "http://www.example.com/x.html");
      } finally {
        await store.close();
      }
    } finally {
      await mirror.close();
      await temp.cleanup();
    }
  });
});

describe("the page budget of a site", { timeout: 60_000 }, () => {
  it("with total, counts the pages earlier runs of the crawl fetched", async () => {
    const site = await startSite({ pages: 20 });
    const temp = await tempDir();
    const storePath = join(temp.dir, "crawl.db");
    try {
      await runCrawl([`${site.origin}/`], { storePath, maxPages: 3, maxPerHost: 5, total: true });
      assert.equal(site.paths().filter(isPage).length, 3);
      await runCrawl([`${site.origin}/`], { storePath, maxPages: 100, maxPerHost: 5, total: true });
      assert.equal(site.paths().filter(isPage).length, 5, "two more: five in all");
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });

  it("counts this run's pages by default, and never skips a URL for good over a budget", async () => {
    const site = await startSite({ pages: 20 });
    const temp = await tempDir();
    const storePath = join(temp.dir, "crawl.db");
    try {
      const first = await runCrawl([`${site.origin}/`], { storePath, maxPages: 3 });
      assert.equal(first.summary.stoppedBy, "max-pages");
      const second = await runCrawl([`${site.origin}/`], { storePath, maxPages: 3 });
      assert.equal(second.summary.fetched, 3, "this run's three");
      const third = await runCrawl([`${site.origin}/`], { storePath, maxPerHost: 4 });
      assert.equal(third.summary.fetched, 4);
      assert.equal(third.summary.skipped, 0);
      assert.equal(third.summary.stoppedBy, "max-per-host");
      // Raising the budget fetches the rest: none was marked skipped.
      const fourth = await runCrawl([`${site.origin}/`], { storePath, maxPerHost: 100 });
      assert.equal(fourth.summary.stoppedBy, "finished");
      assert.equal(new Set(site.paths().filter(isPage)).size, 20);
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});
