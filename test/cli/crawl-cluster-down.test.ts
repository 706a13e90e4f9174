// A Redis Cluster one of whose masters stops while the crawl runs and does not come back: calls
// to its slots find no connection, then CLUSTERDOWN from the others. The crawl waits for it as
// for any store out of reach, up to --store-wait, then ends with exit 3 and the store's words,
// no stack trace. Once the master is back with its data (it saved on
// shutdown), the same command crawls to the end and no page is asked twice (this showed a
// resumed crawl ending "finished" with pages still queued: crawler/stages/schedule.ts).
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { startRedisCluster } from "../helpers/redis-cluster.js";
import { crawlArgs, runCli, spawnCli } from "../helpers/run-cli.js";
import { pagesAsked as pages, startSite, untilPages } from "../helpers/synthetic-site.js";
import { pagesTwice } from "../helpers/went-back.js";

/** Sites enough that each master holds some (8 shards over 3 masters: 3, 2 and 3). */
const SITES = 12;
const PAGES = 10;
/** --store-wait, in seconds. */
const STORE_WAIT_S = 3;
/**
 * Room past --store-wait for the crawl to end (the master's absence noticed, the visits in
 * flight ending): only a hang runs past it, and the run is killed there.
 */
const PAST_WAIT_MS = 60_000;

describe("a Redis Cluster master that stays down past --store-wait", { timeout: 240_000 }, () => {
  it("the crawl ends with exit 3 and the store's words; on the repaired cluster it goes on", async (t) => {
    const dir = await mkdtemp(join(tmpdir(), "heed-cluster-down-"));
    const cluster = await startRedisCluster();
    const sites = await Promise.all(
      Array.from({ length: SITES }, () =>
        startSite({ pages: PAGES, links: 3, robots: "User-agent: *\nCrawl-delay: 0.5\n" }),
      ),
    );
    const env = { XDG_STATE_HOME: join(dir, "state") };
    const args = crawlArgs(
      sites.map((site) => `${site.origin}/`),
      `${cluster.url}#down:`,
      "--store-wait",
      String(STORE_WAIT_S),
      "--no-sitemaps",
      "--json",
    );
    try {
      const run = spawnCli(args, { timeoutMs: 120_000 + PAST_WAIT_MS, env });
      await untilPages(sites, SITES);
      const first = cluster.nodes[0];
      assert.ok(first !== undefined);
      // Down with its data on disk, for the repaired cluster below: SHUTDOWN SAVE.
      const admin = new Redis(first.url, { maxRetriesPerRequest: 1, retryStrategy: () => null });
      admin.on("error", () => {});
      // The server ends without an answer: the call fails as it goes.
      await admin.call("SHUTDOWN", "SAVE").catch(() => undefined);
      admin.disconnect();
      const downAt = Date.now();
      const done = await run.done;
      t.diagnostic(`ended ${Date.now() - downAt} ms after the master stopped`);
      t.diagnostic(done.stderr.trim().split("\n").slice(-2).join(" | "));
      assert.equal(done.signal, null, `killed: ${done.stderr}`);
      assert.equal(done.code, 3, done.stderr);
      assert.match(done.stderr, /store redis\+cluster:\/\/\S+ (is unreachable|did not answer)/);
      assert.match(done.stderr, new RegExp(`waited (up to )?${STORE_WAIT_S} s`));
      // Said as what happened to the cluster, not as the client library's retry count.
      assert.doesNotMatch(done.stderr, /Too many Cluster redirections/);
      assert.match(
        done.stderr,
        /the cluster('s master for slot \d+, \S+, does not answer| is down| does not answer)/,
      );
      assert.doesNotMatch(done.stderr, /internal error|\n\s+at /, "no stack trace");
      const before = pages(sites).length;
      assert.ok(before < SITES * PAGES, "stopped before the end");
      const said = /(\d+) fetched, \d+ skipped, \d+ failed in [\d.]+ s; then the store failed/.exec(
        done.stderr,
      );
      assert.ok(said !== null && Number(said[1]) <= before, done.stderr.slice(-2000));

      await cluster.restart(0);
      const again = await runCli(args, { timeoutMs: 120_000, env });
      assert.equal(again.code, 0, again.stderr);
      assert.equal(pages(sites).length, SITES * PAGES, "every page, once the cluster is whole");
      assert.deepEqual(pagesTwice(sites), [], "no page fetched twice");
    } finally {
      await Promise.all(sites.map((site) => site.close()));
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
