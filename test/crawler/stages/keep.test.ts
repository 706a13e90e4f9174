// keep.ts: the one per-page "keep or not" decision. Robots meta and X-Robots-Tag `noindex`
// (Google's and Bing's reading, which heed follows: fetched, links followed, not kept).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keepPage } from "../../../src/crawler/stages/keep.js";

describe("keepPage", () => {
  const table: [string, boolean, boolean, boolean][] = [
    ["no signal: kept", false, false, true],
    ["X-Robots-Tag noindex: not kept", true, false, false],
    ["meta robots noindex: not kept", false, true, false],
    ["both: not kept", true, true, false],
  ];
  for (const [name, headerNoindex, metaNoindex, keep] of table)
    it(name, () => assert.equal(keepPage({ headerNoindex, metaNoindex }).keep, keep));

  it("says why a page is not kept", () => {
    assert.deepEqual(keepPage({ headerNoindex: true, metaNoindex: false }), {
      keep: false,
      why: "X-Robots-Tag: noindex",
      outcome: "fetched-noindex",
    });
  });

  it("does not keep a page whose usage preferences refuse the crawl's purpose", () => {
    const why = "usage: train-ai refused by robots.txt line 3: Content-Usage: train-ai=n";
    assert.deepEqual(keepPage({ headerNoindex: false, metaNoindex: false, usageRefused: why }), {
      keep: false,
      why,
      outcome: "fetched-usage-refused",
    });
  });

  it("logs noindex before a usage refusal when both apply", () => {
    const decision = keepPage({ headerNoindex: false, metaNoindex: true, usageRefused: "usage" });
    assert.equal(decision.keep === false && decision.outcome, "fetched-noindex");
  });
});
