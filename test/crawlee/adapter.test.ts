// heed/crawlee against a real Crawlee CheerioCrawler (@crawlee/cheerio, a devDependency) and
// local sites that log every request. Crawlee alone fails open on a robots.txt answering 503
// (it crawls the site); with heed's hooks it fetches nothing there, never a disallowed page,
// sends heed's User-Agent, and keeps the site's Crawl-delay between its requests.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { crawleePoliteness } from "heed/crawlee";
import { TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { isPage, type Site, startSite } from "../helpers/synthetic-site.js";

/** The few parts of `@crawlee/cheerio` 3.x used here (as bench/crawl-crawlee.ts). */
interface Context {
  readonly request: { readonly url: string; noRetry: boolean };
  enqueueLinks(options: { strategy: "same-origin" }): Promise<unknown>;
}
type Hook = (
  context: Context,
  options?: { headers?: Record<string, string | string[] | undefined> },
) => Promise<void>;
interface CrawleeModule {
  readonly CheerioCrawler: new (
    options: {
      requestHandler: (context: Context) => Promise<void>;
      preNavigationHooks: Hook[];
      postNavigationHooks: Hook[];
      errorHandler: Hook;
      failedRequestHandler: Hook;
      maxConcurrency: number;
      maxRequestRetries: number;
      maxRequestsPerCrawl: number;
      respectRobotsTxtFile: boolean;
    },
    config: unknown,
  ) => { run(urls: string[]): Promise<unknown>; teardown(): Promise<void> };
  readonly Configuration: new (options: { persistStorage: boolean }) => unknown;
  readonly log: { setLevel(level: number): void };
  readonly LogLevel: { readonly OFF: number };
}
const PACKAGE = "@crawlee/cheerio";

async function crawlWithHeed(site: Site): Promise<void> {
  const crawlee = (await import(PACKAGE)) as CrawleeModule;
  crawlee.log.setLevel(crawlee.LogLevel.OFF);
  const polite = await crawleePoliteness({ agent: "HeedTest", allowPrivateAddresses: true });
  try {
    const crawler = new crawlee.CheerioCrawler(
      {
        requestHandler: async (context) => {
          await context.enqueueLinks({ strategy: "same-origin" });
        },
        preNavigationHooks: [(context, options) => polite.before(context, options)],
        postNavigationHooks: [(context) => polite.after(context)],
        errorHandler: (context) => polite.after(context),
        failedRequestHandler: (context) => polite.after(context),
        maxConcurrency: 4,
        maxRequestRetries: 1,
        maxRequestsPerCrawl: 100,
        respectRobotsTxtFile: false,
      },
      new crawlee.Configuration({ persistStorage: false }),
    );
    await crawler.run([`${site.origin}/`]);
    await crawler.teardown();
  } finally {
    await polite.close();
  }
}

describe("heed/crawlee", { timeout: 90_000 }, () => {
  it("a robots.txt answering 503 closes the site: no page is fetched", async () => {
    const site = await startSite({
      pages: 5,
      robots: (_req, res) => {
        res.writeHead(503).end();
      },
    });
    try {
      await crawlWithHeed(site);
      assert.deepEqual(site.paths().filter(isPage), []);
      assert.ok(site.paths().includes("/robots.txt"));
    } finally {
      await site.close();
    }
  });

  it("a URL that is not http(s) (or no URL) is refused for good, not retried as a site closed for now", async () => {
    const polite = await crawleePoliteness({ agent: "HeedTest", allowPrivateAddresses: true });
    try {
      for (const url of ["file:///etc/passwd", "javascript:alert(1)", "data:text/html,x", "x y"]) {
        const request = { url, noRetry: false };
        await assert.rejects(polite.before({ request }, {}), {
          name: "RobotsRefusal",
          message: /not an http\(s\) URL/,
        });
        assert.equal(request.noRetry, true, url);
        const verdict = await polite.check(url);
        assert.equal(verdict.allowed, false);
      }
    } finally {
      await polite.close();
    }
  });

  it("never a disallowed page; heed's User-Agent; the Crawl-delay kept", async () => {
    const site = await startSite({
      pages: 10,
      links: 3,
      robots: "User-agent: *\nDisallow: /page/3.html\nCrawl-delay: 0.2\n",
    });
    try {
      await crawlWithHeed(site);
      const pages = site.log.filter((r) => isPage(r.path));
      assert.ok(pages.length >= 8, pages.map((r) => r.path).join(" "));
      assert.ok(!pages.some((r) => r.path === "/page/3.html"));
      assert.ok(
        pages.every((r) => r.userAgent.startsWith("HeedTest/")),
        pages[0]?.userAgent,
      );
      for (let i = 1; i < pages.length; i++) {
        const gap = pages[i]!.at - pages[i - 1]!.at;
        assert.ok(
          gap >= 200 - TOLERANCE_MS,
          `${pages[i]!.path} came ${gap} ms after the one before`,
        );
      }
    } finally {
      await site.close();
    }
  });
});
