/**
 * A policy puts a robot's rules in deciding order and takes the first that matches
 * (selection.ts). Held here to the rules as the file has them, read as the dialect says: RFC
 * 9309 (the longest match, Allow on a tie, the earlier line between equals) and Koster 1996 (the
 * first match in file order).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { buildWebCorpus } from "../../../bench/web-corpus.js";
import {
  type Decision,
  parseRobots,
  productToken,
  requestPath,
  type Rule,
} from "../../../src/protocol/robots/index.js";

function shape(d: Decision): readonly unknown[] {
  return [d.allowed, d.reason, d.line, d.rule, d.basis];
}

/** The deciding rule among `rules` (in file order), as the dialect reads them. */
function reference(rules: readonly Rule[], path: string, longest: boolean): Rule | null {
  let best: Rule | null = null;
  for (const rule of rules) {
    if (!rule.matches(path)) continue;
    if (!longest) return rule;
    if (
      best === null ||
      rule.specificity > best.specificity ||
      (rule.specificity === best.specificity && rule.allow && !best.allow)
    )
      best = rule;
  }
  return best;
}

/** The policy's answer, and the answer the reference gives from the groups the policy chose. */
function bothWays(text: string, rawPath: string, agent: string, dialect: "rfc9309" | "koster1996") {
  const policy = parseRobots(text, { dialect });
  // Questions before, so that the one compared is not the first.
  for (let i = 0; i < 3; i++) policy.check("/warm-up", agent);
  const decision = policy.check(rawPath, agent);
  const selection = policy.select(productToken(agent));
  const rules = selection.groups.flatMap((g) => g.rules);
  const path = requestPath(rawPath);
  assert.ok(path.ok);
  const rule = reference(rules, path.path, dialect === "rfc9309");
  // RFC 9309 §2.2.2: /robots.txt itself is always allowed.
  const itself = path.path === "/robots.txt" || path.path.startsWith("/robots.txt?");
  const expected = itself
    ? [true, "robots-txt", null, null, undefined]
    : selection.group === null
      ? [true, "default", null, null, "no-group"]
      : rule === null
        ? [true, "default", null, null, "no-matching-rule"]
        : [rule.allow, "rule", rule.line, rule.text, undefined];
  return { scanned: expected, ordered: shape(decision) };
}

const PATTERN_PIECES = ["/", "/a", "/ab", "/a/", "b", "*", "$", "%61", "%2F", "?", "=1", "é", "."];
const PATHS = ["/", "/a", "/ab", "/a/", "/a/b", "/ab/a", "/a?x=1", "/a%2Fb", "/aa", "/b.", "/é"];
/** An Allow or Disallow line whose pattern is one to four of {@link PATTERN_PIECES}. */
const ruleLine = fc
  .tuple(
    fc.constantFrom("Allow", "Disallow"),
    fc.array(fc.constantFrom(...PATTERN_PIECES), { minLength: 1, maxLength: 4 }),
  )
  .map(([key, pieces]) => `${key}: ${pieces.join("")}`);

describe("ordered rules decide as the rules in file order read by the dialect", () => {
  for (const dialect of ["rfc9309", "koster1996"] as const) {
    it(`${dialect}: random groups, ties of length and kind included`, () => {
      fc.assert(
        fc.property(
          // Up to 80 rules in the merged `*` groups: large groups are ordered by counting.
          fc.array(ruleLine, { minLength: 1, maxLength: 40 }),
          fc.array(ruleLine, { maxLength: 6 }),
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

  // selection.ts: a group of 24 rules or more is searched by the character its rules need at
  // index 1, in two chains merged in deciding order; a rule needing none (`/`, `*x`) is in
  // every search, and one needing a character past ASCII sends the group back to a plain pass.
  for (const dialect of ["rfc9309", "koster1996"] as const) {
    it(`${dialect}: large groups searched by their second character decide as in file order`, () => {
      const SECONDS = ["a", "b", "c", "", "*", "%61", "%2F", "?", "$", "é", "A"];
      const rule = fc
        .tuple(
          fc.constantFrom("Allow", "Disallow"),
          fc.constantFrom(...SECONDS),
          fc.constantFrom("", "a", "b/", "*b", "$", "c?x"),
        )
        .map(([key, second, rest]) => `${key}: /${second}${rest}`);
      const path = fc
        .tuple(
          fc.constantFrom("/", "/a", "/b", "/c", "/?", "/A", "/é", "/%2F"),
          fc.constantFrom("", "a", "b/", "x", "?x", "c?x"),
        )
        .map(([head, tail]) => head + tail);
      fc.assert(
        fc.property(fc.array(rule, { minLength: 24, maxLength: 120 }), path, (rules, url) => {
          const text = `User-agent: *\n${rules.join("\n")}\n`;
          const { scanned, ordered } = bothWays(text, url, "bot", dialect);
          assert.deepEqual(scanned, ordered, `${text}\n${url}`);
        }),
        { numRuns: 300 },
      );
    });
  }

  it("equal lengths: Allow wins, and between two of a kind the earlier line is named", () => {
    const text = "User-agent: *\nDisallow: /ab\nDisallow: /a*\nAllow: /a$\nAllow: /*b\n";
    const { scanned, ordered } = bothWays(text, "/ab", "bot", "rfc9309");
    assert.deepEqual(scanned, ordered);
    assert.deepEqual(scanned, [true, "rule", 5, "Allow: /*b", undefined]);
  });
});

describe("isAllowed answers as check(…).allowed, without building the decision", () => {
  const URLS = [
    ...PATHS,
    "/robots.txt",
    "/robots.txt?x",
    "https://example.com/a/b",
    "https://other.example/a",
    "",
    "http://",
    "/a/./b",
  ];
  it("random files, robots and URLs, on a fresh policy and a queried one", () => {
    fc.assert(
      fc.property(
        fc.array(ruleLine, { maxLength: 12 }),
        fc.constantFrom("", "Robot-version: 1.0\n", "Robot-version: 3.0\n"),
        fc.array(fc.tuple(fc.constantFrom(...URLS), fc.constantFrom("bot", "other/1.0")), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.boolean(),
        (rules, header, queries, withOrigin) => {
          const text = `${header}User-agent: bot\n${rules.join("\n")}\nUser-agent: *\nDisallow: /a\n`;
          const options = withOrigin ? { origin: "https://example.com" } : {};
          const asked = parseRobots(text, options);
          const checked = parseRobots(text, options);
          for (const [url, agent] of queries) {
            assert.equal(
              asked.isAllowed(url, agent),
              checked.check(url, agent).allowed,
              `${text}\n${url} as ${agent}`,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a robot with a time takes the Visit-time into account, as check does", () => {
    const policy = parseRobots("User-agent: *\nVisit-time: 0100-0200\nAllow: /\n");
    const at = Date.parse("2024-01-01T05:00:00Z");
    const robot = { agent: "bot", at };
    assert.equal(policy.isAllowed("/a", robot), policy.check("/a", robot).allowed);
    assert.equal(policy.isAllowed("/a", robot), false);
  });
});
