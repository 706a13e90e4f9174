// Retry-After, RFC 9110 §10.2.3 (delta-seconds or HTTP-date) and §5.6.7 (the three date forms).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_RETRY_AFTER_MS, parseHttpDate, retryAfterMs } from "../../src/net/retry-after.js";

const NOW = Date.UTC(2015, 9, 21, 7, 28, 0); // Wed, 21 Oct 2015 07:28:00 GMT

describe("retryAfterMs", () => {
  const cases: readonly [string, string | null, number | null][] = [
    ["§10.2.3 delta-seconds", "120", 120_000],
    ["delta-seconds zero", "0", 0],
    ["surrounding whitespace (OWS)", " 5 ", 5_000],
    ["a negative delay means no wait", "-5", 0],
    ["delta-seconds above 24 h are cut to 24 h", "604800", MAX_RETRY_AFTER_MS],
    ["a delta too large for a number is cut too", "9".repeat(400), MAX_RETRY_AFTER_MS],
    ["§5.6.7 IMF-fixdate, two minutes ahead", "Wed, 21 Oct 2015 07:30:00 GMT", 120_000],
    ["IMF-fixdate, now", "Wed, 21 Oct 2015 07:28:00 GMT", 0],
    ["IMF-fixdate in the past is 0", "Tue, 20 Oct 2015 07:28:00 GMT", 0],
    [
      "IMF-fixdate a year ahead is cut to 24 h",
      "Fri, 21 Oct 2016 07:28:00 GMT",
      MAX_RETRY_AFTER_MS,
    ],
    ["§5.6.7 obsolete rfc850-date", "Wednesday, 21-Oct-15 07:30:00 GMT", 120_000],
    ["§5.6.7 obsolete asctime-date", "Wed Oct 21 07:30:00 2015", 120_000],
    ["asctime-date with a one-digit day", "Thu Oct  1 07:28:00 2015", 0],
    ["absent", null, null],
    ["empty", "", null],
    ["words", "soon", null],
    ["a fraction is not delta-seconds", "1.5", null],
    ["a date with a numeric zone is not an HTTP-date", "Wed, 21 Oct 2015 07:30:00 +0000", null],
    ["a date that does not exist", "Tue, 31 Feb 2015 07:30:00 GMT", null],
    ["an hour out of range", "Wed, 21 Oct 2015 24:30:00 GMT", null],
    ["an unknown month", "Wed, 21 Foo 2015 07:30:00 GMT", null],
    ["ISO 8601 is not an HTTP-date", "2015-10-21T07:30:00Z", null],
  ];
  for (const [name, value, expected] of cases) {
    it(`${name}: ${JSON.stringify(value)} → ${String(expected)}`, () => {
      assert.equal(retryAfterMs(value, NOW), expected);
    });
  }
});

describe("parseHttpDate", () => {
  it("§5.6.7: a two-digit year more than 50 years ahead is in the past century", () => {
    const now = Date.UTC(2030, 0, 1);
    assert.equal(
      parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", now),
      Date.UTC(1994, 10, 6, 8, 49, 37),
    );
    assert.equal(
      parseHttpDate("Monday, 06-Nov-79 08:49:37 GMT", now),
      Date.UTC(2079, 10, 6, 8, 49, 37),
    );
  });
  it("all three forms of the RFC's example name the same instant", () => {
    const now = Date.UTC(2024, 0, 1);
    const expected = Date.UTC(1994, 10, 6, 8, 49, 37);
    assert.equal(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT", now), expected);
    assert.equal(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", now), expected);
    assert.equal(parseHttpDate("Sun Nov  6 08:49:37 1994", now), expected);
  });
});
