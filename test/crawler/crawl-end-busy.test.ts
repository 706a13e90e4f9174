// A crawl ends only on what the store says with nothing of its own running. The schedule asks
// the store for ready sites leaving out the sites its visits hold; should those visits all end
// while the store is asked (on a Redis Cluster the ask is a call a shard, one after another),
// the answer "nothing ready" said nothing about those sites. The crawl then ended "finished"
// with their URLs still queued: a crawl of 13 sites on a real 3-master cluster did in 3 of 5
// runs. Here the ask is held until the visit has ended, so the order is the same every time.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CrawlStore, Frontier } from "../../src/store/types.js";
import { runCrawl } from "../helpers/crawl-harness.js";
import { startSite } from "../helpers/synthetic-site.js";

const PAGES = 6;

/**
 * The store, with claimReady held, when it leaves out sites, until no page settle is in flight
 * and the visit has had time to end (the test's order, not a figure it asserts).
 */
function holdBusyAsks(store: CrawlStore): { store: CrawlStore; held: () => number } {
  let settling = 0;
  let held = 0;
  const frontier: Frontier = Object.create(store.frontier) as Frontier;
  frontier.claimReady = async (now, limit, exclude) => {
    if (exclude.size > 0) {
      held++;
      for (let i = 0; i < 200 && settling > 0; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
    }
    return store.frontier.claimReady(now, limit, exclude);
  };
  const steps = Object.create(store.steps) as CrawlStore["steps"];
  steps.settle = async (...args) => {
    settling++;
    try {
      await store.steps.settle(...args);
    } finally {
      settling--;
    }
  };
  return { store: { ...store, frontier, steps, close: () => store.close() }, held: () => held };
}

describe("the end of a crawl", { timeout: 60_000 }, () => {
  it("is not read from an ask that left out sites whose visits ended meanwhile", async () => {
    const site = await startSite({ pages: PAGES, links: 3, robots: "User-agent: *\n" });
    let held = () => 0;
    try {
      const run = await runCrawl([`${site.origin}/`], {
        concurrency: 4,
        wrapStore: (opened) => {
          const wrapped = holdBusyAsks(opened);
          held = wrapped.held;
          return wrapped.store;
        },
      });
      assert.ok(held() > 0, "no ask left a site out");
      assert.equal(run.summary.queued, 0, JSON.stringify(run.summary));
      assert.equal(run.summary.fetched, PAGES, JSON.stringify(run.summary));
    } finally {
      await site.close();
    }
  });
});
