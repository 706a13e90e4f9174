// Edge cases of reading a robots.txt: what real files contain and what the RFC (RFC 9309), the
// Koster draft (seeds/004) and DESIGN §3 say about it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  MAX_LINE_LENGTH,
  MAX_ROBOTS_BYTES,
  parseRobots,
  type RobotsPolicy,
} from "../../../src/index.js";

const SITE = "http://example.com";
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const codes = (policy: RobotsPolicy): string[] => policy.diagnostics.map((d) => d.code);
const blocks = (policy: RobotsPolicy, path: string, agent = "bot"): boolean =>
  !policy.check(path.startsWith("/") ? `${SITE}${path}` : path, agent).allowed;

describe("empty files and files of only comments (RFC 9309 §2.2.1: no groups, no rules apply)", () => {
  const FILES: readonly [name: string, input: string | Uint8Array][] = [
    ["the empty string", ""],
    ["no bytes", new Uint8Array(0)],
    ["one LF", "\n"],
    ["blank lines and whitespace", "  \n\t\n\r\n   "],
    ["only comments", "# robots.txt\n# nothing here\n   # indented comment\n"],
    ["comments mentioning rules", "# User-agent: *\n# Disallow: /\n"],
    ["a BOM alone", "\ufeff"],
  ];
  for (const [name, input] of FILES) {
    it(`${name}: every URL is allowed, no groups, no diagnostics`, () => {
      const policy = parseRobots(input);
      const d = policy.check(`${SITE}/anything`, "bot");
      assert.deepEqual([d.allowed, d.reason, d.basis], [true, "default", "no-group"]);
      assert.equal(policy.groups.length, 0);
      assert.deepEqual(policy.diagnostics, []);
      assert.equal(policy.truncated, false);
    });
  }
});

describe("groups without rules, and where groups end (RFC 9309 §2.1, §2.2)", () => {
  it("§2.1 a last group with no rules implicitly allows everything", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /\n\nUser-agent: lonely\n");
    const d = policy.check(`${SITE}/x`, "lonely");
    assert.deepEqual([d.allowed, d.reason, d.basis], [true, "default", "no-matching-rule"]);
    assert.equal(blocks(policy, "/x", "other"), true);
  });
  it("§2.2 grammar: User-agent lines separated only by blank lines form one group", () => {
    const policy = parseRobots("User-agent: a\n\nUser-agent: b\nDisallow: /\n");
    assert.equal(policy.groups.length, 1);
    assert.equal(blocks(policy, "/x", "a"), true);
    assert.equal(blocks(policy, "/x", "b"), true);
  });
  it("§2.1 a User-agent line after a rule starts a new group", () => {
    const policy = parseRobots("User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n");
    assert.equal(policy.groups.length, 2);
    assert.deepEqual([blocks(policy, "/x", "a"), blocks(policy, "/y", "a")], [true, false]);
    assert.deepEqual([blocks(policy, "/x", "b"), blocks(policy, "/y", "b")], [false, true]);
  });
  it("§2.1 an empty Disallow is a rule too: the next User-agent starts a new group", () => {
    const policy = parseRobots("User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /\n");
    assert.equal(policy.groups.length, 2);
    assert.equal(blocks(policy, "/x", "a"), false);
    assert.equal(blocks(policy, "/x", "b"), true);
  });
});

describe("special characters in patterns (RFC 9309 §2.2.3)", () => {
  const CASES: readonly [rule: string, path: string, blocked: boolean][] = [
    // `$` only ends the pattern at its end; elsewhere it is literal.
    ["/a$b", "/a$b", true],
    ["/a$b", "/a$bc", true],
    ["/a$b", "/a%24b", true],
    ["/a$b", "/a", false],
    ["/a$b", "/ab", false],
    ["/a$b$", "/a$b", true],
    ["/a$b$", "/a$bc", false],
    ["/$$", "/$", true],
    ["/$$", "/", false],
    ["/a$*", "/a$", true],
    ["/a$*", "/a$x", true],
    ["/a$*", "/a", false],
    // `*` at both ends.
    ["*private*", "/private", true],
    ["*private*", "/x/private/y", true],
    ["*private*", "/privat", false],
    ["/*private*", "/xprivatey", true],
    ["/*private*", "/public", false],
    ["*.php*", "/index.php?x=1", true],
    ["*.php*", "/index.html", false],
    ["/**a**", "/xxa", true],
    ["/**a**", "/xx", false],
    ["*$", "/", true],
    ["*$", "/anything", true],
  ];
  for (const [rule, path, blocked] of CASES) {
    it(`Disallow: ${rule} ${blocked ? "blocks" : "does not block"} ${path}`, () => {
      assert.equal(blocks(parseRobots(`User-agent: *\nDisallow: ${rule}\n`), path), blocked);
    });
  }
});

describe("non-ASCII paths, raw and percent-encoded on both sides (RFC 9309 §2.2.2)", () => {
  const SPELLINGS: readonly (readonly string[])[] = [
    ["/café", "/caf%C3%A9", "/caf%c3%a9"],
    ["/путь/", "/%D0%BF%D1%83%D1%82%D1%8C/"],
    ["/😀", "/%F0%9F%98%80"],
    ["/日本語?q=ツ", "/%E6%97%A5%E6%9C%AC%E8%AA%9E?q=%E3%83%84"],
  ];
  for (const spellings of SPELLINGS) {
    for (const rule of spellings) {
      for (const url of spellings) {
        it(`Disallow: ${rule} blocks ${url}`, () => {
          const policy = parseRobots(`User-agent: *\nDisallow: ${rule}\n`);
          assert.equal(blocks(policy, url), true);
          assert.equal(blocks(policy, "/cafe"), false);
        });
      }
    }
  }
  it("octets are compared: NFD café (e + U+0301) is not NFC café", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /café\n");
    assert.equal(blocks(policy, "/cafe\u0301"), false);
  });
  it("a raw non-ASCII rule is also found through a URL object", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /café\n");
    assert.equal(policy.check(new URL(`${SITE}/café/menu`), "bot").allowed, false);
  });
});

describe("query strings (RFC 9309 §2.2.2 table: /foo/bar?baz=quz)", () => {
  const CASES: readonly [rule: string, path: string, blocked: boolean][] = [
    ["/search?q=", "/search?q=robots", true],
    ["/search?q=", "/search", false],
    ["/search?q=", "/search?p=1&q=x", false],
    ["/*?", "/a?b", true],
    ["/*?", "/a?", true],
    ["/*?", "/a", false],
    ["/*?lang=", "/page?lang=en", true],
    ["/*?lang=", "/page?x=1&lang=en", false],
    ["/*&lang=", "/page?x=1&lang=en", true],
    ["/page$", "/page?x=1", false],
    ["/*.pdf$", "/doc.pdf?download=1", false],
    ["/a?b", "/a%3Fb", false],
    ["/foo/bar?baz=quz", "/foo/bar?baz=quz", true],
    ["/foo/bar?baz=quz", "/foo/bar?baz=%71uz", true],
  ];
  for (const [rule, path, blocked] of CASES) {
    it(`Disallow: ${rule} ${blocked ? "blocks" : "does not block"} ${path}`, () => {
      assert.equal(blocks(parseRobots(`User-agent: *\nDisallow: ${rule}\n`), path), blocked);
    });
  }
});

describe(`very long lines (MAX_LINE_LENGTH = ${MAX_LINE_LENGTH})`, () => {
  const longPath = `/${"a".repeat(MAX_LINE_LENGTH + 100)}`;
  it("a line beyond the limit is reported as line-too-long with its line number", () => {
    const policy = parseRobots(`User-agent: *\nDisallow: ${longPath}\n`);
    const found = policy.diagnostics.filter((d) => d.code === "line-too-long");
    assert.deepEqual(
      found.map((d) => d.line),
      [2],
    );
    assert.equal(policy.text.lines[1]?.truncated, true);
  });
  it("a line of exactly MAX_LINE_LENGTH characters is read whole", () => {
    const rule = `Disallow: /${"b".repeat(MAX_LINE_LENGTH - 11)}`;
    assert.equal(rule.length, MAX_LINE_LENGTH);
    const policy = parseRobots(`User-agent: *\n${rule}\n`);
    assert.deepEqual(codes(policy), []);
    assert.equal(policy.text.lines[1]?.truncated, false);
  });
  it("a cut Allow is dropped: it could allow more than the file says", () => {
    const policy = parseRobots(`User-agent: *\nAllow: ${longPath}\nDisallow: /\n`);
    const d = policy.check(`${SITE}${longPath}`, "bot");
    assert.deepEqual([d.allowed, d.line], [false, 3]);
    assert.equal(policy.groups[0]?.rules.length, 1);
    // The cut value would have allowed this shorter path, which the full rule does not.
    assert.equal(blocks(policy, `/${"a".repeat(MAX_LINE_LENGTH)}`), true);
  });
  it("a cut Disallow is kept (cut, it only disallows more)", () => {
    const policy = parseRobots(`User-agent: *\nDisallow: ${longPath}\n`);
    assert.equal(blocks(policy, longPath), true);
    // The kept prefix is the line cut at MAX_LINE_LENGTH: `Disallow: ` and the path's start.
    const cut = `/${"a".repeat(MAX_LINE_LENGTH - "Disallow: /".length)}`;
    assert.equal(blocks(policy, cut), true);
    assert.equal(blocks(policy, cut.slice(0, -1)), false);
    assert.equal(blocks(policy, "/b"), false);
  });
  it("the line after a long line is read as usual", () => {
    const policy = parseRobots(
      `User-agent: *\n# ${"x".repeat(MAX_LINE_LENGTH * 2)}\nDisallow: /next\n`,
    );
    assert.equal(blocks(policy, "/next"), true);
    assert.equal(policy.check(`${SITE}/next`, "bot").line, 3);
  });
  it("an Allow whose value is whole and only its comment is cut is kept (DESIGN: only a cut value can allow more)", () => {
    const comment = "c".repeat(MAX_LINE_LENGTH + 10);
    const policy = parseRobots(`User-agent: *\nAllow: /public # ${comment}\nDisallow: /\n`);
    assert.equal(codes(policy).includes("line-too-long"), true);
    const d = policy.check(`${SITE}/public/page`, "bot");
    assert.deepEqual([d.allowed, d.line], [true, 2]);
  });
});

describe(`the size limit (RFC 9309 §2.5: at least 500 KiB, MAX_ROBOTS_BYTES = ${MAX_ROBOTS_BYTES})`, () => {
  const filler = `# ${"x".repeat(1000)}\n`;
  const count = Math.ceil(MAX_ROBOTS_BYTES / filler.length) + 5;
  const big = `User-agent: *\nDisallow: /before\n${filler.repeat(count)}Disallow: /after\n`;
  const INPUTS: readonly [name: string, input: string | Uint8Array][] = [
    ["a string", big],
    ["bytes", utf8(big)],
  ];
  for (const [name, input] of INPUTS) {
    it(`${name} over the limit: truncated, size-limit, rules before kept, rules after ignored`, () => {
      const policy = parseRobots(input);
      assert.equal(policy.truncated, true);
      const limit = policy.diagnostics.filter((d) => d.code === "size-limit");
      assert.equal(limit.length, 1);
      assert.equal(limit[0]?.line, null);
      assert.equal(blocks(policy, "/before"), true);
      assert.equal(blocks(policy, "/after"), false);
      assert.equal(policy.text.byteLength, utf8(big).length);
      assert.ok(policy.text.bytesRead <= MAX_ROBOTS_BYTES);
    });
  }
  it("the limit counts UTF-8 bytes, not characters (a string of 3-byte characters)", () => {
    const wide = `# ${"ツ".repeat(300)}\n`;
    const lines = Math.ceil(MAX_ROBOTS_BYTES / utf8(wide).length) + 5;
    const text = `User-agent: *\nDisallow: /before\n${wide.repeat(lines)}Disallow: /after\n`;
    assert.ok(text.length < MAX_ROBOTS_BYTES);
    const policy = parseRobots(text);
    assert.equal(policy.truncated, true);
    assert.deepEqual([blocks(policy, "/before"), blocks(policy, "/after")], [true, false]);
  });
  it("a file just under the limit is read whole", () => {
    const head = "User-agent: *\nDisallow: /before\n";
    const tail = "Disallow: /after\n";
    const pad = MAX_ROBOTS_BYTES - head.length - tail.length - 3;
    const text = `${head}# ${"y".repeat(pad)}\n${tail}`;
    assert.equal(utf8(text).length, MAX_ROBOTS_BYTES);
    const policy = parseRobots(text);
    assert.equal(policy.truncated, false);
    assert.equal(codes(policy).includes("size-limit"), false);
    assert.equal(blocks(policy, "/after"), true);
  });
  it("a rule cut by the limit is not read (whole lines only)", () => {
    const head = "User-agent: *\n";
    const pad = `# ${"z".repeat(MAX_ROBOTS_BYTES - head.length - 3 - 5)}\n`;
    const text = `${head}${pad}Allow: /x\nDisallow: /\n`;
    const policy = parseRobots(utf8(text));
    assert.equal(policy.truncated, true);
    assert.equal(policy.groups[0]?.rules.length, 0);
  });
  it("maxBytes sets another limit", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /a\nDisallow: /b\n", { maxBytes: 28 });
    assert.equal(policy.truncated, true);
    assert.deepEqual([blocks(policy, "/a"), blocks(policy, "/b")], [true, false]);
  });
});

describe("byte order mark (RFC 9309 §2.3: the file is UTF-8)", () => {
  const FILE = "User-agent: *\nDisallow: /x\n";
  const INPUTS: readonly [name: string, input: string | Uint8Array][] = [
    ["a string starting with U+FEFF", `\ufeff${FILE}`],
    ["bytes starting with EF BB BF", new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(FILE)])],
  ];
  for (const [name, input] of INPUTS) {
    it(`${name}: the BOM is noted and the first line is read as User-agent`, () => {
      const policy = parseRobots(input);
      assert.equal(policy.text.bom, true);
      assert.equal(policy.text.lines[0]?.kind, "user-agent");
      assert.equal(blocks(policy, "/x"), true);
      assert.deepEqual(policy.check(`${SITE}/x`, "bot").group?.lines, [1]);
      assert.deepEqual(codes(policy), []);
    });
  }
  it("no BOM: bom is false", () => {
    assert.equal(parseRobots(FILE).text.bom, false);
    assert.equal(parseRobots(utf8(FILE)).text.bom, false);
  });
});

describe("invalid UTF-8 (RFC 9309 §2.3.1.5: crawlers MUST try to parse each line)", () => {
  const bytes = new Uint8Array([
    ...utf8("User-agent: *\nDisallow: /caf"),
    0xe9, // Latin-1 é
    ...utf8("\nDisallow: /x"),
    0xff,
    0xfe,
    ...utf8("\nDisallow: /y\n"),
  ]);
  it("parsing goes on after bad bytes; invalidUtf8 is set and reported", () => {
    const policy = parseRobots(bytes);
    assert.equal(policy.text.invalidUtf8, true);
    assert.equal(codes(policy).includes("invalid-utf8"), true);
    assert.equal(blocks(policy, "/y"), true);
    assert.equal(policy.groups[0]?.rules.length, 3);
    assert.equal(policy.check(`${SITE}/y`, "bot").line, 4);
  });
  it("valid UTF-8 containing U+FFFD itself is not invalid", () => {
    const policy = parseRobots(utf8("User-agent: *\nDisallow: /\ufffd\n"));
    assert.equal(policy.text.invalidUtf8, false);
  });
});

describe("line ends: CR, LF and CRLF are all accepted (RFC 9309 §2.2 NL; DESIGN §3)", () => {
  const LINES = ["User-agent: a", "Disallow: /x", "", "# comment", "User-agent: b", "Disallow: /y"];
  const ENDS: readonly [name: string, join: string][] = [
    ["LF", "\n"],
    ["CR", "\r"],
    ["CRLF", "\r\n"],
  ];
  for (const [name, end] of ENDS) {
    for (const asBytes of [false, true]) {
      it(`${name} line ends (${asBytes ? "bytes" : "string"})`, () => {
        const text = LINES.join(end) + end;
        const policy = parseRobots(asBytes ? utf8(text) : text);
        assert.equal(policy.text.lines.length, LINES.length);
        assert.equal(policy.groups.length, 2);
        assert.deepEqual([blocks(policy, "/x", "a"), blocks(policy, "/y", "a")], [true, false]);
        assert.equal(policy.check(`${SITE}/y`, "b").line, 6);
      });
    }
  }
  it("mixed line ends in one file", () => {
    const policy = parseRobots("User-agent: a\r\nDisallow: /x\rUser-agent: b\nDisallow: /y\r\n");
    assert.equal(policy.text.lines.length, 4);
    assert.equal(policy.check(`${SITE}/y`, "b").line, 4);
    assert.equal(blocks(policy, "/x", "a"), true);
  });
  it("no line end after the last line", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /x");
    assert.equal(blocks(policy, "/x"), true);
  });
});

describe("# comments anywhere (RFC 9309 §2.2.3)", () => {
  const FILE = `# head comment
User-agent: * # every robot
  # indented comment
Disallow: /a#not-part-of-the-path
Disallow: # nothing
Disallow: /b# no space before the comment
Allow:#/c
`;
  it("a comment ends the value wherever it starts", () => {
    const policy = parseRobots(FILE);
    assert.deepEqual(
      policy.groups[0]?.rules.map((r) => [r.line, r.pattern.source, r.text]),
      [
        [4, "/a", "Disallow: /a"],
        [6, "/b", "Disallow: /b"],
      ],
    );
    assert.deepEqual(
      policy.groups[0]?.agents.map((a) => a.value),
      ["*"],
    );
  });
  const CASES: readonly [path: string, blocked: boolean][] = [
    ["/a", true],
    ["/abc", true],
    ["/b", true],
    ["/c", false],
    ["/not-part-of-the-path", false],
  ];
  for (const [path, blocked] of CASES) {
    it(`${path} is ${blocked ? "blocked" : "allowed"}`, () => {
      assert.equal(blocks(parseRobots(FILE), path), blocked);
    });
  }
});

describe("lines without a colon (google/robotstxt reads `Disallow /x`; DESIGN §3: never an error)", () => {
  const FILE = `<html><head><title>404 Not Found</title></head>
<body>
User-agent *
Disallow /x
<p>Sorry</p>
Disallow: /y
</body></html>
`;
  it("`Disallow /x` is read as Disallow: /x with a missing-colon warning", () => {
    const policy = parseRobots(FILE);
    assert.equal(blocks(policy, "/x"), true);
    const d = policy.check(`${SITE}/x`, "bot");
    assert.deepEqual([d.line, d.rule], [4, "Disallow /x"]);
    const missing = policy.diagnostics.filter((x) => x.code === "missing-colon");
    assert.deepEqual(
      missing.map((x) => x.line),
      [3, 4],
    );
  });
  it("HTML junk lines become invalid lines, each with an invalid-line warning", () => {
    const policy = parseRobots(FILE);
    assert.deepEqual(
      policy.text.lines.map((l) => l.kind),
      ["invalid", "invalid", "user-agent", "disallow", "invalid", "disallow", "invalid"],
    );
    assert.deepEqual(
      policy.diagnostics.filter((x) => x.code === "invalid-line").map((x) => x.line),
      [1, 2, 5, 7],
    );
    assert.equal(blocks(policy, "/y"), true);
    assert.ok(policy.diagnostics.every((x) => x.severity !== "error"));
  });
});

describe("keys: any case, liberal whitespace, known misspellings (RFC 9309 §2.2, §2.2.4)", () => {
  const SPELLINGS: readonly [file: string, misspeltFor: string | null][] = [
    ["USER-AGENT: *\nDISALLOW: /x\n", null],
    ["user-agent: *\ndisallow: /x\n", null],
    ["User-Agent: *\nDisAllow: /x\n", null],
    ["  user-agent  :   *  \n  disallow   :   /x   \n", null],
    ["\tUser-agent\t:\t*\t\n\tDisallow\t:\t/x\t\n", null],
    ["User-agent:*\nDisallow:/x\n", null],
    ["User-agent: *\nDissallow: /x\n", "disallow"],
    ["User-agent: *\nDisalow: /x\n", "disallow"],
    ["User-agent: *\nDissalow: /x\n", "disallow"],
    ["Useragent: *\nDisallow: /x\n", null],
    ["User agent: *\nDisallow: /x\n", null],
  ];
  for (const [file, misspeltFor] of SPELLINGS) {
    it(`${JSON.stringify(file)} disallows /x`, () => {
      const policy = parseRobots(file);
      assert.equal(blocks(policy, "/x"), true);
      assert.equal(blocks(policy, "/y"), false);
      assert.equal(policy.text.lines[1]?.kind, "disallow");
      assert.equal(policy.text.lines[1]?.misspeltFor, misspeltFor);
      assert.equal(policy.text.lines[0]?.kind, "user-agent");
    });
  }
  it("Allow keys are recognised in any case too", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /\nALLOW: /ok\n");
    assert.equal(blocks(policy, "/ok"), false);
  });
});

describe("unknown keys are kept as extensions (DESIGN §3: never an error)", () => {
  const FILE = `Host: example.com
User-agent: *
Clean-param: ref /articles/
Disallow: /x
Noindex: /y
Request-rate: 1/5

User-agent: other
Disallow: /
X-Custom:   value with  spaces
`;
  it("every extension line of the file, in order, with its line number", () => {
    const policy = parseRobots(FILE);
    assert.deepEqual(
      policy.extensions.map((l) => [l.number, l.kind, l.key, l.value]),
      [
        [1, "extension", "Host", "example.com"],
        [3, "extension", "Clean-param", "ref /articles/"],
        [5, "extension", "Noindex", "/y"],
        [6, "extension", "Request-rate", "1/5"],
        [10, "extension", "X-Custom", "value with  spaces"],
      ],
    );
  });
  it("each group keeps the extensions inside it", () => {
    const policy = parseRobots(FILE);
    assert.deepEqual(
      policy.groups.map((g) => g.extensions.map((l) => l.number)),
      [[3, 5, 6], [10]],
    );
  });
  it("an unknown key is not a rule and raises no diagnostic", () => {
    const policy = parseRobots(FILE);
    assert.equal(blocks(policy, "/y"), false);
    assert.equal(blocks(policy, "/x"), true);
    assert.deepEqual(codes(policy), []);
  });
});

describe("Sitemap lines are collected file-wide (RFC 9309 §2.2.4; sitemaps.org)", () => {
  const FILE = `Sitemap: https://example.com/before.xml
User-agent: a
Sitemap: https://example.com/inside.xml
Disallow: /a
sitemap:https://example.com/lower.xml
Sitemap:

User-agent: b
Disallow: /b
Sitemap: https://example.com/after.xml # comment
SITEMAP :  https://example.com/upper.xml
`;
  it("before, inside and after groups, in file order, with line numbers", () => {
    assert.deepEqual(parseRobots(FILE).sitemaps, [
      { url: "https://example.com/before.xml", line: 1 },
      { url: "https://example.com/inside.xml", line: 3 },
      { url: "https://example.com/lower.xml", line: 5 },
      { url: "https://example.com/after.xml", line: 10 },
      { url: "https://example.com/upper.xml", line: 11 },
    ]);
  });
  it("Sitemap lines do not end or split the groups around them", () => {
    const policy = parseRobots(FILE);
    assert.equal(policy.groups.length, 2);
    assert.deepEqual([blocks(policy, "/a", "a"), blocks(policy, "/b", "a")], [true, false]);
  });
});

describe("Crawl-delay (seeds/003 §3.2.6; RFC 9309 §2.2.4 other records)", () => {
  const CASES: readonly [file: string, agent: string, delay: number | null][] = [
    ["User-agent: *\nCrawl-delay: 10\n", "bot", 10],
    ["User-agent: *\nCrawl-delay: 0.5\n", "bot", 0.5],
    ["User-agent: *\nCrawl-delay: .25\n", "bot", 0.25],
    ["User-agent: *\ncrawl-delay:   7   # seconds\n", "bot", 7],
    ["User-agent: *\nCrawl-delay: 0\n", "bot", 0],
    ["User-agent: *\nCrawl-delay: fast\n", "bot", null],
    ["User-agent: *\nCrawl-delay: -1\n", "bot", null],
    ["User-agent: *\nCrawl-delay: 5s\n", "bot", null],
    ["User-agent: *\nCrawl-delay: fast\nCrawl-delay: 3\n", "bot", 3],
    ["User-agent: *\nCrawl-delay: 4\nCrawl-delay: 3\n", "bot", 4],
    ["User-agent: *\nDisallow: /\n", "bot", null],
    ["User-agent: a\nDisallow: /a\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 9\n", "a", 2],
    ["User-agent: a\nDisallow: /a\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 9\n", "b", 9],
    // RFC 9309 §2.2: with no rule between them, `a` and `*` are one group with one Crawl-delay.
    ["User-agent: a\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 9\n", "b", 2],
    ["User-agent: a\nCrawl-delay: 2\n", "b", null],
    ["Crawl-delay: 2\nUser-agent: *\nDisallow: /\n", "bot", null],
    ["User-agent: a\nCrawl-delay: 2\n", "A/1.0 (+http://a.example)", 2],
  ];
  for (const [file, agent, delay] of CASES) {
    it(`${JSON.stringify(file)}: crawlDelay(${JSON.stringify(agent)}) is ${delay}`, () => {
      assert.equal(parseRobots(file).crawlDelay(agent), delay);
    });
  }
  it("a Crawl-delay that is not a number is reported", () => {
    const policy = parseRobots("User-agent: *\nCrawl-delay: fast\n");
    assert.deepEqual(
      policy.diagnostics.map((d) => [d.code, d.line]),
      [["bad-crawl-delay", 2]],
    );
  });
});

describe("invalid URLs (DESIGN §6: a query that cannot be answered has error set and allowed false)", () => {
  const policy = parseRobots("User-agent: *\nDisallow:\n");
  const URLS: readonly string[] = ["", "   ", "not a url", "http://", "mailto:someone@example.com"];
  for (const url of URLS) {
    it(`${JSON.stringify(url)} is invalid-url, not allowed, with an error`, () => {
      const d = policy.check(url, "bot");
      assert.equal(d.reason, "invalid-url");
      assert.equal(d.allowed, false);
      assert.equal(typeof d.error, "string");
      assert.notEqual(d.error, "");
      assert.deepEqual([d.line, d.rule, d.group], [null, null, null]);
      assert.equal(policy.isAllowed(url, "bot"), false);
    });
  }
});

describe("fragments are not part of the request (RFC 3986 §3.5; RFC 9309 §2.2.2 matches the path)", () => {
  const policy = parseRobots("User-agent: *\nDisallow: /private\n");
  const CASES: readonly [url: string, blocked: boolean][] = [
    [`${SITE}/private#top`, true],
    ["/private#top", true],
    [`${SITE}/public#/private`, false],
    [`${SITE}/#private`, false],
    [`${SITE}/public?x=1#/private`, false],
    [`${SITE}/privat#e`, false],
  ];
  for (const [url, blocked] of CASES) {
    it(`${url} is ${blocked ? "blocked" : "allowed"}`, () => {
      assert.equal(policy.check(url, "bot").allowed, !blocked);
    });
  }
});

describe("dot segments are resolved as the client resolves them (RFC 3986 §5.2.4, §6.2.2.3)", () => {
  const policy = parseRobots("User-agent: *\nDisallow: /private\n");
  const CASES: readonly [url: string, blocked: boolean][] = [
    ["/a/../private", true],
    [`${SITE}/a/../private`, true],
    [`${SITE}/./private`, true],
    [`${SITE}/public/../private/x`, true],
    [`${SITE}/private/../public`, false],
    [`${SITE}/private/./x`, true],
    [`${SITE}/a/.hidden`, false],
    // RFC 3986 §6.2.2.2: %2E is an unreserved `.`; WHATWG URL resolves `%2e%2e` as `..`, so a
    // client asks for /private here.
    [`${SITE}/a/%2e%2e/private`, true],
    [`${SITE}/a/%2E%2E/private`, true],
    ["/a/%2e%2e/private", true],
    [`${SITE}/%2e/private`, true],
    [`${SITE}/private/%2e%2e/public`, false],
  ];
  for (const [url, blocked] of CASES) {
    it(`${url} is ${blocked ? "blocked" : "allowed"}`, () => {
      assert.equal(policy.check(url, "bot").allowed, !blocked);
    });
  }
});

describe("the origin option (ParseOptions.origin: other origins are never allowed)", () => {
  const policy = parseRobots("User-agent: *\nDisallow: /x\n", { origin: "https://example.com" });
  const CASES: readonly [url: string, reason: string, allowed: boolean][] = [
    ["https://example.com/y", "default", true],
    ["https://example.com/x", "rule", false],
    ["https://EXAMPLE.com/y", "default", true],
    ["https://example.com:443/y", "default", true],
    ["/y", "default", true],
    ["http://example.com/y", "other-origin", false],
    ["https://example.com:8443/y", "other-origin", false],
    ["https://www.example.com/y", "other-origin", false],
    ["https://example.org/y", "other-origin", false],
    ["https://example.org/robots.txt", "other-origin", false],
  ];
  for (const [url, reason, allowed] of CASES) {
    it(`${url}: ${reason}`, () => {
      const d = policy.check(url, "bot");
      assert.deepEqual([d.reason, d.allowed], [reason, allowed]);
      if (reason === "other-origin") assert.equal(typeof d.error, "string");
    });
  }
  it("a URL object on another origin is refused too", () => {
    assert.equal(policy.check(new URL("https://example.org/y"), "bot").reason, "other-origin");
  });
  it("the origin may be given as the robots.txt URL", () => {
    const p = parseRobots("User-agent: *\n", { origin: "https://example.com/robots.txt" });
    assert.equal(p.origin, "https://example.com");
    assert.equal(p.check("https://example.com/a", "bot").allowed, true);
    assert.equal(p.check("https://other.example/a", "bot").reason, "other-origin");
  });
  it("without the option every origin is answered by the rules", () => {
    const p = parseRobots("User-agent: *\nDisallow: /x\n");
    assert.equal(p.check("https://anywhere.example/y", "bot").allowed, true);
    assert.equal(p.origin, null);
  });
});
