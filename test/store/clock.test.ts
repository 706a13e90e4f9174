// The store's clock as a process reads it (src/store/clock.ts): the store's time against the
// midpoint of the round trip, a slow sample not replacing a quicker one, and a clock that never
// goes back. Both clocks are plain functions here: no test waits.
import assert from "node:assert/strict";
import { it } from "node:test";
import { SampledClock } from "../../src/store/clock.js";

/** A store answering `times` in turn, and a monotonic clock read in the order `ticks` gives. */
function scripted(times: readonly number[], ticks: readonly number[]) {
  let t = 0;
  let r = 0;
  let mono = 0;
  return {
    read: async () => times[r++] ?? assert.fail("read once too often"),
    monotonic: () => {
      mono = ticks[t++] ?? mono;
      return mono;
    },
  };
}

it("reads the store's time at the midpoint of the round trip", async () => {
  // Three samples at the start, each 40 ms long; the store's clock is 1,000,000 ahead.
  const { read, monotonic } = scripted(
    [1_000_120, 1_000_220, 1_000_320],
    [100, 140, 200, 240, 300, 340, 500],
  );
  const clock = await SampledClock.start({ read, monotonic, resyncMs: 3_600_000 });
  try {
    assert.equal(clock.now(), 1_000_500);
  } finally {
    clock.stop();
  }
});

it("keeps a quick sample over a slow one, takes a quicker one, and never goes back", async () => {
  const { read, monotonic } = scripted(
    // Three samples of 10 ms (the store 5,000 ahead); one of 100 ms that would put it 95 ms
    // further ahead; one of 4 ms that puts it 220 ms less ahead.
    [5_005, 5_015, 5_025, 5_245, 5_082],
    [0, 10, 10, 20, 20, 30, 100, 200, 300, 300, 304, 300, 600],
  );
  const clock = await SampledClock.start({ read, monotonic, resyncMs: 3_600_000 });
  try {
    await clock.sync();
    assert.equal(clock.now(), 5_300, "the slow sample is not taken");
    await clock.sync();
    // The quicker sample says 5,080 at 300: the clock holds at what it gave, then goes on.
    assert.equal(clock.now(), 5_300);
    assert.equal(clock.now(), 5_380);
  } finally {
    clock.stop();
  }
});
