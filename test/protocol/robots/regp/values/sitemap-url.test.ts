// Sitemap values: seeds/003 §3.2.12 (`Sitemap: <http://www.example.com/sitemap.xml>`), §3.1
// (`Sitemap: http://www.example.com/documents/example_sitemap.xml`), Appendix (`httpurl`).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSitemapUrl } from "../../../../../src/protocol/robots/regp/values/sitemap-url.js";
import { expectError, expectOk } from "./expect.js";

describe("parseSitemapUrl", () => {
  const CASES: readonly [source: string, text: string, url: string][] = [
    [
      "seeds/003 §3.2.12 example, angle brackets",
      "<http://www.example.com/sitemap.xml>",
      "http://www.example.com/sitemap.xml",
    ],
    [
      "seeds/003 §3.1 example",
      "http://www.example.com/documents/example_sitemap.xml",
      "http://www.example.com/documents/example_sitemap.xml",
    ],
    ["https with a query", "https://example.com/s.xml?page=2", "https://example.com/s.xml?page=2"],
    ["space inside the brackets", "< http://example.com/s.xml >", "http://example.com/s.xml"],
    ["no path", "http://example.com", "http://example.com"],
    ["a port", "http://example.com:8080/sitemap.txt", "http://example.com:8080/sitemap.txt"],
  ];
  for (const [source, text, url] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      assert.equal(expectOk(parseSitemapUrl(text)), url);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    ["empty", "", ["empty value"]],
    ["a relative path", "/sitemap.xml", ['"/sitemap.xml"', "relative"]],
    ["no scheme", "sitemap.xml", ['"sitemap.xml"', "http://"]],
    ["no scheme, a host", "www.example.com/sitemap.xml", ['"www.example.com/sitemap.xml"']],
    ["an unclosed <", "<http://example.com/s.xml", ['"<http://example.com/s.xml"', '">"']],
    ["another scheme", "ftp://example.com/s.xml", ['"ftp"']],
    ["a space", "http://exa mple.com/s.xml", ['" "']],
    ["a bad host", "http://-bad.com/s.xml", ['"-bad"']],
    ["port 0", "http://example.com:0/s.xml", ['"0"']],
    ["empty brackets", "<>", ['"<>"', "got nothing"]],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text)}`, () => {
      expectError(parseSitemapUrl(text), ...mentions);
    });
  }
});
