// Processes whose clocks differ keep a site's gaps and each other's heartbeats: every moment a
// crawl hands the store, or waits for, is the store's (DESIGN §2, one clock for politeness).
// HEED_TEST_CLOCK_SKEW_MS shifts one process's wall clock, as a machine whose clock is off. On
// the old code, each process judged by its own clock: with a 2 s skew and Crawl-delay 3 gaps of
// about 1 s reached the site, and with a 12 s skew a live process was declared dead, its lease
// and its sitemap claim taken by the other.
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it, type TestContext } from "node:test";
import { sleep } from "../../src/crawler/sleep.js";
import { redisForFile } from "../helpers/redis-server.js";
import { crawlArgs, spawnCli, type CliResult } from "../helpers/run-cli.js";
import { arrivals, assertGaps } from "../helpers/site-gaps.js";
import { type Site, startSite } from "../helpers/synthetic-site.js";

const redis = redisForFile();

const QUIET = ["--quiet", "--json"];

/** Runs `heed crawl` with its wall clock shifted by `skewMs`. */
function crawlSkewed(args: readonly string[], skewMs: number) {
  return spawnCli(args, {
    timeoutMs: 90_000,
    env: { HEED_TEST_CLOCK_SKEW_MS: skewMs === 0 ? undefined : String(skewMs) },
  });
}

function assertEachOnce(site: Site): void {
  const paths = site.paths();
  assert.equal(new Set(paths).size, paths.length, `asked twice: ${arrivals(site.log)}`);
}

function assertExited(results: readonly CliResult[]): void {
  for (const r of results) assert.equal(r.code, 0, r.stderr);
}

/** Two processes, one 2 s ahead, on the same seed of a site asking Crawl-delay: 3. */
async function twoClocks(t: TestContext, store: (dir: string) => Promise<string>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "heed-skew-"));
  const site = await startSite({ pages: 4, links: 2, robots: "User-agent: *\nCrawl-delay: 3\n" });
  try {
    const args = crawlArgs(`${site.origin}/`, await store(dir), ...QUIET);
    const runs = [crawlSkewed(args, 0), crawlSkewed(args, 2_000)];
    assertExited(await Promise.all(runs.map((r) => r.done)));
    t.diagnostic(`arrivals (ms:path): ${arrivals(site.log)}`);
    assertGaps(site.log, 3_000);
    assertEachOnce(site);
    assert.equal(site.log.filter((r) => r.path.endsWith(".html")).length, 3, arrivals(site.log));
  } finally {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Answers `path` after `ms`, with `body` as XML when given, else as a page without links. */
function slow(path: string, ms: number, body?: (origin: string) => string) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.url !== path) return false;
    setTimeout(() => {
      if (body === undefined) {
        res.writeHead(200, { "content-type": "text/html" }).end("<p>slow</p>");
        return;
      }
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(body(`http://${req.headers.host ?? ""}`));
    }, ms);
    return true;
  };
}

const urlset = (origin: string) =>
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
  [1, 2, 3].map((n) => `<url><loc>${origin}/page/${n}.html</loc></url>`).join("") +
  "</urlset>";

describe("crawler processes whose clocks differ", { concurrency: true, timeout: 180_000 }, () => {
  it("on Redis, 2 s apart under Crawl-delay 3: every gap at the site is 3 s", async (t) => {
    let n = 0;
    await twoClocks(t, async () => `${await redis.url()}#skew:${process.pid}:${++n}:`);
  });

  it("on SQLite, 2 s apart under Crawl-delay 3: every gap at the site is 3 s", async (t) => {
    await twoClocks(t, async (dir) => join(dir, "crawl.db"));
  });

  it("on Redis, 12 s behind: the live process keeps its lease and its sitemap claim", async () => {
    // One site whose sitemap takes 8 s, another whose only page does: the process behind is
    // reading the one and fetching the other when the second process starts.
    const reading = await startSite({
      pages: 4,
      links: 0,
      robots: "User-agent: *\nSitemap: /sitemap.xml\n",
      route: slow("/sitemap.xml", 8_000, urlset),
    });
    const fetching = await startSite({ pages: 1, links: 0, route: slow("/", 8_000) });
    try {
      const args = crawlArgs(
        [`${reading.origin}/`, `${fetching.origin}/`],
        `${await redis.url()}#skew-beat:${process.pid}:`,
        ...QUIET,
      );
      const behind = crawlSkewed(args, -12_000);
      const asked = () =>
        reading.paths().includes("/sitemap.xml") && fetching.paths().includes("/");
      for (let i = 0; i < 600 && !asked(); i++) await sleep(50);
      assert.ok(asked(), `never asked: ${arrivals(reading.log)} | ${arrivals(fetching.log)}`);
      const ahead = crawlSkewed(args, 0);
      assertExited(await Promise.all([behind.done, ahead.done]));
      assertEachOnce(reading);
      assertEachOnce(fetching);
      assert.equal(reading.paths().filter((p) => p.endsWith(".html")).length, 3);
    } finally {
      await reading.close();
      await fetching.close();
    }
  });
});
