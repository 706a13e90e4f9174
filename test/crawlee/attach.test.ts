// heed/crawlee's `attach` against a real Crawlee CheerioCrawler (@crawlee/cheerio, a
// devDependency) and a local site that logs every request. Crawlee alone follows redirects itself,
// so a seed that answers 302 into a disallowed path is fetched and the hop ignores the site's
// Crawl-delay; with heed attached the site's own log shows no disallowed URL and every gap kept.
// A refusal is a skip (not a failure, not counted against maxRequestsPerCrawl), and a site the
// address guard will not reach is refused as such, not reported as a site that did not answer.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { crawleePoliteness, type Politeness } from "heed/crawlee";
import { TOLERANCE_MS } from "../helpers/crawl-harness.js";
import { isPage, type Site, startSite } from "../helpers/synthetic-site.js";

/** The few parts of `@crawlee/cheerio` 3.x used here. */
interface Context {
  readonly request: { readonly url: string };
  enqueueLinks(options: { strategy: "same-origin" }): Promise<unknown>;
}
interface Crawler {
  run(urls: string[]): Promise<unknown>;
  teardown(): Promise<void>;
  readonly stats: { readonly state: { requestsFailed: number; requestsFinished: number } };
}
interface CrawleeModule {
  readonly CheerioCrawler: new (
    options: {
      requestHandler: (context: Context) => Promise<void>;
      errorHandler: (context: Context) => void;
      failedRequestHandler: (context: Context) => void;
      onSkippedRequest: (skipped: { url: string; reason: string }) => void;
      maxConcurrency: number;
      maxRequestRetries: number;
      maxRequestsPerCrawl: number;
    },
    config: unknown,
  ) => Crawler;
  readonly Configuration: new (options: { persistStorage: boolean }) => unknown;
  readonly log: { setLevel(level: number): void };
  readonly LogLevel: { readonly OFF: number };
}
const PACKAGE = "@crawlee/cheerio";

interface Outcome {
  readonly handled: string[];
  readonly skipped: { url: string; reason: string }[];
  readonly errors: string[];
  readonly failed: number;
}

async function crawl(
  polite: Politeness,
  seeds: string[],
  options: { maxRequestsPerCrawl: number; follow: boolean },
): Promise<Outcome> {
  const crawlee = (await import(PACKAGE)) as CrawleeModule;
  crawlee.log.setLevel(crawlee.LogLevel.OFF);
  const handled: string[] = [];
  const skipped: { url: string; reason: string }[] = [];
  const errors: string[] = [];
  const crawler = new crawlee.CheerioCrawler(
    {
      requestHandler: async (context) => {
        handled.push(new URL(context.request.url).pathname);
        if (options.follow) await context.enqueueLinks({ strategy: "same-origin" });
      },
      errorHandler: (context) => void errors.push(context.request.url),
      failedRequestHandler: (context) => void errors.push(`failed ${context.request.url}`),
      onSkippedRequest: (skip) => void skipped.push({ url: skip.url, reason: skip.reason }),
      maxConcurrency: 4,
      maxRequestRetries: 1,
      maxRequestsPerCrawl: options.maxRequestsPerCrawl,
    },
    new crawlee.Configuration({ persistStorage: false }),
  );
  polite.attach(crawler);
  await crawler.run(seeds);
  await crawler.teardown();
  return { handled, skipped, errors, failed: crawler.stats.state.requestsFailed };
}

const ROBOTS = "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.2\n";

function redirectingSite(): Promise<Site> {
  return startSite({
    pages: 6,
    links: 2,
    robots: ROBOTS,
    extraLinks: ["/redirect-me", "/go-private"],
    route: (req, res) => {
      const to = { "/go-private": "/private/doc-2.html", "/redirect-me": "/landing.html" }[
        req.url ?? ""
      ];
      if (to !== undefined) {
        res.writeHead(req.url === "/go-private" ? 302 : 301, { location: to }).end();
        return true;
      }
      if (req.url === "/landing.html" || req.url?.startsWith("/private/") === true) {
        res.writeHead(200, { "content-type": "text/html" }).end("<p>here</p>");
        return true;
      }
      return false;
    },
  });
}

describe("heed/crawlee attach", { timeout: 120_000 }, () => {
  it("redirects go through heed: no disallowed URL fetched, every hop's gap kept", async () => {
    const site = await redirectingSite();
    const polite = await crawleePoliteness({ agent: "HeedTest", allowPrivateAddresses: true });
    try {
      const outcome = await crawl(polite, [`${site.origin}/`, `${site.origin}/go-private`], {
        maxRequestsPerCrawl: 100,
        follow: true,
      });
      const paths = site.paths();
      assert.deepEqual(
        paths.filter((p) => p.startsWith("/private/")),
        [],
        paths.join(" "),
      );
      assert.ok(paths.includes("/go-private") && paths.includes("/redirect-me"), paths.join(" "));
      assert.ok(paths.includes("/landing.html"), "the allowed redirect's target is fetched");
      const pages = site.log.filter((r) => isPage(r.path));
      for (let i = 1; i < pages.length; i++) {
        const gap = pages[i]!.at - pages[i - 1]!.at;
        assert.ok(
          gap >= 200 - TOLERANCE_MS,
          `${pages[i]!.path} came ${gap} ms after ${pages[i - 1]!.path}`,
        );
      }
      // A redirect's answer is no page: the handler sees its target, not the 3xx.
      assert.ok(!outcome.handled.includes("/go-private"), outcome.handled.join(" "));
      assert.ok(!outcome.handled.includes("/redirect-me"), outcome.handled.join(" "));
      assert.ok(outcome.handled.includes("/landing.html"), outcome.handled.join(" "));
      assert.deepEqual(outcome.skipped, [
        { url: `${site.origin}/private/doc-2.html`, reason: "robotsTxt" },
      ]);
      assert.deepEqual(outcome.errors, []);
      assert.equal(outcome.failed, 0);
    } finally {
      await polite.close();
      await site.close();
    }
  });

  it("refusals are skips: not failed, not counted against maxRequestsPerCrawl", async () => {
    const site = await redirectingSite();
    const polite = await crawleePoliteness({ agent: "HeedTest", allowPrivateAddresses: true });
    try {
      const refused = [1, 2, 3, 4].map((n) => `${site.origin}/private/doc-${n}.html`);
      const allowed = [0, 1, 2].map((n) => `${site.origin}${n === 0 ? "/" : `/page/${n}.html`}`);
      const outcome = await crawl(polite, [...refused, ...allowed], {
        maxRequestsPerCrawl: 3,
        follow: false,
      });
      assert.deepEqual(outcome.handled.sort(), ["/", "/page/1.html", "/page/2.html"]);
      assert.equal(outcome.skipped.length, 4);
      assert.ok(outcome.skipped.every((s) => s.reason === "robotsTxt"));
      assert.deepEqual(outcome.errors, []);
      assert.equal(outcome.failed, 0);
      assert.ok(!site.paths().some((p) => p.startsWith("/private/")));
    } finally {
      await polite.close();
      await site.close();
    }
  });

  it("a loopback site without allowPrivateAddresses is refused by the address guard, by that name", async () => {
    const site = await redirectingSite();
    const polite = await crawleePoliteness({ agent: "HeedTest" });
    try {
      const request = { url: `${site.origin}/`, noRetry: false };
      await assert.rejects(polite.before({ request }, {}), {
        name: "RobotsRefusal",
        message:
          /address guard: 127\.0\.0\.1 is a loopback or private address.*allowPrivateAddresses/,
      });
      assert.equal(request.noRetry, true, "not retried: it will not change");
      assert.deepEqual(site.paths(), []);
      const outcome = await crawl(polite, [`${site.origin}/`], {
        maxRequestsPerCrawl: 10,
        follow: true,
      });
      assert.deepEqual(outcome.skipped, [{ url: `${site.origin}/`, reason: "robotsTxt" }]);
      assert.deepEqual(outcome.errors, []);
      assert.deepEqual(site.paths(), []);
    } finally {
      await polite.close();
      await site.close();
    }
  });
});
