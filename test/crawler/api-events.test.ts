// The crawler library's events (src/crawler/api/events.ts) and how thrown values are described
// (src/crawler/describe-error.ts): a slow reader, a throwing listener, a hostile thrown value.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CrawlEvents, MAX_BUFFERED_EVENTS } from "../../src/crawler/api/events.js";
import type { CrawlEvent } from "../../src/crawler/crawler.js";
import { describeError, MAX_ERROR_CHARS } from "../../src/crawler/describe-error.js";

const fetched = (n: number): CrawlEvent => ({
  type: "fetched",
  url: `https://a.example/${n}`,
  status: 200,
});

describe("CrawlEvents", () => {
  it("an iterator read too slowly keeps the last events and says how many it dropped", async () => {
    const hub = new CrawlEvents();
    hub.begin();
    const stream = hub.stream();
    for (let i = 0; i < MAX_BUFFERED_EVENTS + 5; i++) hub.emit(fetched(i));
    hub.end();
    const got: CrawlEvent[] = [];
    for await (const event of stream) got.push(event);
    assert.deepEqual(got[0], {
      type: "notice",
      message: "5 events were dropped: the iterator was read too slowly",
    });
    assert.equal(got.length, MAX_BUFFERED_EVENTS + 1);
    assert.deepEqual(got[1], fetched(5));
  });

  it("typed listeners get their type only; one that throws is told of in a notice, once", () => {
    const hub = new CrawlEvents();
    const notices: string[] = [];
    const urls: string[] = [];
    hub.on("fetched", (event) => urls.push(event.url));
    hub.on("fetched", () => {
      throw new Error("bad listener");
    });
    hub.on("notice", (event) => {
      notices.push(event.message);
      throw new Error("bad notice listener");
    });
    const off = hub.on("skipped", () => assert.fail("unsubscribed"));
    off();
    hub.emit(fetched(1));
    hub.emit({ type: "skipped", url: "https://a.example/x", reason: "r" });
    assert.deepEqual(urls, ["https://a.example/1"]);
    assert.deepEqual(notices, ["an event listener threw: bad listener"]);
  });

  it("an iterator given back early stops receiving", async () => {
    const hub = new CrawlEvents();
    hub.begin();
    const stream = hub.stream();
    hub.emit(fetched(1));
    assert.deepEqual((await stream.next()).value, fetched(1));
    await stream.return?.();
    hub.emit(fetched(2));
    assert.equal((await stream.next()).done, true);
  });
});

describe("describeError", () => {
  const table: [string, unknown, string][] = [
    ["an Error", new Error("boom"), "boom"],
    ["an Error without a message", new TypeError(""), "TypeError"],
    ["a string over lines", "a\n  b", "a b"],
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["an object", { a: 1 }, '{"a":1}'],
    [
      "a cycle",
      (() => {
        const o: Record<string, unknown> = {};
        o["o"] = o;
        return o;
      })(),
      "a value that cannot be described",
    ],
    ["a BigInt", 10n, "10"],
    [
      "a throwing getter",
      {
        get message(): string {
          throw new Error("x");
        },
        toJSON() {
          throw new Error("y");
        },
      },
      "a value that cannot be described",
    ],
    ["a symbol", Symbol("s"), "Symbol(s)"],
  ];
  for (const [name, value, expected] of table)
    it(name, () => assert.equal(describeError(value), expected));

  it(`cuts a long message at ${MAX_ERROR_CHARS} characters`, () => {
    assert.equal(describeError("x".repeat(10_000)).length, MAX_ERROR_CHARS + 1);
  });
});
