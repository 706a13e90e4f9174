// The library's per-site concurrency (`sites`): a site given one request in flight gets one,
// counted at the site, while the crawl's perHost would allow three; robots.txt still rules.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Crawler } from "heed";
import { tempDir } from "../helpers/crawl-harness.js";
import { pageHtml, startSite } from "../helpers/synthetic-site.js";

describe("sites: per-site concurrency", { timeout: 60_000 }, () => {
  it("one request in flight at the site it names, whatever perHost allows", async () => {
    const temp = await tempDir();
    let inFlight = 0;
    let most = 0;
    const site = await startSite({
      pages: 12,
      links: 4,
      robots: "User-agent: *\nAllow: /\n",
      route: (req, res) => {
        if (!(req.url ?? "").startsWith("/page/")) return false;
        inFlight++;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight--;
          const n = Number(/(\d+)/.exec(req.url ?? "")?.[1] ?? 0);
          res
            .writeHead(200, { "content-type": "text/html" })
            .end(pageHtml(n, { pages: 12, links: 4 }));
        }, 30);
        return true;
      },
    });
    try {
      const crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        perHost: 3,
        concurrency: 6,
        sites: { [site.origin]: { concurrency: 1 } },
      });
      const summary = await crawler.run();
      assert.equal(summary.fetched, 12, JSON.stringify(summary));
      assert.equal(most, 1, `${most} requests were in flight at once`);
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});
