// The crawl view's feed (src/web/crawl-feed.ts) over both store back ends: the same crawl of a
// local site, read through the store's interfaces, gives the same snapshot from an SQLite file
// and from a real redis-server; a store that is not there yet, or not a store, is a state, not
// a crash; the feed only reads. After a crawl of a site whose REGP robots.txt sets a Crawl-delay
// and a Request-rate, the feed shows what paces the site: the rules for the crawl's robot, the
// rate window the site's reservation counts and its next allowed moment.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CrawlFeed } from "../../src/web/crawl-feed.js";
import { openStore } from "../../src/store/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";
import { serveDirectory, type StaticSite } from "../helpers/static-site.js";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.js";

const PAGES = 4;
// seeds/003 §3.2.6-3.2.7: a segment for the crawl's robot (lines 3-5), another for the rest.
const PACED_ROBOTS = [
  "Robot-version: 3.0",
  "User-agent: HeedTest",
  "Crawl-delay: 0.2",
  "Request-rate: 600/1m",
  "Disallow: /private/",
  "",
  "User-agent: *",
  "Crawl-delay: 7",
  "",
].join("\n");

describe("the crawl view's feed", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let site: StaticSite;
  let paced: StaticSite;
  let redis: RedisServer;

  before(async () => {
    temp = await tempDir("heed-feed-");
    const root = join(temp.dir, "site");
    await mkdir(root, { recursive: true });
    const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p${i}.html">p</a>`);
    await writeFile(join(root, "index.html"), `<html><body>${links.join(" ")}</body></html>`);
    for (let i = 0; i < PAGES; i++) await writeFile(join(root, `p${i}.html`), "<html></html>");
    site = await serveDirectory(root, "User-agent: *\nCrawl-delay: 0.05\nDisallow: /private/\n");
    paced = await serveDirectory(root, PACED_ROBOTS);
    redis = await startRedisServer();
  });

  after(async () => {
    await site?.close();
    await paced?.close();
    await redis?.stop();
    await temp?.cleanup();
  });

  const backEnds = [
    ["SQLite", () => join(temp.dir, "crawl.db")],
    ["Redis", () => `${redis.url}#feed-test:`],
  ] as const;

  for (const [name, spec] of backEnds) {
    it(`${name}: follows a crawl to its end, and only reads`, async () => {
      const feed = new CrawlFeed({ store: spec(), now: () => Date.now() });
      try {
        if (name === "SQLite") assert.equal((await feed.refresh()).state, "no-store");
        const result = await runCli(
          [
            "crawl",
            `${site.origin}/`,
            `${site.origin}/private/x.html`,
            "--agent",
            "HeedTest",
            "--store",
            spec(),
          ],
          { timeoutMs: 60_000 },
        );
        assert.equal(result.code, 0, result.stderr);
        const s = await feed.refresh();
        assert.equal(s.state, "finished", s.message ?? "");
        assert.deepEqual(s.counts, {
          queued: 0,
          leased: 0,
          done: PAGES + 1,
          skipped: 1,
          failed: 0,
        });
        // The pages, robots.txt and /sitemap.xml (the log holds every request to the site).
        assert.equal(s.requests, PAGES + 3);
        assert.equal(s.records, PAGES + 4);
        const [host] = s.hosts;
        assert.equal(host?.origin, site.origin);
        assert.equal(host?.requests, PAGES + 3);
        assert.deepEqual(
          host?.robots && { status: host.robots.status, action: host.robots.action },
          {
            status: 200,
            action: "parse",
          },
        );
        assert.equal(host?.gaps.requiredMaxMs, 50);
        assert.equal(host?.gaps.belowRequired, 0);
        assert.equal(s.skippedTotal, 1);
        assert.equal(s.skipped[0]?.url, `${site.origin}/private/x.html`);
        assert.equal(s.skipped[0]?.outcome, "disallowed");
        assert.match(s.skipped[0]?.detail ?? "", /Disallow: \/private\//);
        assert.match(s.report.body, /<svg id="chart"/);
        // A second read finds nothing new and counts nothing twice.
        const again = await feed.refresh();
        assert.equal(again.records, s.records);
        assert.equal(again.skippedTotal, 1);
        // The store is as the crawl left it.
        const store = await openStore(spec());
        try {
          assert.equal(await store.log.count(), PAGES + 4);
          assert.deepEqual(await store.frontier.counts(), { ...s.counts, origins: 0 });
        } finally {
          await store.close();
        }
      } finally {
        await feed.close();
      }
    });
  }

  for (const [name] of backEnds) {
    it(`${name}: shows each site's delay, rate window and next allowed moment`, async () => {
      const store = name === "SQLite" ? join(temp.dir, "paced.db") : `${redis.url}#feed-paced:`;
      const before = Date.now();
      const result = await runCli(
        ["crawl", `${paced.origin}/`, "--agent", "HeedTest", "--store", store],
        { timeoutMs: 60_000 },
      );
      assert.equal(result.code, 0, result.stderr);
      const feed = new CrawlFeed({ store, agent: "HeedTest" });
      const anyRobot = new CrawlFeed({ store });
      try {
        const s = await feed.refresh();
        assert.equal(s.state, "finished", s.message ?? "");
        const [host] = s.hosts;
        assert.ok(host, "the site's row");
        const { pace } = host;
        assert.deepEqual(pace.crawlDelay, { seconds: 0.2, line: 3 });
        assert.equal(pace.ipDelay, null);
        assert.equal(pace.rulesKept, true);
        // Crawl-delay 0.2 s is more than 600/1m spread evenly (0.1 s).
        assert.equal(pace.gapMs, 200);
        assert.equal(pace.inFlight, 0);
        assert.equal(pace.rates.length, 1);
        const [rate] = pace.rates;
        // Every request the crawl made to the site is in the one-minute window.
        assert.deepEqual(rate && { ...rate, windowStart: null }, {
          scope: "agent",
          requests: 600,
          seconds: 60,
          line: 4,
          windowMs: 60_000,
          allows: 600,
          inWindow: host.requests,
          windowStart: null,
          fullUntil: null,
        });
        assert.ok((rate?.windowStart ?? 0) >= before, "the window starts in this crawl");
        assert.deepEqual(host.windows, [
          { scope: "agent", start: rate?.windowStart, count: host.requests },
        ]);
        // The next request may start the delay after the last exchange ended.
        assert.ok(pace.endedAt !== null && pace.endedAt >= (rate?.windowStart ?? 0));
        assert.equal(pace.allowedAt, (pace.endedAt ?? 0) + 200);
        assert.equal(pace.why, "gap");
        assert.equal(pace.closed, null);
        // Read just after the last exchange, the site is waiting on its delay.
        const early = new CrawlFeed({
          store,
          agent: "HeedTest",
          now: () => (pace.endedAt ?? 0) + 50,
        });
        try {
          const [row] = (await early.refresh()).hosts;
          assert.equal(row?.waiting, "keeping the site's delay of 0.2 s (line 3)");
        } finally {
          await early.close();
        }
        // Without the crawl's robot, the feed reads the rules for any robot.
        const [other] = (await anyRobot.refresh()).hosts;
        assert.deepEqual(other?.pace.crawlDelay, { seconds: 7, line: 8 });
        assert.deepEqual(other?.pace.rates, []);
        assert.deepEqual(other?.windows, []);
      } finally {
        await feed.close();
        await anyRobot.close();
      }
    });
  }

  it("a file that is not a store is reported, not thrown", async () => {
    const path = join(temp.dir, "not-a-store.db");
    await writeFile(path, "this is not SQLite".repeat(100));
    const feed = new CrawlFeed({ store: path });
    try {
      const s = await feed.refresh();
      assert.equal(s.state, "unreadable");
      assert.ok((s.message ?? "").length > 0);
    } finally {
      await feed.close();
    }
  });
});
