// plainPathSpan reads a URL's request path in its bytes, for callers that hold the bytes
// (`heed check --batch`). Wherever it says the URL is plain, requestPath must read the same
// path, and a policy must decide the path as it decides the URL.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseRobots } from "../../../src/protocol/robots/policy.js";
import { plainPathSpan, requestPath } from "../../../src/protocol/robots/request-path.js";

// Pieces that take a URL across every test the plain path makes.
const PIECES = [
  "http://",
  "https://",
  "HTTP://",
  "http:/",
  "https:",
  "//",
  "/",
  "a",
  "Z",
  "9",
  "-",
  ".",
  ":",
  "?",
  "#",
  "%",
  "%2e",
  "%2E",
  "%41",
  "*",
  "$",
  "~",
  "_",
  "@",
  "!",
  "&",
  "=",
  "+",
  ",",
  ";",
  "(",
  ")",
  " ",
  "\t",
  '"',
  "\\",
  "é",
  "ツ",
  "host",
  "Host",
  "example.com",
  "/./",
  "/../",
  "/.",
  "robots.txt",
  "/robots.txt",
  "x:8080",
];

const url = fc
  .array(fc.constantFrom(...PIECES), { maxLength: 12 })
  .map((pieces) => pieces.join(""));

const policy = parseRobots(
  "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.php$\nDisallow: /?x\n\nUser-agent: bot\nDisallow: /\n",
  { dialect: "rfc9309" },
);

describe("plainPathSpan", () => {
  it("finds the path requestPath finds wherever it says the URL is plain", () => {
    fc.assert(
      fc.property(url, fc.nat(8), (text, offset) => {
        // At an offset in a larger buffer, as in a batch line.
        const bytes = Buffer.concat([Buffer.alloc(offset, 0x78), Buffer.from(text, "utf8")]);
        const span = { start: -1, end: -1 };
        if (!plainPathSpan(bytes, offset, bytes.length, span)) return;
        const path = span.start === span.end ? "/" : bytes.toString("latin1", span.start, span.end);
        const read = requestPath(text);
        assert.ok(read.ok, text);
        assert.equal(path, read.path, text);
        for (const robot of ["bot", "other"]) {
          assert.deepEqual(policy.checkRequestPath(path, robot), policy.check(text, robot), text);
        }
      }),
      { numRuns: 20_000 },
    );
  });

  it("says so of the plain URLs a batch is made of, and of no others", () => {
    const span = { start: 0, end: 0 };
    const cases: [string, string | null][] = [
      ["https://example.com/a/b?c=d", "/a/b?c=d"],
      ["http://example.com", "/"],
      ["http://example.com/x#frag", "/x"],
      ["/relative?q", "/relative?q"],
      ["https://x:8080/p", "/p"],
      ["https://Example.com/p", null],
      ["https://example.com?q", null],
      ["https://example.com/a/./b", null],
      ["https://example.com/%7E", null],
      ["https://example.com/a*b", null],
      ["//example.com/p", null],
      ["ftp://example.com/p", null],
      ["https://example.com/é", null],
    ];
    for (const [text, want] of cases) {
      const bytes = Buffer.from(text, "utf8");
      const plain = plainPathSpan(bytes, 0, bytes.length, span);
      const got = !plain
        ? null
        : span.start === span.end
          ? "/"
          : bytes.toString("latin1", span.start, span.end);
      assert.equal(got, want, text);
    }
  });
});
