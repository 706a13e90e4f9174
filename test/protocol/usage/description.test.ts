// One description, every form: what heed writes from it reads back, through heed's own readers,
// as the description says (property test), and bad descriptions are refused with the field named.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseRobots } from "../../../src/protocol/robots/index.js";
import {
  describedPreferences,
  readUsageDescription,
  robotsUsageLines,
  tdmRepRules,
} from "../../../src/protocol/usage/description.js";
import {
  CATEGORIES,
  readTdmRepJson,
  tdmAnswer,
  usageFor,
} from "../../../src/protocol/usage/index.js";

const value = fc.constantFrom("y", "n", undefined);
const prefs = fc.record(
  { search: value, "train-ai": value, "ai-input": value },
  { requiredKeys: [] },
);
const clean = (p: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
const PATHS = ["/a/", "/a/b/", "/b", "/a/b/c.html", "/c/"];
const description = fc
  .tuple(
    prefs,
    fc.uniqueArray(fc.tuple(fc.constantFrom(...PATHS), prefs), {
      selector: ([p]) => p,
      maxLength: 4,
    }),
  )
  .map(([d, paths]) =>
    JSON.stringify({ default: clean(d), paths: paths.map(([path, p]) => ({ path, ...clean(p) })) }),
  );
const URLS = ["/", "/a/", "/a/x", "/a/b/", "/a/b/c.html", "/b", "/bb", "/c/d", "/z"];

describe("usage description", () => {
  it("the robots.txt lines written from it read back as it says, for every URL", () => {
    fc.assert(
      fc.property(description, fc.constantFrom(...URLS), (text, url) => {
        const read = readUsageDescription(text);
        assert.ok(read.ok);
        const robots = parseRobots(
          ["User-agent: *", ...robotsUsageLines(read.description)].join("\n"),
        );
        const answer = usageFor({ url, agent: "bot", robots });
        const want = describedPreferences(read.description, url);
        for (const c of CATEGORIES)
          assert.equal(answer.categories[c].value, want[c] ?? "unknown", `${c} ${url} ${text}`);
      }),
      { numRuns: 500 },
    );
  });

  it("the tdmrep.json written from it reserves exactly where training or AI input is refused", () => {
    fc.assert(
      fc.property(description, fc.constantFrom(...URLS), (text, url) => {
        const read = readUsageDescription(text);
        assert.ok(read.ok);
        const file = readTdmRepJson(JSON.stringify(tdmRepRules(read.description)));
        assert.equal(file.diagnostics.length, 0);
        const want = describedPreferences(read.description, url);
        const got = tdmAnswer({ file, url }).reservation;
        const refused = want["train-ai"] === "disallowed" || want["ai-input"] === "disallowed";
        if (refused) assert.equal(got, 1);
        else if (want["train-ai"] === "allowed") assert.equal(got, 0);
      }),
      { numRuns: 500 },
    );
  });

  // Paths of one length that match the same URL, and one path written twice: the robots.txt
  // lines let a refusal win between them, so the description, its header and tdmrep.json must.
  const TIED = ["/;", "/*", "/a", "/a", "/*a", "/a*", "/"];
  const tied = fc
    .tuple(prefs, fc.array(fc.tuple(fc.constantFrom(...TIED), prefs), { maxLength: 4 }))
    .map(([d, paths]) =>
      JSON.stringify({
        default: clean(d),
        paths: paths.map(([path, p]) => ({ path, ...clean(p) })),
      }),
    );
  const TIED_URLS = ["/", "/;", "/;/x", "/a", "/ab", "/ba", "/x"];

  it("paths of one length read back as the robots.txt lines and tdmrep.json say", () => {
    fc.assert(
      fc.property(tied, fc.constantFrom(...TIED_URLS), (text, url) => {
        const read = readUsageDescription(text);
        assert.ok(read.ok);
        const robots = parseRobots(
          ["User-agent: *", ...robotsUsageLines(read.description)].join("\n"),
        );
        const answer = usageFor({ url, agent: "bot", robots });
        const want = describedPreferences(read.description, url);
        for (const c of CATEGORIES)
          assert.equal(answer.categories[c].value, want[c] ?? "unknown", `${c} ${url} ${text}`);
        const file = readTdmRepJson(JSON.stringify(tdmRepRules(read.description)));
        const got = tdmAnswer({ file, url }).reservation;
        if (want["train-ai"] === "disallowed" || want["ai-input"] === "disallowed")
          assert.equal(got, 1, `${url} ${text}`);
        else if (want["train-ai"] === "allowed") assert.equal(got, 0, `${url} ${text}`);
      }),
      { numRuns: 1000 },
    );
  });

  it("two paths of one length that differ: the refusal wins, whichever was written first", () => {
    for (const paths of [
      [
        { path: "/;", search: "y" },
        { path: "/*", search: "n" },
      ],
      [
        { path: "/*", search: "n" },
        { path: "/;", search: "y" },
      ],
      [
        { path: "/", "train-ai": "y" },
        { path: "/", "train-ai": "n" },
      ],
    ]) {
      const read = readUsageDescription(JSON.stringify({ paths }));
      assert.ok(read.ok);
      const field = paths[0]?.path === "/" ? "train-ai" : "search";
      assert.equal(describedPreferences(read.description, "/;x")[field], "disallowed");
    }
  });

  const bad: readonly [string, RegExp][] = [
    ["[]", /expected an object/],
    ['{"default":{"train-ai":"maybe"}}', /default\.train-ai: expected "y" or "n"/],
    ['{"paths":[{"train-ai":"n"}]}', /paths\[0\]: "path" is required/],
    ['{"paths":[{"path":"x","train-ai":"n"}]}', /paths\[0\]\.path/],
    ['{"paths":[{"path":"/a b","train-ai":"n"}]}', /without blanks/],
    ['{"default":{"bulk":"n"}}', /unknown field "bulk"/],
    ['{"defaults":{}}', /unknown field "defaults"/],
    ['{"default":{"tdm-policy":"javascript:x"}}', /http\(s\) URL/],
    ["{", /not JSON/],
  ];
  for (const [text, error] of bad) {
    it(`refuses ${text}`, () => {
      const read = readUsageDescription(text);
      assert.equal(read.ok, false);
      if (!read.ok) assert.match(read.error, error);
    });
  }
});
