// The library's Crawler attacked as a hostile handler, listener or caller would: each break
// found is pinned here. Sites are local and log every request; the logs are the evidence.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Crawler, type CrawlerOptions, CrawlerError, type PageContext } from "heed";
import { MAX_ENQUEUE_PER_PAGE } from "../../src/crawler/api/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { isPage, startSite } from "../helpers/synthetic-site.js";

const isCode = (code: string) => (error: unknown) =>
  error instanceof CrawlerError && error.code === code;

describe("new Crawler(options): each wrong option named, expected and got", () => {
  const base: CrawlerOptions = {
    agent: "HeedTest",
    store: ":memory:",
    seeds: ["https://a.example/"],
  };
  const table: [string, Partial<Record<keyof CrawlerOptions, unknown>>, RegExp][] = [
    ["agent with a space", { agent: "Heed Test" }, /^agent: expected a name token/],
    [
      "a User-Agent naming another robot",
      { userAgent: "Googlebot/2.1" },
      /^userAgent: expected a User-Agent whose product token is "HeedTest"/,
    ],
    [
      "a User-Agent with a line break",
      { userAgent: "HeedTest/1\r\nX: y" },
      /^userAgent: expected text/,
    ],
    [
      "a seed that is not http(s)",
      { seeds: ["ftp://a.example/"] },
      /^seeds\[0\]: expected an http\(s\) URL/,
    ],
    ["no seed and not queued", { seeds: [] }, /^seeds: expected at least one URL/],
    ["maxPages 0", { maxPages: 0 }, /^maxPages: expected a whole number >= 1, got 0/],
    [
      "concurrency 1.5",
      { concurrency: 1.5 },
      /^concurrency: expected a whole number >= 1, got 1.5/,
    ],
    [
      "a User-Agent header",
      { headers: { "User-Agent": "x" } },
      /^headers\["User-Agent"\]: expected a header heed does not set itself/,
    ],
    ["a Cookie header", { headers: { cookie: "a=1" } }, /^headers\["cookie"\]/],
    [
      "a header name with a space",
      { headers: { "X Bad": "1" } },
      /^headers\["X Bad"\]: expected a header name/,
    ],
    [
      "a header value with a line break",
      { headers: { "x-a": "1\nHost: evil" } },
      /^headers\["x-a"\]: expected text/,
    ],
    [
      "a cookie for a non-origin",
      { cookies: { "not a url": "a=1" } },
      /^cookies\["not a url"\]: expected an http\(s\) origin/,
    ],
    [
      "a site's concurrency over perHost",
      { perHost: 2, sites: { "https://a.example": { concurrency: 3 } } },
      /^sites\["https:\/\/a.example"\].concurrency: expected at most perHost \(2\)/,
    ],
    [
      "a content type that is not one",
      { contentTypes: ["html"] },
      /^contentTypes\[0\]: expected a media type/,
    ],
    ["an ip that is not one", { ip: "10.0.0" }, /^ip: expected an IPv4 or IPv6 address/],
    ["a scope that is not one", { scope: "everything" }, /^scope: expected host, domain or prefix/],
    ["a handler that is not a function", { handler: "parse" }, /^handler: expected a function/],
    [
      "an include pattern RE2 does not read",
      { include: ["re:(a)\\1"] },
      /^include: "re:\(a\)\\1" is not a regular expression RE2 reads/,
    ],
    ["an exclude that is not a list", { exclude: "/a" }, /^exclude: expected an array/],
    [
      "a proxy that is not an http(s) URL",
      { proxy: "socks5://127.0.0.1:1080" },
      /^proxy: expected an http\(s\) proxy URL/,
    ],
    [
      "a host's proxy with a path",
      { proxyFor: { "a.example": "http://p.example/x" } },
      /^proxyFor\["a.example"\]: expected an http\(s\) proxy URL/,
    ],
  ];
  for (const [name, change, message] of table) {
    it(name, () => {
      assert.throws(
        () => new Crawler({ ...base, ...change } as CrawlerOptions),
        (error: unknown) =>
          isCode("HEED_BAD_CRAWLER_OPTION")(error) && message.test((error as Error).message),
      );
    });
  }
});

describe("a hostile handler", { timeout: 60_000 }, () => {
  it("cannot use its context after it returned, nor run the crawler again from within", async () => {
    const temp = await tempDir();
    const site = await startSite({ pages: 3, links: 1, robots: "User-agent: *\nAllow: /\n" });
    try {
      let kept: PageContext | null = null;
      const errors: unknown[] = [];
      const crawler: Crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        handler: async (_page, ctx) => {
          if (kept === null) {
            kept = ctx;
            await crawler.run().catch((error: unknown) => errors.push(error));
            return;
          }
          await kept.enqueue("/page/9.html").catch((error: unknown) => errors.push(error));
          await kept.push({ late: true }).catch((error: unknown) => errors.push(error));
          // A context is frozen: its calls cannot be swapped for others.
          assert.throws(() => {
            (ctx as { enqueue: unknown }).enqueue = () => Promise.resolve();
          });
        },
      });
      const summary = await crawler.run();
      assert.equal(summary.items, 0);
      assert.ok(isCode("HEED_ALREADY_RUNNING")(errors[0]), String(errors[0]));
      assert.ok(errors.slice(1).length >= 2);
      assert.ok(errors.slice(1).every(isCode("HEED_CONTEXT_CLOSED")), errors.map(String).join());
      assert.ok(!site.paths().includes("/page/9.html"));
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });

  it("gets bad arguments refused: NaN priority, negative depth, a label that is not text, a cycle", async () => {
    const temp = await tempDir();
    const site = await startSite({ pages: 1, links: 0, robots: "User-agent: *\nAllow: /\n" });
    try {
      const codes: string[] = [];
      const note = (error: unknown) =>
        codes.push(
          error instanceof CrawlerError ? error.code : `not a CrawlerError: ${String(error)}`,
        );
      const cycle: Record<string, unknown> = {};
      cycle["self"] = cycle;
      let queued = -1;
      const crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        handler: async (page, ctx) => {
          if (new URL(page.url).pathname !== "/") return;
          await ctx.enqueue("/a", { priority: Number.NaN }).catch(note);
          await ctx.enqueue("/a", { depth: -1 }).catch(note);
          await ctx.enqueue({ url: "/a", label: 5 as unknown as string }).catch(note);
          await ctx.enqueue(7 as unknown as string).catch(note);
          await ctx.push(cycle).catch(note);
          await ctx.push(() => 1).catch(note);
          await ctx.rules.check(5 as unknown as string).catch(note);
          await ctx.rules.check("ftp://x.example/").catch(note);
          // A refused call spends none of the page's budget: after one of the whole budget with
          // a bad last item, the budget is still there.
          const many: unknown[] = Array.from({ length: MAX_ENQUEUE_PER_PAGE - 1 }, () => "/a");
          many.push(7);
          await ctx.enqueue(many as string[]).catch(note);
          queued = (await ctx.enqueue(Array(MAX_ENQUEUE_PER_PAGE).fill("/b") as string[])).queued;
        },
      });
      await crawler.run();
      assert.deepEqual(codes, Array(9).fill("HEED_BAD_ARGUMENT"));
      assert.equal(queued, 1);
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });

  it("cannot make the crawler ask a host outside the crawl for its robots.txt", async () => {
    const temp = await tempDir();
    const other = await startSite({ pages: 1, robots: "User-agent: *\nAllow: /\n" });
    const site = await startSite({ pages: 1, links: 0, robots: "User-agent: *\nAllow: /\n" });
    try {
      const answers: string[] = [];
      const crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        handler: async (_page, ctx) => {
          const verdict = await ctx.rules.check(`${other.origin}/x`);
          answers.push(verdict.allowed ? "allowed" : verdict.why);
          const own = await ctx.rules.check("/x");
          answers.push(own.allowed ? "allowed" : own.why);
        },
      });
      await crawler.run();
      assert.deepEqual(answers, [
        "out of the crawl's scope: its robots.txt is not read",
        "allowed",
      ]);
      assert.deepEqual(other.paths(), []);
    } finally {
      await site.close();
      await other.close();
      await temp.cleanup();
    }
  });

  it("hands only the content types asked for; an aborted crawl resolves, stopped", async () => {
    const temp = await tempDir();
    const site = await startSite({
      pages: 6,
      links: 2,
      robots: "User-agent: *\nAllow: /\nCrawl-delay: 0.05\n",
      extraLinks: ["/data.json"],
      route: (req, res) => {
        if (req.url !== "/data.json") return false;
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
        return true;
      },
    });
    try {
      const types: (string | null)[] = [];
      const controller = new AbortController();
      const crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        contentTypes: ["text/*"],
        signal: controller.signal,
        handler: (page) => {
          types.push(page.contentType);
        },
      });
      const seen: string[] = [];
      const reading = (async () => {
        for await (const event of crawler.events()) seen.push(event.type);
      })();
      const summary = await crawler.run();
      await reading;
      assert.ok(site.paths().includes("/data.json"));
      assert.ok(types.length >= 6 && types.every((t) => t === "text/html"), types.join());
      assert.equal(seen.filter((t) => t === "fetched").length, summary.fetched);

      // Stopped from outside: resolves with the reason, the rest left queued.
      const stopped = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "again.db"),
        seeds: [`${site.origin}/`],
        handler: () => controller.abort(),
        signal: controller.signal,
      });
      const second = await stopped.run();
      assert.equal(second.stoppedBy, "aborted");
      assert.ok(site.paths().filter(isPage).length >= 7);
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});

describe("a hostile link extractor", { timeout: 60_000 }, () => {
  it("that throws, answers no array, floods or never answers: a notice, the crawl goes on", async () => {
    const temp = await tempDir();
    const site = await startSite({ pages: 6, links: 2, robots: "User-agent: *\nAllow: /\n" });
    try {
      let calls = 0;
      const notices: string[] = [];
      const crawler = new Crawler({
        agent: "HeedTest",
        store: join(temp.dir, "crawl.db"),
        seeds: [`${site.origin}/`],
        maxPages: 8,
        handlerTimeoutMs: 200,
        links: () => {
          const n = calls++;
          // A flood after five real links: read up to a page's worth (50,000), each checked.
          if (n === 0)
            return [
              ...[1, 2, 3, 4, 5].map((k) => `/page/${k}.html`),
              ...Array.from({ length: 100_000 }, (_, i) => `/flood/${i}`),
            ];
          if (n === 1) throw new Error("extractor broke");
          if (n === 2) return "not an array" as unknown as string[];
          if (n === 3) return new Promise<string[]>(() => {});
          return ["mailto:x@y.example", "//[bad", 42 as unknown as string];
        },
      });
      crawler.on("notice", (event) => notices.push(event.message));
      const summary = await crawler.run();
      assert.equal(summary.fetched, 8, JSON.stringify(summary));
      assert.equal(summary.stoppedBy, "max-pages");
      assert.ok(
        notices.some((m) => /extractor broke/.test(m)),
        notices.join("\n"),
      );
      assert.ok(
        notices.some((m) => /past 200 ms/.test(m)),
        notices.join("\n"),
      );
      // The flood was cut at a page's worth of links: 50,000 with the five real ones.
      assert.equal(summary.queued + summary.done, 50_000 + 1);
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});
