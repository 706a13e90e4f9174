// A store whose filesystem turns read-only mid-crawl, as after a disk error: a real ext4 on a
// loop device, mounted errors=remount-ro, failed through ext4's own trigger while heed crawls
// with the store open. The crawl ends with exit 3 and words naming the store, and no page is
// lost: once the disk is back, the crawl resumes and every page is fetched. Skipped, with the
// reason, where loop devices cannot be mounted (not root).
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pageRequests, sleep, tempDir } from "../helpers/crawl-harness.js";
import { mountFailingDisk } from "../helpers/failing-disk.js";
import { onMountedDisk } from "../helpers/mounted-disk.js";
import { runCli } from "../helpers/run-cli.js";
import { startSite } from "../helpers/synthetic-site.js";

const PAGES = 30;
/** Pages fetched before the disk fails: the crawl is well under way. */
const BEFORE_FAILURE = 5;

describe("heed crawl when its store turns read-only", { timeout: 240_000 }, () => {
  it("an SQLite store on a disk that fails mid-crawl: exit 3 naming it, no page lost", async (t) => {
    const temp = await tempDir("heed-cli-ro-");
    const site = await startSite({ pages: PAGES, robots: "User-agent: *\nCrawl-delay: 0.2\n" });
    const mount = () => mountFailingDisk(join(temp.dir, "disk"), 32);
    await onMountedDisk({ t, temp, site, mount }, async (disk) => {
      const db = join(disk.dir, "crawl.db");
      const args = ["crawl", `${site.origin}/`, "--agent", "heedtest", "--no-sitemaps"];
      const crawling = runCli([...args, "--json", "--store", db], { timeoutMs: 100_000 });
      // Bounded: the site is crawled at 5 pages a second at most; 60 s is far past that.
      for (let i = 0; i < 600 && pageRequests(site.log).length < BEFORE_FAILURE; i++)
        await sleep(100);
      assert.ok(pageRequests(site.log).length >= BEFORE_FAILURE, "the crawl got under way");
      await disk.fail();
      const failed = await crawling;
      assert.equal(failed.code, 3, failed.stderr.slice(-2000));
      assert.match(failed.stderr, new RegExp(`the store ${db} cannot be written: `));
      const before = new Set(pageRequests(site.log).map((r) => r.path));
      // What the run did before the store failed is said, as a stop's summary would.
      const said = /(\d+) fetched, \d+ skipped, \d+ failed in [\d.]+ s; then the store failed/.exec(
        failed.stderr,
      );
      assert.ok(said !== null, failed.stderr.slice(-2000));
      const fetched = Number(said[1]);
      assert.ok(fetched >= 1 && fetched <= before.size, `${fetched} of ${before.size}`);
      assert.ok(before.size < PAGES, `${before.size} pages before the store failed`);

      await disk.recover();
      const again = await runCli([...args, "--json", "--store", db], { timeoutMs: 100_000 });
      assert.equal(again.code, 0, again.stderr.slice(-2000));
      const summary = JSON.parse(again.stdout) as { done: number; queued: number };
      assert.deepEqual([summary.done, summary.queued], [PAGES, 0]);
      const pages = new Set(pageRequests(site.log).map((r) => r.path));
      assert.equal(pages.size, PAGES);
    });
  });
});
