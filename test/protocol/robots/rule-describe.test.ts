// A rule's first look (RuleTable.describe) reads its value in place and tells the query loop
// what it needs: a plain path is a prefix, never compiled; a pattern canonical as written but
// for `*` and a final `$` is compiled only when a path first gets past its mask; any other
// is compiled at once. What it finds must be what PathPattern finds (RFC 9309 §2.2.2, §2.2.3),
// for the query loop passes rules over by the mask and second character it writes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { PathPattern, type PatternOptions } from "../../../src/protocol/robots/path-pattern.js";
import { parseRobots } from "../../../src/protocol/robots/policy.js";
import { PLAIN, RuleTable, TO_COMPILE, WILDCARD } from "../../../src/protocol/robots/rule-table.js";

const RFC: PatternOptions = { wildcards: true, ignoreCase: false };
const KOSTER: PatternOptions = { wildcards: false, ignoreCase: false };

// Characters that make each kind: canonical ones, the two wildcards, and ones to encode or
// decode (`%`, non-ASCII, `<`, upper case hex after `%`).
const CHARS = ["/", "a", "b", "Z", ".", "?", "=", "-", "*", "$", "%", "2", "F", "é", "<", "|"];
const value = fc
  .array(fc.constantFrom(...CHARS), { minLength: 0, maxLength: 12 })
  .map((chars) => `/${chars.join("")}`);

/** A table over `Disallow: <source>`, read in place, and what describe finds of its one rule. */
function described(source: string, options: PatternOptions) {
  const table = new RuleTable(`Disallow: ${source}\n`);
  table.add(false, 1, options, 0);
  table.finish();
  const out = new Int32Array([7, 7]);
  const kind = table.describe(0, out, 0);
  return { table, kind, mask: out[0], second: out[1] };
}

describe("rule table: a rule's first look", () => {
  it("agrees with PathPattern on the kind, mask, second character and specificity", () => {
    fc.assert(
      fc.property(value, fc.constantFrom(RFC, KOSTER), (source, options) => {
        const { table, kind, mask, second } = described(source, options);
        const pattern = new PathPattern(source, options);
        if (kind === TO_COMPILE) {
          // Something in it needs canonicalizing: its canonical form differs, or it holds `%`.
          assert.ok(pattern.canonical !== source || source.includes("%"), source);
          assert.equal(mask, 7, "nothing written");
          return;
        }
        assert.equal(pattern.canonical, source);
        assert.equal(kind === WILDCARD, pattern.isWildcard, source);
        assert.equal(kind === PLAIN, table.plain(0), source);
        assert.equal(mask, pattern.mask, `${source}: mask`);
        assert.equal(second, pattern.second, `${source}: second`);
        assert.equal(table.plainLength(0), pattern.specificity, `${source}: specificity`);
        assert.equal(table.compile(0).canonical, source);
      }),
      { numRuns: 3000 },
    );
  });

  it("a line the line reader read is compiled, even once found plain, and keeps its line", () => {
    const table = new RuleTable("");
    table.add(true, 2 ** 27 + 5, RFC, -1, { value: "/plain/", text: "Allow /plain/" });
    table.finish();
    assert.equal(table.plain(0), true);
    assert.equal(table.describe(0, new Int32Array(2), 0), TO_COMPILE);
    assert.equal(table.plain(0), false);
    assert.equal(table.describe(0, new Int32Array(2), 0), TO_COMPILE);
    assert.equal(table.line(0), 2 ** 27 + 5);
    assert.equal(table.allow(0), true);
    assert.equal(table.compile(0).matches("/plain/x"), true);
  });

  it("answers from lines without a colon beside in-place wildcards (RFC 9309 §2.2.2)", () => {
    const policy = parseRobots(
      new TextEncoder().encode("User-agent: *\nDisallow /a\nAllow /a/b*\nDisallow: /*.pdf$\n"),
    );
    const asked = ["/a", "/a/b", "/a/bc", "/x.pdf", "/x.pdfx", "/b"].map((path) => {
      const d = policy.check(`https://example.com${path}`, "bot");
      return [path, d.allowed, d.line];
    });
    assert.deepEqual(asked, [
      ["/a", false, 2],
      ["/a/b", true, 3],
      ["/a/bc", true, 3],
      ["/x.pdf", false, 4],
      ["/x.pdfx", true, null],
      ["/b", true, null],
    ]);
  });

  it("a large group's wildcard rules, compiled when first reached, answer as the small's", () => {
    // 30 rules: past the size at which a group's rules are chained by their second character.
    const rules = Array.from({ length: 28 }, (_, i) => `Disallow: /d${i}*x$`);
    const text = ["User-agent: *", ...rules, "Allow: /*.css", "Disallow: /"].join("\n");
    const policy = parseRobots(new TextEncoder().encode(text));
    const ask = (path: string) => policy.check(`https://example.com${path}`, "bot");
    assert.equal(ask("/d7/ax").allowed, false);
    assert.equal(ask("/d7/ax").line, 9);
    assert.equal(ask("/d7/ay").line, 31);
    assert.equal(ask("/q/a.css").allowed, true);
    assert.equal(ask("/d27/zx").line, 29);
  });
});
