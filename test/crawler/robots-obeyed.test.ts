// No disallowed URL is ever requested, in each of the three dialects, by `heed crawl` run as a
// user runs it (the built CLI in a child process). The evidence is the test server's request
// log: every URL in it but /robots.txt must be allowed by the same file parsed on its own, the
// set of pages requested must be exactly what a breadth-first walk of the site under those rules
// reaches, /robots.txt comes first, and every request names the robot as NAME/<version> (+<url>).
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { VERSION } from "../../src/cli/version.js";
import { parseRobots } from "../../src/protocol/robots/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";
import { pageHtml, type SiteOptions, startSite } from "../helpers/synthetic-site.js";
import { isPage } from "../helpers/synthetic-site.js";

const AGENT = "HeedTest";
const INFO_URL = "https://example.org/heed-test";

/** Links on every page: some allowed, some not, depending on the file. */
const EXTRA_LINKS = [
  "/private/open",
  "/private/closed",
  "/old/page.htm",
  "/old/page.html",
  "/page/2.html?x=1",
  "/Page/1.html",
];

const SITE: Omit<SiteOptions, "robots"> = { pages: 25, links: 5, extraLinks: EXTRA_LINKS };

const FILES: Record<string, { text: string; dialect: string; refused: readonly string[] }> = {
  // Longest match wins, a tie goes to Allow; `*` and `$`; the robot's own group replaces `*`'s.
  "RFC 9309": {
    dialect: "rfc9309",
    text: [
      "User-agent: *",
      "Disallow: /",
      "",
      "User-agent: heedtest",
      "Disallow: /page/1",
      "Allow: /page/13.html",
      "Disallow: /*.htm$",
      "Disallow: /*?",
      "Disallow: /private/",
      "Allow: /private/open",
      "",
    ].join("\n"),
    refused: [
      "/page/1.html",
      "/page/12.html",
      "/old/page.htm",
      "/page/2.html?x=1",
      "/private/closed",
    ],
  },
  // The first record naming the robot; the first matching line decides; no wildcards.
  "Koster 1996 (Robot-version: 2.0)": {
    dialect: "koster1996",
    text: [
      "Robot-version: 2.0",
      "",
      "User-agent: *",
      "Disallow: /",
      "",
      "User-agent: HeedTest-crawler",
      "Disallow: /page/1",
      "Allow: /page/13.html",
      "Allow: /page/2",
      "Disallow: /page/20.html",
      "Disallow: /old/*",
      "Disallow: /private/",
      "",
    ].join("\n"),
    refused: ["/page/1.html", "/page/13.html", "/private/open", "/private/closed"],
  },
  // The last matching line decides, with an implicit `Disallow: /` before a leading non-root
  // Allow; paths compared without case; `##` comments; the first segment whose value the
  // robot's token contains.
  "REGP (Robot-version: 3.0)": {
    dialect: "regp",
    text: [
      "Robot-version: 3.0",
      "## last match wins here",
      "",
      "User-agent: otherbot",
      "Disallow: /",
      "",
      "User-agent: test",
      "Allow: /page/",
      "Allow: /$",
      "Allow: /old/",
      "Disallow: /page/1",
      "Allow: /page/13.html",
      "Disallow: /*.htm$",
      "",
    ].join("\n"),
    refused: ["/page/1.html", "/Page/1.html", "/old/page.htm", "/private/open", "/private/closed"],
  },
};

/** What a polite robot requests: a breadth-first walk from `/` that follows allowed links only. */
function expectedRequests(site: SiteOptions, allowed: (path: string) => boolean): Set<string> {
  const requested = new Set<string>();
  const queue = ["/"];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (!allowed(path)) continue;
    requested.add(path);
    const match = /^\/(?:page\/(\d+)\.html)?$/.exec(path);
    if (match === null) continue; // not a page of the site: a 404 without links
    for (const [, href] of pageHtml(Number(match[1] ?? 0), site).matchAll(/href="([^"]*)"/g)) {
      const url = new URL(href ?? "", "http://site.test/");
      const next = url.pathname + url.search;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return requested;
}

describe("heed crawl requests no disallowed URL", { concurrency: true, timeout: 60_000 }, () => {
  for (const [name, file] of Object.entries(FILES)) {
    it(`${name}: every request is allowed, every allowed page is reached, robots.txt first`, async () => {
      const policy = parseRobots(file.text);
      assert.equal(policy.dialect, file.dialect);
      const site = await startSite({ ...SITE, robots: file.text });
      const temp = await tempDir();
      try {
        const result = await runCli(
          [
            "crawl",
            `${site.origin}/`,
            "--agent",
            AGENT,
            "--info-url",
            INFO_URL,
            "--store",
            join(temp.dir, "crawl.db"),
            "--max-depth",
            "20",
            "--json",
          ],
          { timeoutMs: 30_000 },
        );
        assert.equal(result.code, 0, result.stderr);
        const summary = JSON.parse(result.stdout) as { stoppedBy: string };
        assert.equal(summary.stoppedBy, "finished");

        const log = site.log;
        assert.equal(log[0]?.path, "/robots.txt", "robots.txt is the first request");
        assert.equal(log.filter((r) => r.path === "/robots.txt").length, 1);
        // The sitemap is asked for too (robots.txt names none, so /sitemap.xml): allowed here.
        const pages = log
          .slice(1)
          .map((r) => r.path)
          .filter(isPage);
        for (const path of pages) {
          assert.ok(
            policy.isAllowed(`${site.origin}${path}`, AGENT),
            `${path} was requested but ${name} disallows it`,
          );
        }
        assert.equal(new Set(pages).size, pages.length, "no URL requested twice");
        // Not vacuous: the file refuses links that every page carries, and allows many.
        for (const path of file.refused) {
          assert.equal(policy.isAllowed(`${site.origin}${path}`, AGENT), false, path);
        }
        const expected = expectedRequests(SITE, (path) =>
          policy.isAllowed(`${site.origin}${path}`, AGENT),
        );
        assert.deepEqual(new Set(pages), expected);
        assert.ok(pages.length >= 10, `only ${pages.length} requests`);

        const userAgent = `${AGENT}/${VERSION} (+${INFO_URL})`;
        assert.match(VERSION, /^\d+\.\d+\.\d+/);
        for (const r of log) assert.equal(r.userAgent, userAgent, `User-Agent of ${r.path}`);
      } finally {
        await site.close();
        await temp.cleanup();
      }
    });
  }
});
