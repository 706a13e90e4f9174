// A stop (SIGINT or SIGTERM) is answered in every wait, on both stores: the crawl says its
// summary and exits 130 within seconds, never hangs on a timer the stop called off (Redis, whose
// connection keeps the process alive) and never exits 0 with no summary (SQLite, where nothing
// else does). The wait here is the sitemap read under a Crawl-delay of 60 s: the robots.txt
// exchange has just ended, so the site's reservation is not free again for a minute.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { sleep } from "../../src/crawler/sleep.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { redisForFile } from "../helpers/redis-server.js";
import { spawnCli } from "../helpers/run-cli.js";
import { startSite } from "../helpers/synthetic-site.js";

const redis = redisForFile();

/** How long a stopped crawl may take to exit on a busy machine; a hang runs to the harness's 60 s. */
const STOP_BOUND_MS = 15_000;

describe(
  "heed crawl stopped while it waits for a site",
  { concurrency: true, timeout: 120_000 },
  () => {
    let temp: Awaited<ReturnType<typeof tempDir>>;
    before(async () => {
      temp = await tempDir("heed-cli-stop-");
    });
    after(async () => {
      await temp.cleanup();
    });

    const cases = [
      { store: "sqlite", signal: "SIGINT" },
      { store: "sqlite", signal: "SIGTERM" },
      { store: "redis", signal: "SIGINT" },
      { store: "redis", signal: "SIGTERM" },
    ] as const;
    for (const { store, signal } of cases) {
      it(`${signal} on ${store}: the summary and exit 130, within seconds`, async () => {
        const site = await startSite({
          pages: 3,
          robots: "User-agent: *\nCrawl-delay: 60\nSitemap: /sitemap.xml\n",
        });
        try {
          const where =
            store === "sqlite"
              ? join(temp.dir, `${signal}.db`)
              : `${await redis.url()}#stop-${signal}:`;
          const run = spawnCli(
            ["crawl", `${site.origin}/`, "--agent", "heedtest", "--store", where],
            { timeoutMs: 60_000 },
          );
          let said = "";
          run.child.stderr.on("data", (chunk: Buffer) => (said += chunk.toString("utf8")));
          // The robots.txt exchange is done; the next request (the sitemap) waits its 60 s.
          for (let i = 0; i < 400 && !said.includes("waiting for"); i++) await sleep(50);
          assert.match(said, /waiting for/, "the crawl never said it waits");
          const sent = Date.now();
          run.child.kill(signal);
          const stopped = await run.done;
          const took = Date.now() - sent;
          assert.equal(stopped.code, 130, stopped.stderr);
          assert.ok(took < STOP_BOUND_MS, `took ${took} ms to stop`);
          assert.match(stopped.stderr, /\(aborted\)/);
          assert.deepEqual(site.paths(), ["/robots.txt"]);
        } finally {
          await site.close();
        }
      });
    }
  },
);
