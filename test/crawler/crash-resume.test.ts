// A crawl killed with SIGKILL and started again finishes with each page fetched once, and keeps
// the site's gap across the restart. `heed crawl` runs as a user runs it (the built CLI in a
// child process, its SQLite store in a temporary directory); the server kills it from inside a
// request, so that at least one URL is in flight at the kill. The server's log is the evidence.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { gaps, pageRequests, tempDir, TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { type RunningCli, spawnCli } from "../helpers/run-cli.js";
import { pagePath, startSite } from "../helpers/synthetic-site.js";
import { sleep } from "../../src/crawler/sleep.js";
import { openStore } from "../../src/store/index.js";

function crawlArgs(origin: string, store: string, extra: readonly string[] = []): string[] {
  return ["crawl", `${origin}/`, "--agent", "HeedTest", "--store", store, "--json", ...extra];
}

describe("crash and resume, from the server's log", { concurrency: true, timeout: 90_000 }, () => {
  it("killed with SIGKILL after 60 of 200 pages, run again: every page once, but for those in flight", async () => {
    const concurrency = 4;
    const perHost = 2;
    const temp = await tempDir();
    let first: RunningCli | null = null;
    let killedAt = 0;
    const site = await startSite({
      pages: 200,
      links: 5,
      robots: "User-agent: *\nCrawl-delay: 0.02\n",
      route: () => {
        // Killed as the 60th page request arrives, before it is answered: it is in flight.
        if (killedAt === 0 && pageRequests(site.log).length === 60 && first !== null) {
          killedAt = Date.now();
          first.child.kill("SIGKILL");
        }
        return false;
      },
    });
    try {
      const args = crawlArgs(site.origin, join(temp.dir, "crawl.db"), [
        "--concurrency",
        String(concurrency),
        "--per-host",
        String(perHost),
      ]);
      first = spawnCli(args, { timeoutMs: 30_000 });
      const killed = await first.done;
      assert.equal(killed.signal, "SIGKILL", `the first run was not killed: ${killed.stderr}`);
      const before = site.log.length;

      const second = await spawnCli(args, { timeoutMs: 40_000 }).done;
      assert.equal(second.code, 0, second.stderr);
      const summary = JSON.parse(second.stdout) as { stoppedBy: string; done: number };
      assert.equal(summary.stoppedBy, "finished");
      assert.ok(site.log.length > before, "the second run fetched the rest");

      const pages = pageRequests(site.log);
      const times = new Map<string, number[]>();
      for (const r of pages) times.set(r.path, [...(times.get(r.path) ?? []), r.at]);
      for (let n = 0; n < 200; n++)
        assert.ok(times.has(pagePath(n)), `${pagePath(n)} never fetched`);
      assert.equal(times.size, 200, "nothing but the site's pages");
      const twice = [...times].filter(([, at]) => at.length > 1);
      // Only URLs leased at the kill can be fetched again: at most --per-host of one site's
      // (and never more than --concurrency × --per-host in all).
      assert.ok(twice.length >= 1, "the page in flight at the kill is fetched again");
      assert.ok(
        twice.length <= Math.min(perHost, concurrency * perHost),
        `fetched twice: ${twice.map(([p]) => p).join(" ")}`,
      );
      for (const [path, at] of twice) {
        assert.equal(at.length, 2, `${path} fetched ${at.length} times`);
        assert.ok((at[0] ?? 0) <= killedAt && (at[1] ?? 0) > killedAt, `${path}: once per run`);
      }
      // The robots.txt read by the first run is kept in the store: the second run does not ask.
      assert.equal(site.log.filter((r) => r.path === "/robots.txt").length, 1);
      for (const { gap, before: path } of gaps(site.log)) {
        assert.ok(gap >= 20 - TOLERANCE_MS, `${gap} ms before ${path}`);
      }
    } finally {
      first?.child.kill("SIGKILL");
      await site.close();
      await temp.cleanup();
    }
  });

  it("the gap holds across the restart: Crawl-delay 2 s, killed and restarted at once", async () => {
    const delayMs = 2000;
    const temp = await tempDir();
    let first: RunningCli | null = null;
    let killedAt = 0;
    const site = await startSite({
      pages: 2,
      robots: `User-agent: *\nCrawl-delay: ${delayMs / 1000}\n`,
      route: (req) => {
        if (killedAt === 0 && req.url === "/" && first !== null) {
          killedAt = Date.now();
          first.child.kill("SIGKILL");
        }
        return false;
      },
    });
    try {
      const args = crawlArgs(site.origin, join(temp.dir, "crawl.db"));
      first = spawnCli(args, { timeoutMs: 20_000 });
      assert.equal((await first.done).signal, "SIGKILL");
      const lastOfFirst = pageRequests(site.log).at(-1)?.at ?? 0;
      const restartedAt = Date.now();
      const second = await spawnCli(args, { timeoutMs: 20_000 }).done;
      assert.equal(second.code, 0, second.stderr);
      // Not vacuous: the second run was up well before the gap ended, so it had to wait.
      assert.ok(
        restartedAt - lastOfFirst < delayMs / 2,
        `restarted ${restartedAt - lastOfFirst} ms later`,
      );

      const pages = pageRequests(site.log);
      assert.deepEqual(
        pages.map((r) => r.path),
        ["/", "/", "/page/1.html"],
        "/ was in flight at the kill and is fetched again, then the page it links to",
      );
      for (const { gap, before } of gaps(site.log)) {
        assert.ok(gap >= delayMs - TOLERANCE_MS, `${gap} ms before ${before}, across the restart`);
      }
    } finally {
      first?.child.kill("SIGKILL");
      await site.close();
      await temp.cleanup();
    }
  });
});

describe("a process killed while it reads a site's sitemaps", { timeout: 120_000 }, () => {
  it("the live process takes the freed claim up and fetches every sitemap-only page", async () => {
    const temp = await tempDir();
    const children = 8;
    const perChild = 2;
    const only = (c: number, i: number) => `/only/${c}-${i}.html`;
    const HELD_FROM = 2;
    // Answers held back; null once they are let go.
    let held: (() => void)[] | null = [];
    const site = await startSite({
      pages: 1,
      links: 0,
      robots: "User-agent: *\nCrawl-delay: 1\nSitemap: /sitemap.xml\n",
      route: (req, res) => {
        const path = req.url ?? "";
        const ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
        if (path === "/sitemap.xml") {
          const entries = Array.from(
            { length: children },
            (_, c) => `<sitemap><loc>${site.origin}/sitemap-${c}.xml</loc></sitemap>`,
          );
          res.writeHead(200, { "content-type": "application/xml" });
          res.end(`<sitemapindex ${ns}>${entries.join("")}</sitemapindex>`);
          return true;
        }
        const child = /^\/sitemap-(\d+)\.xml$/.exec(path);
        if (child !== null) {
          const c = Number(child[1]);
          const urls = Array.from(
            { length: perChild },
            (_, i) => `<url><loc>${site.origin}${only(c, i)}</loc></url>`,
          );
          const answer = () => {
            if (res.destroyed) return;
            res.writeHead(200, { "content-type": "application/xml" });
            res.end(`<urlset ${ns}>${urls.join("")}</urlset>`);
          };
          // From the third child on, held until the survivor runs: the reader is then killed
          // in the middle of its reading however long a process takes to start.
          if (c >= HELD_FROM && held !== null) held.push(answer);
          else answer();
          return true;
        }
        if (path.startsWith("/only/")) {
          res.writeHead(200, { "content-type": "text/html" }).end("<p>only in a sitemap</p>");
          return true;
        }
        return false;
      },
    });
    try {
      const args = crawlArgs(site.origin, join(temp.dir, "shared.db"));
      // The survivor starts while the reader reads, and finds the reading claimed; the reader
      // is then killed in the middle of it. Its claim is freed only when it is found dead.
      const path = join(temp.dir, "shared.db");
      const reader = spawnCli(args, { timeoutMs: 60_000 });
      const heldChild = `/sitemap-${HELD_FROM}.xml`;
      for (let i = 0; i < 1200 && !site.paths().includes(heldChild); i++) await sleep(50);
      assert.ok(site.paths().includes(heldChild), "the reader never reached the held sitemap");
      const survivor = spawnCli(args, { timeoutMs: 100_000 });
      let processes = 0;
      for (let i = 0; i < 1200 && processes < 2; i++) {
        await sleep(50);
        const store = await openStore(path);
        processes = (await store.reservations.processes()).length;
        await store.close();
      }
      assert.equal(processes, 2, "the survivor never started");
      reader.child.kill("SIGKILL");
      assert.equal((await reader.done).signal, "SIGKILL");
      const pending: (() => void)[] = held ?? [];
      held = null;
      for (const answer of pending) answer();
      assert.ok(!site.paths().includes(`/sitemap-${children - 1}.xml`), "it read them all first");
      const done = await survivor.done;
      assert.equal(done.code, 0, done.stderr);
      const fetched = new Set(site.paths());
      for (let c = 0; c < children; c++)
        for (let i = 0; i < perChild; i++)
          assert.ok(fetched.has(only(c, i)), `${only(c, i)} never fetched: ${done.stderr}`);
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});
