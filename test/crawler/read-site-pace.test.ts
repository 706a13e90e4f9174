// The next allowed moment the crawl view shows (src/crawler/read-site-pace.ts dueOf) is the one
// a reservation's `take` works out (store/types.ts Reservations; seeds/003 §3.2.7 rate windows):
// table-driven over plain values, then checked against a real SQLite store's `take`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { dueOf, SitePaceReader } from "../../src/crawler/read-site-pace.js";
import { ipKey, ruleOf } from "../../src/crawler/site-gate.js";
import { EMPTY_PLAN } from "../../src/protocol/robots/plan.js";
import { openStore } from "../../src/store/index.js";
import type { CachedRobots, PaceRule, PaceState } from "../../src/store/types.js";
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

describe("SitePaceReader: the rules of the copy the store holds now", () => {
  const origin = "https://a.example";
  const copy = (text: string, fetchedAt: number, action: CachedRobots["action"] = "parse") => ({
    origin,
    fetchedAt,
    expiresAt: fetchedAt + 86_400_000,
    status: action === "unreachable" ? null : 200,
    action,
    body: action === "parse" ? new TextEncoder().encode(text) : null,
    lastGoodBody: new TextEncoder().encode(text),
    firstFailureAt: action === "unreachable" ? fetchedAt : null,
    attempts: action === "unreachable" ? 1 : 0,
  });

  it("reads a new copy's rules once the store holds it, and the last good one through an outage", async () => {
    const temp = await tempDir("heed-pace-");
    const store = await openStore(join(temp.dir, "s.db"));
    try {
      const reader = new SitePaceReader(store, { agent: "HeedTest" });
      assert.equal((await reader.read(origin, T0)).rulesKept, false);
      await store.robots.put(copy("User-agent: *\nCrawl-delay: 1\n", T0));
      assert.deepEqual((await reader.read(origin, T0)).crawlDelay, { seconds: 1, line: 2 });
      assert.deepEqual((await reader.read(origin, T0 + 1)).crawlDelay, { seconds: 1, line: 2 });
      await store.robots.put(copy("User-agent: *\nDisallow: /x\nCrawl-delay: 2\n", T0 + 5));
      assert.deepEqual((await reader.read(origin, T0 + 6)).crawlDelay, { seconds: 2, line: 3 });
      // RFC 9309 §2.3.1.4: unreachable, the last good copy still paces the site.
      await store.robots.put(copy("User-agent: *\nCrawl-delay: 3\n", T0 + 9, "unreachable"));
      const outage = await reader.read(origin, T0 + 10);
      assert.deepEqual(outage.crawlDelay, { seconds: 3, line: 2 });
      assert.equal(outage.gapMs, 3000);
    } finally {
      await store.close();
      await temp.cleanup();
    }
  });

  it("Ip-delay and Ip-rate are read under the crawl's address; a huge rate stays bounded", async () => {
    const temp = await tempDir("heed-pace-");
    const store = await openStore(join(temp.dir, "s.db"));
    try {
      // seeds/003 §3.2.6-3.2.7: Ip-* bind one IP address; Request-rate the name token.
      const text = [
        "Robot-version: 3.0",
        "User-agent: *",
        "Ip-delay: 0.5",
        "Ip-rate: 3/1m",
        "Request-rate: 99999999999/1s",
        "Disallow: /x",
        "",
      ].join("\n");
      await store.robots.put(copy(text, T0));
      const ip = "127.0.0.1";
      const plan = (await new SitePaceReader(store, { agent: "HeedTest", ip }).read(origin, T0))
        .rates;
      assert.deepEqual(
        plan.map((r) => [r.scope, r.requests, r.line]),
        [
          ["agent", 99999999999, 5],
          ["ip", 3, 4],
        ],
      );
      // Two requests under the address's key, as the site gate takes them (3/1m spread evenly:
      // one each 20 s).
      const rule = ruleOf(
        {
          ...EMPTY_PLAN,
          ipDelay: { value: 0.5, line: 3 },
          rates: [{ scope: "ip", requests: 3, seconds: 60, line: 4 }],
        },
        "ip",
        1,
      );
      for (const at of [T0, T0 + 30_000]) {
        const got = await store.reservations.take(ipKey(origin, ip), "p", at, rule);
        assert.ok(got.granted);
        await store.reservations.release(ipKey(origin, ip), got.id, at + 10, rule.gapMs, true);
      }
      const pace = await new SitePaceReader(store, { agent: "HeedTest", ip }).read(
        origin,
        T0 + 31_000,
      );
      assert.deepEqual(pace.ipDelay, { seconds: 0.5, line: 3 });
      const ipRate = pace.rates.find((r) => r.scope === "ip");
      assert.equal(ipRate?.inWindow, 2);
      assert.equal(ipRate?.windowStart, T0 + 10);
      assert.equal(ipRate?.fullUntil, null);
      const agentRate = pace.rates.find((r) => r.scope === "agent");
      assert.equal(agentRate?.inWindow, 0);
      assert.equal(agentRate?.fullUntil, null);
      // The gap counts from the last end under the address's key.
      assert.equal(rule.gapMs, 20_000);
      assert.equal(pace.allowedAt, T0 + 30_010 + 20_000);
      assert.equal(pace.why, "gap");
      // Another address's key holds nothing.
      const other = await new SitePaceReader(store, { agent: "HeedTest", ip: "10.0.0.1" }).read(
        origin,
        T0 + 31_000,
      );
      assert.equal(other.rates.find((r) => r.scope === "ip")?.inWindow, 0);
      assert.equal(other.allowedAt, null);
    } finally {
      await store.close();
      await temp.cleanup();
    }
  });

  it("a Visit-time window that keeps the site closed is named, with when it opens", async () => {
    const temp = await tempDir("heed-pace-");
    const store = await openStore(join(temp.dir, "s.db"));
    try {
      // seeds/003 §3.2.9: daily windows, UTC here.
      await store.robots.put(
        copy("Robot-version: 3.0\nUser-agent: *\nVisit-time: 01:00-02:00 UT\nDisallow: /x\n", T0),
      );
      const reader = new SitePaceReader(store, { agent: "HeedTest" });
      const noon = Date.UTC(2026, 0, 5, 12, 0, 0);
      const pace = await reader.read(origin, noon);
      assert.deepEqual(pace.times, [
        { kind: "visit", text: "Visit-time: 01:00-02:00 UT", line: 3 },
      ]);
      assert.deepEqual(pace.closed, { until: Date.UTC(2026, 0, 6, 1, 0, 0), line: 3 });
      const open = await reader.read(origin, Date.UTC(2026, 0, 6, 1, 30, 0));
      assert.equal(open.closed, null);
    } finally {
      await store.close();
      await temp.cleanup();
    }
  });
});
