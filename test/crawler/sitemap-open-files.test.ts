// A sitemap request that meets the machine out of open files (EMFILE) is no answer of the
// site: it waits and is asked again (crawler/sitemap-feed.ts), and the pages only the sitemap
// names are crawled. Here the process really runs out: every file it may still open is held
// (/dev/null, over and over) just as the sitemap is asked, and let go once that attempt failed.
// The site closes every connection after its answer, so that the sitemap needs a socket of its
// own rather than robots.txt's. On the old code the sitemap was read as failed: its pages were
// never asked for.
import assert from "node:assert/strict";
import { closeSync, openSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { OPEN_FILES_NOTICE } from "../../src/crawler/open-files-shortage.js";
import type { HttpClient } from "../../src/net/http-client.js";
import { runCrawl } from "../helpers/crawl-harness.js";
import { startServer } from "../helpers/http-server.js";

/** Far above the files a test process may open (ulimit -n is some thousands here). */
const MOST_FILES = 1_000_000;
const DEEP = ["/deep/1.html", "/deep/2.html", "/deep/3.html"];

/** Holds every file this process may still open; returns them, to be let go. */
function exhaustOpenFiles(): number[] {
  const held: number[] = [];
  for (let i = 0; i < MOST_FILES; i++) {
    try {
      held.push(openSync("/dev/null", "r"));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EMFILE" || code === "ENFILE") return held;
      for (const fd of held) closeSync(fd);
      throw error;
    }
  }
  for (const fd of held) closeSync(fd);
  throw new Error(`opened ${MOST_FILES} files and met no limit`);
}

/** Answers and closes the connection: each request needs a socket of its own. */
function answer(res: ServerResponse, type: string, body: string): void {
  res.writeHead(200, { "content-type": type, connection: "close" }).end(body);
}

describe("a sitemap asked when this machine is out of open files", { timeout: 60_000 }, () => {
  it("waits and is asked again: the pages only the sitemap names are crawled", async () => {
    const html = (_req: IncomingMessage, res: ServerResponse) =>
      answer(res, "text/html", "<html><body>a page</body></html>");
    const site = await startServer({
      "/robots.txt": (_req, res) =>
        answer(res, "text/plain", `User-agent: *\nSitemap: ${site.origin}/sitemap.xml\n`),
      "/sitemap.xml": (_req, res) =>
        answer(
          res,
          "application/xml",
          '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
            DEEP.map((path) => `<url><loc>${site.origin}${path}</loc></url>`).join("") +
            "</urlset>",
        ),
      "/": html,
      ...Object.fromEntries(DEEP.map((path) => [path, html])),
    });
    let sitemapFailed: string | null = null;
    const outOfFilesOnce = (client: HttpClient): HttpClient => ({
      ...client,
      async fetchPage(url, options) {
        const first = sitemapFailed === null && String(url).endsWith("/sitemap.xml");
        const held = first ? exhaustOpenFiles() : [];
        try {
          const result = await client.fetchPage(url, options);
          if (first) sitemapFailed = result.kind === "error" ? result.code : "answered";
          return result;
        } finally {
          for (const fd of held) closeSync(fd);
        }
      },
    });
    try {
      const run = await runCrawl([`${site.origin}/`], { wrapClient: outOfFilesOnce });
      assert.equal(sitemapFailed, "local", "the first sitemap request met the shortage");
      for (const path of DEEP) assert.ok(site.requests.includes(path), `${path} never asked`);
      assert.deepEqual(
        site.requests.filter((path) => path === "/sitemap.xml"),
        ["/sitemap.xml"],
        "the sitemap reached the site once, when asked again",
      );
      assert.ok(
        run.events.some((e) => e.type === "notice" && e.message === OPEN_FILES_NOTICE),
        "the shortage is named",
      );
      assert.equal(run.summary.fetched, 1 + DEEP.length);
    } finally {
      await site.close();
    }
  });
});
