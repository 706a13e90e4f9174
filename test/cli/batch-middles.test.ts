// The answer middles --batch keeps (src/cli/batch/decision-middles.ts) stay bounded in count
// whatever a file and its robots ask of them, and what they write stays the plain answer's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AnswerHeads } from "../../src/cli/batch/answer-heads.js";
import { DecisionMiddles } from "../../src/cli/batch/decision-middles.js";
import { compile, decisionText, writeJsonMiddle } from "../../src/cli/check-answer.js";
import { LineBytes } from "../../src/cli/line-bytes.js";

describe("batch answer middles", () => {
  it("many robots each decided by many rules of one file keep at most 16 Ki middles", () => {
    // One group for every robot, 2,000 rules: each (robot, rule) pair is a middle of its own.
    const rules = Array.from({ length: 2_000 }, (_, i) => `Disallow: /r${i}/`).join("\n");
    const compiled = compile(
      { bytes: Buffer.from(`User-agent: *\n${rules}\n`), origin: null, siteWide: null },
      "rfc9309",
    );
    const middles = new DecisionMiddles(false);
    const out = new LineBytes();
    let most = 0;
    for (let robot = 0; robot < 20; robot++) {
      for (let i = 0; i < 2_000; i++) {
        const decision = compiled.policy.check(`/r${i}/x`, `bot${robot}`);
        middles.write(out, compiled, "robots.txt", decision);
        assert.equal(taken(out), ` [robots.txt] (${decisionText(decision)})`);
        most = Math.max(most, middles.kept);
      }
    }
    assert.ok(most <= 16 * 1024, `${most} middles kept`);
    assert.ok(most >= 2_000, `${most}: the middles of one robot are kept`);
  });

  it("JSON middles are the plain answer's fields, one verdict kept per group chosen and line", () => {
    // Robots a file does not name share its `*` group: their verdicts are one piece each.
    const compiled = compile(
      {
        bytes: Buffer.from(
          "User-agent: named\nCrawl-delay: 3\nDisallow: /n\n\nUser-agent: *\nDisallow: /a\nAllow: /a/b\n",
        ),
        origin: null,
        siteWide: null,
      },
      "rfc9309",
    );
    const middles = new DecisionMiddles(true);
    const out = new LineBytes();
    const expected = new LineBytes();
    for (const robot of ["named", "other", "third", "Named/2.0"]) {
      for (const path of ["/a/x", "/a/b", "/n", "/z", "/robots.txt"]) {
        const decision = compiled.policy.check(path, robot);
        middles.write(out, compiled, "r.txt", decision);
        expected.text('"');
        writeJsonMiddle(expected, decision);
        expected.text(',"robots":"r.txt","input":');
        assert.equal(taken(out), taken(expected), `${robot} ${path}`);
      }
    }
    // named: its /n line and no-matching-rule; *: /a, /a/b and no-matching-rule.
    assert.equal(middles.kept, 5);
  });

  it("middles of long rule lines and robots of long names keep at most 8 MiB each", () => {
    // One group for 60 robots, each its own selection, and 200 rules of 2 KB: every robot
    // decided by every rule is a verdict of 2 KB (24 MB in all, within the 500 KiB a file is read).
    const names = Array.from({ length: 60 }, (_, n) => `User-agent: bot${n}`);
    const rules = Array.from({ length: 200 }, (_, i) => `Disallow: /r${i}/${"x".repeat(2000)}`);
    const compiled = compile(
      {
        bytes: Buffer.from(`${names.join("\n")}\n${rules.join("\n")}\n`),
        origin: null,
        siteWide: null,
      },
      "rfc9309",
    );
    for (const json of [true, false]) {
      const middles = new DecisionMiddles(json);
      const out = new LineBytes();
      let most = 0;
      for (let robot = 0; robot < 60; robot++) {
        for (let i = 0; i < 200; i++) {
          const decision = compiled.policy.check(`/r${i}/${"x".repeat(2000)}`, `bot${robot}`);
          assert.equal(decision.line, 61 + i);
          middles.write(out, compiled, "r.txt", decision);
          taken(out);
          most = Math.max(most, middles.keptBytes);
        }
      }
      // One piece past the bound at most.
      assert.ok(most <= 8 * 1024 * 1024 + 64 * 1024, `${json}: ${most} bytes kept`);
      assert.ok(most >= 6 * 1024 * 1024, `${json}: ${most}: the pieces are kept`);
    }
  });

  it("thousands of robots of long names keep at most 4 MiB of token fields across files", () => {
    const compiled = compile(
      { bytes: Buffer.from("User-agent: *\nDisallow: /x\n"), origin: null, siteWide: null },
      "rfc9309",
    );
    const middles = new DecisionMiddles(true);
    const out = new LineBytes();
    const expected = new LineBytes();
    let most = 0;
    for (let robot = 0; robot < 2_000; robot++) {
      // Letters only, so that the whole name is the robot's product token.
      const letters = [robot % 26, (robot / 26) % 26, robot / 676].map((n) => 97 + Math.floor(n));
      const agent = `${String.fromCharCode(...letters)}${"z".repeat(30_000)}`;
      const decision = compiled.policy.check("/x", agent);
      assert.equal(decision.agent, agent);
      const file = `r${robot % 7}.txt`;
      middles.write(out, compiled, file, decision);
      expected.text('"');
      writeJsonMiddle(expected, decision);
      expected.text(`,"robots":"${file}","input":`);
      assert.equal(taken(out), taken(expected));
      most = Math.max(most, middles.keptTokenBytes);
    }
    assert.ok(most <= 4 * 1024 * 1024 + 30_100, `${most} bytes kept`);
    assert.ok(most >= 3 * 1024 * 1024, `${most}: the token fields are kept`);
  });
});

describe("batch answer heads", () => {
  it("thousands of robots of long names keep at most 4 MiB of heads", () => {
    const heads = new AnswerHeads(true);
    let most = 0;
    for (let robot = 0; robot < 2_000; robot++) {
      const agent = `bot${robot}${"z".repeat(30_000)}`;
      const head = Buffer.from(heads.of(agent, robot % 2 === 0)).toString("latin1");
      assert.equal(head, `{"allowed":${robot % 2 === 0},"agent":"${agent}","url":"`);
      most = Math.max(most, heads.keptBytes);
    }
    assert.ok(most <= 4 * 1024 * 1024 + 2 * 30_100, `${most} bytes kept`);
    assert.ok(most >= 3 * 1024 * 1024, `${most}: the heads are kept`);
  });
});

/** What `out` holds, as text; `out` starts afresh. */
function taken(out: LineBytes): string {
  const text = Buffer.from(out.view()).toString("utf8");
  out.clear();
  return text;
}
