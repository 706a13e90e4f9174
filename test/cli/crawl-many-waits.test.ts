// Many sites waiting at once for their reservations (a sitemap read under each site's
// Crawl-delay) is an ordinary crawl, not a leak: no MaxListenersExceededWarning on stderr.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";
import { startSite, type Site } from "../helpers/synthetic-site.js";

const SITES = 16;

describe("heed crawl with many sites waiting at once", { timeout: 120_000 }, () => {
  it(`${SITES} sites, each reading its sitemap under a Crawl-delay: no listener warning`, async () => {
    const temp = await tempDir("heed-cli-waits-");
    const sites: Site[] = [];
    try {
      for (let i = 0; i < SITES; i++) {
        sites.push(
          await startSite({
            pages: 3,
            robots: "User-agent: *\nCrawl-delay: 1\nSitemap: /sitemap.xml\n",
            route: (req, res) => {
              if (req.url !== "/sitemap.xml") return false;
              res.writeHead(200, { "content-type": "application/xml" });
              res.end(
                '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
                  "<url><loc>/page/1.html</loc></url></urlset>",
              );
              return true;
            },
          }),
        );
      }
      const result = await runCli(
        [
          "crawl",
          ...sites.map((s) => `${s.origin}/`),
          "--agent",
          "heedtest",
          "--concurrency",
          String(SITES * 2),
          "--store",
          join(temp.dir, "waits.db"),
        ],
        { timeoutMs: 100_000 },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /MaxListenersExceededWarning/);
      // Every site was read under its delay: robots.txt, then the sitemap a second later.
      for (const site of sites) assert.ok(site.paths().includes("/sitemap.xml"));
    } finally {
      await Promise.all(sites.map((s) => s.close()));
      await temp.cleanup();
    }
  });
});
