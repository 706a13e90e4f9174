// DESIGN §3 "Fetching robots.txt": status codes, redirects, cache lifetimes, unreachable sites.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  cacheLifetime,
  MAX_CACHE_MS,
  retryDelay,
  robotsFetchVerdict,
  unreachableRule,
} from "../../../src/index.js";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe("DESIGN §3 status table", () => {
  const table: readonly [number, number, string][] = [
    [200, 0, "parse"],
    [204, 0, "parse"],
    [301, 0, "follow"],
    [302, 4, "follow"],
    [307, 5, "unreachable"], // RFC 9309 §2.3.1.2: five hops, then unreachable
    [308, 9, "unreachable"],
    [401, 0, "disallow-all"], // seeds/004 §3.1
    [403, 0, "disallow-all"],
    [404, 0, "allow-all"], // RFC 9309 §2.3.1.3
    [410, 0, "allow-all"],
    [429, 0, "allow-all"],
    [500, 0, "unreachable"], // RFC 9309 §2.3.1.4
    [503, 0, "unreachable"],
  ];
  for (const [status, redirects, action] of table) {
    it(`${status} after ${redirects} redirects → ${action}`, () => {
      assert.equal(robotsFetchVerdict({ status, redirects }).action, action);
    });
  }
  it("a network error is unreachable", () => {
    assert.equal(robotsFetchVerdict({ networkError: "ECONNREFUSED" }).action, "unreachable");
  });
});

describe("RFC 9309 §2.3.1.4 unreachable sites", () => {
  const t0 = Date.UTC(2026, 0, 1);
  it("closed, with growing waits, during the first 30 days", () => {
    const first = unreachableRule({ firstFailureAt: t0, now: t0, attempts: 1, hasGoodCopy: true });
    const later = unreachableRule({
      firstFailureAt: t0,
      now: t0 + 29 * DAY,
      attempts: 4,
      hasGoodCopy: true,
    });
    assert.deepEqual(first, { use: "disallow-all", retryInMs: 60_000 });
    assert.deepEqual(later, { use: "disallow-all", retryInMs: 8 * 60_000 });
  });
  it("after 30 days the last good copy, else no restrictions", () => {
    const now = t0 + 31 * DAY;
    assert.deepEqual(unreachableRule({ firstFailureAt: t0, now, attempts: 9, hasGoodCopy: true }), {
      use: "last-good-copy",
    });
    assert.deepEqual(
      unreachableRule({ firstFailureAt: t0, now, attempts: 9, hasGoodCopy: false }),
      {
        use: "allow-all",
      },
    );
  });
  it("the wait doubles and stops at 24 hours", () => {
    assert.deepEqual([1, 2, 3].map(retryDelay), [60_000, 120_000, 240_000]);
    assert.equal(retryDelay(40), MAX_CACHE_MS);
  });
});

describe("cache lifetime (RFC 9309 §2.4, seeds/004 §3.4)", () => {
  const now = Date.parse("Sat, 21 Nov 2026 08:00:00 GMT");
  const table: readonly [string, Parameters<typeof cacheLifetime>[0], number][] = [
    ["no headers: 24 h, not Koster's 7 days", {}, DAY],
    ["max-age", { cacheControl: "public, max-age=3600" }, HOUR],
    ["s-maxage wins over max-age", { cacheControl: "max-age=60, s-maxage=120" }, 120_000],
    ["max-age above 24 h is capped", { cacheControl: "max-age=604800" }, DAY],
    ["no-store", { cacheControl: "no-store" }, 0],
    ["no-cache", { cacheControl: "No-Cache" }, 0],
    [
      "Expires minus Date",
      { expires: "Sat, 21 Nov 2026 10:00:00 GMT", date: "Sat, 21 Nov 2026 08:00:00 GMT" },
      2 * HOUR,
    ],
    ["Expires without Date uses now", { expires: "Sat, 21 Nov 2026 08:30:00 GMT" }, HOUR / 2],
    ["Expires in the past", { expires: "Sat, 21 Nov 2026 07:00:00 GMT" }, 0],
    ["invalid Expires is already expired", { expires: "0" }, 0],
    [
      "max-age wins over Expires",
      { cacheControl: "max-age=10", expires: "Sat, 21 Nov 2026 10:00:00 GMT" },
      10_000,
    ],
    ["a malformed max-age is ignored", { cacheControl: "max-age=soon" }, DAY],
  ];
  for (const [name, headers, expected] of table) {
    it(name, () => assert.equal(cacheLifetime(headers, now), expected));
  }
});
