// Processes sharing a store are not handed the same ready site: a claimed site (claimReady,
// CLAIM_HOLD_MS) and a site holding every request in flight its reservation lets
// (FULL_HOLD_MS, src/store/ready-holds.ts) are not among the ready sites until the visit's next
// step, so that processes do not race for them, each asking and being refused. Run on one
// Redis, on a cluster, and on one SQLite file opened twice.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CLAIM_HOLD_MS, FULL_HOLD_MS } from "../../src/store/ready-holds.js";
import type { CrawlStore } from "../../src/store/types.js";
import type { StoreHarness } from "./store.suite.js";
import { newUrl as entry } from "./new-url.js";

const T0 = 1_700_000_000_000;
const A = "https://a.example";
const B = "https://b.example";
const LEASE_MS = 60_000;
const NONE: ReadonlySet<string> = new Set();

/** The ready origins in name order: where two are due alike, stores order them differently. */
const readyAt = async (store: CrawlStore, at: number): Promise<string[]> =>
  [...(await store.frontier.readyOrigins(at, 10, NONE))].sort();

export function readyLeavesOutFullSites(name: string, harness: StoreHarness): void {
  /** Two connections to one fresh place: two processes. */
  const withTwo = (test: (one: CrawlStore, two: CrawlStore) => Promise<void>) => async () => {
    const place = await harness.fresh();
    const one = await place.open();
    const two = await place.open();
    try {
      await one.frontier.add([entry(A, "/1"), entry(A, "/2"), entry(B, "/1")]);
      await test(one, two);
    } finally {
      await one.close();
      await two.close();
    }
  };

  describe(`${name}: a site at its in-flight cap is not ready until a request ends`, () => {
    it(
      "another process is not handed it, and gets it back once the request ends",
      withTwo(async (one, two) => {
        const rule = { gapMs: 0, rate: null, inFlight: 1 };
        const got = await one.steps.leaseReserved(A, "p1", T0, rule, LEASE_MS);
        assert.ok(got.granted && got.lease !== null, JSON.stringify(got));
        assert.deepEqual(await two.frontier.readyOrigins(T0 + 1, 10, NONE), [B]);
        // Still queued: a process with nothing else naps until then rather than ending.
        const held = await two.frontier.nextReadyAt(new Set([B]));
        assert.ok(held !== null && held > T0 + 1, String(held));
        await one.reservations.release(A, got.id, T0 + 2, 0, true);
        assert.deepEqual(await two.frontier.readyOrigins(T0 + 3, 10, NONE), [B, A]);
      }),
    );

    it(
      "a robots.txt reservation (rules not known: one in flight) holds it too; unused, it comes back",
      withTwo(async (one, two) => {
        const taken = await one.reservations.take(A, "p1", T0, {
          gapMs: 0,
          rate: null,
          inFlight: 1,
        });
        assert.ok(taken.granted);
        assert.deepEqual(await two.frontier.readyOrigins(T0 + 1, 10, NONE), [B]);
        await one.reservations.release(A, taken.id, T0 + 2, 0, false);
        assert.deepEqual(await readyAt(two, T0 + 3), [A, B]);
      }),
    );

    it(
      "with two in flight allowed, one request leaves it ready",
      withTwo(async (one, two) => {
        const rule = { gapMs: 0, rate: null, inFlight: 2 };
        const got = await one.steps.leaseReserved(A, "p1", T0, rule, LEASE_MS);
        assert.ok(got.granted && got.lease !== null);
        assert.deepEqual(await readyAt(two, T0 + 1), [A, B]);
      }),
    );

    it(
      "should the release never come, it is ready again after FULL_HOLD_MS (and still refused while held)",
      withTwo(async (one, two) => {
        const rule = { gapMs: 0, rate: null, inFlight: 1 };
        const got = await one.steps.leaseReserved(A, "p1", T0, rule, LEASE_MS);
        assert.ok(got.granted);
        assert.deepEqual(await two.frontier.readyOrigins(T0 + FULL_HOLD_MS - 1, 10, NONE), [B]);
        assert.deepEqual(await two.frontier.readyOrigins(T0 + FULL_HOLD_MS, 10, NONE), [B, A]);
        const refused = await two.steps.leaseReserved(A, "p2", T0 + FULL_HOLD_MS, rule, LEASE_MS);
        assert.deepEqual(refused, { granted: false, retryAt: T0 + FULL_HOLD_MS, why: "in-flight" });
      }),
    );
  });

  describe(`${name}: claimReady hands each ready site to one process`, () => {
    it(
      "two processes claiming at once are never handed the same site",
      withTwo(async (one, two) => {
        const many = Array.from({ length: 20 }, (_, i) => entry(`https://s${i}.example`, "/"));
        await one.frontier.add(many);
        const rounds = await Promise.all(
          [one, two, one, two].map((store) => store.frontier.claimReady(T0, 6, NONE)),
        );
        const handed = rounds.flatMap((r) => r.origins);
        // 22 ready (A, B and the 20): four claims of 6 leave none twice and none out.
        assert.equal(handed.length, 22);
        assert.equal(new Set(handed).size, 22);
        assert.deepEqual(await one.frontier.claimReady(T0, 6, NONE), {
          origins: [],
          nextAt: T0 + CLAIM_HOLD_MS,
        });
      }),
    );

    it(
      "a claimed site is ready again once its visit takes the reservation, or after CLAIM_HOLD_MS",
      withTwo(async (one, two) => {
        const claimed = await one.frontier.claimReady(T0, 2, NONE);
        assert.deepEqual([...claimed.origins].sort(), [A, B]);
        assert.deepEqual(await two.frontier.readyOrigins(T0 + 1, 10, NONE), []);
        const rule = { gapMs: 0, rate: null, inFlight: 1 };
        const taken = await one.reservations.take(A, "p1", T0 + 2, rule);
        assert.ok(taken.granted);
        await one.reservations.release(A, taken.id, T0 + 3, 0, false);
        assert.deepEqual(await two.frontier.readyOrigins(T0 + 4, 10, NONE), [A]);
        assert.deepEqual(await two.frontier.readyOrigins(T0 + CLAIM_HOLD_MS, 10, NONE), [A, B]);
      }),
    );
  });
}
