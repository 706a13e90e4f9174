// check --batch hands lines to its worker threads packed (src/cli/query-lines.ts): unpacked,
// they must be the lines given, numbers, texts and the too-long mark included.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { packLines, type QueryLine, unpackLines } from "../../src/cli/query-lines.js";

describe("packLines / unpackLines", () => {
  it("give back the same lines, empty texts and too-long lines included", () => {
    const lines: QueryLine[] = [
      { number: 1, text: "a.txt\tbot\t/x", tooLong: false },
      { number: 3, text: "", tooLong: true },
      { number: 4, text: "b.txt\tbot\t/ü\t\t", tooLong: false },
      { number: 9, text: "no tabs", tooLong: false },
      { number: 10, text: "", tooLong: true },
    ];
    assert.deepEqual(unpackLines(packLines(lines)), lines);
    assert.deepEqual(unpackLines(packLines([])), []);
  });
});
