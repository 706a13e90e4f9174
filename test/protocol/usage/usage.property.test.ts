// Property tests of the usage readers: nothing a hostile file or header holds makes them throw,
// what they answer is one of the three values, dictionaries written by a serializer written from
// RFC 9651 §4.1.2 read back as written, and usage lines never change what robots.txt allows.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseRobots } from "../../../src/protocol/robots/index.js";
import {
  CATEGORIES,
  parseDictionary,
  readContentSignal,
  readContentUsage,
  readNoAi,
  readTdmRepJson,
  type UsageSource,
  usageFor,
} from "../../../src/protocol/usage/index.js";

const RUNS = 1000;
const SOURCE: UsageSource = {
  form: "content-usage",
  place: "header",
  line: null,
  name: null,
  text: "",
};
const VALUES = new Set(["allowed", "disallowed", "unknown"]);

// Characters that matter to the grammar, plus anything.
const piece = fc.oneof(
  fc.constantFrom(
    "train-ai",
    "search",
    "=",
    "y",
    "n",
    ",",
    " ",
    ";",
    '"',
    "(",
    ")",
    "?1",
    ":",
    "*",
    '%"',
    "\\",
    "\t",
    "-1.5",
    "@1",
  ),
  fc.string({ maxLength: 4 }),
  fc.string({ unit: "grapheme", maxLength: 3 }),
);
const messy = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(""));

const key = fc
  .tuple(fc.constantFrom(..."abcxyz*"), fc.array(fc.constantFrom(..."az09_-.*"), { maxLength: 6 }))
  .map(([first, rest]) => first + rest.join(""));
const token = fc
  .tuple(fc.constantFrom(..."yYnN*a"), fc.array(fc.constantFrom(..."az:/!#"), { maxLength: 4 }))
  .map(([first, rest]) => first + rest.join(""));

describe("structured dictionary", () => {
  it("never throws, and a failure names an offset inside the input", () => {
    fc.assert(
      fc.property(messy, (text) => {
        const r = parseDictionary(text);
        if (!r.ok) assert.ok(r.offset >= 0 && r.offset <= text.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("reads back key=token members as serialised (last value of a repeated key)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, token), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(",", ", ", " ,\t"),
        (members, sep) => {
          const text = members.map(([k, v]) => `${k}=${v}`).join(sep);
          const r = parseDictionary(text);
          assert.ok(r.ok, text);
          const want = new Map<string, string>();
          for (const [k, v] of members) want.set(k, v);
          assert.deepEqual(
            r.members.map((m) => [m.key, m.text]),
            [...want.entries()],
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("readers never throw and answer one of three values", () => {
  it("Content-Usage", () => {
    fc.assert(
      fc.property(messy, (text) => {
        const r = readContentUsage(text, SOURCE);
        for (const v of Object.values(r.statement.preferences)) assert.ok(VALUES.has(v));
      }),
      { numRuns: RUNS },
    );
  });

  it("Content-Signal", () => {
    fc.assert(
      fc.property(messy, (text) => {
        const r = readContentSignal(text, { ...SOURCE, form: "content-signal" });
        for (const v of Object.values(r.statement.preferences)) assert.ok(VALUES.has(v));
      }),
      { numRuns: RUNS },
    );
  });

  it("noai", () => {
    fc.assert(
      fc.property(messy, fc.string({ maxLength: 5 }), (text, agent) => {
        readNoAi(text, agent);
      }),
      { numRuns: RUNS },
    );
  });

  it("tdmrep.json, as text and as JSON of any shape", () => {
    fc.assert(
      fc.property(fc.oneof(messy, fc.json({ maxDepth: 4 })), (text) => {
        const file = readTdmRepJson(text);
        for (const rule of file.rules)
          assert.ok(rule.reservation === null || rule.reservation === 0 || rule.reservation === 1);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("usage lines in robots.txt", () => {
  const line = fc.oneof(
    fc.constantFrom(
      "User-agent: *",
      "User-agent: bot",
      "Allow: /a",
      "Disallow: /b",
      "Disallow: /",
      "Allow: /b/c",
      "",
      "# c",
    ),
    fc
      .tuple(
        fc.constantFrom(
          "Content-Usage: ",
          "content-usage:",
          "Content-Signal: ",
          "CONTENT-SIGNAL :",
        ),
        fc.oneof(
          messy,
          fc.constantFrom("/a train-ai=n", "search=y", "/ train-ai=y", "ai-train=no"),
        ),
      )
      .map(([k, v]) => k + v),
  );
  const path = fc.constantFrom("/", "/a", "/a/x", "/b", "/b/c/d", "/z");

  it("do not change what is allowed, and the answer is well formed", () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 20 }),
        path,
        fc.constantFrom("bot", "other"),
        (lines, p, agent) => {
          const withUsage = parseRobots(lines.join("\n"));
          const without = parseRobots(
            lines.filter((l) => !/^content-(usage|signal)/i.test(l)).join("\n"),
          );
          assert.equal(withUsage.check(p, agent).allowed, without.check(p, agent).allowed);
          const a = usageFor({ url: p, agent, robots: withUsage });
          for (const c of CATEGORIES) assert.ok(VALUES.has(a.categories[c].value));
          // attach §3.1: a URL the robot may not crawl has no robots.txt preferences.
          if (!withUsage.check(p, agent).allowed) assert.equal(a.statements.length, 0);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
