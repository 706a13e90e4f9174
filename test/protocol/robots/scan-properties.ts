// The property cases both fast scans (scan.ts, regp/scan.ts) are held to the line reader by:
// random text made of the pieces their lines are made of, and random strings.
import { it } from "node:test";
import fc from "fast-check";

// Enough random files to reach the odd corners (a key split by a comment, a brace mid-line)
// in a few seconds on a busy machine.
const PIECE_RUNS = 3000;
const STRING_RUNS = 1000;

/**
 * Adds the two cases to the suite being declared: `assertSame` reads a text both ways and
 * fails when the readings differ; `pieces` are what the dialect's lines are made of.
 */
export function scanProperties(
  assertSame: (input: string, label: string) => void,
  pieces: readonly string[],
  dialect: string,
): void {
  it(`random text made of ${dialect} pieces`, () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 80 }), (chosen) => {
        const text = chosen.join("");
        assertSame(text, JSON.stringify(text));
      }),
      { numRuns: PIECE_RUNS },
    );
  });
  it("random strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        assertSame(text, JSON.stringify(text));
      }),
      { numRuns: STRING_RUNS },
    );
  });
}
