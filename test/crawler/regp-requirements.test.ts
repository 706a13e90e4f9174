// REGP requirements a crawler must meet (seeds/003 §3.2.9-3.2.11), from the servers' logs:
// a Language the robot does not support keeps it off the site; a Cookie line is sent with every
// page request; Mirror-site sends the crawl to the mirror (a second local server) instead.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pageRequests, runCrawl } from "../helpers/crawl-harness.js";
import { pagePath, startSite } from "../helpers/synthetic-site.js";

const LANGUAGE_FR = "Robot-version: 3.0\n\nUser-agent: *\nDisallow: /private/\n\nLanguage: fr\n";

describe(
  "REGP requirements, from the servers' logs",
  { concurrency: true, timeout: 60_000 },
  () => {
    it("Language: fr and a robot that supports only en: no page is requested", async () => {
      const site = await startSite({ pages: 5, robots: LANGUAGE_FR });
      try {
        const run = await runCrawl([`${site.origin}/`, `${site.origin}/page/1.html`], {
          languages: ["en"],
          limitMs: 15_000,
        });
        assert.equal(run.summary.stoppedBy, "finished");
        assert.deepEqual(site.paths(), ["/robots.txt"]);
        assert.equal(run.summary.skipped, 2);
      } finally {
        await site.close();
      }
    });

    it("Language: fr and a robot that supports fr: the site is crawled", async () => {
      const site = await startSite({ pages: 5, robots: LANGUAGE_FR });
      try {
        await runCrawl([`${site.origin}/`], { languages: ["en", "fr"], limitMs: 15_000 });
        assert.equal(pageRequests(site.log).length, 5);
      } finally {
        await site.close();
      }
    });

    it("Cookie: user=robot is sent with every page request", async () => {
      const robots =
        "Robot-version: 3.0\n\nUser-agent: *\nDisallow: /private/\nCookie: user=robot\n";
      const site = await startSite({ pages: 8, robots });
      try {
        await runCrawl([`${site.origin}/`], { limitMs: 15_000 });
        const pages = pageRequests(site.log);
        assert.equal(pages.length, 8);
        for (const r of pages) assert.equal(r.headers.cookie, "user=robot", r.path);
      } finally {
        await site.close();
      }
    });

    it("Mirror-site: the pages are fetched from the mirror, not from the original", async () => {
      const mirror = await startSite({ pages: 8, robots: "User-agent: *\nDisallow: /private/\n" });
      const mirrorHost = new URL(mirror.origin).host;
      const original = await startSite({
        pages: 8,
        robots: `Robot-version: 3.0\n\nUser-agent: *\nDisallow: /private/\nMirror-site: ${mirrorHost}\n`,
      });
      try {
        // The mirror is in the crawl's scope (both are 127.0.0.1): a Mirror-site line is a link,
        // and a mirror outside the scope is not followed (test/hostile/mirror-site-scope.test.ts).
        const run = await runCrawl([`${original.origin}/`], { limitMs: 15_000, scope: "domain" });
        assert.equal(run.summary.stoppedBy, "finished");
        assert.deepEqual(original.paths(), ["/robots.txt"], "only robots.txt from the original");
        assert.equal(mirror.log[0]?.path, "/robots.txt", "the mirror's own robots.txt first");
        const pages = pageRequests(mirror.log).map((r) => r.path);
        const all = Array.from({ length: 8 }, (_, n) => pagePath(n));
        assert.deepEqual([...pages].sort(), all.sort(), "the whole site, through the mirror");
      } finally {
        await original.close();
        await mirror.close();
      }
    });
  },
);
