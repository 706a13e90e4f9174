// Writing sitemaps as strings: sitemaps.org's element order, namespace and entity escaping;
// REGP's <type> and <srcloc> in heed's namespace (seeds/003 §3.2.12).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  checkUrlInput,
  escapeXml,
  formatPriority,
  parseSitemapText,
  REGP_NAMESPACE,
  renderSitemapIndex,
  renderUrlset,
  SITEMAP_NAMESPACE,
  SitemapInputError,
} from "../../../src/protocol/sitemap/index.js";

describe("escapeXml (sitemaps.org 'Entity escaping')", () => {
  it("escapes & ' \" > <", () => {
    assert.equal(escapeXml(`a&b'c"d>e<f`), "a&amp;b&apos;c&quot;d&gt;e&lt;f");
    assert.equal(escapeXml("plain"), "plain");
  });
  it("the protocol's example URL", () => {
    assert.equal(
      escapeXml("http://www.example.com/view.html?id=1&parent=2"),
      "http://www.example.com/view.html?id=1&amp;parent=2",
    );
  });
});

describe("renderUrlset", () => {
  it("writes the namespace, fields in schema order, REGP fields last and prefixed", () => {
    const xml = renderUrlset([
      {
        loc: "http://www.example.com/crawler/news/20141030008.html",
        srcloc: "http://www.example.com/news/hot.asp?date=1030&id=8",
        lastmod: "2014-10-30",
        changefreq: "daily",
        priority: 0.8,
        type: "data",
      },
    ]);
    assert.equal(
      xml,
      `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:regp="${REGP_NAMESPACE}">
  <url>
    <loc>http://www.example.com/crawler/news/20141030008.html</loc>
    <lastmod>2014-10-30</lastmod>
    <changefreq>daily</changefreq>
    <priority>0.8</priority>
    <regp:type>data</regp:type>
    <regp:srcloc>http://www.example.com/news/hot.asp?date=1030&amp;id=8</regp:srcloc>
  </url>
</urlset>
`,
    );
  });

  it("an ordinary reader that knows nothing of REGP still reads the standard fields", () => {
    // The sitemaps.org part alone, as a reader that skips foreign namespaces sees it.
    const xml = renderUrlset([{ loc: "http://e.com/a", type: "list", srcloc: "http://e.com/b" }]);
    const standard = xml.replace(/\s*<regp:[a-z]+>[^<]*<\/regp:[a-z]+>/g, "");
    assert.deepEqual(
      parseSitemapText(standard).urls.map((u) => [u.loc, u.type]),
      [["http://e.com/a", null]],
    );
  });

  it("writes a Date as a UTC W3C datetime", () => {
    const xml = renderUrlset([
      { loc: "http://e.com/", lastmod: new Date(Date.UTC(2015, 2, 19, 8, 30)) },
    ]);
    assert.match(xml, /<lastmod>2015-03-19T08:30:00Z<\/lastmod>/);
  });

  it("without the REGP namespace, refuses type and srcloc", () => {
    const xml = renderUrlset([{ loc: "http://e.com/" }], { regp: false });
    assert.doesNotMatch(xml, /regp/);
    assert.throws(
      () => renderUrlset([{ loc: "http://e.com/", type: "data" }], { regp: false }),
      SitemapInputError,
    );
  });

  it("refuses entries it cannot write, naming every problem", () => {
    const checked = checkUrlInput({
      loc: "/relative",
      lastmod: "yesterday",
      priority: 2,
      // @ts-expect-error: a value outside the type, as JavaScript callers may pass
      changefreq: "often",
      // @ts-expect-error: as above
      type: "page",
      srcloc: "not a url",
    });
    assert.equal(checked.ok, false);
    if (!checked.ok) {
      assert.deepEqual(
        checked.errors.map((e) => e.split(":")[0]),
        ["loc", "lastmod", "changefreq", "priority", "type", "srcloc"],
      );
    }
    assert.throws(() => renderUrlset([{ loc: "http://e.com/\u0001" }]), /entry 0: loc/);
    assert.throws(() => renderUrlset([{ loc: `http://e.com/${"a".repeat(2048)}` }]), /2,048/);
    assert.throws(() => renderUrlset([{ loc: "http://e.com/\ud800" }]), /surrogate/);
  });
});

describe("formatPriority", () => {
  it("always a plain decimal with a point", () => {
    assert.equal(formatPriority(1), "1.0");
    assert.equal(formatPriority(0), "0.0");
    assert.equal(formatPriority(0.25), "0.25");
    assert.equal(formatPriority(1e-7), "0.0000001");
  });
});

describe("renderSitemapIndex", () => {
  it("writes <sitemapindex> with <sitemap><loc> and <lastmod>", () => {
    const xml = renderSitemapIndex([
      { loc: "http://www.example.com/sitemap1.xml.gz", lastmod: "2004-10-01T18:23:17+00:00" },
      { loc: "http://www.example.com/sitemap2.xml.gz" },
    ]);
    const r = parseSitemapText(xml);
    assert.equal(r.summary.format, "sitemapindex");
    assert.deepEqual(
      r.sitemaps.map((s) => [s.loc, s.lastmod]),
      [
        ["http://www.example.com/sitemap1.xml.gz", "2004-10-01T18:23:17+00:00"],
        ["http://www.example.com/sitemap2.xml.gz", null],
      ],
    );
    assert.throws(() => renderSitemapIndex([{ loc: "sitemap1.xml" }]), SitemapInputError);
  });
});
