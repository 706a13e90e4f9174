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
