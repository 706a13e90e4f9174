// discover.ts: why a URL a page handler asks to queue is refused before its site's rules are
// read. (What robots.txt refuses is checked by the integration tests, against logged sites.)
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { enqueueRefusal } from "../../../src/crawler/stages/discover.js";

type Ask = Parameters<typeof enqueueRefusal>[0];

describe("enqueueRefusal", () => {
  const ok: Ask = {
    link: "https://a.example/x",
    depth: 1,
    maxDepth: 5,
    inReach: true,
    priority: undefined,
  };
  const table: [string, Partial<Ask>, string | null][] = [
    ["a URL in reach: queued", {}, null],
    ["not http(s)", { link: null }, "not an http(s) URL"],
    ["past the depth", { depth: 6 }, "depth 6 is past the crawl's maximum depth 5"],
    ["at the depth: queued", { depth: 5 }, null],
    ["out of scope", { inReach: false }, "out of the crawl's scope"],
    ["a NaN priority", { priority: Number.NaN }, "priority is not a finite number"],
    [
      "an infinite priority",
      { priority: Number.POSITIVE_INFINITY },
      "priority is not a finite number",
    ],
    ["a negative priority: queued", { priority: -5 }, null],
  ];
  for (const [name, change, reason] of table)
    it(name, () => assert.equal(enqueueRefusal({ ...ok, ...change }), reason));
});
