// RFC 9309 (Robots Exclusion Protocol): the RFC's own examples (§2.2.1-§2.2.4, §5.1, §5.2) and
// the details DESIGN §3 lists as ones peers get wrong.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  canonicalize,
  PathPattern,
  parseRobots,
  productToken,
  requestPath,
} from "../../../src/index.js";

const SITE = "https://www.example.com";

describe("RFC 9309 §2.2.1 the user-agent line", () => {
  const EXAMPLE_BOT = "User-agent: ExampleBot\nDisallow: /foo\n";
  // §2.2.1: "Crawlers MUST use case-insensitive matching to find the group".
  const CASES: readonly [file: string, robot: string][] = [
    [EXAMPLE_BOT, "ExampleBot"],
    [EXAMPLE_BOT, "examplebot"],
    [EXAMPLE_BOT, "EXAMPLEBOT"],
    ["user-agent: examplebot\ndisallow: /foo\n", "ExampleBot"],
    ["USER-AGENT: EXAMPLEBOT\nDISALLOW: /foo\n", "eXaMpLeBoT"],
  ];
  for (const [file, robot] of CASES) {
    it(`§2.2.1 case-insensitive product token: ${JSON.stringify(file.split("\n")[0])} names ${robot}`, () => {
      const policy = parseRobots(file);
      assert.equal(policy.check(`${SITE}/foo`, robot).allowed, false);
      assert.equal(policy.check(`${SITE}/bar`, robot).allowed, true);
    });
  }

  // §2.2.1: the two ExampleBot groups of the RFC's example are merged into one.
  const MERGE = `user-agent: ExampleBot
disallow: /foo
disallow: /bar

user-agent: ExampleBot
disallow: /baz
`;
  const MERGED: readonly [path: string, allowed: boolean, line: number | null][] = [
    ["/foo", false, 2],
    ["/bar", false, 3],
    ["/baz", false, 6],
    ["/qux", true, null],
  ];
  for (const [path, allowed, line] of MERGED) {
    it(`§2.2.1 groups naming the same token are merged: ${path} is ${allowed ? "allowed" : "disallowed"}`, () => {
      const d = parseRobots(MERGE).check(`${SITE}${path}`, "ExampleBot");
      assert.deepEqual([d.allowed, d.line], [allowed, line]);
      assert.deepEqual(d.group?.lines, [1, 5]);
    });
  }

  const FALLBACK = `User-agent: *
Disallow: /star

User-agent: named
Disallow: /named

User-agent: *
Disallow: /star2
`;
  // §2.2.1: "If no matching group exists, crawlers MUST obey the group with a user-agent line
  // with the "*" value"; a named robot obeys only its own group.
  const FALLBACK_CASES: readonly [robot: string, path: string, allowed: boolean][] = [
    ["other", "/star", false],
    ["other", "/star2", false],
    ["other", "/named", true],
    ["named", "/star", true],
    ["named", "/star2", true],
    ["named", "/named", false],
  ];
  for (const [robot, path, allowed] of FALLBACK_CASES) {
    it(`§2.2.1 "*" fallback: ${robot} ${allowed ? "may" : "may not"} fetch ${path}`, () => {
      assert.equal(parseRobots(FALLBACK).check(`${SITE}${path}`, robot).allowed, allowed);
    });
  }

  // §2.2.1: "If no group matches the product token and there is no group with a user-agent
  // line with the "*" value, or no groups are present at all, no rules apply."
  const NO_GROUP: readonly [name: string, file: string][] = [
    ["no group matches and there is no * group", "User-agent: other\nDisallow: /\n"],
    ["no groups at all", "Sitemap: https://www.example.com/sitemap.xml\n"],
    ["an empty file", ""],
  ];
  for (const [name, file] of NO_GROUP) {
    it(`§2.2.1 no rules apply when ${name}`, () => {
      const d = parseRobots(file).check(`${SITE}/anything`, "ExampleBot");
      assert.deepEqual(
        [d.allowed, d.reason, d.basis, d.group, d.line],
        [true, "default", "no-group", null, null],
      );
    });
  }

  it("§2.2.1 the RFC's User-Agent header names the robot ExampleBot", () => {
    const header = "Mozilla/5.0 (compatible; ExampleBot/0.1; https://www.example.com/bot.html)";
    assert.equal(productToken(header), "ExampleBot");
    const d = parseRobots(EXAMPLE_BOT).check(`${SITE}/foo`, header);
    assert.deepEqual([d.allowed, d.agent], [false, "ExampleBot"]);
  });
});

describe("RFC 9309 §2.2.2 the Allow and Disallow lines", () => {
  // §2.2.2: "The most specific match found MUST be used. The most specific match is the match
  // that has the most octets." and "If an "allow" rule and a "disallow" rule are equivalent,
  // then the "allow" rule SHOULD be used."
  const LONGEST: readonly [file: string, path: string, allowed: boolean, line: number][] = [
    ["Allow: /p\nDisallow: /", "/page", true, 2],
    ["Disallow: /\nAllow: /p", "/page", true, 3],
    ["Allow: /folder\nDisallow: /folder/page", "/folder/page", false, 3],
    ["Disallow: /folder/page\nAllow: /folder", "/folder/page", false, 2],
    ["Disallow: /folder/page\nAllow: /folder", "/folder/other", true, 3],
    ["Allow: /a\nDisallow: /a", "/a", true, 2],
    ["Disallow: /a\nAllow: /a", "/a", true, 3],
    ["Disallow: /a/\nAllow: /a/", "/a/b", true, 3],
    ["Allow: /$\nDisallow: /", "/", true, 2],
    ["Allow: /$\nDisallow: /", "/page", false, 3],
    ["Disallow: /*.html\nAllow: /page", "/page.html", false, 2],
    ["Disallow: /*.html\nAllow: /page.htm", "/page.html", true, 3],
  ];
  for (const [rules, path, allowed, line] of LONGEST) {
    it(`§2.2.2 longest match, Allow on a tie: ${rules.replace("\n", " | ")} → ${path} ${allowed ? "allowed" : "disallowed"}`, () => {
      const d = parseRobots(`User-agent: *\n${rules}\n`).check(`${SITE}${path}`, "bot");
      assert.deepEqual([d.allowed, d.reason, d.line], [allowed, "rule", line]);
    });
  }

  it("§2.2.1 + §2.2.2 on a tie across merged groups, Allow wins", () => {
    const file = "User-agent: bot\nDisallow: /a\n\nUser-agent: bot\nAllow: /a\n";
    const d = parseRobots(file).check(`${SITE}/a`, "bot");
    assert.deepEqual([d.allowed, d.line], [true, 5]);
  });

  it("§2.2.2 no match amongst the group's rules: allowed", () => {
    const d = parseRobots("User-agent: *\nDisallow: /a\n").check(`${SITE}/b`, "bot");
    assert.deepEqual(
      [d.allowed, d.reason, d.basis, d.line],
      [true, "default", "no-matching-rule", null],
    );
  });

  it("§2.2.2 no rules in the group: allowed", () => {
    const d = parseRobots("User-agent: bot\n").check(`${SITE}/b`, "bot");
    assert.deepEqual([d.allowed, d.reason, d.basis], [true, "default", "no-matching-rule"]);
  });

  it("§2.2.2 matching starts with the first octet of the path", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /b\n");
    assert.equal(policy.check(`${SITE}/a/b`, "bot").allowed, true);
    assert.equal(policy.check(`${SITE}/b/a`, "bot").allowed, false);
  });

  it("§2.2.2 matching is case-sensitive", () => {
    const policy = parseRobots("User-agent: *\nDisallow: /Foo\n");
    assert.equal(policy.check(`${SITE}/foo`, "bot").allowed, true);
    assert.equal(policy.check(`${SITE}/Foo`, "bot").allowed, false);
  });

  for (const file of ["User-agent: *\nDisallow: /\n", "User-agent: *\nDisallow: /robots.txt\n"]) {
    it(`§2.2.2 "The /robots.txt URI is implicitly allowed" (${file.split("\n")[1]})`, () => {
      const d = parseRobots(file).check(`${SITE}/robots.txt`, "bot");
      assert.deepEqual([d.allowed, d.reason], [true, "robots-txt"]);
    });
  }

  for (const file of ["User-agent: *\nDisallow:\n", "User-agent: *\nDisallow:   \n"]) {
    it(`§2.2 empty-pattern: ${JSON.stringify(file.split("\n")[1])} allows everything`, () => {
      const d = parseRobots(file).check(`${SITE}/anything`, "bot");
      assert.deepEqual([d.allowed, d.line], [true, null]);
    });
  }

  // §2.2.2's table: path, encoded path, path to match.
  const ENCODING: readonly [path: string, match: string][] = [
    ["/foo/bar?baz=quz", "/foo/bar?baz=quz"],
    ["/foo/bar/ツ", "/foo/bar/%E3%83%84"],
    ["/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"],
    ["/foo/bar/%62%61%7A", "/foo/bar/baz"],
  ];
  for (const [path, match] of ENCODING) {
    it(`§2.2.2 table: the URL path ${path} is matched as ${match}`, () => {
      assert.deepEqual(requestPath(`${SITE}${path}`), { ok: true, path: match });
      assert.equal(canonicalize(path), match);
    });
  }
  // Each way of writing a path matches each other way of writing it, on either side.
  const SAME: readonly (readonly string[])[] = [
    ["/foo/bar/ツ", "/foo/bar/%E3%83%84", "/foo/bar/%e3%83%84"],
    ["/foo/bar/%62%61%7A", "/foo/bar/baz", "/foo/%62ar/b%61z"],
  ];
  for (const spellings of SAME) {
    for (const rule of spellings) {
      for (const url of spellings) {
        it(`§2.2.2 table: Disallow: ${rule} blocks ${url}`, () => {
          const policy = parseRobots(`User-agent: *\nDisallow: ${rule}\n`);
          assert.equal(policy.check(`${SITE}${url}`, "bot").allowed, false);
          assert.equal(policy.check(`${SITE}/foo/bar/other`, "bot").allowed, true);
        });
      }
    }
  }
});

describe("RFC 9309 §2.2.3 special characters", () => {
  // §2.2.3's table: "#" comment, "$" end of the pattern, "*" zero or more of any character.
  const FILE = `User-agent: *
Disallow: /
allow: / # comment in line

# comment on its own line
allow: /this/path/exactly$
allow: /this/*/exactly
`;
  it("§2.2.3 # designates a comment: `allow: / # comment in line` is `allow: /`", () => {
    const policy = parseRobots(FILE);
    const d = policy.check(`${SITE}/anything`, "bot");
    assert.deepEqual([d.allowed, d.line, d.rule], [true, 3, "allow: /"]);
    assert.equal(policy.text.lines[4]?.kind, "comment");
  });
  const CASES: readonly [rule: string, path: string, matches: boolean][] = [
    ["/this/path/exactly$", "/this/path/exactly", true],
    ["/this/path/exactly$", "/this/path/exactly/", false],
    ["/this/path/exactly$", "/this/path/exactly.html", false],
    ["/this/path/exactly$", "/this/path/exactly?q", false],
    ["/this/path/exactly$", "/this/path/exactl", false],
    ["/this/*/exactly", "/this/a/exactly", true],
    ["/this/*/exactly", "/this/a/b/exactly", true],
    ["/this/*/exactly", "/this//exactly", true],
    ["/this/*/exactly", "/this/a/exactly/more", true],
    ["/this/*/exactly", "/this/exactly", false],
    ["/this/*/exactly", "/that/a/exactly", false],
  ];
  for (const [rule, path, matches] of CASES) {
    it(`§2.2.3 Disallow: ${rule} ${matches ? "blocks" : "does not block"} ${path}`, () => {
      const policy = parseRobots(`User-agent: *\nDisallow: ${rule}\n`);
      assert.equal(policy.check(`${SITE}${path}`, "bot").allowed, !matches);
    });
  }

  // §2.2.3: "If crawlers match special characters verbatim in the URI, crawlers SHOULD use "%"
  // encoding", with its table of percent-encoded pattern and URI.
  const VERBATIM: readonly [pattern: string, url: string, matches: boolean][] = [
    ["/path/file-with-a-%2A.html", `${SITE}/path/file-with-a-*.html`, true],
    ["/path/file-with-a-%2A.html", `${SITE}/path/file-with-a-%2A.html`, true],
    ["/path/file-with-a-%2a.html", `${SITE}/path/file-with-a-*.html`, true],
    ["/path/file-with-a-%2A.html", `${SITE}/path/file-with-a-x.html`, false],
    ["/path/file-with-a-%2A.html", `${SITE}/path/file-with-a-.html`, false],
    ["/path/foo-%24", `${SITE}/path/foo-$`, true],
    ["/path/foo-%24", `${SITE}/path/foo-%24`, true],
    ["/path/foo-%24", `${SITE}/path/foo-$bar`, true],
    ["/path/foo-%24", `${SITE}/path/foo-`, false],
    // Written raw, the same characters are special: `*` matches anything, `$` ends the path.
    ["/path/file-with-a-*.html", `${SITE}/path/file-with-a-x.html`, true],
    ["/path/foo-$", `${SITE}/path/foo-`, true],
    ["/path/foo-$", `${SITE}/path/foo-$`, false],
  ];
  for (const [pattern, url, matches] of VERBATIM) {
    it(`§2.2.3 Disallow: ${pattern} ${matches ? "blocks" : "does not block"} ${url}`, () => {
      const policy = parseRobots(`User-agent: *\nDisallow: ${pattern}\n`);
      assert.equal(policy.check(url, "bot").allowed, !matches);
    });
    it(`§2.2.3 PathPattern ${pattern} ${matches ? "matches" : "does not match"} ${url}`, () => {
      const path = requestPath(url);
      assert.ok(path.ok);
      assert.equal(new PathPattern(pattern, { wildcards: true }).matches(path.path), matches);
    });
  }
});

describe("RFC 9309 §2.2.4 other records do not end a group", () => {
  // §2.2.4: "Parsing of other records MUST NOT interfere with the parsing of explicitly defined
  // records in Section 2. For example, a "Sitemaps" record MUST NOT terminate a group."
  const FILE = `User-agent: a
Disallow: /x
Sitemap: https://www.example.com/sitemap.xml
Disallow: /y
Crawl-delay: 3
Disallow: /z
Unknown-key: some value
Disallow: /w

User-agent: b
Disallow: /v
`;
  const CASES: readonly [robot: string, path: string, allowed: boolean][] = [
    ["a", "/x", false],
    ["a", "/y", false],
    ["a", "/z", false],
    ["a", "/w", false],
    ["a", "/v", true],
    ["b", "/v", false],
    ["b", "/x", true],
    ["b", "/w", true],
  ];
  for (const [robot, path, allowed] of CASES) {
    it(`§2.2.4 ${robot} ${allowed ? "may" : "may not"} fetch ${path}`, () => {
      assert.equal(parseRobots(FILE).check(`${SITE}${path}`, robot).allowed, allowed);
    });
  }
  it("§2.2.4 the group keeps its Crawl-delay and extension; the Sitemap is kept", () => {
    const policy = parseRobots(FILE);
    assert.equal(policy.groups.length, 2);
    assert.equal(policy.crawlDelay("a"), 3);
    assert.deepEqual(
      policy.groups[0]?.extensions.map((l) => [l.number, l.key, l.value]),
      [[7, "Unknown-key", "some value"]],
    );
    assert.deepEqual(policy.sitemaps, [{ url: "https://www.example.com/sitemap.xml", line: 3 }]);
  });
  const BETWEEN: readonly [name: string, line: string][] = [
    ["Sitemap", "Sitemap: https://www.example.com/sitemap.xml"],
    ["Crawl-delay", "Crawl-delay: 1"],
    ["an unknown key", "Host: www.example.com"],
  ];
  for (const [name, line] of BETWEEN) {
    it(`§2.2.4 ${name} between two User-agent lines does not split them`, () => {
      const policy = parseRobots(`User-agent: a\n${line}\nUser-agent: b\nDisallow: /\n`);
      assert.equal(policy.groups.length, 1);
      assert.equal(policy.check(`${SITE}/x`, "a").allowed, false);
      assert.equal(policy.check(`${SITE}/x`, "b").allowed, false);
    });
  }
  it("§2.2.4 crawlers may accept common misspellings: Dissallow still disallows", () => {
    const policy = parseRobots("User-agent: *\nDissallow: /x\n");
    assert.equal(policy.check(`${SITE}/x`, "bot").allowed, false);
  });
});

// RFC 9309 §5.1, verbatim; the figure ends with an `EOF` marker, read both with and without it.
const SIMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

`;

// §5.1's prose: "*" restricts /example/ and .gif, allows /publications/; foobot may fetch only
// /example/page.html and /example/allowed.gif; barbot and bazbot may fetch all but
// /example/page.html; quxbot may fetch everything. Columns: other, foobot, barbot, bazbot, quxbot.
const SIMPLE_MATRIX: readonly [path: string, ...allowed: boolean[]][] = [
  ["/example/page.html", false, true, false, false, true],
  ["/example/page.html?x=1", false, true, false, false, true],
  ["/example/allowed.gif", false, true, true, true, true],
  ["/example/other.html", false, false, true, true, true],
  ["/example/", false, false, true, true, true],
  ["/publications/index.html", true, false, true, true, true],
  ["/publications/cover.gif", true, false, true, true, true],
  ["/images/cat.gif", false, false, true, true, true],
  ["/cat.gif", false, false, true, true, true],
  ["/images/cat.gif?size=2", true, false, true, true, true],
  ["/images/cat.GIF", true, false, true, true, true],
  ["/images/cat.gif.html", true, false, true, true, true],
  ["/", true, false, true, true, true],
  ["/robots.txt", true, true, true, true, true],
];
const SIMPLE_ROBOTS = ["otherbot", "foobot", "barbot", "bazbot", "quxbot"] as const;

for (const [name, file] of [
  ["as printed", `${SIMPLE}EOF\n`],
  ["without the EOF marker", SIMPLE],
] as const) {
  describe(`RFC 9309 §5.1 simple example (${name})`, () => {
    const policy = parseRobots(file);
    for (const [path, ...columns] of SIMPLE_MATRIX) {
      SIMPLE_ROBOTS.forEach((robot, i) => {
        const expected = columns[i] as boolean;
        it(`§5.1 ${robot} ${expected ? "may" : "may not"} fetch ${path}`, () => {
          assert.equal(policy.check(`${SITE}${path}`, robot).allowed, expected);
        });
      });
    }
    it("§5.1 foobot: the longer Allow beats Disallow:/", () => {
      const d = policy.check(`${SITE}/example/page.html`, "foobot");
      assert.deepEqual([d.line, d.rule], [8, "Allow:/example/page.html"]);
    });
    it("§5.1 *: /publications/ (14 octets) beats *.gif$ (6 octets)", () => {
      const d = policy.check(`${SITE}/publications/cover.gif`, "otherbot");
      assert.deepEqual([d.allowed, d.line], [true, 4]);
    });
    it("§5.1 quxbot: an empty group at the end of the file applies and allows everything", () => {
      const d = policy.check(`${SITE}/example/page.html`, "quxbot");
      assert.deepEqual(
        [d.allowed, d.reason, d.basis, d.group?.lines],
        [true, "default", "no-matching-rule", [15]],
      );
    });
    it("§5.1 barbot and bazbot share one group", () => {
      assert.equal(policy.check(`${SITE}/example/page.html`, "barbot").line, 13);
      assert.equal(policy.check(`${SITE}/example/page.html`, "bazbot").line, 13);
    });
  });
}

describe("RFC 9309 §5.2 longest match", () => {
  const FILE = `User-Agent: foobot
Allow: /example/page/
Disallow: /example/page/disallowed.gif
`;
  const REVERSED = `User-Agent: foobot
Disallow: /example/page/disallowed.gif
Allow: /example/page/
`;
  // §5.2: the Disallow line decides for /example/page/disallowed.gif. (The RFC's prose writes
  // the URI as .../disallow.gif, which that pattern does not match; only Allow matches it.)
  const CASES: readonly [path: string, allowed: boolean, rule: string | null][] = [
    ["/example/page/disallowed.gif", false, "Disallow: /example/page/disallowed.gif"],
    ["/example/page/disallowed.gif?v=2", false, "Disallow: /example/page/disallowed.gif"],
    ["/example/page/", true, "Allow: /example/page/"],
    ["/example/page/other.gif", true, "Allow: /example/page/"],
    ["/example/page/disallow.gif", true, "Allow: /example/page/"],
    ["/example/", true, null],
  ];
  for (const [name, file] of [
    ["as printed", FILE],
    ["lines reversed", REVERSED],
  ] as const) {
    for (const [path, allowed, rule] of CASES) {
      it(`§5.2 (${name}) foobot ${allowed ? "may" : "may not"} fetch ${path}`, () => {
        const d = parseRobots(file).check(`${SITE}${path}`, "foobot");
        assert.deepEqual([d.allowed, d.rule], [allowed, rule]);
      });
    }
  }
});

describe("DESIGN §3: RFC 9309 details peers get wrong", () => {
  it("RFC 9309 §2.2.2: rules before any User-agent line are ignored", () => {
    const policy = parseRobots("Disallow: /a\nAllow: /b\nUser-agent: *\nDisallow: /b\n");
    assert.equal(policy.check(`${SITE}/a`, "bot").allowed, true);
    const d = policy.check(`${SITE}/b`, "bot");
    assert.deepEqual([d.allowed, d.line], [false, 4]);
    assert.deepEqual(
      policy.diagnostics.filter((x) => x.code === "rule-outside-group").map((x) => x.line),
      [1, 2],
    );
  });
  it("RFC 9309 §2.2.2: a file of only ungrouped rules restricts nothing", () => {
    const d = parseRobots("Disallow: /\n").check(`${SITE}/a`, "bot");
    assert.deepEqual([d.allowed, d.reason, d.basis], [true, "default", "no-group"]);
  });

  // A trailing empty `?` is part of the pattern and of the URL: `Disallow: /a?` blocks the URL
  // `/a?` (which a client sends as `GET /a?`) and not `/a`, however the URL is written.
  const QUERY: readonly [rule: string, url: string | URL, allowed: boolean][] = [
    ["/a?", `${SITE}/a?`, false],
    ["/a?", "/a?", false],
    ["/a?", `${SITE}/a?#top`, false],
    ["/a?", `${SITE}/a?x=1`, false],
    ["/a?", `${SITE}/a`, true],
    ["/a?", "/a", true],
    ["/a?", `${SITE}/a%3F`, true],
    ["/a?", new URL(`${SITE}/a?`), false],
    ["/a?", new URL(`${SITE}/a`), true],
    ["/a?", "https://WWW.EXAMPLE.COM/a?", false],
    ["/ä?", `${SITE}/ä?`, false],
    ["/ä?", `${SITE}/%C3%A4?`, false],
    ["/ä?", "/ä?", false],
    ["/ä?", `${SITE}/ä`, true],
    ["/?", `${SITE}/?`, false],
    ["/?", "https://www.example.com?", false],
    ["/?", `${SITE}/`, true],
  ];
  for (const [rule, url, allowed] of QUERY) {
    const label = typeof url === "string" ? url : `new URL(${JSON.stringify(url.href)})`;
    it(`DESIGN §3 a trailing empty ? is kept: Disallow: ${rule} ${allowed ? "allows" : "blocks"} ${label}`, () => {
      const policy = parseRobots(`User-agent: *\nDisallow: ${rule}\n`);
      assert.equal(policy.check(url, "bot").allowed, allowed);
    });
  }

  const STAR_FIRST: readonly [rule: string, path: string, allowed: boolean][] = [
    ["*.gif$", "/a.gif", false],
    ["*.gif$", "/a/b/c.gif", false],
    ["*.gif$", "/a.gif?x", true],
    ["*private", "/private", false],
    ["*private", "/a/private/b", false],
    ["*private", "/public", true],
    ["*", "/anything", false],
    ["*", "/", false],
  ];
  for (const [rule, path, allowed] of STAR_FIRST) {
    it(`DESIGN §3 a pattern may start with *: Disallow: ${rule} ${allowed ? "allows" : "blocks"} ${path}`, () => {
      const policy = parseRobots(`User-agent: *\nDisallow: ${rule}\n`);
      assert.equal(policy.check(`${SITE}${path}`, "bot").allowed, allowed);
    });
  }

  // RFC 9309 §2.2.2: percent-encoded unreserved characters are decoded before matching; reserved
  // ones (`%2F`, `%3F`) are not.
  const UNRESERVED: readonly [rule: string, path: string, allowed: boolean][] = [
    ["/~joe/", "/%7Ejoe/index.html", false],
    ["/~joe/", "/%7ejoe/index.html", false],
    ["/%7Ejoe/", "/~joe/index.html", false],
    ["/ABC", "/%41%42%43", false],
    ["/a-b_c.d", "/a%2Db%5Fc%2Ed", false],
    ["/%61%62%63", "/abc", false],
    ["/a/b", "/a%2Fb", true],
    ["/a%2Fb", "/a/b", true],
    ["/a?b", "/a%3Fb", true],
  ];
  for (const [rule, path, allowed] of UNRESERVED) {
    it(`RFC 9309 §2.2.2 Disallow: ${rule} ${allowed ? "allows" : "blocks"} ${path}`, () => {
      const policy = parseRobots(`User-agent: *\nDisallow: ${rule}\n`);
      assert.equal(policy.check(`${SITE}${path}`, "bot").allowed, allowed);
    });
  }

  // DESIGN §3: a User-agent value is matched whole; `MJ12bot` does not name a robot called `MJ`.
  const WHOLE: readonly [robot: string, named: boolean][] = [
    ["MJ", false],
    ["mj", false],
    ["MJ12", false],
    ["MJ12bot", true],
    ["mj12bot", true],
    ["MJ12bot/v1.4.8 (http://mj12bot.com/)", true],
    ["MJ12bot-extra", false],
  ];
  for (const [robot, named] of WHOLE) {
    it(`DESIGN §3 User-agent: MJ12bot ${named ? "names" : "does not name"} the robot ${robot}`, () => {
      const d = parseRobots("User-agent: MJ12bot\nDisallow: /\n").check(`${SITE}/x`, robot);
      assert.deepEqual([d.allowed, d.reason], named ? [false, "rule"] : [true, "default"]);
    });
  }

  // A trailing `*` after a name ends the token, as google/robotstxt reads it (it stops at the
  // first character outside [A-Za-z_-]); digits stay in the token (DESIGN §3).
  const STARRED: readonly [value: string, robot: string, named: boolean][] = [
    ["barbarbot*", "barbarbot", true],
    ["barbarbot*", "BarBarBot/1.0", true],
    ["BarBarBot*", "barbarbot", true],
    ["barbarbot*", "barbarbot-prod", false],
    ["barbarbot*", "barbar", false],
    ["barbarbot**", "barbarbot", true],
    ["MJ12bot*", "MJ12bot", true],
    ["MJ12bot*", "MJ", false],
    ["*bot", "bot", false],
  ];
  for (const [value, robot, named] of STARRED) {
    it(`google/robotstxt reading: User-agent: ${value} ${named ? "names" : "does not name"} the robot ${robot}`, () => {
      const policy = parseRobots(`User-agent: ${value}\nDisallow: /\n\nUser-agent: *\nAllow: /\n`);
      const d = policy.check(`${SITE}/x`, robot);
      assert.deepEqual([d.allowed, d.line], named ? [false, 2] : [true, 5]);
    });
  }

  // RFC 9309 §2.2.1: the product token is a substring of the User-Agent header; heed reduces the
  // whole header to it.
  const HEADERS: readonly [header: string, token: string][] = [
    ["ExampleBot", "ExampleBot"],
    ["ExampleBot/0.1", "ExampleBot"],
    ["ExampleBot/0.1 (+https://www.example.com/bot.html)", "ExampleBot"],
    ["Mozilla/5.0 (compatible; ExampleBot/0.1; https://www.example.com/bot.html)", "ExampleBot"],
    ["  ExampleBot/2.0 libwww-perl/6.0  ", "ExampleBot"],
  ];
  for (const [header, token] of HEADERS) {
    it(`RFC 9309 §2.2.1 the header ${JSON.stringify(header)} is the robot ${token}`, () => {
      assert.equal(productToken(header), token);
      const d = parseRobots("User-agent: examplebot\nDisallow: /x\n").check(`${SITE}/x`, header);
      assert.deepEqual([d.allowed, d.agent], [false, token]);
    });
  }
});
