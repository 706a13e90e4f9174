// A robots.txt that redirects to another site (RFC 9309 §2.3.1.2: followed, up to five hops;
// the rules read apply to the first site). Each hop is a request to the site it reaches, so it
// keeps that site's reservation, Crawl-delay and Visit-time, read from the sites' own logs.
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { gaps, pageRequests, runCrawl, TOLERANCE_MS, timeOfDay } from "../helpers/crawl-harness.js";
import { type Site, startSite } from "../helpers/synthetic-site.js";

/** A site whose robots.txt is a redirect to `to`'s robots.txt. */
function redirecting(to: () => string): Promise<Site> {
  return startSite({
    pages: 2,
    robots: (_req, res) => {
      res.writeHead(301, { location: `${to()}/robots.txt` }).end();
    },
  });
}

describe(
  "a robots.txt redirect hop to another site",
  { concurrency: true, timeout: 90_000 },
  () => {
    it("keeps the other site's Crawl-delay while its pages are crawled", async () => {
      const other = await startSite({ pages: 4, robots: "User-agent: *\nCrawl-delay: 2\n" });
      const site = await redirecting(() => other.origin);
      try {
        const run = await runCrawl([`${other.origin}/`, `${site.origin}/`], { limitMs: 60_000 });
        assert.equal(run.summary.stoppedBy, "finished");
        const robots = other.log.filter((r) => r.path === "/robots.txt");
        assert.equal(robots.length, 2, `its own and the hop: ${other.paths().join(" ")}`);
        assert.equal(pageRequests(other.log).length, 4);
        assert.equal(
          pageRequests(site.log).length,
          2,
          "the first site is crawled under the rules read",
        );
        for (const { gap, before } of gaps(other.log))
          assert.ok(
            gap >= 2000 - TOLERANCE_MS,
            `${before} came ${gap} ms after the request before`,
          );
      } finally {
        await site.close();
        await other.close();
      }
    });

    it("two sites whose robots.txt redirect to each other's files: both read, neither waits for ever", async () => {
      const rules = (path: string) => (req: IncomingMessage, res: ServerResponse) => {
        if (req.url !== path) return false;
        res
          .writeHead(200, { "content-type": "text/plain" })
          .end("User-agent: *\nCrawl-delay: 0.2\n");
        return true;
      };
      let a = "";
      let b = "";
      const one = await startSite({
        pages: 2,
        robots: (_req, res) => void res.writeHead(302, { location: `${b}/rules-a.txt` }).end(),
        route: rules("/rules-b.txt"),
      });
      const two = await startSite({
        pages: 2,
        robots: (_req, res) => void res.writeHead(302, { location: `${a}/rules-b.txt` }).end(),
        route: rules("/rules-a.txt"),
      });
      a = one.origin;
      b = two.origin;
      try {
        const run = await runCrawl([`${a}/`, `${b}/`], { limitMs: 30_000 });
        assert.equal(run.summary.stoppedBy, "finished");
        assert.equal(
          pageRequests(one.log, (p) => p.endsWith(".txt")).length,
          2,
          one.paths().join(" "),
        );
        assert.equal(
          pageRequests(two.log, (p) => p.endsWith(".txt")).length,
          2,
          two.paths().join(" "),
        );
      } finally {
        await one.close();
        await two.close();
      }
    });

    it("waits for the other site's Visit-time, read from its own robots.txt first", async () => {
      const opens = Math.ceil((Date.now() + 3000) / 1000) * 1000;
      const window = `${timeOfDay(opens)}-${timeOfDay(opens + 30_000)}`;
      const other = await startSite({
        pages: 1,
        robots: `Robot-version: 3.0\n\nUser-agent: *\nVisit-time: ${window}\n`,
      });
      const site = await redirecting(() => other.origin);
      try {
        const run = await runCrawl([`${site.origin}/`], { limitMs: 30_000 });
        assert.equal(run.summary.stoppedBy, "finished");
        const robots = other.log.filter((r) => r.path === "/robots.txt");
        assert.equal(robots.length, 2, `its own and the hop: ${other.paths().join(" ")}`);
        assert.ok(
          (robots[0]?.at ?? Infinity) < opens,
          "its own robots.txt is read before the window",
        );
        assert.ok(
          (robots[1]?.at ?? 0) >= opens,
          `the hop came ${opens - (robots[1]?.at ?? 0)} ms before ${window} opened`,
        );
        const pages = pageRequests(site.log);
        assert.equal(pages.length, 2);
        for (const r of pages) assert.ok(r.at >= opens, `${r.path} came before the window`);
      } finally {
        await site.close();
        await other.close();
      }
    });
  },
);
