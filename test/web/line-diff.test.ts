// heed ui's line diff (src/web/client/line-diff.ts): the lines of two robots.txt files, kept,
// removed and added, and its bound on the work.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lineDiff, MAX_DIFF_CELLS } from "../../src/web/client/line-diff.js";

const ops = (a: string, b: string) =>
  lineDiff(a, b).map((d) => `${d.op === "same" ? " " : d.op === "added" ? "+" : "-"}${d.text}`);

describe("heed ui's line diff", () => {
  it("keeps the common lines and marks the others, with their numbers in each file", () => {
    assert.deepEqual(ops("a\nb\nc\nd", "a\nc\nx\nd"), [" a", "-b", " c", "+x", " d"]);
    assert.deepEqual(lineDiff("a\nb", "a\nc\nb"), [
      { op: "same", text: "a", a: 1, b: 1 },
      { op: "added", text: "c", b: 2 },
      { op: "same", text: "b", a: 2, b: 3 },
    ]);
    assert.deepEqual(ops("same\r\nfile", "same\nfile"), [" same", " file"]);
    assert.deepEqual(ops("", "x"), ["-", "+x"]);
  });

  it("past its bound, shows the differing middles as one block removed and one added", () => {
    const side = Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 1;
    const a = Array.from({ length: side }, (_, i) => `Disallow: /a${i}`);
    const b = Array.from({ length: side }, (_, i) => `Disallow: /b${i}`);
    const diff = lineDiff(
      ["User-agent: *", ...a, "# end"].join("\n"),
      ["User-agent: *", ...b, "# end"].join("\n"),
    );
    assert.equal(diff.length, 2 + 2 * side);
    assert.deepEqual(diff[0], { op: "same", text: "User-agent: *", a: 1, b: 1 });
    assert.ok(diff.slice(1, 1 + side).every((d) => d.op === "removed"));
    assert.ok(diff.slice(1 + side, 1 + 2 * side).every((d) => d.op === "added"));
    assert.deepEqual(diff.at(-1), { op: "same", text: "# end", a: side + 2, b: side + 2 });
  });
});
