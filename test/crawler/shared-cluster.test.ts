// A crawl shared by four `heed crawl` processes on a real 3-master Redis Cluster (started here),
// across many sites whose reservations, queues and logs all live in the store, spread over the
// three masters: every site's gaps are judged from its own arrival log, over every request any
// process made to it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Cluster } from "ioredis";
import { clusterNodes } from "../../src/store/redis/index.js";
import { TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { clusterForFile } from "../helpers/redis-cluster.js";
import { runCli, type CliResult } from "../helpers/run-cli.js";
import { isPage, startSite, type LoggedRequest } from "../helpers/synthetic-site.js";

const cluster = clusterForFile();
/**
 * Sites enough that the crawl's 8 shards, 3 on one master, 2 on another and 3 on the third
 * (src/store/redis/keys.ts), all get some: the chance that 32 sites miss a master is 1 in 10^4.
 */
const SITES = 32;
const PAGES = 6;
const DELAY_MS = 300;

function times(log: readonly LoggedRequest[]): string {
  const t0 = log[0]?.at ?? 0;
  return log.map((r) => `${r.at - t0}:${r.path}`).join(" ");
}

describe("politeness shared by processes on a Redis Cluster", { timeout: 240_000 }, () => {
  it(
    `four processes, ${SITES} sites with Crawl-delay ${DELAY_MS / 1000}: every site's gaps kept, every page once`,
    { timeout: 180_000 },
    async () => {
      const sites = await Promise.all(
        Array.from({ length: SITES }, () =>
          startSite({
            pages: PAGES,
            links: 3,
            robots: `User-agent: *\nCrawl-delay: ${DELAY_MS / 1000}\n`,
          }),
        ),
      );
      try {
        const url = await cluster.url();
        const store = `${url}#heed-cluster-${process.pid}:`;
        const args = ["crawl", ...sites.map((s) => `${s.origin}/`)];
        args.push("--agent", "heedtest", "--store", store, "--quiet", "--json");
        const results: CliResult[] = await Promise.all(
          Array.from({ length: 4 }, () => runCli(args, { timeoutMs: 150_000 })),
        );
        for (const r of results) {
          assert.equal(r.code, 0, r.stderr);
          assert.doesNotMatch(r.stderr, /CROSSSLOT|EXECABORT|\n\s+at /);
        }
        const fetched = results.reduce(
          (sum, r) => sum + (JSON.parse(r.stdout) as { fetched: number }).fetched,
          0,
        );
        assert.equal(fetched, SITES * PAGES);
        for (const site of sites) {
          for (let i = 1; i < site.log.length; i++) {
            const gap = site.log[i]!.at - site.log[i - 1]!.at;
            assert.ok(
              gap >= DELAY_MS - TOLERANCE_MS,
              `${site.origin}: ${site.log[i]!.path} ${gap} ms after the last (${times(site.log)})`,
            );
          }
          const pages = site.log.filter((r) => isPage(r.path)).map((r) => r.path);
          assert.equal(pages.length, PAGES, times(site.log));
          assert.equal(new Set(pages).size, PAGES, `a page fetched twice: ${times(site.log)}`);
        }
        // The crawl is spread over the cluster: keys on every master, each site's in one slot.
        const raw = new Cluster(clusterNodes(url) ?? []);
        try {
          // The client knows the masters once it has asked the cluster its shape.
          await raw.cluster("INFO");
          const perMaster: string[][] = [];
          for (const node of raw.nodes("master"))
            perMaster.push(await node.keys(`heed-cluster-${process.pid}:*`));
          assert.equal(perMaster.length, 3);
          for (const keys of perMaster) assert.ok(keys.length > 0, "a master holds no key");
          const keys = perMaster.flat();
          for (const site of sites) {
            const own = keys.filter(
              (key) => key.endsWith(site.origin) || key.includes(`${site.origin} `),
            );
            assert.ok(own.length > 0, site.origin);
            const slots = new Set(await Promise.all(own.map((key) => raw.cluster("KEYSLOT", key))));
            assert.equal(slots.size, 1, own.join(" "));
          }
        } finally {
          raw.disconnect();
        }
      } finally {
        for (const site of sites) await site.close();
      }
    },
  );
});
