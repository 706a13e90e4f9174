// The crawl is not over while sites it left out as busy (their visits of this process still
// starting) may hold queued URLs. The schedule asks the store for ready sites, leaving out its
// own busy ones; when those visits all end while the store answers, "none other queued" was read
// as the crawl's end: a resumed crawl on a Redis Cluster (each shard asked in turn) stopped
// "finished" after one page a site, its other pages still queued. Here the store's answer is
// held back whenever busy sites are left out, long enough for their visits to end.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CrawlStore } from "../../src/store/types.js";
import { pageRequests, runCrawl } from "../helpers/crawl-harness.js";
import { startSite, type Site } from "../helpers/synthetic-site.js";

const SITES = 4;
const PAGES = 6;
/** How long the store's answer is held back: longer than a visit to a local site takes. */
const HELD_MS = 300;

/** The store, with claimReady answering late whenever it leaves sites out. */
function slowWhenExcluding(store: CrawlStore): CrawlStore {
  const frontier: CrawlStore["frontier"] = Object.create(store.frontier) as never;
  frontier.claimReady = async (now, limit, exclude) => {
    const got = await store.frontier.claimReady(now, limit, exclude);
    if (exclude.size > 0) await new Promise((resolve) => setTimeout(resolve, HELD_MS));
    return got;
  };
  return new Proxy(store, {
    get: (target, key, receiver) =>
      key === "frontier" ? frontier : Reflect.get(target, key, receiver),
  });
}

describe("sites left out as busy while their visits end", { timeout: 120_000 }, () => {
  it("the crawl goes on to their queued pages rather than ending as finished", async () => {
    const sites: Site[] = [];
    for (let i = 0; i < SITES; i++)
      sites.push(
        await startSite({ pages: PAGES, links: 2, robots: "User-agent: *\nCrawl-delay: 0.1\n" }),
      );
    try {
      const run = await runCrawl(
        sites.map((site) => `${site.origin}/`),
        { wrapStore: slowWhenExcluding, concurrency: 16, limitMs: 90_000 },
      );
      for (const site of sites)
        assert.equal(pageRequests(site.log).length, PAGES, `${site.origin}: every page`);
      assert.equal(run.summary.queued, 0);
      assert.equal(run.summary.fetched, SITES * PAGES);
    } finally {
      for (const site of sites) await site.close();
    }
  });
});
