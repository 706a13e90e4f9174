// Crawl-delay / Ip-delay values: seeds/003 §3.2.6 ("an integer or a decimal, with time presented
// in seconds"; `Crawl-delay: 5`).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  formatSeconds,
  parseSeconds,
} from "../../../../../src/protocol/robots/regp/values/delay.js";
import { formatDecimal } from "../../../../../src/protocol/robots/regp/values/text.js";
import { expectError, expectOk } from "./expect.js";

const RUNS = 500;

describe("parseSeconds", () => {
  const CASES: readonly [source: string, text: string, seconds: number][] = [
    ["seeds/003 §3.2.6 example", "5", 5],
    ["seeds/003 §3.2.6 default value", "0", 0],
    ['seeds/003 §3.2.6 "or a decimal"', "0.5", 0.5],
    ["decimal without a leading 0 (as crawl-delay.ts reads it)", ".5", 0.5],
    ["surrounding space", " 10 ", 10],
    ["leading zeros", "007", 7],
    ["many decimals", "1.25", 1.25],
  ];
  for (const [source, text, seconds] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      assert.equal(expectOk(parseSeconds(text)), seconds);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    ["empty", "", ["empty value"]],
    ["negative", "-1", ['"-1"', "≥ 0"]],
    ["negative decimal", "-0.5", ['"-0.5"', "≥ 0"]],
    ["a unit", "5s", ['"s"', "unit"]],
    ["a spelt-out unit", "5 sec", ['"sec"', "unit"]],
    ["an exponent", "1e3", ['"1e3"', "exponent"]],
    ["NaN", "NaN", ['"NaN"']],
    ["Infinity", "Infinity", ['"Infinity"']],
    ["a trailing dot", "5.", ['"5."']],
    ["a decimal comma", "1,5", ['"1,5"']],
    ["a plus sign", "+5", ['"+5"']],
    ["words", "five", ['"five"']],
    ["too large for a double", "9".repeat(400), ["fits a double"]],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text.slice(0, 20))}`, () => {
      expectError(parseSeconds(text), ...mentions);
    });
  }
});

describe("formatSeconds", () => {
  const CASES: readonly [n: number, text: string][] = [
    [5, "5"],
    [0.5, "0.5"],
    [1e-7, "0.0000001"],
    [1.5e-10, "0.00000000015"],
    [1e21, "1000000000000000000000"],
    [1.2345e22, "12345000000000000000000"],
  ];
  for (const [n, text] of CASES) {
    it(`${n} → ${text} (no exponent)`, () => {
      assert.equal(formatSeconds(n), text);
      assert.equal(formatDecimal(-n), `-${text}`);
    });
  }

  it("property: parseSeconds(formatSeconds(s)) equals s", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.nat(), fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true })),
        (s) => {
          assert.equal(expectOk(parseSeconds(formatSeconds(s))), s);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
