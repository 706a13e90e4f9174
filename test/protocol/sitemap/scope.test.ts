// Which URLs a sitemap may list: sitemaps.org "Sitemap file location" and "Sitemaps & Cross
// Submits", with the protocol's own examples.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  parseSitemapText,
  SITEMAP_NAMESPACE,
  sitemapScope,
} from "../../../src/protocol/sitemap/index.js";

function inScope(sitemapUrl: string, url: string, extra = {}): boolean {
  const scope = sitemapScope({ sitemapUrl, ...extra });
  assert.ok(scope);
  return scope.check(new URL(url)) === null;
}

describe("sitemap scope (sitemaps.org 'Sitemap file location')", () => {
  const at = "http://example.com/catalog/sitemap.xml";

  it("the protocol's valid examples for http://example.com/catalog/sitemap.xml", () => {
    for (const url of [
      "http://example.com/catalog/show?item=23",
      "http://example.com/catalog/show?item=233&user=3453",
    ])
      assert.ok(inScope(at, url), url);
  });

  it("the protocol's invalid examples: another directory, another protocol", () => {
    for (const url of [
      "http://example.com/image/show?item=23",
      "http://example.com/image/show?item=233&user=3453",
      "https://example.com/catalog/page1.php",
      "http://example.com/images/",
    ])
      assert.equal(inScope(at, url), false, url);
  });

  it("the same host: not a subdomain, nor another port", () => {
    assert.equal(
      inScope("http://www.example.com/sitemap.xml", "http://subdomain.example.com/"),
      false,
    );
    assert.ok(inScope("http://www.example.com:100/sitemap.xml", "http://www.example.com:100/a"));
    assert.equal(
      inScope("http://www.example.com:100/sitemap.xml", "http://www.example.com/a"),
      false,
    );
    // The default port is the same port.
    assert.ok(inScope("http://www.example.com/sitemap.xml", "http://www.example.com:80/a"));
    // Hosts compare without regard to case.
    assert.ok(inScope("http://www.example.com/sitemap.xml", "http://WWW.Example.COM/a"));
  });

  it("a path that leaves the directory by dot segments is outside", () => {
    assert.equal(inScope(at, "http://example.com/catalog/../admin/"), false);
    assert.equal(inScope(at, "http://example.com/catalog/%2e%2e/admin/"), false);
  });

  it("allowAnyPathOnHost: the whole of the sitemap's own host", () => {
    assert.ok(inScope(at, "http://example.com/images/", { allowAnyPathOnHost: true }));
    assert.equal(inScope(at, "https://example.com/images/", { allowAnyPathOnHost: true }), false);
    assert.equal(inScope(at, "http://other.example/", { allowAnyPathOnHost: true }), false);
  });

  it("robotsTxtHosts: a host whose robots.txt names the sitemap (cross-submission), any path", () => {
    // sitemaps.org: http://www.host1.com/robots.txt says "Sitemap: http://www.sitemaphost.com/sitemap-host1.xml".
    const s = "http://www.sitemaphost.com/sitemap-host1.xml";
    assert.equal(inScope(s, "http://www.host1.com/a"), false);
    assert.ok(
      inScope(s, "http://www.host1.com/a", { robotsTxtHosts: ["http://www.host1.com/robots.txt"] }),
    );
    assert.ok(
      inScope(s, "http://www.host1.com/deep/b", { robotsTxtHosts: ["http://www.host1.com"] }),
    );
    assert.equal(
      inScope(s, "https://www.host1.com/a", { robotsTxtHosts: ["http://www.host1.com"] }),
      false,
      "an origin names one protocol",
    );
    assert.ok(
      inScope(s, "https://www.host1.com/a", { robotsTxtHosts: ["www.host1.com"] }),
      "a bare host, both",
    );
    assert.equal(
      inScope(s, "http://www.host2.com/a", { robotsTxtHosts: ["www.host1.com"] }),
      false,
    );
  });

  it("an index names sitemaps of its own site only, unless robots.txt vouches", () => {
    const scope = sitemapScope({ sitemapUrl: "http://www.example.com/sitemap_index.xml" });
    assert.equal(scope?.sameSite(new URL("http://www.example.com/deep/s.xml")), null);
    assert.match(scope?.sameSite(new URL("http://www.example.net/s.xml")) ?? "", /same site/);
    assert.match(scope?.sameSite(new URL("http://host2.example.com/s.xml")) ?? "", /same site/);
  });

  it("no sitemap URL, no scope", () => {
    assert.equal(sitemapScope({}), null);
    assert.equal(sitemapScope({ sitemapUrl: null }), null);
  });

  it("the reader drops out-of-scope entries with a loc-out-of-scope warning on their line", () => {
    const r = parseSitemapText(
      `<urlset xmlns="${SITEMAP_NAMESPACE}">\n<url><loc>http://example.com/catalog/a</loc></url>\n<url><loc>http://example.com/images/b</loc></url>\n</urlset>`,
      { sitemapUrl: at },
    );
    assert.deepEqual(
      r.urls.map((u) => u.loc),
      ["http://example.com/catalog/a"],
    );
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.line, d.severity]),
      [["loc-out-of-scope", 3, "warning"]],
    );
    const text = parseSitemapText("http://example.com/catalog/a\nhttp://example.com/b\n", {
      sitemapUrl: at,
    });
    assert.deepEqual(
      text.diagnostics.map((d) => [d.code, d.line]),
      [["loc-out-of-scope", 2]],
    );
  });
});
