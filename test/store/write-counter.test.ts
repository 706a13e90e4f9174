// A store's write count as one process sees it (src/store/write-counter.ts): each counted write
// returns a count above every earlier one, so a count not above the highest seen can only come
// from a store that went back to an older state.
import assert from "node:assert/strict";
import { it } from "node:test";
import { StoreError } from "../../src/store/errors.js";
import { WriteCounter } from "../../src/store/write-counter.js";

it("keeps the highest count and throws HEED_STORE_WENT_BACK at one not above it, from then on", () => {
  const told: StoreError[] = [];
  const counter = new WriteCounter(
    async () => new Map(),
    (error) => told.push(error),
  );
  counter.wrote(1);
  counter.wrote(7);
  assert.equal(counter.highest(), 7);
  assert.equal(counter.wentBack(), null);
  assert.throws(
    () => counter.wrote(7),
    (error: unknown) =>
      error instanceof StoreError &&
      error.code === "HEED_STORE_WENT_BACK" &&
      /write count is 7, and this process had seen 7/.test(error.message),
  );
  // A store that went back stays untrusted, whatever it answers next.
  assert.throws(() => counter.wrote(100), /went back/);
  assert.equal(told.length, 1);
  assert.equal(counter.wentBack(), told[0]);
  assert.equal(counter.highest(), 7);
});

it("read takes the store's count without a write: an equal count is no going back", async () => {
  const counter = new WriteCounter(async () => new Map([["", 5]]));
  assert.equal(await counter.read(), 5);
  assert.equal(counter.highest(), 5);
  counter.wrote(6);
  assert.equal(await counter.read(), 5);
  assert.equal(counter.highest(), 6, "a read never lowers the highest seen");
});

it("a store holding no crawl after counts were seen lost its data: HEED_STORE_LOST", () => {
  const counter = new WriteCounter(async () => new Map());
  // A store used without a crawl identity (the library's own use) counts as any.
  counter.wrote(1, false);
  counter.wrote(2, false);
  counter.wrote(3);
  // Once written with an identity, a count without one is a store that lost the crawl, even a
  // count above the highest.
  assert.throws(
    () => counter.wrote(9, false),
    (error: unknown) =>
      error instanceof StoreError &&
      error.code === "HEED_STORE_LOST" &&
      /lost its data/.test(error.message),
  );
});

it("check reads each part: one below the highest seen of it went back, told and not thrown", async () => {
  const told: StoreError[] = [];
  let counts = new Map([
    ["a", 4],
    ["b", 9],
  ]);
  const counter = new WriteCounter(
    async () => counts,
    (error) => told.push(error),
  );
  counter.wrote(4, true, "a");
  counter.wrote(9, true, "b");
  await counter.check();
  assert.equal(counter.wentBack(), null, "counts as high as seen are no going back");
  counts = new Map([
    ["a", 0],
    ["b", 9],
  ]);
  await counter.check();
  assert.equal(counter.wentBack(), null, "no count at all: lost, which the identity tells");
  counts = new Map([
    ["a", 2],
    ["b", 12],
  ]);
  await counter.check();
  assert.equal(told.length, 1);
  assert.equal(counter.wentBack(), told[0]);
  assert.match(told[0]?.message ?? "", /write count is 2, and this process had seen 4/);
});

it("read sums the parts' counts", async () => {
  const counter = new WriteCounter(
    async () =>
      new Map([
        ["a", 4],
        ["b", 9],
      ]),
  );
  assert.equal(await counter.read(), 13);
  assert.equal(counter.highest(), 13);
});

it("check: a write answered while the counts are read is no going back", async () => {
  const told: StoreError[] = [];
  let counter: WriteCounter | null = null;
  counter = new WriteCounter(
    async () => {
      // The store read 5, and a lease made after that read came back 6 before the answer did.
      counter?.wrote(6, true, "a");
      return new Map([["a", 5]]);
    },
    (error) => told.push(error),
  );
  counter.wrote(5, true, "a");
  await counter.check();
  assert.deepEqual(told, []);
  assert.equal(counter.highest(), 6);
});
