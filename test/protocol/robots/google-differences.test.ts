// The disagreements with google/robotstxt found on real files, each decided against RFC 9309
// and written in docs/google-differences.md: one test a row, holding heed to its reading.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_ROBOTS_BYTES, parseRobots } from "../../../src/index.js";

const SITE = "https://example.com";
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** [allowed, line that decided] for `path` asked by `agent`. */
function answer(
  file: string | Uint8Array,
  path: string,
  agent = "Googlebot",
): [boolean, number | null] {
  const d = parseRobots(file).check(`${SITE}${path}`, agent);
  return [d.allowed, d.line];
}

describe("docs/google-differences.md: `User-agent: *;` is every robot", () => {
  // Google reads `*` as every robot only when a blank or the end follows it; heed cuts the
  // token at `;` as both read `Googlebot;`, so the group applies to every robot.
  for (const value of ["*;", "*,", "* ;", "*/1.0"]) {
    it(`User-agent: ${value} closes /private for a robot not named elsewhere`, () => {
      assert.deepEqual(answer(`User-agent: ${value}\nDisallow: /private\n`, "/private/x"), [
        false,
        2,
      ]);
    });
  }
  it("a group naming the robot still wins over `*;`", () => {
    const file = "User-agent: *;\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n";
    assert.deepEqual(answer(file, "/x"), [true, 5]);
    assert.deepEqual(answer(file, "/x", "bingbot"), [false, 2]);
  });
});

describe("docs/google-differences.md: characters a URL cannot carry raw match their escapes", () => {
  // RFC 9309 §2.2.2 and RFC 3986 §2: `| \ ^ { } <` are not allowed in a URI, so a path holds
  // them percent-encoded; the pattern that writes them raw names that encoded path.
  const CASES: readonly [pattern: string, path: string][] = [
    ["/a|b", "/a%7Cb"],
    ["/c\\d", "/c%5Cd"],
    ["/e^f", "/e%5Ef"],
    ["/g{h}", "/g%7Bh%7D"],
    ["/i<j", "/i%3Cj"],
    ["/k|l", "/k%7cl"],
  ];
  for (const [pattern, path] of CASES) {
    it(`Disallow: ${pattern} closes ${path}`, () => {
      assert.deepEqual(answer(`User-agent: *\nDisallow: ${pattern}\n`, path), [false, 2]);
    });
  }
  it("and the raw pattern does not close a different character's escape", () => {
    assert.deepEqual(answer("User-agent: *\nDisallow: /a|b\n", "/a%7Db"), [true, null]);
  });
});

describe("docs/google-differences.md: a no-break or en space around a value is trimmed", () => {
  const BLANKS: readonly [name: string, c: string][] = [
    ["U+00A0 no-break space", "\u00a0"],
    ["U+2002 en space", "\u2002"],
    ["U+3000 ideographic space", "\u3000"],
  ];
  for (const [name, c] of BLANKS) {
    it(`${name} before and after a Disallow value: the rule is /private`, () => {
      const file = `User-agent: *\nDisallow:${c}/private${c}\n`;
      assert.deepEqual(answer(file, "/private/x"), [false, 2]);
      assert.equal(parseRobots(file).groups[0]?.rules[0]?.source, "/private");
    });
    it(`${name} after a User-agent value: the group names the robot`, () => {
      const file = `User-agent: Googlebot${c}\nDisallow: /\n`;
      assert.deepEqual(answer(file, "/x"), [false, 2]);
    });
  }
  it("an en dash is not a blank: `Disallow: –/x` is not a path and closes nothing", () => {
    assert.deepEqual(answer("User-agent: *\nDisallow: \u2013/x\n", "/x"), [true, null]);
  });
});

describe("docs/google-differences.md: rules after the 500 KiB limit are not read", () => {
  // RFC 9309 §2.5: a crawler may stop at 500 KiB; an 853 KB real file had rules after it.
  const head = "User-agent: *\nDisallow: /early\n";
  const filler = "# padding to the limit\n".repeat(Math.ceil(MAX_ROBOTS_BYTES / 23));
  const file = utf8(`${head}${filler}Disallow: /late\n`);
  it("a Disallow past the limit closes nothing, and the policy says it was cut", () => {
    const policy = parseRobots(file);
    assert.equal(policy.truncated, true);
    assert.equal(policy.check(`${SITE}/late`, "Googlebot").allowed, true);
    assert.equal(policy.check(`${SITE}/early`, "Googlebot").allowed, false);
  });
});

describe("docs/google-differences.md: `Allow: /dir/index.html` does not open /dir/", () => {
  const file = "User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n";
  it("/dir/ stays closed; /dir/index.html is open", () => {
    assert.deepEqual(answer(file, "/dir/"), [false, 2]);
    assert.deepEqual(answer(file, "/dir/index.html"), [true, 3]);
  });
});

describe("docs/google-differences.md: dot segments in the URL are resolved", () => {
  // RFC 3986 §5.2.4: `/./` and `/x/../` name the path without them, as clients send it.
  const file = "User-agent: *\nDisallow: /private/\n";
  for (const path of ["/./private/x", "/a/../private/x", "/private/./x"]) {
    it(`${path} is closed by Disallow: /private/`, () => {
      assert.deepEqual(answer(file, path), [false, 2]);
    });
  }
  it("a pattern's own dot segments are kept as written, so such a rule matches no request", () => {
    assert.deepEqual(answer("User-agent: *\nDisallow: /q/./r\n", "/q/r"), [true, null]);
  });
});
