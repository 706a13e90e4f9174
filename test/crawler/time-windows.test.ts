// REGP Visit-time and Time-forbidden (seeds/003 §3.2.8) against the real clock: windows a few
// seconds ahead of now, written from Date.now() when the test starts, no fake clock. The robot
// reads robots.txt, waits for the window (the paper's countdown timer), and only then asks for
// pages; the server's log shows when each request arrived.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dateTime, pageRequests, runCrawl, timeOfDay } from "../helpers/crawl-harness.js";
import { startSite } from "../helpers/synthetic-site.js";

/** The next whole second at least `ms` from now: REGP times have whole seconds. */
function wholeSecondAhead(ms: number): number {
  return Math.ceil((Date.now() + ms) / 1000) * 1000;
}

describe(
  "REGP time windows, against the real clock",
  { concurrency: true, timeout: 60_000 },
  () => {
    it("Visit-time opening 3 s from now: no page before it opens, all pages after", async () => {
      const opens = wholeSecondAhead(3000);
      // A daily window; one that crosses midnight UTC wraps into the next day (§3.2.8), so the
      // same text holds whenever the test runs.
      const window = `${timeOfDay(opens)}-${timeOfDay(opens + 20_000)}`;
      const robots = `Robot-version: 3.0\n\nUser-agent: *\nDisallow: /private/\n\nVisit-time: ${window}\n`;
      const site = await startSite({ pages: 6, robots });
      try {
        const run = await runCrawl([`${site.origin}/`], { limitMs: 20_000 });
        assert.equal(run.summary.stoppedBy, "finished");
        assert.equal(site.log[0]?.path, "/robots.txt");
        assert.ok((site.log[0]?.at ?? Infinity) < opens, "robots.txt is read before the window");
        const pages = pageRequests(site.log);
        assert.equal(pages.length, 6, `Visit-time: ${window}`);
        for (const r of pages) {
          assert.ok(r.at >= opens, `${r.path} arrived ${opens - r.at} ms before ${window} opened`);
          assert.ok(r.at < opens + 20_000, `${r.path} arrived after the window closed`);
        }
        // It waited for the window, not some fixed time: the first page came soon after it opened.
        assert.ok((pages[0]?.at ?? 0) - opens < 1500, `${(pages[0]?.at ?? 0) - opens} ms late`);
      } finally {
        await site.close();
      }
    });

    it("Visit-time closing 3 s from now: no sitemap request after it closes, however many are left", async () => {
      const closes = wholeSecondAhead(3000);
      // Open since a minute ago; the end names the last second inside it.
      const window = `${timeOfDay(closes - 60_000)}-${timeOfDay(closes - 1000)}`;
      const children = 30;
      const robots =
        `Robot-version: 3.0\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 0.5\n\n` +
        `Visit-time: ${window}\nSitemap: /sitemap.xml\n`;
      const xml = (body: string) =>
        `<?xml version="1.0"?>${body.replace("%ns", 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"')}`;
      const site = await startSite({
        pages: 2,
        robots,
        route: (req, res) => {
          const path = req.url ?? "";
          if (!path.startsWith("/sitemap")) return false;
          res.writeHead(200, { "content-type": "application/xml" });
          if (path === "/sitemap.xml") {
            const entries = Array.from(
              { length: children },
              (_, i) => `<sitemap><loc>${site.origin}/sitemap-${i}.xml</loc></sitemap>`,
            );
            res.end(xml(`<sitemapindex %ns>${entries.join("")}</sitemapindex>`));
          } else {
            res.end(xml(`<urlset %ns><url><loc>${site.origin}/page/1.html</loc></url></urlset>`));
          }
          return true;
        },
      });
      try {
        // Thirty children at one a half-second would run 12 s past the window: the crawl
        // waits for tomorrow's instead, and is stopped while it does.
        await runCrawl([`${site.origin}/`], { abortAfterMs: 9000, limitMs: 20_000 });
        const sitemaps = site.log.filter((r) => r.path.startsWith("/sitemap"));
        assert.ok(sitemaps.length >= 2, "the reading began inside the window");
        for (const r of sitemaps)
          assert.ok(r.at < closes, `${r.path} arrived ${r.at - closes} ms after ${window} closed`);
        assert.ok(sitemaps.length < children + 1, "the reading stopped at the window's end");
      } finally {
        await site.close();
      }
    });

    it("Time-forbidden from a minute ago to 3 s from now: only robots.txt until it ends", async () => {
      // The end names the last second inside the span: the robot may come one second after it.
      const last = wholeSecondAhead(2000);
      const reopens = last + 1000;
      const span = `${dateTime(last - 60_000)}-${dateTime(last)}`;
      const robots = `Robot-version: 3.0\n\nUser-agent: *\nDisallow: /private/\nTime-forbidden: ${span}\n`;
      const site = await startSite({ pages: 6, robots });
      try {
        const run = await runCrawl([`${site.origin}/`], { limitMs: 20_000 });
        assert.equal(run.summary.stoppedBy, "finished");
        assert.equal(site.log[0]?.path, "/robots.txt");
        const early = site.log.filter((r) => r.at < reopens).map((r) => r.path);
        assert.deepEqual(
          early.filter((p) => p !== "/robots.txt"),
          [],
          `Time-forbidden: ${span}`,
        );
        const pages = pageRequests(site.log);
        assert.equal(pages.length, 6);
        assert.ok((pages[0]?.at ?? 0) - reopens < 1500, `${(pages[0]?.at ?? 0) - reopens} ms late`);
      } finally {
        await site.close();
      }
    });
  },
);
