// `heed crawl --datasets` keeps each host's /data.txt catalog in the crawl store (SQLite file
// and Redis) and `heed report` lists them, as text and JSON; the catalog requests keep the
// host's Crawl-delay from the crawl's last request on.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tempDir, TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";
import { redisForFile } from "../helpers/redis-server.js";
import { startRouteSite, type RouteHandler } from "../helpers/route-site.js";

// Pages and the home page are HTML, so that the crawl follows their links.
const startSite = (routes: Record<string, RouteHandler | string>) =>
  startRouteSite(routes, {
    typeOf: (path) => (path.endsWith(".html") || path === "/" ? "text/html" : "text/plain"),
  });

const byOrigin = (x: readonly unknown[], y: readonly unknown[]) =>
  String(x[0]) < String(y[0]) ? -1 : 1;

const CATALOG_SITE = {
  "/robots.txt": "User-agent: *\nCrawl-delay: 0.3\nDisallow: /private/\n",
  "/": '<a href="/page.html">page</a>',
  "/page.html": "<p>hello</p>",
  "/data.txt": "- path: /open.csv\n  name: open\n- path: /private/closed.csv\n  name: closed\n",
};

const GUESS_SITE = {
  "/": '<a href="/files/prices.csv">prices</a>',
};

describe("heed crawl --datasets and heed report", { concurrency: false, timeout: 120_000 }, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  const redis = redisForFile();
  before(async () => {
    temp = await tempDir("heed-crawl-datasets-");
  });
  after(async () => {
    await temp.cleanup();
  });

  async function crawlAndReport(store: string) {
    const a = await startSite(CATALOG_SITE);
    const b = await startSite(GUESS_SITE);
    try {
      const crawl = await runCli(
        [
          "crawl",
          `${a.origin}/`,
          `${b.origin}/`,
          "--agent",
          "mybot",
          "--store",
          store,
          "--datasets",
          "--json",
        ],
        { timeoutMs: 60_000 },
      );
      assert.equal(crawl.code, 0, crawl.stderr);
      const text = await runCli(["report", "--store", store]);
      const json = await runCli(["report", "--store", store, "--json"]);
      return { a, b, crawl, text, json };
    } finally {
      await a.close();
      await b.close();
    }
  }

  it("SQLite: each host's catalog kept, listed as text and JSON; the gap kept after the crawl", async () => {
    const { a, b, crawl, text, json } = await crawlAndReport(join(temp.dir, "crawl.db"));
    const summary = JSON.parse(crawl.stdout) as { datasets: Record<string, unknown>[] };
    assert.deepEqual(
      summary.datasets.map((d) => [d.origin, d.outcome, d.datasets, d.fetchable, d.guesses]),
      [
        [a.origin, "found", 2, 1, 0],
        [b.origin, "missing", 1, 1, 1],
      ],
    );

    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Datasets \(\/data\.txt, heed crawl --datasets\)/);
    assert.match(
      text.stdout,
      new RegExp(`${a.origin} \\[mybot\\]: data\\.txt 200, yaml form; 2 datasets, 1 fetchable`),
    );
    assert.match(text.stdout, new RegExp(`fetchable\\s+${a.origin}/open\\.csv  \\(open\\)`));
    assert.match(
      text.stdout,
      new RegExp(`not fetchable ${a.origin}/private/closed\\.csv  \\(closed\\)`),
    );
    assert.match(
      text.stdout,
      new RegExp(`${b.origin} \\[mybot\\]: no data\\.txt \\(404\\); 1 guesses`),
    );
    assert.match(text.stdout, new RegExp(`guess\\s+${b.origin}/files/prices\\.csv`));

    const report = JSON.parse(json.stdout) as {
      datasets: { origin: string; list: { path: unknown }[] }[];
    };
    // "Every catalog, by origin then agent" (src/store/types.ts).
    assert.deepEqual(
      report.datasets.map((d) => [d.origin, d.list.map((x) => x.path)]),
      [
        [a.origin, ["/open.csv", "/private/closed.csv"]],
        [b.origin, ["/files/prices.csv"]],
      ].sort(byOrigin),
    );

    // The crawl ends, then the catalog is read: robots.txt again, /data.txt; each request of
    // site A at least its Crawl-delay after the one before, across the two phases.
    const paths = a.log.map((r) => r.path);
    assert.deepEqual(paths.slice(-2), ["/robots.txt", "/data.txt"]);
    for (let i = 1; i < a.log.length; i++) {
      const gap = (a.log[i]?.at ?? 0) - (a.log[i - 1]?.at ?? 0);
      assert.ok(gap >= 300 - TOLERANCE_MS, `gap of ${gap} ms before ${a.log[i]?.path}`);
    }
    assert.ok(!paths.includes("/private/closed.csv"));
  });

  it("Redis: the same catalogs, kept under the crawl's prefix", async () => {
    const { a, b, json } = await crawlAndReport(`${await redis.url()}#heed-crawl-datasets:`);
    const report = JSON.parse(json.stdout) as { datasets: { origin: string; outcome: string }[] };
    assert.deepEqual(
      report.datasets.map((d) => [d.origin, d.outcome]),
      [
        [a.origin, "found"],
        [b.origin, "missing"],
      ].sort(byOrigin),
    );
  });

  it("without --datasets, nothing is asked for and the report has no datasets section", async () => {
    const a = await startSite(CATALOG_SITE);
    const store = join(temp.dir, "plain.db");
    try {
      const crawl = await runCli([
        "crawl",
        `${a.origin}/`,
        "--agent",
        "mybot",
        "--store",
        store,
        "--quiet",
      ]);
      assert.equal(crawl.code, 0, crawl.stderr);
      assert.ok(!a.log.some((r) => r.path === "/data.txt"));
      const report = await runCli(["report", "--store", store, "--json"]);
      assert.equal((JSON.parse(report.stdout) as { datasets?: unknown }).datasets, undefined);
    } finally {
      await a.close();
    }
  });
});
