// Fuzzing the sitemap readers (XML urlset and index, plain text, RSS 2.0, Atom 1.0, with REGP's
// <type> and <srcloc>): no exception escapes, and what comes out is bounded by the limits and
// the input (urls at most maxUrls and at most the <loc>s or lines written; diagnostics by
// lines). The same input is also pushed in pieces of every size, as a network gives it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseSitemapText, SitemapParser } from "../../src/protocol/sitemap/index.js";
import { HANG_GUARD_MS, fuzz, lineCount, pieceOf, textOf } from "./kit.js";

const XML_WORDS = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:regp="http://regp.example/">',
  "</urlset>",
  '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
  "</sitemapindex>",
  "<url>",
  "</url>",
  "<sitemap>",
  "</sitemap>",
  "<loc>http://s.example/a</loc>",
  "<loc>https://s.example/sm/b?x=1&amp;y=2</loc>",
  "<loc>/relative</loc>",
  "<loc>http://other.example/x</loc>",
  "<loc><![CDATA[http://s.example/c]]></loc>",
  "<loc>http://s.example/&#x41;&#65;&bogus;</loc>",
  "<lastmod>2024-01-02T03:04:05+01:00</lastmod>",
  "<lastmod>yesterday</lastmod>",
  "<changefreq>daily</changefreq>",
  "<priority>0.5</priority>",
  "<priority>7</priority>",
  "<type>data</type>",
  "<regp:type>list</regp:type>",
  "<srcloc>http://s.example/orig</srcloc>",
  '<rss version="2.0"><channel>',
  "</channel></rss>",
  "<item><link>http://s.example/news/1</link><pubDate>Thu, 30 Oct 2014 04:31:17 GMT</pubDate></item>",
  '<feed xmlns="http://www.w3.org/2005/Atom">',
  "</feed>",
  '<entry><link href="http://s.example/post"/><updated>2024-01-01T00:00:00Z</updated></entry>',
  "<!DOCTYPE x [<!ENTITY e 'boom'>]>",
  "&e;",
  "<!-- comment -->",
  "<",
  ">",
  "</",
  "<x>",
  "</x>",
  "http://s.example/line",
  "\u0000",
  "\ufeff",
];
const sitemapText = textOf(pieceOf(XML_WORDS, 10), ["", "\n", " ", "\r\n"]);
const maxUrls = fc.integer({ min: 1, max: 50 });

function bound(text: string): number {
  return text.split(/<loc|<link|\n/).length;
}

describe("fuzz: sitemaps", () => {
  it(
    "XML, text, RSS and Atom read without an exception, urls within the limits",
    { timeout: HANG_GUARD_MS },
    () => {
      fuzz(fc.tuple(sitemapText, maxUrls, fc.boolean()), ([text, limit, scoped]) => {
        const read = parseSitemapText(text, {
          maxUrls: limit,
          ...(scoped ? { sitemapUrl: "http://s.example/sm/sitemap.xml" } : {}),
        });
        assert.ok(read.urls.length <= limit);
        assert.ok(read.urls.length + read.sitemaps.length <= bound(text));
        assert.ok(read.diagnostics.length <= 4 * lineCount(text) + bound(text) * 4 + 16);
      });
    },
  );

  it(
    "pushed in pieces of any size, the reading is the same as in one piece",
    { timeout: HANG_GUARD_MS },
    () => {
      fuzz(fc.tuple(sitemapText, fc.integer({ min: 1, max: 64 })), ([text, size]) => {
        const whole = parseSitemapText(text);
        const bytes = new TextEncoder().encode(text);
        const parser = new SitemapParser({});
        const pieced: string[] = [];
        for (let i = 0; i < bytes.length && !parser.stopped; i += size) {
          parser.push(bytes.subarray(i, i + size));
          for (const e of parser.take()) if (e.kind === "url") pieced.push(e.url.loc);
        }
        parser.end();
        for (const e of parser.take()) if (e.kind === "url") pieced.push(e.url.loc);
        assert.deepEqual(
          pieced,
          whole.urls.map((u) => u.loc),
        );
      });
    },
  );

  it("random bytes read without an exception", { timeout: HANG_GUARD_MS }, () => {
    fuzz(fc.uint8Array({ maxLength: 4_000 }), (bytes) => {
      const read = parseSitemapText(bytes, { maxUrls: 10 });
      assert.ok(read.urls.length <= 10);
    });
  });
});
