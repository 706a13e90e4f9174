// What `heed ui` fetches for the page (src/web/fetches.ts), against real servers on 127.0.0.1:
// only http(s) addresses the user typed; a sitemap that a public site's robots.txt names on
// the user's own network is refused by the guard; one the user's own file names is read.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  AskError,
  askedUrl,
  askSitemap,
  MAX_ASKED_URL_CHARS,
  SITEMAP_SAMPLE,
  SITEMAP_URLS_READ_THROUGH,
} from "../../src/web/fetches.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("heed ui's fetches", () => {
  let site: TestServer;

  before(async () => {
    site = await startServer({
      "/sitemap.xml": (_req, res) => {
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/a</loc></url><url><loc>${site.origin}/b</loc></url></urlset>`,
        );
      },
      "/many.xml": (_req, res) => {
        const urls = Array.from(
          { length: SITEMAP_SAMPLE + 10 },
          (_, i) => `<url><loc>${site.origin}/p${i}</loc></url>`,
        );
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`,
        );
      },
      "/loop.xml": (_req, res) => {
        res.writeHead(302, { location: "/loop.xml" });
        res.end();
      },
    });
  });

  after(() => site?.close());

  it("reads a sitemap on this machine when the user's own file names it", async () => {
    const answer = await askSitemap(`${site.origin}/sitemap.xml`, { userAgent: "HeedTest" });
    assert.equal(answer.error, null);
    assert.equal(answer.urls, 2);
    assert.deepEqual(
      answer.sampleUrls.map((u) => u.loc),
      [`${site.origin}/a`, `${site.origin}/b`],
    );
  });

  it("reads it when a robots.txt fetched from this machine names it", async () => {
    const answer = await askSitemap(
      `${site.origin}/sitemap.xml`,
      { userAgent: "HeedTest" },
      site.origin,
    );
    assert.equal(answer.error, null);
    assert.equal(answer.urls, 2);
  });

  it("refuses it when a public site's robots.txt names it", async () => {
    const answer = await askSitemap(
      `${site.origin}/sitemap.xml`,
      { userAgent: "HeedTest" },
      "https://public.example",
    );
    assert.match(answer.error ?? "", /refusing to connect to 127\.0\.0\.1: loopback/);
    assert.equal(answer.urls, 0);
    assert.equal(answer.status, null);
  });

  it("sends a sample of the URLs, or all of them (up to a bound) to read the sitemap through", async () => {
    const sample = await askSitemap(`${site.origin}/many.xml`, { userAgent: "HeedTest" });
    assert.equal(sample.urls, SITEMAP_SAMPLE + 10);
    assert.equal(sample.sampleUrls.length, SITEMAP_SAMPLE);
    const all = await askSitemap(
      `${site.origin}/many.xml`,
      { userAgent: "HeedTest" },
      null,
      SITEMAP_URLS_READ_THROUGH,
    );
    assert.equal(all.sampleUrls.length, SITEMAP_SAMPLE + 10);
    assert.equal(all.sampleUrls.at(-1)?.loc, `${site.origin}/p${SITEMAP_SAMPLE + 9}`);
    // Never more than the bound, whatever is asked.
    const bounded = await askSitemap(`${site.origin}/many.xml`, { userAgent: "HeedTest" }, null, 5);
    assert.equal(bounded.sampleUrls.length, 5);
  });

  it("gives up after five redirects", async () => {
    const answer = await askSitemap(`${site.origin}/loop.xml`, { userAgent: "HeedTest" });
    assert.equal(answer.error, "more than 5 redirects");
  });

  it("takes only http and https addresses, of a bounded length", () => {
    assert.equal(askedUrl("example.com").href, "https://example.com/");
    assert.equal(askedUrl(" http://127.0.0.1:8080/x ").href, "http://127.0.0.1:8080/x");
    for (const bad of [
      "",
      "   ",
      "ftp://example.com/",
      "file:///etc/passwd",
      "http://",
      "http://[::1",
    ])
      assert.throws(() => askedUrl(bad), AskError, bad);
    assert.throws(
      () => askedUrl(`https://example.com/${"a".repeat(MAX_ASKED_URL_CHARS)}`),
      AskError,
    );
  });
});
