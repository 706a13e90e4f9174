// A re-crawl asks again for every page fetched before, conditionally (RFC 9110 §13.1): the
// server sees If-None-Match and If-Modified-Since, and a 304 costs no body.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCrawl, tempDir } from "../helpers/crawl-harness.js";
import { pageHtml, startSite } from "../helpers/synthetic-site.js";
import { isPage } from "../helpers/synthetic-site.js";

describe("re-crawl with conditional requests", { timeout: 60_000 }, () => {
  it("a second run with recrawl sends the validators and takes 304s", async () => {
    const options = { pages: 4, links: 2 };
    const site = await startSite({
      ...options,
      route: (req, res) => {
        const match = /^\/(?:page\/(\d+)\.html)?$/.exec(req.url ?? "");
        if (match === null) return false;
        const n = Number(match[1] ?? 0);
        const etag = `"v1-${n}"`;
        if (req.headers["if-none-match"] === etag) {
          res.writeHead(304, { etag }).end();
          return true;
        }
        res
          .writeHead(200, {
            "content-type": "text/html",
            etag,
            "last-modified": "Sat, 21 Nov 2026 08:00:00 GMT",
          })
          .end(pageHtml(n, options));
        return true;
      },
    });
    const temp = await tempDir();
    try {
      const storePath = join(temp.dir, "crawl.db");
      const first = await runCrawl([`${site.origin}/`], { storePath });
      assert.equal(first.summary.fetched, 4);
      const before = site.log.length;
      const again = await runCrawl([`${site.origin}/`], { storePath });
      assert.equal(again.summary.stoppedBy, "finished");
      assert.equal(again.summary.fetched, 0, "without recrawl, a finished crawl has nothing to do");
      assert.equal(site.log.length, before, "and asks the site nothing");
      const third = await runCrawl([`${site.origin}/`], { storePath, recrawl: true });
      const asked = site.log.slice(before).filter((r) => isPage(r.path));
      assert.equal(asked.length, 4, "every page asked again once");
      for (const request of asked) {
        assert.match(String(request.headers["if-none-match"]), /^"v1-\d+"$/, request.path);
        assert.equal(request.headers["if-modified-since"], "Sat, 21 Nov 2026 08:00:00 GMT");
      }
      assert.equal(third.summary.fetched, 4, "304s count as fetched pages");
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});
