// seeds/004 (draft-koster-robots-00): the fict.org matrix of §4 and the path table of §3.2.2.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { canonicalize, type Dialect, PathPattern, parseRobots } from "../../../src/index.js";
import { FICT_ORG, FICT_ORG_MATRIX as MATRIX } from "../../fixtures/fict-org.js";

// The robots of the example send these User-Agent headers (seeds/004 §4).
const ROBOTS: readonly [string, number][] = [
  ["UnhipBot/0.1", 1],
  ["WebCrawler/3.0", 2],
  ["Excite/1.0", 2],
  ["FigTree/0.1 Robot libwww-perl/5.04", 3],
];

for (const dialect of ["koster1996", "rfc9309"] as const satisfies readonly Dialect[]) {
  describe(`seeds/004 §4 fict.org matrix under ${dialect}`, () => {
    const policy = parseRobots(FICT_ORG, { dialect });
    for (const [agent, column] of ROBOTS) {
      for (const row of MATRIX) {
        const [url] = row;
        const expected = row[column] as boolean;
        it(`${agent} ${expected ? "may" : "may not"} fetch ${url}`, () => {
          const decision = policy.check(url, agent);
          assert.equal(decision.allowed, expected);
          assert.equal(decision.dialect, dialect);
        });
      }
    }
  });
}

describe("seeds/004 §4 explanations", () => {
  const policy = parseRobots(FICT_ORG, { dialect: "koster1996" });
  it("names the first matching line", () => {
    const d = policy.check("http://www.fict.org/org/plans.html", "other");
    assert.deepEqual([d.reason, d.line, d.rule], ["rule", 12, "Disallow: /org/plans.html"]);
    assert.deepEqual(d.group, { agents: ["*"], lines: [11] });
  });
  it("an empty Disallow allows all, with no deciding line", () => {
    const d = policy.check("http://www.fict.org/org/plans.html", "Excite/1.0");
    assert.deepEqual(
      [d.allowed, d.reason, d.basis, d.line],
      [true, "default", "no-matching-rule", null],
    );
    assert.deepEqual(d.group?.agents, ["webcrawler", "excite"]);
  });
  it("/robots.txt is always allowed", () => {
    const d = policy.check("http://www.fict.org/robots.txt", "unhipbot");
    assert.deepEqual([d.allowed, d.reason], [true, "robots-txt"]);
  });
});

// seeds/004 §3.2.2: record path, URL path, matches.
const PATH_TABLE: readonly [string, string, boolean][] = [
  ["/tmp", "/tmp", true],
  ["/tmp", "/tmp.html", true],
  ["/tmp", "/tmp/a.html", true],
  ["/tmp/", "/tmp", false],
  ["/tmp/", "/tmp/", true],
  ["/tmp/", "/tmp/a.html", true],
  ["/a%3cd.html", "/a%3cd.html", true],
  ["/a%3Cd.html", "/a%3cd.html", true],
  ["/a%3cd.html", "/a%3Cd.html", true],
  ["/a%3Cd.html", "/a%3Cd.html", true],
  ["/a%2fb.html", "/a%2fb.html", true],
  ["/a%2fb.html", "/a/b.html", false],
  ["/a/b.html", "/a%2fb.html", false],
  ["/a/b.html", "/a/b.html", true],
  ["/%7ejoe/index.html", "/~joe/index.html", true],
  ["/~joe/index.html", "/%7Ejoe/index.html", true],
];

for (const wildcards of [false, true]) {
  describe(`seeds/004 §3.2.2 path table (${wildcards ? "RFC 9309" : "Koster"} patterns)`, () => {
    for (const [record, path, expected] of PATH_TABLE) {
      it(`${record} ${expected ? "matches" : "does not match"} ${path}`, () => {
        assert.equal(new PathPattern(record, { wildcards }).matches(canonicalize(path)), expected);
      });
    }
  });
  describe(`seeds/004 §3.2.2 path table through a whole file (${wildcards ? "rfc9309" : "koster1996"})`, () => {
    for (const [record, path, expected] of PATH_TABLE) {
      it(`Disallow: ${record} ${expected ? "blocks" : "does not block"} ${path}`, () => {
        const policy = parseRobots(`User-agent: *\nDisallow: ${record}\n`, {
          dialect: wildcards ? "rfc9309" : "koster1996",
        });
        assert.equal(policy.check(`http://example.com${path}`, "bot").allowed, !expected);
      });
    }
  });
}

describe("seeds/004 §3.2.1 group choice", () => {
  const file = `User-agent: figtree-old
Disallow: /old

User-agent: FigTree
Disallow: /fig

User-agent: *
Disallow: /
`;
  const policy = parseRobots(file, { dialect: "koster1996" });
  it("the first record whose value contains the name token wins, case-insensitively", () => {
    const d = policy.check("http://x/old", "FigTree/0.1 Robot libwww-perl/5.04");
    assert.equal(d.allowed, false);
    assert.deepEqual(d.group?.agents, ["figtree-old"]);
  });
  it("a robot named in no record obeys the first * record", () => {
    assert.equal(policy.check("http://x/anything", "Other/1.0").allowed, false);
  });
  it("without any * record, a robot named nowhere is unrestricted", () => {
    const only = parseRobots("User-agent: a\nDisallow: /\n", { dialect: "koster1996" });
    assert.deepEqual(only.check("http://x/", "b").basis, "no-group");
  });
  it("the first matching line decides, not the longest", () => {
    const p = parseRobots("User-agent: *\nDisallow: /a\nAllow: /a/b\n", { dialect: "koster1996" });
    assert.equal(p.check("/a/b/c", "x").allowed, false);
    const r = parseRobots("User-agent: *\nDisallow: /a\nAllow: /a/b\n", { dialect: "rfc9309" });
    assert.equal(r.check("/a/b/c", "x").allowed, true);
  });
  it("Koster patterns have no wildcards: * and $ are literal", () => {
    const p = parseRobots("User-agent: *\nDisallow: /*.gif$\n", { dialect: "koster1996" });
    assert.equal(p.check("/a.gif", "x").allowed, true);
    assert.equal(p.check("/*.gif$", "x").allowed, false);
  });
});

describe("Robot-version selects the dialect (DESIGN §3)", () => {
  it("Robot-version: 2.0 is Koster 1996", () => {
    const p = parseRobots("Robot-version: 2.0\nUser-agent: *\nDisallow: /a\nAllow: /a/b\n");
    assert.equal(p.dialect, "koster1996");
    assert.equal(p.check("/a/b", "x").allowed, false);
  });
  it("Robot-version: 1.0 ignores Allow lines", () => {
    const p = parseRobots("Robot-version: 1.0\nUser-agent: *\nAllow: /a\nDisallow: /\n");
    assert.equal(p.dialect, "koster1996");
    const d = p.check("/a", "x");
    assert.deepEqual([d.allowed, d.line], [false, 4]);
  });
  it("no Robot-version is RFC 9309", () => {
    assert.equal(parseRobots("User-agent: *\n").dialect, "rfc9309");
  });
  it("a dialect asked for overrides the file", () => {
    assert.equal(parseRobots("Robot-version: 2.0\n", { dialect: "rfc9309" }).dialect, "rfc9309");
  });
});
