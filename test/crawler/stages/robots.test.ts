// robots.ts: what the crawl log says of a robots.txt answer. RFC 9309 §2.5: a crawler must
// read at least 500 KiB; rules past what it read are not seen, and the log says so.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_ROBOTS_BYTES } from "../../../src/protocol/robots/limits.js";
import { robotsDetail } from "../../../src/crawler/stages/robots.js";

describe("robotsDetail", () => {
  it("no answer", () => assert.equal(robotsDetail(null), "no answer"));
  it("an answer read whole says nothing", () =>
    assert.equal(robotsDetail({ body: new Uint8Array(10), bodyCut: false }), null));
  it("an answer cut at the limit says how much was read", () =>
    assert.match(
      robotsDetail({ body: new Uint8Array(MAX_ROBOTS_BYTES), bodyCut: true }) ?? "",
      new RegExp(`over ${MAX_ROBOTS_BYTES} bytes; only the first ${MAX_ROBOTS_BYTES} were read`),
    ));
});
