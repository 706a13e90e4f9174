// Request-rate and Visit-time in a plain RFC 9309 file (no Robot-version line), read as the
// extensions RFC 9309 §2.2.4 permits, in the 1996 form many files use: `Request-rate: 1/5`
// (requests/seconds) and `Visit-time: 0600-0845` (UT). Every assertion reads the site's log.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixedWindowCounts, pageRequests, runCrawl } from "../helpers/crawl-harness.js";
import { startSite } from "../helpers/synthetic-site.js";

/** `HHMM` in UT of the instant `ms`. */
function hhmm(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16).replace(":", "");
}

const HOUR = 3_600_000;

describe(
  "Request-rate and Visit-time in an RFC 9309 file",
  { concurrency: true, timeout: 60_000 },
  () => {
    it("Request-rate: 2/1 and an open Visit-time: every page, never more than 2 in a window", async () => {
      // Open from an hour ago to an hour from now; a window that crosses midnight UT wraps.
      const now = Date.now();
      const visit = `${hhmm(now - HOUR)}-${hhmm(now + HOUR)}`;
      const robots = `User-agent: *\nDisallow: /private/\nRequest-rate: 2/1\nVisit-time: ${visit}\n`;
      const site = await startSite({ pages: 8, robots });
      try {
        const run = await runCrawl([`${site.origin}/`], { concurrency: 4, perHost: 3 });
        assert.equal(run.summary.stoppedBy, "finished");
        const pages = pageRequests(site.log);
        assert.equal(pages.length, 8, `Visit-time: ${visit}`);
        const windows = fixedWindowCounts(pages, 1000);
        for (const w of windows) assert.ok(w.count <= 2, `${w.count} requests in one second`);
        assert.ok(
          windows.length >= 4,
          `8 pages at 2 a second need 4 windows, not ${windows.length}`,
        );
      } finally {
        await site.close();
      }
    });

    it("Visit-time closed now: robots.txt only, no page", async () => {
      // Opens two hours from now for an hour: closed whenever the test runs.
      const now = Date.now();
      const visit = `${hhmm(now + 2 * HOUR)}-${hhmm(now + 3 * HOUR)}`;
      const robots = `User-agent: *\nDisallow: /private/\nVisit-time: ${visit}\n`;
      const site = await startSite({ pages: 4, robots });
      try {
        await runCrawl([`${site.origin}/`], { abortAfterMs: 3000, limitMs: 20_000 });
        assert.deepEqual(
          site.log.map((r) => r.path),
          ["/robots.txt"],
          `Visit-time: ${visit}`,
        );
      } finally {
        await site.close();
      }
    });
  },
);
