// What the answer to /robots.txt does to a crawl (DESIGN §3), from the server's log: 401 and 403
// close the site; 5xx and network errors close it for now — fail closed, never open: Crawlee and
// Scrapy were both seen fetching disallowed pages while robots.txt answered 503, and heed must
// not; 404 opens it; redirects are followed up to five hops, and a sixth makes it unreachable.
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { pageRequests, runCrawl } from "../helpers/crawl-harness.js";
import { startSite } from "../helpers/synthetic-site.js";

const SEEDS = (origin: string) => [`${origin}/`, `${origin}/page/1.html`, `${origin}/page/2.html`];

function status(code: number) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(code, { "content-type": "text/plain" }).end(`status ${code}`);
  };
}

describe(
  "the answer to robots.txt, from the server's log",
  { concurrency: true, timeout: 60_000 },
  () => {
    for (const code of [401, 403]) {
      it(`${code}: the whole site is disallowed; the crawl ends with every URL skipped`, async () => {
        const site = await startSite({ pages: 10, robots: status(code) });
        try {
          const run = await runCrawl(SEEDS(site.origin), { limitMs: 15_000 });
          assert.deepEqual(site.paths(), ["/robots.txt"]);
          assert.equal(run.summary.stoppedBy, "finished");
          assert.equal(run.summary.fetched, 0);
          assert.equal(run.summary.skipped, 3);
          assert.equal(run.events.filter((e) => e.type === "skipped").length, 3);
        } finally {
          await site.close();
        }
      });
    }

    for (const code of [500, 503]) {
      it(`${code}: fail closed — no page is requested while robots.txt answers ${code}`, async () => {
        const site = await startSite({ pages: 10, robots: status(code) });
        try {
          const run = await runCrawl(SEEDS(site.origin), { abortAfterMs: 2500 });
          assert.equal(run.summary.stoppedBy, "aborted");
          assert.ok(site.log.length >= 1);
          assert.deepEqual(
            site.paths().filter((p) => p !== "/robots.txt"),
            [],
            `requested while robots.txt answered ${code}`,
          );
          assert.equal(run.summary.fetched, 0);
          // Closed for now, not for good: the URLs wait in the queue for robots.txt to come back.
          assert.equal(run.summary.skipped, 0);
          assert.equal(run.summary.queued, 3);
          assert.ok(run.events.some((e) => e.type === "waiting"));
        } finally {
          await site.close();
        }
      });
    }

    it("a network error on robots.txt (connection dropped): fail closed too", async () => {
      const site = await startSite({
        pages: 10,
        robots: (req) => {
          req.socket.destroy();
        },
      });
      try {
        const run = await runCrawl(SEEDS(site.origin), { abortAfterMs: 2500 });
        assert.equal(run.summary.stoppedBy, "aborted");
        assert.ok(site.log.length >= 1);
        assert.deepEqual(
          site.paths().filter((p) => p !== "/robots.txt"),
          [],
        );
        assert.equal(run.summary.queued, 3);
      } finally {
        await site.close();
      }
    });

    it("404: no robots.txt, no restrictions — the site is crawled", async () => {
      const site = await startSite({ pages: 10 }); // robots.txt answers 404
      try {
        const run = await runCrawl([`${site.origin}/`], { limitMs: 15_000 });
        assert.equal(run.summary.stoppedBy, "finished");
        assert.equal(site.log[0]?.path, "/robots.txt");
        assert.equal(pageRequests(site.log).length, 10);
      } finally {
        await site.close();
      }
    });

    /** robots.txt → /hop/1 → … → /hop/n → /final-robots.txt, the rules of the final file. */
    function redirectChain(hops: number) {
      return (req: IncomingMessage, res: ServerResponse): boolean => {
        const path = req.url ?? "";
        const hop = path === "/robots.txt" ? 0 : Number(/^\/hop\/(\d+)$/.exec(path)?.[1] ?? -1);
        if (hop >= 0) {
          const next = hop + 1 < hops ? `/hop/${hop + 1}` : "/final-robots.txt";
          res.writeHead(hop % 2 === 0 ? 301 : 302, { location: next }).end();
          return true;
        }
        if (path === "/final-robots.txt") {
          res
            .writeHead(200, { "content-type": "text/plain" })
            .end("User-agent: *\nDisallow: /page/1\nDisallow: /page/2\n");
          return true;
        }
        return false;
      };
    }

    it("five redirects are followed, and the final file's rules apply", async () => {
      const site = await startSite({ pages: 10, route: redirectChain(5) });
      try {
        const run = await runCrawl([`${site.origin}/`], { limitMs: 15_000 });
        assert.equal(run.summary.stoppedBy, "finished");
        const robots = ["/robots.txt", "/hop/1", "/hop/2", "/hop/3", "/hop/4", "/final-robots.txt"];
        assert.deepEqual(site.paths().slice(0, 6), robots);
        const pages = pageRequests(site.log, (p) => robots.includes(p)).map((r) => r.path);
        const allowed = ["/", ...[3, 4, 5, 6, 7, 8, 9].map((n) => `/page/${n}.html`)];
        assert.deepEqual([...pages].sort(), allowed.sort(), "every page but 1 and 2, once each");
      } finally {
        await site.close();
      }
    });

    it("six redirects: robots.txt is unreachable, the site closed — no page is requested", async () => {
      const site = await startSite({ pages: 10, route: redirectChain(6) });
      try {
        // Stopped once the crawler has given the site up (it waits to ask again), however
        // long the chain took to follow.
        const stop = new AbortController();
        const run = await runCrawl([`${site.origin}/`], {
          signal: stop.signal,
          onEvent: (event) => {
            if (event.type === "waiting") stop.abort();
          },
        });
        assert.equal(run.summary.stoppedBy, "aborted");
        // The client stops after the sixth redirect: /hop/5 answered with a redirect nobody followed.
        const chain = ["/robots.txt", "/hop/1", "/hop/2", "/hop/3", "/hop/4", "/hop/5"];
        assert.deepEqual(site.paths(), chain);
        assert.equal(run.summary.fetched, 0);
        assert.equal(run.summary.queued, 1);
      } finally {
        await site.close();
      }
    });
  },
);
