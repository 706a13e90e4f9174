// seeds/001 §3.1.1: Exclude and IncludeOnly are URL patterns in regular-expression syntax, given
// by any registrant and matched by the site against every changed path.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compilePattern, pathFilter } from "../../../src/protocol/rup/patterns.js";

describe("RUP path patterns", () => {
  it("match anywhere in the path unless anchored", () => {
    const cases: [string, string, boolean][] = [
      ["/news/", "/x/news/y.html", true],
      ["^/news/", "/x/news/y.html", false],
      ["\\.pdf$", "/a/b.pdf", true],
      ["\\.pdf$", "/a/b.pdf.html", false],
      ["/(de|fr)/", "/site/fr/page", true],
    ];
    for (const [pattern, path, expected] of cases) {
      const c = compilePattern(pattern);
      assert.ok(c.ok, pattern);
      assert.equal(c.regex.test(path), expected, `${pattern} on ${path}`);
    }
  });

  it("a catastrophic-backtracking pattern is answered on a long path (linear-time engine)", () => {
    // With a backtracking engine this doubles with each "a": 10,000 of them would never end.
    const filter = pathFilter({ kind: "include-only", patterns: ["^/(a+)+$"] });
    assert.equal(filter(`/${"a".repeat(10_000)}!`), false);
    assert.equal(filter(`/${"a".repeat(10_000)}`), true);
  });

  it("refuses back-references and look-around, which the linear-time engine lacks", () => {
    for (const pattern of ["(a)\\1", "a(?=b)", "(?<!x)y"]) {
      const c = compilePattern(pattern);
      assert.equal(c.ok, false, pattern);
      assert.match(c.ok ? "" : c.message, /not a regular expression/);
    }
  });

  it("an exclude filter reports what no pattern matches", () => {
    const filter = pathFilter({ kind: "exclude", patterns: ["^/tmp/", "\\.log$"] });
    assert.deepEqual(
      ["/tmp/a", "/a.log", "/a.html"].map((p) => filter(p)),
      [false, false, true],
    );
  });
});
