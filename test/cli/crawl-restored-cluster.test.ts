// A Redis Cluster one of whose masters is restored from an older snapshot while the crawl runs:
// the shards on that master count their writes apart from the others (`T writes`, a shard's),
// so their counts go back while the others' go on. The crawl stops with exit 3 before any page
// is fetched again, as on one server (crawl-restored-store.test.ts).
import assert from "node:assert/strict";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { startRedisCluster } from "../helpers/redis-cluster.js";
import { crawlArgs, spawnCli } from "../helpers/run-cli.js";
import { pagesAsked as pages, startSite, untilPages } from "../helpers/synthetic-site.js";
import { assertStoppedAtWentBack } from "../helpers/went-back.js";

/** Sites enough that each master holds some (8 shards over 3 masters: 3, 2 and 3). */
const SITES = 16;
const PAGES = 12;

describe(
  "a Redis Cluster master restored older than the crawl's last write",
  { timeout: 240_000 },
  () => {
    it("the crawl stops with exit 3, no page fetched twice", async () => {
      const dir = await mkdtemp(join(tmpdir(), "heed-restored-cluster-"));
      const cluster = await startRedisCluster();
      const sites = await Promise.all(
        Array.from({ length: SITES }, () =>
          startSite({ pages: PAGES, links: 3, robots: "User-agent: *\nCrawl-delay: 0.5\n" }),
        ),
      );
      try {
        const run = spawnCli(
          crawlArgs(
            sites.map((site) => `${site.origin}/`),
            `${cluster.url}#restored:`,
            "--store-wait",
            "30",
            "--no-sitemaps",
          ),
          { timeoutMs: 180_000, env: { XDG_STATE_HOME: join(dir, "state") } },
        );
        await untilPages(sites, SITES);
        const first = cluster.nodes[0];
        assert.ok(first !== undefined);
        const admin = new Redis(first.url, { maxRetriesPerRequest: 1 });
        await admin.save();
        admin.disconnect();
        await copyFile(cluster.snapshotOf(0), join(dir, "older.rdb"));
        await untilPages(sites, pages(sites).length + SITES);
        await copyFile(join(dir, "older.rdb"), cluster.snapshotOf(0));
        await cluster.restart(0);
        assertStoppedAtWentBack(await run.done, sites);
      } finally {
        await Promise.all(sites.map((site) => site.close()));
        await cluster.stop();
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);
