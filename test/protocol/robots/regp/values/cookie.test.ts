// Cookie values: seeds/003 §3.2.10 (`Cookie: visitor=crawler`), RFC 6265 §4.1.1 (cookie-pair,
// cookie-octet), §4.2.1 (the Cookie header: pairs joined by "; "), §5.2 (names and values trimmed).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type CookiePair,
  cookieHeader,
  parseCookie,
} from "../../../../../src/protocol/robots/regp/values/cookie.js";
import { expectError, expectOk } from "./expect.js";

const RUNS = 500;

describe("parseCookie", () => {
  const CASES: readonly [source: string, text: string, pairs: CookiePair[]][] = [
    ["seeds/003 §3.2.10 example", "visitor=crawler", [{ name: "visitor", value: "crawler" }]],
    [
      "RFC 6265 §4.2.1 two pairs",
      "a=1; b=2",
      [
        { name: "a", value: "1" },
        { name: "b", value: "2" },
      ],
    ],
    [
      "no space after ;",
      "a=1;b=2",
      [
        { name: "a", value: "1" },
        { name: "b", value: "2" },
      ],
    ],
    [
      "a trailing ;",
      "a=1; b=2;",
      [
        { name: "a", value: "1" },
        { name: "b", value: "2" },
      ],
    ],
    ["RFC 6265 §3.1 example", "SID=31d4d96e407aad42", [{ name: "SID", value: "31d4d96e407aad42" }]],
    [
      "RFC 6265 §4.1.1 quoted value, quotes kept (§5.2)",
      'lang="en-US"',
      [{ name: "lang", value: '"en-US"' }],
    ],
    ["an empty value", "empty=", [{ name: "empty", value: "" }]],
    ["an empty quoted value", 'x=""', [{ name: "x", value: '""' }]],
    ["RFC 6265 §5.2 spaces around = trimmed", "a = 1", [{ name: "a", value: "1" }]],
    [
      "a repeated name is kept twice",
      "a=1; a=2",
      [
        { name: "a", value: "1" },
        { name: "a", value: "2" },
      ],
    ],
    ["= inside a value", "token=abc==", [{ name: "token", value: "abc==" }]],
  ];
  for (const [source, text, pairs] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      assert.deepEqual(expectOk(parseCookie(text)), pairs);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    ["empty", "", ["empty value"]],
    ["no =", "visitor", ['"visitor"', '"="']],
    ["no name", "=crawler", ["got nothing", '"=crawler"']],
    ["an empty pair between ;", "a=1;;b=2", ["empty one", '"a=1;;b=2"']],
    ["a space in a value", "a=b c", ['" "', '"b c"']],
    ["a comma (not a separator in RFC 6265)", "a=1, b=2", ['","', '"1, b=2"']],
    ["an unbalanced quote", 'a="b', ['"\\"b"', "closing"]],
    ["a quote inside a value", 'a=b"c', ['"\\""', '"b\\"c"']],
    ["a backslash", "a=b\\c", ['"\\\\"']],
    ["a tab inside a value", "a=b\tc", ['"\\t"']],
    ["a space in a name", "na me=1", ['" "', '"na me"']],
    ["a separator in a name", "a(b=1", ['"("', '"a(b"']],
    ["a non-ASCII value", "a=é", ['"é"']],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text)}`, () => {
      expectError(parseCookie(text), ...mentions);
    });
  }
});

describe("cookieHeader", () => {
  it('RFC 6265 §4.2.1: pairs joined by "; "', () => {
    assert.equal(cookieHeader(expectOk(parseCookie("a=1;b=2"))), "a=1; b=2");
    assert.equal(cookieHeader(expectOk(parseCookie("visitor=crawler"))), "visitor=crawler");
    assert.equal(cookieHeader(expectOk(parseCookie('lang="en-US"'))), 'lang="en-US"');
  });

  const name = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,10}$/);
  // RFC 6265 §4.1.1 cookie-octet: visible ASCII except DQUOTE , ; and backslash.
  const octets = fc.stringMatching(/^[!#-+\--:<-[\]-~]{0,10}$/);
  const value = fc.oneof(
    octets,
    octets.map((v) => `"${v}"`),
  );
  it("property: parseCookie(cookieHeader(pairs)) equals pairs", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name, value }, { noNullPrototype: true }), {
          minLength: 1,
          maxLength: 5,
        }),
        (pairs) => {
          assert.deepEqual(expectOk(parseCookie(cookieHeader(pairs))), pairs);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
