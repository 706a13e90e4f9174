// Pieces of `heed check` answers shared by --url, --queries and --batch (src/cli/check-answer.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { quoted } from "../../src/cli/check-answer.js";

describe("quoted: a piece of an input line in a message", () => {
  it("is cut after 77 characters, never inside a character of two UTF-16 units", () => {
    const emoji = "\u{1F600}";
    assert.equal(quoted("x".repeat(80)), JSON.stringify("x".repeat(80)));
    assert.equal(quoted("x".repeat(81)), JSON.stringify(`${"x".repeat(77)}...`));
    // The emoji would be cut after its first half.
    const cut = quoted(`${"x".repeat(76)}${emoji}${"y".repeat(10)}`);
    assert.equal(cut, JSON.stringify(`${"x".repeat(76)}...`));
    assert.doesNotMatch(cut, /\\ud/);
    // Whole within the 77: kept.
    assert.equal(
      quoted(`${"x".repeat(75)}${emoji}${"y".repeat(10)}`),
      JSON.stringify(`${"x".repeat(75)}${emoji}...`),
    );
  });
});
