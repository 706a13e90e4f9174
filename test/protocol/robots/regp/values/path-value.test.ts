// Allow / Disallow / Index-page / Change-* values: seeds/003 §3.2.5 (Tables 6-8 paths), §3.2.14
// (Index-page examples; the Appendix gives it an `httpurl`), §3.2.15 (Change-* examples),
// §3.1 (`#` stays in values; comments are `##`).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  parsePathValue,
  type PathValue,
  readPathValue,
} from "../../../../../src/protocol/robots/regp/values/path-value.js";
import { expectError, expectOk } from "./expect.js";

describe("parsePathValue and readPathValue", () => {
  const CASES: readonly [source: string, text: string, expected: PathValue][] = [
    ["seeds/003 §3.2.5 Example 1", "/tmp", { path: "/tmp", fromUrl: false }],
    ["seeds/003 §3.2.5 Example 2", "/tmp/", { path: "/tmp/", fromUrl: false }],
    ["seeds/003 §3.2.5 Example 3", "/info/open", { path: "/info/open", fromUrl: false }],
    [
      "seeds/003 §3.2.14 Example 1",
      "/news/newslist.html",
      { path: "/news/newslist.html", fromUrl: false },
    ],
    [
      "seeds/003 §3.2.14 Example 3",
      "/news/news.html$*",
      { path: "/news/news.html$*", fromUrl: false },
    ],
    [
      "seeds/003 §3.2.14 Example 3",
      "/news//list.html*",
      { path: "/news//list.html*", fromUrl: false },
    ],
    [
      "seeds/003 §3.2.15 Example 2",
      "/news/hot/.html*",
      { path: "/news/hot/.html*", fromUrl: false },
    ],
    ["a leading *", "*.php$", { path: "*.php$", fromUrl: false }],
    [
      "seeds/003 §3.1 # is part of the value",
      "/app#!/news",
      { path: "/app#!/news", fromUrl: false },
    ],
    [
      "seeds/003 Appendix httpurl",
      "http://www.example.com/news/",
      { path: "/news/", fromUrl: true },
    ],
    [
      "a URL with a query",
      "http://www.example.com/news.do?id=9",
      { path: "/news.do?id=9", fromUrl: true },
    ],
    ["a URL with no path", "https://www.example.com", { path: "/", fromUrl: true }],
    ["a URL with only a query", "http://www.example.com?x=1", { path: "/?x=1", fromUrl: true }],
    [
      "a URL with a port; the path keeps its case",
      "HTTP://WWW.EXAMPLE.COM:8080/News",
      { path: "/News", fromUrl: true },
    ],
    ["surrounding space", "  /tmp  ", { path: "/tmp", fromUrl: false }],
  ];
  for (const [source, text, expected] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(expectOk(readPathValue(text)), expected);
      assert.equal(expectOk(parsePathValue(text)), expected.path);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    ["empty (an empty Disallow is the dialect's business)", "", ["empty value"]],
    ["a relative path", "news/", ['"news/"', '"/"']],
    ["a space", "/a b", ['" "', '"/a b"']],
    ["a control character", "/a\u0001", ['"\\u0001"']],
    ["another scheme", "ftp://example.com/x", ['"ftp"']],
    ["a URL without a host", "http:///path", ["host", '"http:///path"']],
    ["a URL with user information", "http://user@example.com/p", ["user"]],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text)}`, () => {
      expectError(parsePathValue(text), ...mentions);
      expectError(readPathValue(text), ...mentions);
    });
  }
});
