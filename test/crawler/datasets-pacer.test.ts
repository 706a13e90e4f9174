// The pace of `heed datasets` on one site (src/crawler/datasets/site-pacer.ts), on a clock
// given by the test: Crawl-delay from the answer, Request-rate windows (seeds/003 §3.2.7), the
// larger of Crawl-delay and Ip-delay, a gap kept from a request made before the pacer, and the
// longest wait.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_WAIT_MS, SitePacer } from "../../src/crawler/datasets/site-pacer.js";
import { type AccessPlan, EMPTY_PLAN } from "../../src/protocol/robots/plan.js";

function clockedPacer(plan: AccessPlan) {
  let now = 1_000_000;
  const waits: number[] = [];
  const pacer = new SitePacer({
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  pacer.setPlan(plan);
  return {
    pacer,
    waits,
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
    const { pacer, waits } = clockedPacer(EMPTY_PLAN);
    for (let i = 0; i < 3; i++) {
      await pacer.before();
      pacer.after();
    }
    assert.deepEqual(waits, []);
  });

  it("Crawl-delay counts from the answer, not from the request", async () => {
    const { pacer, waits, advance } = clockedPacer(delay(2));
    await pacer.before();
    advance(500); // the answer takes 0.5 s
    pacer.after();
    await pacer.before();
    assert.deepEqual(waits, [2000]);
    pacer.after();
    advance(1500); // time spent elsewhere counts towards the next gap
    await pacer.before();
    assert.deepEqual(waits, [2000, 500]);
  });

  it("the larger of Crawl-delay and Ip-delay applies", async () => {
    const plan: AccessPlan = { ...delay(1), ipDelay: { value: 3, line: 4 } };
    const { pacer, waits } = clockedPacer(plan);
    await pacer.before();
    pacer.after();
    await pacer.before();
    assert.deepEqual(waits, [3000]);
    assert.equal(pacer.delayMs, 3000);
  });

  it("seeds/003 §3.2.7 Request-rate 2/10s: the third request waits for the window's end", async () => {
    const plan: AccessPlan = {
      ...EMPTY_PLAN,
      rates: [{ scope: "agent", requests: 2, seconds: 10, line: 3 }],
    };
    const { pacer, waits } = clockedPacer(plan);
    for (let i = 0; i < 3; i++) {
      await pacer.before();
      pacer.after();
    }
    assert.deepEqual(waits, [10_000]);
  });

  it("startAfter: a request made before the pacer (by the crawl) counts for the first gap", async () => {
    const { pacer, waits, now } = clockedPacer(delay(1));
    pacer.startAfter(now() - 400);
    await pacer.before();
    assert.deepEqual(waits, [600]);
  });

  it(`MAX_WAIT_MS (${MAX_WAIT_MS}): a longer delay is waited only that long`, async () => {
    const { pacer, waits } = clockedPacer(delay(24 * 3600));
    await pacer.before();
    pacer.after();
    await pacer.before();
    assert.deepEqual(waits, [MAX_WAIT_MS]);
  });
});
