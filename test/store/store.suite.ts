// The contract of src/store/types.ts, run against every back end (DESIGN §2: one shared test
// suite, SQLite and Redis). Each test states the doc comment it checks. Moments are plain
// numbers: no test sleeps.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StoreError } from "../../src/store/errors.js";
import { MAX_ITEM_CHARS } from "../../src/store/items.js";
import type {
  CachedRobots,
  CrawlRecord,
  CrawlStore,
  Frontier,
  Lease,
  Reservation,
} from "../../src/store/types.js";
import { newUrl as entry } from "./new-url.js";

/** Where one test keeps its store: a new SQLite file, a new Redis key prefix. */
export interface StorePlace {
  /** Opens a connection to this place; call again for a second connection (another process). */
  open(): Promise<CrawlStore>;
}

export interface StoreHarness {
  /** A fresh, empty place. */
  fresh(): Promise<StorePlace>;
}

const T0 = 1_700_000_000_000;
const A = "https://a.example";
const B = "https://b.example";
const C = "https://c.example";
const LEASE_MS = 60_000;

/** Leases from `origin` until none is due, with no politeness gap; returns the URLs in order. */
async function drain(
  frontier: Frontier,
  origin: string,
  now: number,
  max = 100,
): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < max; i++) {
    const lease = await frontier.lease(origin, now, LEASE_MS, now);
    if (lease === null) return urls;
    urls.push(lease.entry.url);
    await frontier.settle(lease, { kind: "done", status: 200, at: now });
  }
  assert.fail(`more than ${max} URLs in ${origin}`);
}

async function mustLease(frontier: Frontier, origin: string, now: number, nextAt = now) {
  const lease = await frontier.lease(origin, now, LEASE_MS, nextAt);
  assert.ok(lease, `expected a lease from ${origin} at ${now}`);
  return lease;
}

export function storeContract(name: string, harness: StoreHarness): void {
  /** Runs `test` on a store in a fresh place, closing every connection it opened. */
  const withStore =
    (test: (store: CrawlStore, place: StorePlace & { opened: CrawlStore[] }) => Promise<void>) =>
    async () => {
      const place = await harness.fresh();
      const opened: CrawlStore[] = [];
      const tracked = {
        opened,
        open: async () => {
          const store = await place.open();
          opened.push(store);
          return store;
        },
      };
      try {
        await test(await tracked.open(), tracked);
      } finally {
        for (const store of opened) await store.close();
      }
    };

  describe(`${name}: CrawlStore.now — "the store's time … read without a round trip"`, () => {
    it(
      "is the store's time, the same in two connections, and never goes back",
      withStore(async (store, place) => {
        // The store runs on this machine: its time is this machine's, to a round trip.
        assert.ok(Math.abs(store.now() - Date.now()) < 1000, `${store.now()} vs ${Date.now()}`);
        const other = await place.open();
        // Each connection read the same clock, each off by at most half its round trip.
        assert.ok(Math.abs(other.now() - store.now()) < 100, `${other.now()} vs ${store.now()}`);
        let last = store.now();
        for (let i = 0; i < 10_000; i++) {
          const at = store.now();
          assert.ok(at >= last, `went back from ${last} to ${at}`);
          last = at;
        }
      }),
    );
  });

  describe(`${name}: CrawlStore.writes — "the store's count of leases and page settles"`, () => {
    it(
      "counts each lease and each page settle, one count for every connection",
      withStore(async (store, place) => {
        await store.frontier.add([entry(A, "/1"), entry(A, "/later", { notBefore: T0 + 5000 })]);
        assert.equal(await store.writes.read(), 0);
        const rule = { gapMs: 0, rate: null, inFlight: 2 } as const;
        const got = await store.steps.leaseReserved(A, "p1", T0, rule, LEASE_MS);
        assert.ok(got.granted && got.lease !== null, JSON.stringify(got));
        assert.equal(store.writes.highest(), 1);
        // A reservation with nothing to lease is given back: nothing was leased, nothing counts.
        const none = await store.steps.leaseReserved(A, "p1", T0, rule, LEASE_MS);
        assert.ok(none.granted && none.lease === null, JSON.stringify(none));
        await store.steps.settle(got.lease, { kind: "done", status: 200, at: T0 }, {});
        assert.equal(store.writes.highest(), 2);
        const other = await place.open();
        assert.equal(other.writes.highest(), 0);
        assert.equal(await other.writes.read(), 2);
        assert.equal(other.writes.highest(), 2);
      }),
    );

    it(
      "counts the frontier's own lease (an IP-bound pace) and every settle, not only a page's",
      withStore(async (store) => {
        await store.frontier.add([entry(A, "/robots.txt"), entry(A, "/2")]);
        const robots = await store.frontier.lease(A, T0, LEASE_MS, null, "p1");
        assert.ok(robots !== null);
        assert.equal(store.writes.highest(), 1);
        await store.frontier.settle(robots, { kind: "skipped", reason: "robots", at: T0 });
        assert.equal(store.writes.highest(), 2);
        // Nothing due: nothing leased, nothing counted.
        assert.equal(await store.frontier.lease(B, T0, LEASE_MS, null, "p1"), null);
        const page = await store.frontier.lease(A, T0, LEASE_MS, null, "p1");
        assert.ok(page !== null);
        await store.frontier.settle(page, { kind: "retry", reason: "503", notBefore: T0 + 1 });
        assert.equal(store.writes.highest(), 4);
        assert.equal(await store.writes.read(), 4);
      }),
    );
  });

  describe(`${name}: Frontier.add — "the URLs never seen before (in any state)"`, () => {
    it(
      "counts only new URLs, within a batch and across batches",
      withStore(async ({ frontier }) => {
        assert.equal(await frontier.add([]), 0);
        const added = await frontier.add([entry(A, "/1"), entry(A, "/2"), entry(A, "/1")]);
        assert.equal(added, 2);
        assert.equal(await frontier.add([entry(A, "/2"), entry(A, "/3")]), 1);
        assert.deepEqual(await frontier.counts(), {
          queued: 3,
          leased: 0,
          done: 0,
          skipped: 0,
          failed: 0,
          origins: 1,
        });
      }),
    );

    it(
      "ignores a URL again whatever its state: queued, leased, done, skipped, failed, retried",
      withStore(async ({ frontier }) => {
        const states = ["queued", "leased", "done", "skipped", "failed", "retried"];
        await frontier.add(states.map((state) => entry(A, `/${state}`)));
        // Leased in arrival order: queued first, then the rest.
        const leases = new Map<string, Lease>();
        for (let i = 0; i < states.length; i++) {
          const lease = await mustLease(frontier, A, T0);
          leases.set(lease.entry.url.slice(A.length + 1), lease);
        }
        await frontier.settle(leases.get("done")!, { kind: "done", status: 200, at: T0 });
        await frontier.settle(leases.get("skipped")!, {
          kind: "skipped",
          reason: "robots",
          at: T0,
        });
        await frontier.settle(leases.get("failed")!, { kind: "failed", reason: "gone", at: T0 });
        await frontier.settle(leases.get("retried")!, {
          kind: "retry",
          reason: "503",
          notBefore: T0 + 1000,
        });
        await frontier.settle(leases.get("queued")!, {
          kind: "defer",
          reason: "closed",
          notBefore: T0,
        });
        const before = await frontier.counts();
        assert.deepEqual(before, {
          queued: 2,
          leased: 1,
          done: 1,
          skipped: 1,
          failed: 1,
          origins: 1,
        });
        const again = states.map((state) =>
          entry(A, `/${state}`, { priority: 9, notBefore: T0 - 5 }),
        );
        assert.equal(await frontier.add(again), 0);
        assert.deepEqual(await frontier.counts(), before);
      }),
    );

    it(
      "rejects a batch with a bad number before writing any of it (StoreError, HEED_STORE_BAD_ARGUMENT)",
      withStore(async ({ frontier }) => {
        await assert.rejects(
          frontier.add([entry(A, "/ok"), entry(A, "/bad", { priority: Number.NaN })]),
          (error: unknown) =>
            error instanceof StoreError && error.code === "HEED_STORE_BAD_ARGUMENT",
        );
        assert.equal((await frontier.counts()).queued, 0);
        await assert.rejects(frontier.readyOrigins(T0, -1, new Set()), StoreError);
      }),
    );
  });

  describe(`${name}: Frontier.lease — "highest priority, then oldest"`, () => {
    it(
      "hands out URLs by priority, and in arrival order within a priority, across batches",
      withStore(async ({ frontier }) => {
        await frontier.add([
          entry(A, "/p1", { priority: 1 }),
          entry(A, "/p5-first", { priority: 5 }),
          entry(A, "/p3", { priority: 3 }),
        ]);
        await frontier.add([
          entry(A, "/p5-second", { priority: 5 }),
          entry(A, "/p-neg", { priority: -2 }),
          entry(A, "/p3.5", { priority: 3.5 }),
          entry(A, "/p5-third", { priority: 5 }),
        ]);
        assert.deepEqual(await drain(frontier, A, T0), [
          `${A}/p5-first`,
          `${A}/p5-second`,
          `${A}/p5-third`,
          `${A}/p3.5`,
          `${A}/p3`,
          `${A}/p1`,
          `${A}/p-neg`,
        ]);
      }),
    );

    it(
      "passes over a URL not yet due (notBefore), whatever its priority",
      withStore(async ({ frontier }) => {
        await frontier.add([
          entry(A, "/later", { priority: 10, notBefore: T0 + 500 }),
          entry(A, "/now", { priority: 1 }),
        ]);
        assert.deepEqual(await drain(frontier, A, T0), [`${A}/now`]);
        assert.equal(await frontier.lease(A, T0 + 499, LEASE_MS, T0), null);
        assert.deepEqual(await drain(frontier, A, T0 + 500), [`${A}/later`]);
      }),
    );

    it(
      "returns the entry as added, with attempts 0 and the lease's end",
      withStore(async ({ frontier }) => {
        const page = entry(A, "/page", { depth: 2 });
        const link = entry(A, "/link?q=1#x", {
          depth: 3,
          priority: 2.25,
          notBefore: T0 - 10,
          referrer: page.url,
          meta: '{"type":"data","srcloc":"https://a.example/src"}',
        });
        const outside = entry(B, "/from-outside", { referrer: "https://elsewhere.example/x" });
        await frontier.add([page, link, outside]);
        const lease = await mustLease(frontier, A, T0);
        assert.equal(lease.until, T0 + LEASE_MS);
        assert.equal(typeof lease.id, "string");
        assert.deepEqual(lease.entry, { ...link, attempts: 0 });
        const first = await mustLease(frontier, A, T0);
        assert.deepEqual(first.entry, { ...page, attempts: 0 });
        const third = await mustLease(frontier, B, T0);
        assert.deepEqual(third.entry, { ...outside, attempts: 0 });
        assert.notEqual(first.id, lease.id);
      }),
    );

    it(
      "is null for an unknown origin, an empty queue, or a queue of leased URLs",
      withStore(async ({ frontier }) => {
        assert.equal(await frontier.lease(A, T0, LEASE_MS, T0), null);
        await frontier.add([entry(A, "/only")]);
        await mustLease(frontier, A, T0);
        assert.equal(await frontier.lease(A, T0, LEASE_MS, T0), null);
        assert.equal((await frontier.counts()).origins, 0);
      }),
    );

    it(
      "sets the origin's next request moment in the same step, and refuses until then",
      withStore(async ({ frontier }) => {
        await frontier.add([entry(A, "/1"), entry(A, "/2")]);
        assert.equal(await frontier.nextAt(A), 0);
        await mustLease(frontier, A, T0, T0 + 2000);
        assert.equal(await frontier.nextAt(A), T0 + 2000);
        // Another fetcher that saw A ready a moment ago does not get in before the gap.
        assert.equal(await frontier.lease(A, T0 + 1999, LEASE_MS, T0 + 5000), null);
        assert.equal(await frontier.nextAt(A), T0 + 2000);
        const second = await mustLease(frontier, A, T0 + 2000, T0 + 4000);
        assert.equal(second.entry.url, `${A}/2`);
      }),
    );

    it(
      "never gives one URL to two fetchers: a second connection sees the lease",
      withStore(async ({ frontier }, place) => {
        const other = (await place.open()).frontier;
        await frontier.add([entry(A, "/1"), entry(A, "/2")]);
        const mine = await mustLease(frontier, A, T0);
        assert.equal((await other.counts()).leased, 1);
        const theirs = await mustLease(other, A, T0);
        assert.notEqual(theirs.entry.url, mine.entry.url);
        assert.equal(await other.lease(A, T0, LEASE_MS, T0), null);
        assert.equal(await frontier.lease(A, T0, LEASE_MS, T0), null);
      }),
    );

    it(
      "never gives one URL to two fetchers: 60 leases at once over two connections, 40 URLs",
      withStore(async ({ frontier }, place) => {
        const other = (await place.open()).frontier;
        const urls = Array.from({ length: 40 }, (_, i) => entry(A, `/${i}`));
        await frontier.add(urls);
        const attempts = Array.from({ length: 60 }, (_, i) =>
          (i % 2 === 0 ? frontier : other).lease(A, T0, LEASE_MS, T0),
        );
        const leases = (await Promise.all(attempts)).filter((lease) => lease !== null);
        const leased = leases.map((lease) => lease.entry.url);
        assert.equal(leased.length, 40);
        assert.equal(new Set(leased).size, 40);
        assert.equal(new Set(leases.map((lease) => lease.id)).size, 40);
        assert.deepEqual(await other.counts(), {
          queued: 0,
          leased: 40,
          done: 0,
          skipped: 0,
          failed: 0,
          origins: 0,
        });
      }),
    );
  });

  describe(`${name}: Frontier.readyOrigins, nextReadyAt, setNextAt, nextAt`, () => {
    it(
      "lists origins with a due URL and a due next request, soonest first, at most limit",
      withStore(async ({ frontier }) => {
        await frontier.add([
          entry(A, "/1", { notBefore: T0 - 100 }),
          entry(B, "/1", { notBefore: T0 - 300 }),
          entry(C, "/1", { notBefore: T0 + 100 }),
        ]);
        await frontier.setNextAt(A, T0 - 200);
        await frontier.setNextAt(B, T0 - 50);
        // Due: A at max(-200, -100) = -100; B at max(-50, -300) = -50; C at +100.
        assert.deepEqual(await frontier.readyOrigins(T0, 10, new Set()), [A, B]);
        assert.deepEqual(await frontier.readyOrigins(T0, 1, new Set()), [A]);
        assert.deepEqual(await frontier.readyOrigins(T0, 0, new Set()), []);
        assert.deepEqual(await frontier.readyOrigins(T0 + 100, 10, new Set()), [A, B, C]);
        assert.deepEqual(await frontier.readyOrigins(T0 - 101, 10, new Set()), []);
      }),
    );

    it(
      "leaves out the excluded origins and still fills the limit",
      withStore(async ({ frontier }) => {
        await frontier.add([entry(A, "/1"), entry(B, "/1"), entry(C, "/1")]);
        await frontier.setNextAt(A, T0 - 3);
        await frontier.setNextAt(B, T0 - 2);
        await frontier.setNextAt(C, T0 - 1);
        assert.deepEqual(await frontier.readyOrigins(T0, 2, new Set([A])), [B, C]);
        assert.deepEqual(await frontier.readyOrigins(T0, 2, new Set([A, B, C])), []);
        assert.equal(await frontier.nextReadyAt(new Set([A])), T0 - 2);
        assert.equal(await frontier.nextReadyAt(new Set([A, B, C])), null);
      }),
    );

    it(
      "leaves out an origin whose queued URLs are all leased or settled",
      withStore(async ({ frontier }) => {
        await frontier.add([entry(A, "/1"), entry(B, "/1")]);
        await mustLease(frontier, A, T0);
        assert.deepEqual(await frontier.readyOrigins(T0, 10, new Set()), [B]);
        await drain(frontier, B, T0);
        assert.deepEqual(await frontier.readyOrigins(T0 + 1e9, 10, new Set()), []);
        assert.equal(await frontier.nextReadyAt(new Set()), null);
      }),
    );

    it(
      "nextReadyAt: the smallest due time, max(next request, earliest notBefore); null when nothing is queued",
      withStore(async ({ frontier }) => {
        assert.equal(await frontier.nextReadyAt(new Set()), null);
        await frontier.setNextAt(C, T0 + 1);
        assert.equal(await frontier.nextReadyAt(new Set()), null, "no URL queued for C");
        await frontier.add([
          entry(A, "/1", { notBefore: T0 + 700 }),
          entry(A, "/2", { notBefore: T0 + 900 }),
          entry(B, "/1", { notBefore: T0 + 100 }),
        ]);
        await frontier.setNextAt(B, T0 + 800);
        assert.equal(await frontier.nextReadyAt(new Set()), T0 + 700);
        assert.equal(await frontier.nextReadyAt(new Set([A])), T0 + 800);
        await frontier.setNextAt(A, T0 + 1000);
        assert.equal(await frontier.nextReadyAt(new Set()), T0 + 800);
        await frontier.setNextAt(A, 0);
        assert.equal(await frontier.nextReadyAt(new Set()), T0 + 800, "A's next moment stays");
      }),
    );

    it(
      "claimReady: at most limit ready origins, none excluded; then when to look again",
      withStore(async ({ frontier }) => {
        await frontier.add([
          entry(A, "/1"),
          entry(B, "/1"),
          entry(C, "/1", { notBefore: T0 + 100 }),
        ]);
        const one = await frontier.claimReady(T0, 1, new Set());
        assert.equal(one.origins.length, 1);
        assert.ok([A, B].includes(one.origins[0] ?? ""), String(one.origins));
        assert.equal(one.nextAt, T0, "the limit reached: more may be ready now");
        assert.deepEqual(await frontier.claimReady(T0, 10, new Set([A, B])), {
          origins: [],
          nextAt: T0 + 100,
        });
        assert.deepEqual(await frontier.claimReady(T0, 0, new Set()), { origins: [], nextAt: T0 });
        assert.deepEqual(await frontier.claimReady(T0 + 100, 10, new Set([A, B, C])), {
          origins: [],
          nextAt: null,
        });
      }),
    );

    it(
      "setNextAt and nextAt: 0 when never set; only ever later (DESIGN §2)",
      withStore(async ({ frontier }) => {
        assert.equal(await frontier.nextAt(A), 0);
        await frontier.setNextAt(A, T0 + 10);
        assert.equal(await frontier.nextAt(A), T0 + 10);
        await frontier.setNextAt(A, T0 + 5);
        assert.equal(await frontier.nextAt(A), T0 + 10, "an earlier moment leaves it");
        await frontier.add([entry(A, "/1")]);
        assert.deepEqual(await frontier.readyOrigins(T0 + 9, 5, new Set()), []);
        assert.deepEqual(await frontier.readyOrigins(T0 + 10, 5, new Set()), [A]);
        assert.equal(await frontier.lease(A, T0 + 9, LEASE_MS, T0 + 9), null);
        await mustLease(frontier, A, T0 + 10);
      }),
    );
  });

  describe(`${name}: Frontier.settle`, () => {
    it(
      "done, skipped and failed end the URL and are counted",
      withStore(async ({ frontier }) => {
        await frontier.add([entry(A, "/1"), entry(A, "/2"), entry(A, "/3"), entry(A, "/4")]);
        const [l1, l2, l3] = [
          await mustLease(frontier, A, T0),
          await mustLease(frontier, A, T0),
          await mustLease(frontier, A, T0),
        ];
        await frontier.settle(l1, { kind: "done", status: 304, at: T0 + 1 });
        await frontier.settle(l2, { kind: "skipped", reason: "Disallow: /2", at: T0 + 1 });
        await frontier.settle(l3, { kind: "failed", reason: "404", at: T0 + 1 });
        assert.deepEqual(await frontier.counts(), {
          queued: 1,
          leased: 0,
          done: 1,
          skipped: 1,
          failed: 1,
          origins: 1,
        });
        // Settling again is a no-op: the lease has ended.
        await frontier.settle(l1, { kind: "failed", reason: "again", at: T0 + 2 });
        await frontier.settle(l2, { kind: "retry", reason: "again", notBefore: T0 });
        assert.equal((await frontier.counts()).done, 1);
        assert.equal((await frontier.counts()).queued, 1);
        assert.deepEqual(await drain(frontier, A, T0 + 3), [`${A}/4`]);
      }),
    );

    it(
      "retry: back to the queue not before notBefore, one more attempt each time",
      withStore(async ({ frontier }) => {
        await frontier.add([entry(A, "/flaky", { priority: 3 }), entry(A, "/other")]);
        let lease = await mustLease(frontier, A, T0);
        assert.equal(lease.entry.url, `${A}/flaky`);
        await frontier.settle(lease, { kind: "retry", reason: "503", notBefore: T0 + 1000 });
        assert.deepEqual(await frontier.counts(), {
          queued: 2,
          leased: 0,
          done: 0,
          skipped: 0,
          failed: 0,
          origins: 1,
        });
        // Not due yet: the other URL goes first even with a lower priority.
        assert.deepEqual(await drain(frontier, A, T0 + 999), [`${A}/other`]);
        assert.equal(await frontier.nextReadyAt(new Set()), T0 + 1000);
        assert.deepEqual(await frontier.readyOrigins(T0 + 999, 5, new Set()), []);
        assert.deepEqual(await frontier.readyOrigins(T0 + 1000, 5, new Set()), [A]);
        lease = await mustLease(frontier, A, T0 + 1000);
        assert.equal(lease.entry.attempts, 1);
        assert.equal(lease.entry.notBefore, T0 + 1000);
        await frontier.settle(lease, { kind: "retry", reason: "503", notBefore: T0 + 3000 });
        lease = await mustLease(frontier, A, T0 + 3000);
        assert.equal(lease.entry.attempts, 2);
        await frontier.settle(lease, { kind: "failed", reason: "gave up after 3", at: T0 + 3001 });
        assert.equal((await frontier.counts()).failed, 1);
      }),
    );

    it(
      "defer: back to the queue not before notBefore, attempts unchanged",
      withStore(async ({ frontier }) => {
        await frontier.add([entry(A, "/1")]);
        let lease = await mustLease(frontier, A, T0);
        await frontier.settle(lease, { kind: "retry", reason: "503", notBefore: T0 + 10 });
        lease = await mustLease(frontier, A, T0 + 10);
        await frontier.settle(lease, { kind: "defer", reason: "Visit-time", notBefore: T0 + 500 });
        assert.equal(await frontier.lease(A, T0 + 499, LEASE_MS, T0), null);
        lease = await mustLease(frontier, A, T0 + 500);
        assert.equal(lease.entry.attempts, 1);
      }),
    );
  });

  describe(`${name}: Frontier.revisit — "queues again URLs that were done"`, () => {
    it(
      "queues done URLs again not before notBefore, adds unseen ones, leaves the rest",
      withStore(async ({ frontier }) => {
        await frontier.add([
          entry(A, "/done"),
          entry(A, "/skipped"),
          entry(A, "/failed"),
          entry(A, "/retried"),
          entry(A, "/queued"),
        ]);
        const outcomes = [
          { kind: "done", status: 200, at: T0 },
          { kind: "skipped", reason: "robots", at: T0 },
          { kind: "failed", reason: "gone", at: T0 },
          { kind: "retry", reason: "503", notBefore: T0 + 50 },
        ] as const;
        for (const outcome of outcomes) {
          await frontier.settle(await mustLease(frontier, A, T0), outcome);
        }
        const inFlight = await mustLease(frontier, A, T0);
        assert.equal(inFlight.entry.url, `${A}/queued`);
        const queued = await frontier.revisit([
          entry(A, "/done", { notBefore: T0 + 100, priority: 4, meta: '{"why":"changed"}' }),
          entry(A, "/skipped", { notBefore: T0 + 100 }),
          entry(A, "/failed", { notBefore: T0 + 100 }),
          entry(A, "/retried", { notBefore: T0 + 100 }),
          entry(A, "/queued", { notBefore: T0 + 100 }),
          entry(B, "/new", { notBefore: T0 + 100 }),
        ]);
        assert.equal(queued, 2);
        assert.deepEqual(await frontier.counts(), {
          queued: 3,
          leased: 1,
          done: 0,
          skipped: 1,
          failed: 1,
          origins: 2,
        });
        // The retried URL was due already; the revisited one waits for its notBefore.
        assert.deepEqual(await drain(frontier, A, T0 + 99), [`${A}/retried`]);
        const again = await mustLease(frontier, A, T0 + 100);
        assert.deepEqual(again.entry, {
          ...entry(A, "/done", { notBefore: T0 + 100, priority: 4, meta: '{"why":"changed"}' }),
          attempts: 0,
        });
        assert.equal(await frontier.revisit([]), 0);
      }),
    );

    it(
      "a revisited URL is done again after its new lease, and can be revisited again",
      withStore(async ({ frontier }) => {
        await frontier.add([entry(A, "/1")]);
        await drain(frontier, A, T0);
        assert.equal(await frontier.revisit([entry(A, "/1")]), 1);
        assert.equal(await frontier.revisit([entry(A, "/1")]), 0, "queued already");
        assert.deepEqual(await drain(frontier, A, T0 + 1), [`${A}/1`]);
        assert.equal(await frontier.revisit([entry(A, "/1")]), 1);
        assert.equal(await frontier.add([entry(A, "/1")]), 0);
      }),
    );
  });

  describe(`${name}: Frontier.recover — "every lease that ended before now"`, () => {
    it(
      "puts ended leases back, keeps running ones, and makes settling a recovered lease a no-op",
      withStore(async ({ frontier }) => {
        await frontier.add([entry(A, "/1", { priority: 2 }), entry(A, "/2"), entry(B, "/1")]);
        const old = await mustLease(frontier, A, T0); // until T0 + 60000
        const young = await mustLease(frontier, B, T0 + 30_000); // until T0 + 90000
        assert.equal(
          await frontier.recover(T0 + LEASE_MS),
          0,
          "a lease ends at `until`, not before",
        );
        assert.equal(await frontier.recover(T0 + LEASE_MS + 1), 1);
        assert.deepEqual(await frontier.counts(), {
          queued: 2,
          leased: 1,
          done: 0,
          skipped: 0,
          failed: 0,
          origins: 1,
        });
        // The recovered URL is the best of its origin again, with no extra attempt.
        const again = await mustLease(frontier, A, T0 + LEASE_MS + 2);
        assert.equal(again.entry.url, old.entry.url);
        assert.equal(again.entry.attempts, 0);
        assert.notEqual(again.id, old.id);
        // The crashed fetcher comes back late: its settle changes nothing.
        await frontier.settle(old, { kind: "done", status: 200, at: T0 + LEASE_MS + 3 });
        assert.equal((await frontier.counts()).done, 0);
        await frontier.settle(again, { kind: "done", status: 200, at: T0 + LEASE_MS + 3 });
        await frontier.settle(young, { kind: "done", status: 200, at: T0 + LEASE_MS + 3 });
        assert.equal((await frontier.counts()).done, 2);
        assert.equal(await frontier.recover(T0 + 1e9), 0);
      }),
    );

    it(
      "a recovered URL keeps its notBefore and attempts, and its origin is ready again",
      withStore(async ({ frontier }) => {
        await frontier.add([entry(A, "/1", { notBefore: T0 })]);
        await mustLease(frontier, A, T0);
        assert.equal(await frontier.recover(T0 + LEASE_MS + 1), 1);
        assert.deepEqual(await frontier.readyOrigins(T0 + LEASE_MS + 1, 5, new Set()), [A]);
        assert.equal((await mustLease(frontier, A, T0 + LEASE_MS + 1)).entry.notBefore, T0);
      }),
    );
  });

  describe(`${name}: Reservations — "every request to a site takes its reservation"`, () => {
    const ONE = { gapMs: 0, rate: null, inFlight: 1 } as const;
    const granted = (r: Reservation): string => {
      assert.ok(r.granted, `expected the reservation, got ${JSON.stringify(r)}`);
      return r.id;
    };

    it(
      "one in flight: a second process is refused until the first ends; the gap counts from the end",
      withStore(async (store, place) => {
        const other = await place.open();
        const rule = { gapMs: 1000, rate: null, inFlight: 1 };
        const id = granted(await store.reservations.take(A, "p1", T0, rule));
        assert.deepEqual(await other.reservations.take(A, "p2", T0 + 5, rule), {
          granted: false,
          retryAt: T0 + 5,
          why: "in-flight",
        });
        await store.reservations.release(A, id, T0 + 300, 1000, true);
        assert.deepEqual(await other.reservations.take(A, "p2", T0 + 1299, rule), {
          granted: false,
          retryAt: T0 + 1300,
          why: "gap",
        });
        assert.equal(await other.frontier.nextAt(A), T0 + 1300);
        granted(await other.reservations.take(A, "p2", T0 + 1300, rule));
        // Another site is not held by A's reservation.
        granted(await other.reservations.take(B, "p2", T0 + 1300, rule));
      }),
    );

    it(
      "a larger gap asked later still counts from the last end (robots.txt before the rules are known)",
      withStore(async ({ reservations }) => {
        const id = granted(await reservations.take(A, "p1", T0, ONE));
        await reservations.release(A, id, T0 + 10, 0, true);
        const rule = { gapMs: 2000, rate: null, inFlight: 1 };
        const refused = await reservations.take(A, "p1", T0 + 20, rule);
        assert.deepEqual(refused, { granted: false, retryAt: T0 + 2010, why: "gap" });
      }),
    );

    it(
      "released unused: no gap and no place in the rate window",
      withStore(async ({ reservations }) => {
        const rule = { gapMs: 5000, rate: { requests: 1, windowMs: 60_000 }, inFlight: 1 };
        const id = granted(await reservations.take(A, "p1", T0, rule));
        await reservations.release(A, id, T0 + 1, 5000, false);
        granted(await reservations.take(A, "p1", T0 + 2, rule));
      }),
    );

    it(
      "a rate window holds over any stretch of its length, counted from each request's end",
      withStore(async ({ reservations }) => {
        const rule = { gapMs: 0, rate: { requests: 2, windowMs: 10_000 }, inFlight: 1 };
        const a = granted(await reservations.take(A, "p1", T0, rule));
        await reservations.release(A, a, T0 + 10, 0, true);
        const b = granted(await reservations.take(A, "p2", T0 + 20, rule));
        await reservations.release(A, b, T0 + 30, 0, true);
        assert.deepEqual(await reservations.take(A, "p1", T0 + 40, rule), {
          granted: false,
          retryAt: T0 + 10_010,
          why: "rate",
        });
        granted(await reservations.take(A, "p1", T0 + 10_010, rule));
      }),
    );

    it(
      "several in flight when the rule allows them (`--per-host` over every process)",
      withStore(async (store, place) => {
        const other = await place.open();
        const rule = { gapMs: 0, rate: null, inFlight: 2 };
        granted(await store.reservations.take(A, "p1", T0, rule));
        granted(await other.reservations.take(A, "p2", T0, rule));
        const third = await other.reservations.take(A, "p2", T0, rule);
        assert.equal(third.granted, false);
      }),
    );

    it(
      "refused: the site's next moment moves to when it is due, never earlier",
      withStore(async ({ frontier, reservations }) => {
        await frontier.setNextAt(A, T0 + 9000);
        assert.deepEqual(await reservations.take(A, "p1", T0, ONE), {
          granted: false,
          retryAt: T0 + 9000,
          why: "gap",
        });
        const id = granted(await reservations.take(B, "p1", T0, ONE));
        await reservations.release(B, id, T0 + 100, 50, true);
        assert.equal(await frontier.nextAt(B), T0 + 150);
        await frontier.setNextAt(B, T0 + 120);
        assert.equal(await frontier.nextAt(B), T0 + 150);
      }),
    );

    it(
      "reap: a dead process's leases come back at once and its reservation ends as used then",
      withStore(async ({ frontier, reservations }) => {
        await reservations.beat({ id: "dead", host: "h", pid: 1, until: T0 });
        await frontier.add([entry(A, "/1"), entry(A, "/2")]);
        const id = granted(await reservations.take(A, "dead", T0, ONE));
        assert.ok(id);
        const lease = await frontier.lease(A, T0, LEASE_MS, null, "dead");
        assert.ok(lease);
        const mine = await frontier.lease(A, T0, LEASE_MS, null, "alive");
        assert.ok(mine);
        assert.equal((await frontier.counts()).leased, 2);
        assert.deepEqual(await reservations.reap("dead", T0 + 500), {
          leases: 1,
          reservations: 1,
        });
        const counts = await frontier.counts();
        assert.equal(counts.leased, 1);
        assert.equal(counts.queued, 1);
        assert.deepEqual(await reservations.processes(), []);
        const rule = { gapMs: 100, rate: null, inFlight: 1 };
        assert.deepEqual(await reservations.take(A, "alive", T0 + 550, rule), {
          granted: false,
          retryAt: T0 + 600,
          why: "gap",
        });
        // Settling the reaped lease is a no-op.
        await frontier.settle(lease, { kind: "done", status: 200, at: T0 });
        assert.equal((await frontier.counts()).done, 0);
      }),
    );

    it(
      "sitemaps: one claim at a time, read once; a dead reader's claim is freed; a later run may read again",
      withStore(async ({ reservations }) => {
        assert.equal(await reservations.sitemaps(A), null);
        assert.equal(await reservations.claimSitemaps(A, "p1", T0, 0), true);
        assert.equal(await reservations.claimSitemaps(A, "p2", T0, 0), false);
        await reservations.reap("p1", T0 + 1);
        assert.equal(await reservations.claimSitemaps(A, "p2", T0 + 2, 0), true);
        await reservations.sitemapsRead(A, T0 + 3);
        assert.equal((await reservations.sitemaps(A))?.readAt, T0 + 3);
        assert.equal(await reservations.claimSitemaps(A, "p3", T0 + 4, 0), false);
        assert.equal(await reservations.claimSitemaps(A, "p3", T0 + 5, T0 + 4), true);
      }),
    );

    it(
      "sitemaps: the readings not finished, with their reader, or none once it is reaped",
      withStore(async ({ reservations }) => {
        assert.deepEqual(await reservations.unreadSitemaps(10), []);
        assert.equal(await reservations.claimSitemaps(A, "p1", T0, 0), true);
        assert.equal(await reservations.claimSitemaps(B, "p2", T0, 0), true);
        const byOrigin = async () =>
          [...(await reservations.unreadSitemaps(10))].sort((x, y) =>
            x.origin.localeCompare(y.origin),
          );
        assert.deepEqual(await byOrigin(), [
          { origin: A, owner: "p1" },
          { origin: B, owner: "p2" },
        ]);
        assert.equal((await reservations.unreadSitemaps(1)).length, 1);
        await reservations.reap("p1", T0 + 1);
        assert.deepEqual(await byOrigin(), [
          { origin: A, owner: null },
          { origin: B, owner: "p2" },
        ]);
        assert.equal(await reservations.claimSitemaps(A, "p3", T0 + 2, 0), true);
        await reservations.sitemapsRead(A, T0 + 3);
        await reservations.sitemapsRead(B, T0 + 3);
        assert.deepEqual(await reservations.unreadSitemaps(10), []);
        await assert.rejects(reservations.unreadSitemaps(-1), /limit/);
      }),
    );

    it(
      "pace: reads the next moment, the last end, the flights and the window's latest moments, changing nothing",
      withStore(async (store, place) => {
        const { reservations } = store;
        const none = { nextAt: 0, endedAt: null, inFlight: 0, recent: [] };
        assert.deepEqual(await reservations.pace(A, 5), none);
        const rule = { gapMs: 100, rate: { requests: 3, windowMs: 10_000 }, inFlight: 2 };
        const a = granted(await reservations.take(A, "p1", T0, rule));
        await reservations.release(A, a, T0 + 10, 100, true);
        granted(await reservations.take(A, "p1", T0 + 110, rule));
        const held = {
          nextAt: T0 + 110,
          endedAt: T0 + 10,
          inFlight: 1,
          recent: [T0 + 110, T0 + 10],
        };
        assert.deepEqual(await reservations.pace(A, 5), held);
        // Another process reads the same; reading twice changes nothing.
        const other = await place.open();
        assert.deepEqual(await other.reservations.pace(A, 5), held);
        assert.deepEqual(await reservations.pace(A, 5), held);
        assert.deepEqual((await reservations.pace(A, 1)).recent, [T0 + 110]);
        assert.deepEqual((await reservations.pace(A, 0)).recent, []);
        assert.deepEqual(await reservations.pace(B, 5), none);
        // A refusal's moment is read back as the next moment.
        assert.deepEqual(
          await other.reservations.take(A, "p2", T0 + 120, { ...rule, gapMs: 5000 }),
          {
            granted: false,
            retryAt: T0 + 5010,
            why: "gap",
          },
        );
        assert.equal((await reservations.pace(A, 5)).nextAt, T0 + 5010);
        await assert.rejects(reservations.pace(A, -1), StoreError);
        await assert.rejects(reservations.pace(A, 1.5), StoreError);
      }),
    );

    it(
      "heartbeats, identity and seeds read back",
      withStore(async ({ reservations }) => {
        await reservations.beat({ id: "p1", host: "h", pid: 42, until: T0 });
        await reservations.beat({ id: "p1", host: "h", pid: 42, until: T0 + 1 });
        assert.deepEqual(await reservations.processes(), [
          { id: "p1", host: "h", pid: 42, until: T0 + 1 },
        ]);
        assert.equal(await reservations.identity(), null);
        assert.deepEqual(await reservations.seeds(), []);
        assert.equal(await reservations.setIdentity("crawl-1", [`${A}/`]), "crawl-1");
        assert.equal(await reservations.identity(), "crawl-1");
        assert.deepEqual(await reservations.seeds(), [`${A}/`]);
        // A second process starting at the same time joins the first one's crawl.
        assert.equal(await reservations.setIdentity("crawl-2", [`${B}/`]), "crawl-1");
        assert.deepEqual(await reservations.seeds(), [`${A}/`]);
      }),
    );
  });

  describe(`${name}: PageSteps — "what the separate calls would do, in one atomic step"`, () => {
    const RULE = { gapMs: 1000, rate: null, inFlight: 1 } as const;

    it(
      "leaseReserved takes the reservation, leases the best URL and reads its validators",
      withStore(async (store, place) => {
        await store.frontier.add([entry(A, "/low"), entry(A, "/high", { priority: 5 })]);
        await store.pages.put({
          url: `${A}/high`,
          etag: '"v1"',
          lastModified: null,
          fetchedAt: T0 - 10,
          status: 200,
        });
        const got = await store.steps.leaseReserved(A, "p1", T0, RULE, LEASE_MS);
        assert.ok(got.granted && got.lease !== null, JSON.stringify(got));
        assert.equal(got.lease.entry.url, `${A}/high`);
        assert.equal(got.lease.until, T0 + LEASE_MS);
        assert.deepEqual(got.validators, {
          url: `${A}/high`,
          etag: '"v1"',
          lastModified: null,
          fetchedAt: T0 - 10,
          status: 200,
          revisitAt: null,
        });
        // The reservation is held: another process is refused while it is in flight.
        const other = await place.open();
        assert.deepEqual(await other.steps.leaseReserved(A, "p2", T0 + 1, RULE, LEASE_MS), {
          granted: false,
          retryAt: T0 + 1,
          why: "in-flight",
        });
        await store.reservations.release(A, got.id, T0 + 100, RULE.gapMs, true);
        assert.deepEqual(await other.steps.leaseReserved(A, "p2", T0 + 200, RULE, LEASE_MS), {
          granted: false,
          retryAt: T0 + 1100,
          why: "gap",
        });
        const next = await other.steps.leaseReserved(A, "p2", T0 + 1100, RULE, LEASE_MS);
        assert.ok(next.granted && next.lease !== null);
        assert.equal(next.lease.entry.url, `${A}/low`);
        assert.equal(next.validators, null);
        assert.equal((await store.frontier.counts()).leased, 2);
      }),
    );

    it(
      "leaseReserved with nothing due gives the reservation back unused: no gap, nothing in flight",
      withStore(async (store) => {
        await store.frontier.add([entry(A, "/later", { notBefore: T0 + 5000 })]);
        const got = await store.steps.leaseReserved(A, "p1", T0, RULE, LEASE_MS);
        assert.ok(got.granted && got.lease === null, JSON.stringify(got));
        assert.equal((await store.reservations.pace(A, 10)).inFlight, 0);
        assert.deepEqual((await store.reservations.pace(A, 10)).recent, []);
        assert.ok((await store.reservations.take(A, "p1", T0 + 1, RULE)).granted);
      }),
    );

    it(
      "settle keeps the links, the validators and the log line with the outcome",
      withStore(async (store) => {
        await store.frontier.add([entry(A, "/")]);
        const lease = await mustLease(store.frontier, A, T0);
        const record: CrawlRecord = {
          url: `${A}/`,
          origin: A,
          at: T0,
          ms: 5,
          status: 200,
          bytes: 10,
          outcome: "fetched",
          detail: null,
        };
        await store.steps.settle(
          lease,
          { kind: "done", status: 200, at: T0 + 5 },
          {
            links: [entry(A, "/a", { depth: 1 }), entry(B, "/b", { depth: 1 })],
            page: {
              url: `${A}/`,
              etag: null,
              lastModified: "Tue, 01 Jan 2030 00:00:00 GMT",
              fetchedAt: T0,
              status: 200,
              revisitAt: T0 + 50,
            },
            record,
          },
        );
        const counts = await store.frontier.counts();
        assert.deepEqual([counts.done, counts.leased, counts.queued], [1, 0, 2]);
        assert.equal((await store.pages.get(`${A}/`))?.revisitAt, T0 + 50);
        const due: string[] = [];
        for await (const batch of store.pages.due(T0 + 60, 10)) due.push(...batch);
        assert.deepEqual(due, [`${A}/`]);
        const [logged] = await store.log.list(10, 0);
        assert.equal(logged?.url, `${A}/`);
        assert.equal(logged?.outcome, "fetched");
        assert.equal(await store.log.count(), 1);
        assert.deepEqual(await drain(store.frontier, B, T0 + 10), [`${B}/b`]);
      }),
    );

    it(
      "settle of a lease recovered since ends nothing, and still keeps the page's writes",
      withStore(async (store) => {
        await store.frontier.add([entry(A, "/")]);
        const lease = await mustLease(store.frontier, A, T0);
        await store.frontier.recover(T0 + LEASE_MS + 1);
        await store.steps.settle(
          lease,
          { kind: "done", status: 200, at: T0 + 5 },
          { links: [entry(A, "/a")] },
        );
        const counts = await store.frontier.counts();
        assert.deepEqual([counts.done, counts.queued], [0, 2]);
      }),
    );

    it(
      "settle refuses a bad link or record before writing anything",
      withStore(async (store) => {
        await store.frontier.add([entry(A, "/")]);
        const lease = await mustLease(store.frontier, A, T0);
        await assert.rejects(
          store.steps.settle(
            lease,
            { kind: "done", status: 200, at: T0 },
            { links: [{ ...entry(A, "/x"), depth: Number.NaN }] },
          ),
          StoreError,
        );
        assert.equal((await store.frontier.counts()).leased, 1);
      }),
    );
  });

  describe(`${name}: a store reopened`, () => {
    it(
      "keeps the queue, the leases, the counts and the politeness state",
      withStore(async (store, place) => {
        await store.frontier.add([entry(A, "/1"), entry(A, "/2"), entry(B, "/1")]);
        const lease = await mustLease(store.frontier, A, T0, T0 + 4000);
        await store.frontier.settle(await mustLease(store.frontier, B, T0, T0 + 9000), {
          kind: "done",
          status: 200,
          at: T0,
        });
        const counts = await store.frontier.counts();
        await store.close();
        const reopened = await place.open();
        assert.deepEqual(await reopened.frontier.counts(), counts);
        assert.equal(await reopened.frontier.nextAt(A), T0 + 4000);
        assert.equal(await reopened.frontier.nextAt(B), T0 + 9000);
        assert.equal(await reopened.frontier.lease(A, T0 + 3999, LEASE_MS, T0), null);
        assert.equal(await reopened.frontier.recover(lease.until + 1), 1);
        assert.deepEqual(await drain(reopened.frontier, A, lease.until + 1), [`${A}/1`, `${A}/2`]);
      }),
    );

    it(
      "closes once however often close is called: at once, and again after (a cleanup's)",
      withStore(async (store, place) => {
        await store.frontier.add([entry(A, "/1")]);
        // The race the reopened test met on a busy machine, made certain: a second close while
        // the first one's connection is still going away.
        await Promise.all([store.close(), store.close()]);
        await store.close();
        const reopened = await place.open();
        assert.equal((await reopened.frontier.counts()).queued, 1);
      }),
    );
  });

  describe(`${name}: RobotsCache`, () => {
    const robots: CachedRobots = {
      origin: A,
      fetchedAt: T0,
      expiresAt: T0 + 86_400_000,
      status: 200,
      action: "parse",
      // Not UTF-8, with a NUL and a BOM: bytes in, the same bytes out.
      body: new Uint8Array([0xef, 0xbb, 0xbf, 0x55, 0x00, 0xff, 0xfe, 0x0a]),
      lastGoodBody: new Uint8Array([0x41, 0x0d, 0x0a]),
      firstFailureAt: null,
      attempts: 0,
    };

    it(
      "gives back what was put, bytes and nulls included; null for an unknown origin",
      withStore(async (store) => {
        assert.equal(await store.robots.get(A), null);
        await store.robots.put(robots);
        const got = await store.robots.get(A);
        assert.deepEqual(got, robots);
        assert.ok(got?.body instanceof Uint8Array);
        const empty: CachedRobots = { ...robots, origin: B, body: new Uint8Array(0) };
        await store.robots.put(empty);
        assert.deepEqual(await store.robots.get(B), empty);
      }),
    );

    it(
      "a later put replaces the whole entry (an outage: no body, the last good one kept)",
      withStore(async (store) => {
        await store.robots.put(robots);
        const outage: CachedRobots = {
          ...robots,
          fetchedAt: T0 + 1,
          expiresAt: T0 + 60_000,
          status: null,
          action: "unreachable",
          body: null,
          firstFailureAt: T0 + 1,
          attempts: 3,
        };
        await store.robots.put(outage);
        assert.deepEqual(await store.robots.get(A), outage);
      }),
    );
  });

  describe(`${name}: CrawlLog — "in the order they were appended"`, () => {
    /** A record as read back: every optional field present, null where none was given. */
    const stored = (record: CrawlRecord): CrawlRecord => ({
      canonical: null,
      via: null,
      requiredGapMs: null,
      gapMs: null,
      waitedMs: null,
      usage: null,
      referrer: null,
      ...record,
    });

    it(
      "lists records in order, by pages of limit from offset, and counts them",
      withStore(async (store) => {
        assert.equal(await store.log.count(), 0);
        assert.deepEqual(await store.log.list(10, 0), []);
        const records: CrawlRecord[] = Array.from({ length: 25 }, (_, i) => ({
          url: `${A}/${i}`,
          origin: A,
          at: T0 + i,
          ms: i * 3,
          status: i % 5 === 0 ? null : 200,
          bytes: i * 100,
          outcome: i % 5 === 0 ? "error" : "fetched",
          detail: i % 5 === 0 ? "ECONNRESET" : null,
        }));
        for (const record of records) await store.log.append(record);
        const back = records.map(stored);
        assert.equal(await store.log.count(), 25);
        assert.deepEqual(await store.log.list(10, 0), back.slice(0, 10));
        assert.deepEqual(await store.log.list(10, 10), back.slice(10, 20));
        assert.deepEqual(await store.log.list(10, 20), back.slice(20));
        assert.deepEqual(await store.log.list(10, 25), []);
        assert.deepEqual(await store.log.list(0, 0), []);
        assert.deepEqual(await store.log.list(100, 0), back);
      }),
    );

    it(
      'keeps canonical, via, requiredGapMs, gapMs and waitedMs; "an optional field left out is stored as null"',
      withStore(async (store, place) => {
        const full: CrawlRecord = {
          url: `${A}/full?q=1`,
          origin: A,
          at: T0,
          ms: 42,
          status: 200,
          bytes: 1234,
          outcome: "fetched",
          detail: "line 3: Allow: /",
          canonical: `${A}/full`,
          via: "sitemap",
          requiredGapMs: 1100,
          gapMs: 1100.5,
          waitedMs: 0,
          usage: '{"train-ai":{"value":"disallowed"}}',
          referrer: `${A}/index.html`,
        };
        const nulls: CrawlRecord = {
          url: `${A}/nulls`,
          origin: A,
          at: T0 + 1,
          ms: 0,
          status: null,
          bytes: 0,
          outcome: "disallowed",
          detail: "rule: line 2: Disallow: /",
          canonical: null,
          via: null,
          requiredGapMs: null,
          gapMs: null,
          waitedMs: null,
          usage: null,
          referrer: null,
        };
        const bare: CrawlRecord = {
          url: `${B}/bare`,
          origin: B,
          at: T0 + 2,
          ms: 7,
          status: 404,
          bytes: 9,
          outcome: "fetched",
          detail: null,
        };
        const vias = ["seed", "link", "srcloc", "redirect", "revisit", "mirror"] as const;
        const each: CrawlRecord[] = vias.map((via, i) => ({
          ...bare,
          url: `${B}/${via}`,
          at: T0 + 10 + i,
          via,
          gapMs: i * 250,
          requiredGapMs: 250,
          waitedMs: i * 1000 + 1,
        }));
        const records = [full, nulls, bare, ...each];
        for (const record of records) await store.log.append(record);
        const back = records.map(stored);
        assert.deepEqual(await store.log.list(100, 0), back);
        // A second connection (another process) reads the same.
        const other = await place.open();
        assert.deepEqual(await other.log.list(2, 1), back.slice(1, 3));
      }),
    );

    it(
      'scan: "every record, in the order appended, batch at a time", for any batch size',
      withStore(async (store) => {
        const collect = async (batch: number) => {
          const sizes: number[] = [];
          const seen: CrawlRecord[] = [];
          for await (const records of store.log.scan(batch)) {
            sizes.push(records.length);
            seen.push(...records);
          }
          return { sizes, seen };
        };
        assert.deepEqual(await collect(10), { sizes: [], seen: [] });
        const records: CrawlRecord[] = Array.from({ length: 23 }, (_, i) => ({
          url: `${C}/${i}`,
          origin: C,
          at: T0 + i * 100,
          ms: 5,
          status: 200,
          bytes: 10,
          outcome: "fetched",
          detail: null,
          via: i === 0 ? "seed" : "link",
          gapMs: i === 0 ? null : 95,
          requiredGapMs: i === 0 ? null : 90,
        }));
        for (const record of records) await store.log.append(record);
        const back = records.map(stored);
        assert.deepEqual(await collect(10), { sizes: [10, 10, 3], seen: back });
        assert.deepEqual(await collect(23), { sizes: [23], seen: back });
        assert.deepEqual(await collect(1), { sizes: Array(23).fill(1), seen: back });
        assert.deepEqual((await collect(5000)).seen, back);
      }),
    );

    it(
      "refuses a record it cannot keep faithfully with HEED_STORE_BAD_ARGUMENT, writing nothing",
      withStore(async (store) => {
        const good: CrawlRecord = {
          url: `${A}/x`,
          origin: A,
          at: T0,
          ms: 1,
          status: 200,
          bytes: 1,
          outcome: "fetched",
          detail: null,
        };
        const bad: unknown[] = [
          { ...good, via: "rumour" },
          { ...good, at: Number.NaN },
          { ...good, gapMs: Number.POSITIVE_INFINITY },
          { ...good, url: "" },
          { ...good, status: 200.5 },
        ];
        for (const record of bad) {
          await assert.rejects(
            store.log.append(record as CrawlRecord),
            (error: unknown) =>
              error instanceof StoreError && error.code === "HEED_STORE_BAD_ARGUMENT",
            JSON.stringify(record),
          );
        }
        assert.equal(await store.log.count(), 0);
        await assert.rejects(
          async () => {
            for await (const _ of store.log.scan(0)) assert.fail("no batch of size 0");
          },
          (error: unknown) =>
            error instanceof StoreError && error.code === "HEED_STORE_BAD_ARGUMENT",
        );
      }),
    );
  });

  describe(`${name}: PageStore`, () => {
    it(
      "gives back the validators; a put replaces; null when unknown",
      withStore(async (store) => {
        assert.equal(await store.pages.get(`${A}/x`), null);
        const page = {
          url: `${A}/x`,
          etag: 'W/"abc"',
          lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
          fetchedAt: T0,
          status: 200,
        };
        await store.pages.put(page);
        // A revisit moment left out is stored as none.
        assert.deepEqual(await store.pages.get(`${A}/x`), { ...page, revisitAt: null });
        const bare = {
          ...page,
          etag: null,
          lastModified: null,
          status: 304,
          fetchedAt: T0 + 1,
          revisitAt: T0 + 60_000,
        };
        await store.pages.put(bare);
        assert.deepEqual(await store.pages.get(`${A}/x`), bare);
      }),
    );

    it(
      "lists the pages due for a revisit, soonest first, in batches; a put without one withdraws it",
      withStore(async (store) => {
        const put = (path: string, revisitAt: number | null) =>
          store.pages.put({
            url: `${A}${path}`,
            etag: null,
            lastModified: null,
            fetchedAt: T0,
            status: 200,
            revisitAt,
          });
        // Seven due (one exactly at the moment asked), one later, one never.
        for (let i = 0; i < 7; i++) await put(`/due${i}`, T0 + 1000 - i * 100);
        await put("/later", T0 + 5000);
        await put("/never", null);
        await put("/withdrawn", T0);
        await put("/withdrawn", null);
        const batches: (readonly string[])[] = [];
        for await (const batch of store.pages.due(T0 + 1000, 3)) batches.push(batch);
        assert.deepEqual(
          batches.map((b) => b.length),
          [3, 3, 1],
        );
        assert.deepEqual(
          batches.flat(),
          [6, 5, 4, 3, 2, 1, 0].map((i) => `${A}/due${i}`),
        );
        const none: string[] = [];
        for await (const batch of store.pages.due(T0, 10)) none.push(...batch);
        assert.deepEqual(none, []);
      }),
    );
  });

  describe(`${name}: ItemLog — "in the order they were appended"`, () => {
    it(
      "keeps the records of two connections (two processes) in order, in batches, and counts them",
      withStore(async (store, place) => {
        const other = await place.open();
        await store.items.append(['{"n":1}', '{"n":2}']);
        await other.items.append(['{"n":3}']);
        await store.items.append([]);
        await store.items.append(['{"n":4}', '{"n":5}']);
        const batches: (readonly string[])[] = [];
        for await (const batch of other.items.scan(2)) batches.push(batch);
        assert.deepEqual(
          batches.map((b) => b.length),
          [2, 2, 1],
        );
        assert.deepEqual(
          batches.flat().map((t) => (JSON.parse(t) as { n: number }).n),
          [1, 2, 3, 4, 5],
        );
        assert.equal(await store.items.count(), 5);
      }),
    );

    it(
      "refuses, before writing any, a record that is not text or is over MAX_ITEM_CHARS",
      withStore(async (store) => {
        const refused = (error: unknown) =>
          error instanceof StoreError && error.code === "HEED_STORE_BAD_ARGUMENT";
        await assert.rejects(store.items.append(['{"ok":1}', 5 as unknown as string]), refused);
        await assert.rejects(store.items.append([`"${"x".repeat(MAX_ITEM_CHARS)}"`]), refused);
        await assert.rejects(store.items.scan(0)[Symbol.asyncIterator]().next(), refused);
        assert.equal(await store.items.count(), 0);
      }),
    );
  });
}
