// What a site asks of robots besides robots.txt rules, read and shown, never acted on blindly:
// a 402 Payment Required with a crawler-price header (pay-per-crawl, 2026) is its own outcome in
// the crawl log and the report, the price shown, nothing paid and the page not asked again; an
// RSL License: line in robots.txt and a Link rel="license" header are logged and reported.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { summarizeBatches } from "../../src/crawler/report.js";
import { openStore } from "../../src/store/open.js";
import { runCrawl, tempDir } from "../helpers/crawl-harness.js";
import { startServer, text, type TestServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

describe("402 Payment Required and licenses", () => {
  let site: TestServer;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    temp = await tempDir("heed-402-");
    site = await startServer({
      "/robots.txt": text("User-agent: *\nAllow: /\nLicense: /license.xml\n"),
      "/": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end('<a href="/paid">paid</a> <a href="/free">free</a> <a href="/asks">asks</a>');
      },
      "/paid": text("pay first", 402, { "crawler-price": "USD 0.01" }),
      "/asks": text("pay first", 402),
      "/free": text("free", 200, {
        link: '<https://cc.example/by/4.0/>; rel="license", </x>; rel=next',
      }),
    });
  });
  after(async () => {
    await site.close();
    await temp.cleanup();
  });

  it("is logged as payment-required with the price, and reported, never paid", async () => {
    const storePath = join(temp.dir, "crawl.db");
    const run = await runCrawl([`${site.origin}/`], { storePath });
    assert.equal(run.summary.fetched, 2);
    const skipped = run.events.filter((e) => e.type === "skipped");
    assert.ok(
      skipped.some(
        (e) => e.type === "skipped" && /402.*crawler-price: USD 0\.01 \(not paid\)/.test(e.reason),
      ),
      JSON.stringify(skipped),
    );
    // Each priced page was asked once: no retry, no second request carrying a payment.
    assert.equal(site.requests.filter((p) => p === "/paid").length, 1);
    const store = await openStore(storePath);
    try {
      const report = await summarizeBatches(store.log.scan(100));
      assert.equal(report.overall.payments.count, 2);
      assert.deepEqual(report.overall.payments.top.map((t) => t.message).sort(), [
        "crawler-price: USD 0.01",
        "no crawler-price",
      ]);
      assert.equal(report.overall.byOutcome.find((o) => o.key === "payment-required")?.count, 2);
      assert.deepEqual(report.overall.licenses.top.map((t) => t.message).sort(), [
        'Link rel="license": https://cc.example/by/4.0/',
        `robots.txt line 3: ${site.origin}/license.xml`,
      ]);
    } finally {
      await store.close();
    }
    const shown = await runCli(["report", "--store", storePath]);
    assert.match(shown.stdout, /payment asked \(not paid\)/);
    assert.match(shown.stdout, /crawler-price: USD 0\.01/);
    assert.match(
      shown.stdout,
      /licenses named[\s\S]*robots\.txt line 3: http:\/\/127\.0\.0\.1:\d+\/license\.xml/,
    );
  });
});
