// Request-rate / Ip-rate values: seeds/003 §3.2.7 (`n/[k](s|m|h)`, "500/h", n "an integer or a
// decimal", k "an optional integer … defaulted to 1").
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  formatRate,
  parseRate,
  type Rate,
  rateGapSeconds,
} from "../../../../../src/protocol/robots/regp/values/rate.js";
import { expectError, expectOk } from "./expect.js";

const RUNS = 500;

describe("parseRate", () => {
  const CASES: readonly [source: string, text: string, rate: Rate, gap: number][] = [
    ["seeds/003 §3.2.7 example", "500/h", { requests: 500, per: 1, unit: "h", seconds: 3600 }, 7.2],
    ["two a second", "120/m", { requests: 120, per: 1, unit: "m", seconds: 60 }, 0.5],
    ["seeds/003 §3.2.7 optional k", "1/5s", { requests: 1, per: 5, unit: "s", seconds: 5 }, 5],
    [
      'seeds/003 §3.2.7 "or a decimal"',
      "0.5/s",
      { requests: 0.5, per: 1, unit: "s", seconds: 1 },
      2,
    ],
    ["k minutes", "10/30m", { requests: 10, per: 30, unit: "m", seconds: 1800 }, 180],
    ["space around /", "500 / h", { requests: 500, per: 1, unit: "h", seconds: 3600 }, 7.2],
    ["space after /", "1/ 5s", { requests: 1, per: 5, unit: "s", seconds: 5 }, 5],
    ["space before the unit", "1/5 s", { requests: 1, per: 5, unit: "s", seconds: 5 }, 5],
    ["k written as 1", "500/1h", { requests: 500, per: 1, unit: "h", seconds: 3600 }, 7.2],
    ["upper-case unit", "500/H", { requests: 500, per: 1, unit: "h", seconds: 3600 }, 7.2],
    ["leading zero in k", "1/05m", { requests: 1, per: 5, unit: "m", seconds: 300 }, 300],
    ["decimal without a leading 0", ".5/s", { requests: 0.5, per: 1, unit: "s", seconds: 1 }, 2],
  ];
  for (const [source, text, rate, gap] of CASES) {
    it(`${source}: ${JSON.stringify(text)}`, () => {
      const parsed = expectOk(parseRate(text));
      assert.deepEqual(parsed, rate);
      assert.equal(rateGapSeconds(parsed), gap);
    });
  }

  const ERRORS: readonly [why: string, text: string, mentions: string[]][] = [
    ["empty", "", ["empty value"]],
    ["no /", "500", ['"500"', '"/"']],
    ["n = 0", "0/h", ['"0"', "greater than 0"]],
    ["n = 0.0", "0.0/h", ['"0.0"', "greater than 0"]],
    ["negative n", "-1/h", ['"-1"', "greater than 0"]],
    ["no n", "/h", ["empty value"]],
    ["n not a number", "abc/h", ['"abc"']],
    ["n with an exponent", "1e3/h", ['"1e3"']],
    ["k = 0", "500/0h", ['"0h"', "at least 1"]],
    ["missing unit", "500/", ['"500/"', "unit"]],
    ["missing unit after k", "500/5", ['"500/5"', "unit"]],
    ["unknown unit", "500/d", ['"d"', "s, m or h"]],
    ["unit spelt out", "500/min", ['"min"', "s, m or h"]],
    ["decimal k", "500/0.5h", ['"0.5h"', "whole number"]],
    ["a second /", "500/h/2", ['"h/2"']],
    ["k too large", "1/99999999999999999999s", ['"99999999999999999999"']],
  ];
  for (const [why, text, mentions] of ERRORS) {
    it(`refuses ${why}: ${JSON.stringify(text)}`, () => {
      expectError(parseRate(text), ...mentions);
    });
  }
});

describe("formatRate", () => {
  const CASES: readonly [text: string, formatted: string][] = [
    ["500/h", "500/h"],
    ["500/1h", "500/h"],
    ["1/5s", "1/5s"],
    ["0.5/s", "0.5/s"],
    [" 10 / 30 M", "10/30m"],
    ["0.0000001/s", "0.0000001/s"],
  ];
  for (const [text, formatted] of CASES) {
    it(`${JSON.stringify(text)} → ${formatted}`, () => {
      assert.equal(formatRate(expectOk(parseRate(text))), formatted);
    });
  }

  const UNIT_SECONDS = { s: 1, m: 60, h: 3600 } as const;
  const rate: fc.Arbitrary<Rate> = fc
    .record({
      requests: fc.oneof(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.double({ min: Number.MIN_VALUE, max: 1e30, noNaN: true }),
      ),
      per: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 1_000_000 })),
      unit: fc.constantFrom("s" as const, "m" as const, "h" as const),
    })
    .map((r) => ({ ...r, seconds: r.per * UNIT_SECONDS[r.unit] }));

  it("property: parseRate(formatRate(r)) equals r, and the gap times n is the window", () => {
    fc.assert(
      fc.property(rate, (r) => {
        assert.deepEqual(expectOk(parseRate(formatRate(r))), r);
        const gap = rateGapSeconds(r);
        // A tiny n makes the gap overflow to Infinity; the identity holds wherever it is finite.
        if (Number.isFinite(gap))
          assert.ok(Math.abs(gap * r.requests - r.seconds) <= 1e-9 * r.seconds);
      }),
      { numRuns: RUNS },
    );
  });
});
