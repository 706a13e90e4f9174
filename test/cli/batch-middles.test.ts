// The answer middles --batch keeps (src/cli/batch/decision-middles.ts) stay bounded in count
// whatever a file and its robots ask of them, and what they write stays the plain answer's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DecisionMiddles } from "../../src/cli/batch/decision-middles.js";
import { PieceSlab } from "../../src/cli/batch/piece-slab.js";
import { compile, decisionText } from "../../src/cli/check-answer.js";
import { LineBytes } from "../../src/cli/line-bytes.js";

describe("batch answer middles", () => {
  it("many robots each decided by many rules of one file keep at most 16 Ki middles", () => {
    // One group for every robot, 2,000 rules: each (robot, rule) pair is a middle of its own.
    const rules = Array.from({ length: 2_000 }, (_, i) => `Disallow: /r${i}/`).join("\n");
    const compiled = compile(
      { bytes: Buffer.from(`User-agent: *\n${rules}\n`), origin: null, siteWide: null },
      "rfc9309",
    );
    const middles = new DecisionMiddles(false, new PieceSlab());
    const out = new LineBytes();
    let most = 0;
    for (let robot = 0; robot < 20; robot++) {
      for (let i = 0; i < 2_000; i++) {
        const decision = compiled.policy.check(`/r${i}/x`, `bot${robot}`);
        middles.write(out, compiled, "robots.txt", decision);
        assert.equal(out.takeText(), ` [robots.txt] (${decisionText(decision)})`);
        most = Math.max(most, middles.kept);
      }
    }
    assert.ok(most <= 16 * 1024, `${most} middles kept`);
    assert.ok(most >= 2_000, `${most}: the middles of one robot are kept`);
  });
});
