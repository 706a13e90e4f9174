// A store that went back to an older state is noticed (store/write-counter.ts): a Redis
// restarted from an older snapshot while the crawl runs stops it with exit 3 before any page
// is fetched again, and a new run refuses it until told (--accept-restored-store); an older
// copy of an SQLite file put back between runs is refused alike. On the old code the crawl went
// on unaware and fetched again the pages fetched since the snapshot.
import assert from "node:assert/strict";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { sleep } from "../../src/crawler/sleep.js";
import { startRedisServer } from "../helpers/redis-server.js";
import { crawlArgs as heedCrawl, runCli, spawnCli } from "../helpers/run-cli.js";
import { isPage, type Site, startSite } from "../helpers/synthetic-site.js";
import { assertStoppedAtWentBack } from "../helpers/went-back.js";

const crawlArgs = (site: Site, store: string, extra: readonly string[] = []) =>
  heedCrawl(`${site.origin}/`, store, "--store-wait", "30", "--no-sitemaps", ...extra);

async function untilPages(site: Site, n: number): Promise<void> {
  for (let i = 0; i < 600 && site.paths().filter(isPage).length < n; i++) await sleep(50);
  assert.ok(site.paths().filter(isPage).length >= n, `only ${site.paths().join(" ")}`);
}

describe("a store restored older than the crawl's last write", { timeout: 180_000 }, () => {
  it("Redis restarted from an older snapshot: the crawl stops, a new run refuses it until told", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-restored-"));
    const args = ["--dir", dir, "--dbfilename", "dump.rdb"];
    let server = await startRedisServer({ args });
    const site = await startSite({
      pages: 40,
      links: 3,
      robots: "User-agent: *\nCrawl-delay: 0.2\n",
    });
    const env = { XDG_STATE_HOME: join(dir, "state") };
    try {
      const store = `${server.url}#restored:`;
      const run = spawnCli(crawlArgs(site, store), { timeoutMs: 120_000, env });
      await untilPages(site, 5);
      const admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
      await admin.save();
      admin.disconnect();
      await copyFile(join(dir, "dump.rdb"), join(dir, "older.rdb"));
      const saved = site.paths().filter(isPage).length;
      await untilPages(site, saved + 6);
      // The server stops without saving and starts again from the older snapshot.
      await server.stop();
      await copyFile(join(dir, "older.rdb"), join(dir, "dump.rdb"));
      server = await startRedisServer({ port: server.port, args });
      assertStoppedAtWentBack(await run.done, [site]);

      const asked = site.log.length;
      const refused = await runCli(crawlArgs(site, store), { timeoutMs: 60_000, env });
      assert.equal(refused.code, 3, refused.stderr);
      assert.match(
        refused.stderr,
        /went back to an older state: its write count is \d+, and a crawl on this machine saw \d+/,
      );
      assert.match(refused.stderr, /--accept-restored-store/);
      assert.equal(site.log.length, asked, "nothing asked of the site");

      const accepted = await runCli(crawlArgs(site, store, ["--accept-restored-store"]), {
        timeoutMs: 90_000,
        env,
      });
      assert.equal(accepted.code, 0, accepted.stderr);
      assert.equal(
        new Set(site.paths().filter(isPage)).size,
        40,
        accepted.stdout + accepted.stderr,
      );
    } finally {
      await site.close();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("an older copy of the SQLite file put back: refused until told", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-restored-"));
    const site = await startSite({ pages: 12, links: 3 });
    const env = { XDG_STATE_HOME: join(dir, "state") };
    const db = join(dir, "crawl.db");
    try {
      const step = (extra: readonly string[] = []) =>
        runCli(crawlArgs(site, db, ["--max-pages", "4", ...extra]), { timeoutMs: 60_000, env });
      assert.equal((await step()).code, 0);
      await copyFile(db, join(dir, "older.db"));
      assert.equal((await step()).code, 0);
      await copyFile(join(dir, "older.db"), db);
      const asked = site.log.length;
      const refused = await step();
      assert.equal(refused.code, 3, refused.stderr);
      assert.match(refused.stderr, /crawl\.db went back to an older state/);
      assert.equal(site.log.length, asked, "nothing asked of the site");
      const accepted = await step(["--accept-restored-store"]);
      assert.equal(accepted.code, 0, accepted.stderr);
      // From then on the copy is the crawl: the next run goes on without the flag.
      assert.equal((await step()).code, 0);
    } finally {
      await site.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
