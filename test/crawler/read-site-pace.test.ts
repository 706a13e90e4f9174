// The next allowed moment the crawl view shows (src/crawler/read-site-pace.ts dueOf) is the one
// a reservation's `take` works out (store/types.ts Reservations; seeds/003 §3.2.7 rate windows):
// table-driven over plain values, then checked against a real SQLite store's `take`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { dueOf } from "../../src/crawler/read-site-pace.js";
import { openStore } from "../../src/store/index.js";
import type { PaceRule, PaceState } from "../../src/store/types.js";
import { tempDir } from "../helpers/crawl-harness.js";

const T0 = 1_700_000_000_000;
const NONE: PaceState = { nextAt: 0, endedAt: null, inFlight: 0, recent: [] };
const GAP: PaceRule = { gapMs: 500, rate: null, inFlight: 1 };
const RATE: PaceRule = { gapMs: 0, rate: { requests: 2, windowMs: 10_000 }, inFlight: 1 };

describe("dueOf: when a site's reservation lets the next request start", () => {
  const table: [string, PaceState, PaceRule, ReturnType<typeof dueOf>][] = [
    ["nothing held", NONE, GAP, null],
    [
      "the gap counts from the last end",
      { ...NONE, endedAt: T0, nextAt: T0 + 500 },
      GAP,
      { at: T0 + 500, why: "gap" },
    ],
    [
      "a moment set later than the gap (a time window, a back-off)",
      { ...NONE, endedAt: T0, nextAt: T0 + 9000 },
      GAP,
      { at: T0 + 9000, why: "set" },
    ],
    [
      "a window with room: only the gap",
      { ...NONE, endedAt: T0, recent: [T0] },
      RATE,
      { at: T0, why: "gap" },
    ],
    [
      "a full window: its n-th latest request plus the window",
      { ...NONE, endedAt: T0 + 20, nextAt: T0 + 20, recent: [T0 + 20, T0 + 10, T0] },
      RATE,
      { at: T0 + 10_010, why: "rate" },
    ],
  ];
  for (const [name, state, rule, want] of table) {
    it(name, () => assert.deepEqual(dueOf(state, rule), want));
  }

  it("agrees with a real store's take: refused until then, granted at it", async () => {
    const temp = await tempDir("heed-due-");
    const store = await openStore(join(temp.dir, "s.db"));
    try {
      const key = "https://a.example";
      for (const at of [T0, T0 + 100]) {
        const got = await store.reservations.take(key, "p", at, RATE);
        assert.ok(got.granted);
        await store.reservations.release(key, got.id, at + 10, 0, true);
      }
      const due = dueOf(await store.reservations.pace(key, 2), RATE);
      assert.deepEqual(due, { at: T0 + 10_010, why: "rate" });
      assert.deepEqual(await store.reservations.take(key, "p", T0 + 200, RATE), {
        granted: false,
        retryAt: T0 + 10_010,
        why: "rate",
      });
      assert.ok((await store.reservations.take(key, "p", T0 + 10_010, RATE)).granted);
    } finally {
      await store.close();
      await temp.cleanup();
    }
  });
});
