// Latency values and spans: seeds/001 §3.1.1 (latvalue: day, week, month), §3.1.2
// ({integer-}latvalue), §3.3.4 (Span=integer-latvalue).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  formatLatency,
  latencyMs,
  MAX_LATENCY_COUNT,
  parseLatency,
  spanCovering,
} from "../../../src/protocol/rup/index.js";

const DAY = 86_400_000;

describe("parseLatency", () => {
  // seeds/001 §3.1.2: Latency={integer-}latvalue
  const GOOD: readonly [text: string, count: number, unit: string, ms: number][] = [
    ["day", 1, "day", DAY],
    ["week", 1, "week", 7 * DAY],
    ["month", 1, "month", 30 * DAY],
    ["3-day", 3, "day", 3 * DAY],
    ["2-week", 2, "week", 14 * DAY],
    ["12-hour", 12, "hour", 12 * 3_600_000],
    ["Day", 1, "day", DAY],
  ];
  for (const [text, count, unit, ms] of GOOD) {
    it(`${text} is ${count} × ${unit}`, () => {
      const r = parseLatency(text);
      assert.ok(r.ok);
      assert.deepEqual(r.value, { count, unit });
      assert.equal(latencyMs(r.value), ms);
    });
  }
  const BAD: readonly [text: string, why: RegExp][] = [
    ["fortnight", /unknown unit/],
    ["0-day", /count must be 1/],
    [`${MAX_LATENCY_COUNT + 1}-day`, /count must be 1/],
    ["-day", /expected/],
    ["3 day", /expected/],
    ["", /expected/],
    ["1.5-day", /expected/],
  ];
  for (const [text, why] of BAD) {
    it(`refuses "${text}"`, () => {
      const r = parseLatency(text);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.message, why);
    });
  }
  it("a span needs its count (seeds/001 §3.3.4: Span=integer-latvalue)", () => {
    assert.equal(parseLatency("week", { countRequired: true }).ok, false);
    assert.equal(parseLatency("1-week", { countRequired: true }).ok, true);
  });
  it("writes the seed's forms", () => {
    assert.equal(formatLatency({ count: 1, unit: "day" }), "day");
    assert.equal(formatLatency({ count: 3, unit: "day" }), "3-day");
    assert.equal(formatLatency({ count: 1, unit: "month" }, { alwaysCount: true }), "1-month");
  });
  it("spanCovering rounds up to whole units, at least one", () => {
    assert.deepEqual(spanCovering(1, "day"), { count: 1, unit: "day" });
    assert.deepEqual(spanCovering(DAY + 1, "day"), { count: 2, unit: "day" });
    assert.deepEqual(spanCovering(0, "week"), { count: 1, unit: "week" });
  });
});
