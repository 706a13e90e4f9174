// The case: `heed report` said "time waited 1 ms" beside gaps of 201 ms that the
// crawl kept for a Crawl-delay of 0.2. A crawl that kept the delay between its pages waited
// for it: the report's time waited for the host is at least the delay for every page after the
// first, and no more than the crawl lasted. The site's own log shows the gaps were kept.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { CrawlReport } from "../../src/crawler/report.js";
import { TOLERANCE_MS, tempDir } from "../helpers/crawl-harness.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";
import { isPage, startSite } from "../helpers/synthetic-site.js";

const DELAY_MS = 200;

describe("heed report: time waited on the site's Crawl-delay", { timeout: 120_000 }, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    temp = await tempDir("heed-report-waited-");
  });
  after(async () => {
    await temp.cleanup();
  });

  it("Crawl-delay 0.2, pages 200 ms apart: time waited is 200 ms a page after the first", async () => {
    const site = await startSite({
      pages: 8,
      links: 3,
      robots: `User-agent: *\nCrawl-delay: ${DELAY_MS / 1000}\n`,
    });
    try {
      const store = join(temp.dir, "crawl.db");
      const started = Date.now();
      const crawl = await runCli(
        ["crawl", `${site.origin}/`, "--agent", "heedtest", "--store", store, "--no-sitemaps"],
        { timeoutMs: 90_000 },
      );
      const lasted = Date.now() - started;
      assert.equal(crawl.code, 0, crawl.stderr);
      const pages = site.log.filter((r) => isPage(r.path));
      assert.ok(pages.length >= 8, `pages fetched: ${pages.length}`);
      for (let i = 1; i < site.log.length; i++) {
        const gap = site.log[i]!.at - site.log[i - 1]!.at;
        assert.ok(gap >= DELAY_MS - TOLERANCE_MS, `${site.log[i]!.path} came ${gap} ms after`);
      }
      const result = await runCli(["report", "--store", store, "--json"]);
      assert.equal(result.code, 0, result.stderr);
      const report = jsonLines(result.stdout)[0] as unknown as CrawlReport;
      const host = report.origins.find((o) => o.origin === site.origin);
      assert.ok(host, site.origin);
      assert.ok(
        host.waitedMs >= (pages.length - 1) * DELAY_MS - TOLERANCE_MS,
        `time waited ${host.waitedMs} ms for ${pages.length} pages kept ${DELAY_MS} ms apart`,
      );
      assert.ok(
        host.waitedMs <= lasted,
        `time waited ${host.waitedMs} ms in a crawl of ${lasted} ms`,
      );
    } finally {
      await site.close();
    }
  });
});
