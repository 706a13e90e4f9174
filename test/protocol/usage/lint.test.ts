// heed lint on usage preference lines: codes, severities and hints (docs/usage-preferences.md).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lintRobots } from "../../../src/protocol/robots/index.js";

function codes(text: string): string[] {
  return lintRobots(text)
    .findings.filter(
      (f) => f.code.startsWith("usage-") || f.code.startsWith("signal-") || f.code.endsWith("-key"),
    )
    .map((f) => `${f.line}:${f.severity}:${f.code}`);
}

describe("lint: usage preferences", () => {
  it("well-formed lines say nothing, and are not unknown keys", () => {
    assert.deepEqual(
      codes(
        "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /ok/ train-ai=y\nContent-Signal: search=yes, ai-input=no\n",
      ),
      [],
    );
  });

  it("a Content-Usage line outside a group", () => {
    assert.deepEqual(codes("Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n"), [
      "1:warning:usage-outside-group",
    ]);
  });

  it("bad syntax, a bad value, a repeated key", () => {
    assert.deepEqual(codes("User-agent: *\nContent-Usage: train-ai=n search=y\n"), [
      "2:warning:usage-syntax",
    ]);
    assert.deepEqual(codes("User-agent: *\nContent-Usage: train-ai=no\n"), [
      "2:warning:usage-value",
    ]);
    assert.deepEqual(codes("User-agent: *\nContent-Usage: Train-AI=n\n"), [
      "2:warning:usage-syntax",
    ]);
    assert.deepEqual(codes("User-agent: *\nContent-Usage: search=y, search=n\n"), [
      "2:warning:usage-repeated",
    ]);
    assert.deepEqual(codes("User-agent: *\nContent-Usage: /path/\n"), ["2:warning:usage-empty"]);
  });

  it("unknown categories: former ones warned with a hint, others noted", () => {
    const report = lintRobots("User-agent: *\nContent-Usage: train-genai=n, ai-train=n, foo=y\n");
    const found = report.findings.filter((f) => f.code === "usage-unknown-category");
    assert.deepEqual(
      found.map((f) => f.severity),
      ["warning", "warning", "info"],
    );
    assert.match(found[1]?.message ?? "", /Content-Signal label; Content-Usage writes train-ai/);
  });

  it("Content-Signal: bad values and labels", () => {
    assert.deepEqual(codes("User-agent: *\nContent-Signal: search=maybe\n"), [
      "2:warning:signal-value",
    ]);
    assert.deepEqual(codes("User-agent: *\nContent-Signal: train-ai=no\n"), [
      "2:warning:signal-unknown",
    ]);
    assert.deepEqual(codes("User-agent: *\nContent-Signal: search\n"), ["2:warning:signal-syntax"]);
  });

  it("Content-Usage and Content-Signal disagree in one group", () => {
    const report = lintRobots(
      "User-agent: *\nContent-Signal: search=yes, ai-train=yes\nContent-Usage: train-ai=n\n",
    );
    const conflict = report.findings.filter((f) => f.code === "usage-conflict");
    assert.equal(conflict.length, 1);
    assert.equal(conflict[0]?.line, 3);
    assert.match(conflict[0]?.message ?? "", /line 2 disagree on train-ai/);
    // Different paths do not conflict; neither do different groups.
    assert.deepEqual(
      codes("User-agent: *\nContent-Signal: ai-train=yes\nContent-Usage: /x/ train-ai=n\n"),
      [],
    );
    assert.deepEqual(
      codes(
        "User-agent: a\nAllow: /\nContent-Signal: ai-train=yes\nUser-agent: b\nDisallow: /\nContent-Usage: train-ai=n\n",
      ),
      [],
    );
  });

  it("hints: lower-case keys, commas between members", () => {
    const upper = lintRobots("User-agent: *\nContent-Usage: Train-AI=y\n").findings.find(
      (f) => f.code === "usage-syntax",
    );
    assert.match(upper?.message ?? "", /write "train-ai=y"/);
    const blanks = lintRobots(
      "User-agent: *\nContent-Usage: /a/ train-ai=n search=y\n",
    ).findings.find((f) => f.code === "usage-syntax");
    assert.match(blanks?.message ?? "", /separated by commas: "train-ai=n, search=y"/);
  });

  it("a path's allowance that the other form's broader refusal shadows", () => {
    const report = lintRobots(
      "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /open/ train-ai=y\n",
    );
    const found = report.findings.filter((f) => f.code === "usage-conflict");
    assert.equal(found.length, 1);
    assert.equal(found[0]?.line, 3);
    assert.match(found[0]?.message ?? "", /\/open\/ stays disallowed/);
    // The same form settles itself by the longest path: no conflict.
    assert.deepEqual(
      codes("User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y\n"),
      [],
    );
  });

  it("a typo of the key is named", () => {
    const report = lintRobots("User-agent: *\nContent-Useage: train-ai=n\n");
    const typo = report.findings.find((f) => f.code === "unknown-key");
    assert.match(typo?.message ?? "", /Content-usage/);
  });

  it("under REGP the lines are noted as not read", () => {
    assert.deepEqual(codes("Robot-version: 3.0\nUser-agent: *\nContent-Usage: train-ai=n\n"), [
      "3:info:usage-regp",
    ]);
  });
});
