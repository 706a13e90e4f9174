// The pace of `heed datasets` on one site (src/crawler/datasets/site-pacer.ts), through the
// site's reservation in a store of its own, on a clock given by the test: Crawl-delay from the answer, Request-rate windows (seeds/003 §3.2.7), the
// larger of Crawl-delay and Ip-delay, a gap kept from a page taken through the same gate, and
// the longest wait.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_WAIT_MS, SitePacer } from "../../src/crawler/datasets/site-pacer.js";
import { openSiteGate } from "../../src/crawler/site-gate.js";
import { type AccessPlan, EMPTY_PLAN } from "../../src/protocol/robots/plan.js";
import { openSqliteStore } from "../../src/store/sqlite/index.js";

async function clockedPacer(plan: AccessPlan) {
  let now = 1_000_000;
  const waits: number[] = [];
  const pacer = await SitePacer.open("http://site.test/", {
    now: () => now,
    sleep: async (ms: number) => {
      waits.push(ms);
      now += ms;
    },
  });
  pacer.setPlan(plan);
  return {
    pacer,
    // The gate sleeps at most a second at a time: the waits, summed between requests.
    get waits() {
      return waits.length === 0 ? [] : [waits.reduce((a, b) => a + b, 0)];
    },
    reset: () => {
      waits.length = 0;
    },
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

const delay = (seconds: number): AccessPlan => ({
  ...EMPTY_PLAN,
  delaySeconds: seconds,
  crawlDelay: { value: seconds, line: 2 },
});

describe("SitePacer", () => {
  it("no rules: no waiting", async () => {
    const c = await clockedPacer(EMPTY_PLAN);
    for (let i = 0; i < 3; i++) {
      await c.pacer.before();
      c.pacer.after();
    }
    assert.deepEqual(c.waits, []);
  });

  it("Crawl-delay counts from the answer, not from the request", async () => {
    const c = await clockedPacer(delay(2));
    await c.pacer.before();
    c.advance(500); // the answer takes 0.5 s
    c.pacer.after();
    await c.pacer.before();
    assert.deepEqual(c.waits, [2000]);
    c.pacer.after();
    c.reset();
    c.advance(1500); // time spent elsewhere counts towards the next gap
    await c.pacer.before();
    assert.deepEqual(c.waits, [500]);
    assert.equal(c.pacer.waitedMs, 2500);
  });

  it("the larger of Crawl-delay and Ip-delay applies", async () => {
    const plan: AccessPlan = { ...delay(1), ipDelay: { value: 3, line: 4 } };
    const c = await clockedPacer(plan);
    await c.pacer.before();
    c.pacer.after();
    await c.pacer.before();
    assert.deepEqual(c.waits, [3000]);
    assert.equal(c.pacer.delayMs, 3000);
  });

  it("seeds/003 §3.2.7 Request-rate 2/10s: the third request starts 10 s after the first", async () => {
    const plan: AccessPlan = {
      ...EMPTY_PLAN,
      rates: [{ scope: "agent", requests: 2, seconds: 10, line: 3 }],
    };
    const c = await clockedPacer(plan);
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      await c.pacer.before();
      starts.push(c.now());
      c.pacer.after();
    }
    assert.equal(starts[2]! - starts[0]!, 10_000);
  });

  it("a request made through the same gate (a page of the crawl) counts for the first gap", async () => {
    let now = 1_000_000;
    const waits: number[] = [];
    const store = await openSqliteStore(":memory:");
    const { gate, close } = await openSiteGate({
      store,
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    try {
      const page = await gate.take("http://site.test", delay(1), "page");
      assert.ok(page !== null);
      now += 100;
      await gate.release(page, true);
      now += 400;
      const pacer = await SitePacer.open("http://site.test/", { gate, now: () => now });
      await pacer.before();
      assert.equal(
        waits.reduce((a, b) => a + b, 0),
        600,
      );
      await pacer.close();
    } finally {
      await close();
      await store.close();
    }
  });

  it(`MAX_WAIT_MS (${MAX_WAIT_MS}): a longer delay is waited only that long`, async () => {
    const c = await clockedPacer(delay(24 * 3600));
    await c.pacer.before();
    c.pacer.after();
    await c.pacer.before();
    assert.deepEqual(c.waits, [MAX_WAIT_MS]);
  });
});
