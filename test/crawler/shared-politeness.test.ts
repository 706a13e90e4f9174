// Politeness shared across processes (DESIGN §2, one reservation per site): two and four
// `heed crawl` processes on one real redis-server, and a process killed with SIGKILL and run
// again. Every rule is judged from the test server's own arrival log, over every request heed
// made to the site — robots.txt, sitemaps and pages — whichever process made it.
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { redisForFile } from "../helpers/redis-server.js";
import { TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { arrivals, assertGaps } from "../helpers/site-gaps.js";
import { crawlArgs as heedCrawl, runCli, spawnCli, type CliResult } from "../helpers/run-cli.js";
import { isPage, type LoggedRequest, startSite } from "../helpers/synthetic-site.js";
import { sleep } from "../../src/crawler/sleep.js";

const redis = redisForFile();

let prefixes = 0;
async function freshStore(): Promise<string> {
  const url = await redis.url();
  return `${url}#heed-politeness:${process.pid}:${++prefixes}:`;
}

const crawlArgs = (seed: string, store: string, extra: readonly string[] = []) =>
  heedCrawl(seed, store, "--quiet", "--json", ...extra);

/** Starts `n` processes, `staggerMs` apart, and waits for all. */
async function runMany(
  n: number,
  args: readonly string[],
  staggerMs = 0,
): Promise<readonly CliResult[]> {
  const runs: Promise<CliResult>[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && staggerMs > 0) await sleep(staggerMs);
    runs.push(runCli(args, { timeoutMs: 90_000 }));
  }
  const results = await Promise.all(runs);
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  return results;
}

/** No `requests + 1` arrivals within any stretch of `windowMs`. */
function assertRate(log: readonly LoggedRequest[], requests: number, windowMs: number): void {
  for (let i = requests; i < log.length; i++) {
    const span = log[i]!.at - log[i - requests]!.at;
    assert.ok(
      span >= windowMs - TOLERANCE_MS,
      `${requests + 1} requests within ${span} ms (arrivals ${arrivals(log)})`,
    );
  }
}

function countOf(log: readonly LoggedRequest[], path: string): number {
  return log.filter((r) => r.path === path).length;
}

/** A site whose robots.txt names a sitemap index of `files` sitemaps, `per` pages each. */
function sitemapRoute(files: number, per: number) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const origin = `http://${req.headers.host ?? ""}`;
    const path = req.url ?? "";
    const xml = (body: string) => {
      res.writeHead(200, { "content-type": "application/xml" });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
      return true;
    };
    const ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
    if (path === "/sm-index.xml") {
      const items = Array.from(
        { length: files },
        (_, i) => `<sitemap><loc>${origin}/sm-${i}.xml</loc></sitemap>`,
      );
      return xml(`<sitemapindex ${ns}>${items.join("")}</sitemapindex>`);
    }
    const m = /^\/sm-(\d+)\.xml$/.exec(path);
    if (m !== null) {
      const k = Number(m[1]);
      const items = Array.from(
        { length: per },
        (_, i) => `<url><loc>${origin}/page/${1 + k * per + i}.html</loc></url>`,
      );
      return xml(`<urlset ${ns}>${items.join("")}</urlset>`);
    }
    return false;
  };
}

describe("politeness shared by processes on one Redis store", { timeout: 240_000 }, () => {
  it(
    "four processes, Crawl-delay 0.5 and a sitemap index of 3 files: every request 0.5 s apart, each sitemap once",
    { timeout: 120_000 },
    async () => {
      const site = await startSite({
        pages: 13,
        links: 0,
        robots: "User-agent: *\nCrawl-delay: 0.5\nSitemap: /sm-index.xml\n",
        route: sitemapRoute(3, 4),
      });
      try {
        const store = await freshStore();
        // The last joins late, after the others are under way.
        await runMany(4, crawlArgs(`${site.origin}/`, store), 300);
        assertGaps(site.log, 500);
        for (const path of ["/robots.txt", "/sm-index.xml", "/sm-0.xml", "/sm-1.xml", "/sm-2.xml"])
          assert.equal(countOf(site.log, path), 1, `${path}: ${arrivals(site.log)}`);
        const pages = site.log.filter((r) => isPage(r.path) && !r.path.startsWith("/sm-"));
        assert.equal(pages.length, 13, arrivals(site.log));
        assert.equal(new Set(pages.map((r) => r.path)).size, 13, "a page fetched twice");
      } finally {
        await site.close();
      }
    },
  );

  it(
    "two processes on a plain site: /sitemap.xml once, and the gap kept after robots.txt",
    { timeout: 120_000 },
    async () => {
      const site = await startSite({
        pages: 8,
        links: 3,
        robots: "User-agent: *\nCrawl-delay: 0.3\n",
      });
      try {
        const store = await freshStore();
        await runMany(2, crawlArgs(`${site.origin}/`, store));
        assertGaps(site.log, 300);
        assert.equal(countOf(site.log, "/sitemap.xml"), 1, arrivals(site.log));
        assert.equal(countOf(site.log, "/robots.txt"), 1, arrivals(site.log));
      } finally {
        await site.close();
      }
    },
  );

  it(
    "two processes, REGP Request-rate 2/2s alone: never 3 requests within 2 s, robots.txt counted",
    { timeout: 120_000 },
    async () => {
      const site = await startSite({
        pages: 6,
        links: 2,
        robots: "Robot-version: 3.0\n\nUser-agent: *\nDisallow: /private/\nRequest-rate: 2/2s\n",
      });
      try {
        const store = await freshStore();
        await runMany(2, crawlArgs(`${site.origin}/`, store));
        assertRate(site.log, 2, 2000);
        assert.equal(site.log.filter((r) => r.path.startsWith("/page/")).length, 5);
      } finally {
        await site.close();
      }
    },
  );

  it(
    "two processes with --per-host 1 and no delay: one request in flight at the site at a time",
    { timeout: 120_000 },
    async () => {
      let inFlight = 0;
      let most = 0;
      const site = await startSite({
        pages: 12,
        links: 4,
        robots: "User-agent: *\nDisallow: /private/\n",
        route: (req, res) => {
          if (!/^\/(?:page\/\d+\.html)?$/.test(req.url ?? "")) return false;
          inFlight++;
          most = Math.max(most, inFlight);
          setTimeout(() => {
            inFlight--;
            res.writeHead(200, { "content-type": "text/html" });
            const n = /(\d+)/.exec(req.url ?? "")?.[1];
            const k = n === undefined ? 0 : Number(n);
            const links = [1, 2, 3, 4].map((i) => `<a href="/page/${(k * 4 + i) % 12}.html">x</a>`);
            res.end(`<!doctype html><title>${k}</title>${links.join(" ")}`);
          }, 60);
          return true;
        },
      });
      try {
        const store = await freshStore();
        await runMany(2, crawlArgs(`${site.origin}/`, store, ["--per-host", "1"]));
        assert.equal(most, 1, arrivals(site.log));
        const pages = site.log.filter((r) => r.path.startsWith("/page/")).map((r) => r.path);
        assert.equal(pages.length, 12, arrivals(site.log));
        assert.equal(new Set(pages).size, pages.length, "a page fetched twice");
      } finally {
        await site.close();
      }
    },
  );

  it(
    "--per-host is the store's cap alone: one process reaches it, two processes together never pass it",
    { timeout: 120_000 },
    async () => {
      let inFlight = 0;
      let most = 0;
      const slowSite = () =>
        startSite({
          pages: 16,
          links: 4,
          robots: "User-agent: *\n",
          route: (req, res) => {
            if (!/^\/(?:page\/\d+\.html)?$/.test(req.url ?? "")) return false;
            inFlight++;
            most = Math.max(most, inFlight);
            setTimeout(() => {
              inFlight--;
              res.writeHead(200, { "content-type": "text/html" });
              const k = Number(/(\d+)/.exec(req.url ?? "")?.[1] ?? 0);
              const links = [1, 2, 3, 4].map(
                (i) => `<a href="/page/${(k * 4 + i) % 16}.html">x</a>`,
              );
              res.end(`<!doctype html><title>${k}</title>${links.join(" ")}`);
            }, 150);
            return true;
          },
        });
      // One process, --per-host 3: nothing of its own holds it below the store's cap.
      let site = await slowSite();
      try {
        await runMany(1, crawlArgs(`${site.origin}/`, await freshStore(), ["--per-host", "3"]));
        assert.equal(most, 3, arrivals(site.log));
      } finally {
        await site.close();
      }
      // Two processes, --per-host 2 each: 2 in flight at the site at most, over both.
      inFlight = 0;
      most = 0;
      site = await slowSite();
      try {
        const store = await freshStore();
        await runMany(2, crawlArgs(`${site.origin}/`, store, ["--per-host", "2"]));
        assert.equal(most, 2, arrivals(site.log));
        const pages = site.log.filter((r) => r.path.startsWith("/page/")).map((r) => r.path);
        assert.equal(new Set(pages).size, pages.length, "a page fetched twice");
      } finally {
        await site.close();
      }
    },
  );

  it(
    "one of two processes killed with SIGKILL: the other takes its leases back (its process id is gone from this machine), every page fetched",
    { timeout: 120_000 },
    async () => {
      const site = await startSite({
        pages: 16,
        links: 3,
        robots: "User-agent: *\nCrawl-delay: 0.3\n",
      });
      try {
        const store = await freshStore();
        const doomed = spawnCli(crawlArgs(`${site.origin}/`, store), { timeoutMs: 90_000 });
        const survivor = spawnCli(crawlArgs(`${site.origin}/`, store), { timeoutMs: 90_000 });
        for (
          let i = 0;
          i < 1200 && site.log.filter((r) => r.path.startsWith("/page/")).length < 3;
          i++
        )
          await sleep(50);
        doomed.child.kill("SIGKILL");
        const killed = await doomed.done;
        assert.equal(killed.signal, "SIGKILL", `exit ${killed.code}: ${killed.stderr}`);
        const result = await survivor.done;
        assert.equal(result.code, 0, result.stderr);
        assertGaps(site.log, 300);
        const paths = site.log.filter((r) => r.path.startsWith("/page/") || r.path === "/");
        assert.equal(new Set(paths.map((r) => r.path)).size, 16, arrivals(site.log));
      } finally {
        await site.close();
      }
    },
  );

  it(
    "SIGKILL, run again: the restarted run's robots.txt and sitemap keep the killed run's gap, and it does not idle",
    { timeout: 120_000 },
    async () => {
      const site = await startSite({
        pages: 14,
        links: 3,
        robots: "User-agent: *\nCrawl-delay: 0.5\n",
        // The restarted run reads robots.txt again only when its copy has expired.
      });
      try {
        const store = await freshStore();
        const first = spawnCli(crawlArgs(`${site.origin}/`, store), { timeoutMs: 60_000 });
        // Killed while pages are being fetched.
        for (
          let i = 0;
          i < 1200 && site.log.filter((r) => r.path.startsWith("/page/")).length < 3;
          i++
        )
          await sleep(50);
        first.child.kill("SIGKILL");
        const killed = await first.done;
        assert.equal(killed.signal, "SIGKILL");
        const killedAt = site.log.length;
        // The killed process ran on this machine: its lease comes back at once. A lease held for
        // minutes (as before) would outlast this time limit.
        const second = await runCli(crawlArgs(`${site.origin}/`, store), { timeoutMs: 60_000 });
        assert.equal(second.code, 0, second.stderr);
        assertGaps(site.log, 500);
        assert.ok(site.log.length > killedAt, "the second run fetched nothing");
        const paths = site.log.filter((r) => r.path.startsWith("/page/") || r.path === "/");
        assert.equal(new Set(paths.map((r) => r.path)).size, 14, arrivals(site.log));
      } finally {
        await site.close();
      }
    },
  );
});
