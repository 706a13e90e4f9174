/**
 * A policy finds the deciding rule two ways (selection.ts): its first questions scan the rules
 * as written, later ones use the rules in deciding order. Both must name the same line for
 * every path, in RFC 9309 (longest match, Allow on a tie, the earlier line between equals) and
 * Koster 1996 (first match in file order).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { buildWebCorpus } from "../../../bench/web-corpus.js";
import { type Decision, parseRobots } from "../../../src/protocol/robots/index.js";

function shape(d: Decision): readonly unknown[] {
  return [d.allowed, d.reason, d.line, d.rule, d.basis];
}

/** The answer a policy gives on its first question, and the one it gives once its rules are ordered. */
function bothWays(text: string, path: string, agent: string, dialect: "rfc9309" | "koster1996") {
  const fresh = parseRobots(text, { dialect }).check(path, agent);
  const warm = parseRobots(text, { dialect });
  // Enough questions first that the rules are ordered before the one compared.
  for (let i = 0; i < 4; i++) warm.check("/warm-up", agent);
  return { scanned: shape(fresh), ordered: shape(warm.check(path, agent)) };
}

const PATTERN_PIECES = ["/", "/a", "/ab", "/a/", "b", "*", "$", "%61", "%2F", "?", "=1", "é", "."];
const PATHS = ["/", "/a", "/ab", "/a/", "/a/b", "/ab/a", "/a?x=1", "/a%2Fb", "/aa", "/b.", "/é"];

describe("scanned and ordered rules decide alike", () => {
  for (const dialect of ["rfc9309", "koster1996"] as const) {
    it(`${dialect}: random groups, ties of length and kind included`, () => {
      const rule = fc
        .tuple(
          fc.constantFrom("Allow", "Disallow"),
          fc.array(fc.constantFrom(...PATTERN_PIECES), { minLength: 1, maxLength: 4 }),
        )
        .map(([key, pieces]) => `${key}: ${pieces.join("")}`);
      fc.assert(
        fc.property(
          // Up to 80 rules in the merged `*` groups: large groups are ordered by counting.
          fc.array(rule, { minLength: 1, maxLength: 40 }),
          fc.array(rule, { maxLength: 6 }),
          fc.constantFrom(...PATHS),
          fc.constantFrom("bot", "other"),
          (first, second, path, agent) => {
            const text = `User-agent: *\n${first.join("\n")}\nUser-agent: bot\n${second.join("\n")}\nUser-agent: *\n${first.join("\n")}\n`;
            const { scanned, ordered } = bothWays(text, path, agent, dialect);
            assert.deepEqual(scanned, ordered, `${text}\n${path} as ${agent}`);
          },
        ),
        { numRuns: 400 },
      );
    });
  }

  it("every query of a slice of the web-shaped benchmark corpus", () => {
    for (const f of buildWebCorpus(0x5e1e, 150)) {
      const text = new TextDecoder().decode(f.bytes);
      for (const q of f.queries.slice(0, 20)) {
        const { scanned, ordered } = bothWays(text, q.url, q.agent, "rfc9309");
        assert.deepEqual(scanned, ordered, `${f.name}: ${q.url} as ${q.agent}`);
      }
    }
  });

  it("a large group with a pattern thousands of characters long is ordered alike", () => {
    const long = `/a${"b".repeat(5000)}`;
    const rules = Array.from({ length: 40 }, (_, i) =>
      i % 3 === 0 ? `Allow: /a${"*".repeat(i % 5)}b` : `Disallow: /a${"b".repeat(i)}`,
    );
    const text = `User-agent: *\n${rules.join("\n")}\nDisallow: ${long}\nAllow: ${long}\n`;
    for (const path of ["/a", "/ab", `/a${"b".repeat(20)}`, `${long}c`]) {
      const { scanned, ordered } = bothWays(text, path, "bot", "rfc9309");
      assert.deepEqual(scanned, ordered, path);
    }
    assert.deepEqual(bothWays(text, `${long}c`, "bot", "rfc9309").ordered[2], 43);
  });

  it("equal lengths: Allow wins, and between two of a kind the earlier line is named", () => {
    const text = "User-agent: *\nDisallow: /ab\nDisallow: /a*\nAllow: /a$\nAllow: /*b\n";
    const { scanned, ordered } = bothWays(text, "/ab", "bot", "rfc9309");
    assert.deepEqual(scanned, ordered);
    assert.deepEqual(scanned, [true, "rule", 5, "Allow: /*b", undefined]);
  });
});
