// Retries, from the server's log: a page that answers 503 twice and then 200 is fetched three
// times and is then done; one that keeps failing is given up after its last attempt; and a
// Retry-After on a 503 holds back every request to the site, not only the one URL.
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { gaps, runCrawl, TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { type LoggedRequest, startSite } from "../helpers/synthetic-site.js";
import { isPage } from "../helpers/synthetic-site.js";

/** Answers `path` with 503 (and these headers) the first `times` times it is asked. */
function failing(path: string, times: number, headers: Record<string, string> = {}) {
  let asked = 0;
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.url !== path || asked >= times) return false;
    asked++;
    res.writeHead(503, { "content-type": "text/plain", ...headers }).end("busy");
    return true;
  };
}

function arrivals(log: readonly LoggedRequest[], path: string): number[] {
  return log.filter((r) => r.path === path).map((r) => r.at);
}

describe("retries, from the server's log", { concurrency: true, timeout: 60_000 }, () => {
  it("503, 503, then 200: fetched three times, then done", async () => {
    const site = await startSite({ pages: 3, route: failing("/page/1.html", 2) });
    try {
      const run = await runCrawl([`${site.origin}/page/1.html`], { limitMs: 20_000 });
      assert.equal(run.summary.stoppedBy, "finished");
      const tries = arrivals(site.log, "/page/1.html");
      assert.equal(tries.length, 3, "two failures and the success, no more");
      assert.equal(run.summary.retried, 2);
      assert.equal(run.summary.failed, 0);
      assert.ok(run.events.some((e) => e.type === "fetched" && e.url.endsWith("/page/1.html")));
      // Each try waits out a back-off after the last (2 s, then longer).
      for (let i = 1; i < tries.length; i++) {
        const gap = (tries[i] ?? 0) - (tries[i - 1] ?? 0);
        assert.ok(gap >= 2000 - TOLERANCE_MS, `try ${i + 1} came ${gap} ms after the one before`);
      }
    } finally {
      await site.close();
    }
  });

  it("503 on every try: asked maxAttempts times, then given up", async () => {
    const site = await startSite({ pages: 3, route: failing("/page/1.html", 100) });
    try {
      const run = await runCrawl([`${site.origin}/page/1.html`], {
        maxAttempts: 2,
        limitMs: 20_000,
      });
      assert.equal(run.summary.stoppedBy, "finished");
      assert.deepEqual(site.paths().filter(isPage), ["/page/1.html", "/page/1.html"]);
      assert.equal(run.summary.failed, 1);
    } finally {
      await site.close();
    }
  });

  it("Retry-After: 2 on a 503 holds back the whole site for 2 s", async () => {
    const site = await startSite({ pages: 6, route: failing("/", 1, { "retry-after": "2" }) });
    try {
      const seeds = ["/", "/page/1.html", "/page/2.html", "/page/3.html"];
      const run = await runCrawl(
        seeds.map((p) => `${site.origin}${p}`),
        { limitMs: 20_000 },
      );
      assert.equal(run.summary.stoppedBy, "finished");
      const log = site.log.filter((r) => isPage(r.path));
      assert.equal(log[0]?.path, "/", "the first seed is asked first and answers 503");
      const after = gaps(log)[0];
      assert.ok(after !== undefined);
      assert.ok(
        after.gap >= 2000 - TOLERANCE_MS,
        `${after.before} was asked ${after.gap} ms after the 503 with Retry-After: 2`,
      );
      assert.equal(arrivals(site.log, "/").length, 2, "/ is tried again and succeeds");
      assert.equal(run.summary.fetched, 6);
    } finally {
      await site.close();
    }
  });
});
