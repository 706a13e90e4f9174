// A message read from a stream in chunks: only the chunk that completes a message with a
// Content-Length is handed on; without one, every chunk is.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MessageBuffer } from "../../../src/protocol/atp/message-buffer.js";
import { readRequest } from "../../../src/protocol/atp/reader.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const MESSAGE =
  "DISPATCH atp://127.0.0.1:4434/ ATP/0.1\r\nContent-Length: 10\r\nAgent-System: heed\r\n\r\n0123456789";

describe("MessageBuffer", () => {
  it("holds back the body's chunks until the last, then gives the whole message", () => {
    for (const cut of [5, 30, MESSAGE.length - 10, MESSAGE.length - 1]) {
      const buffer = new MessageBuffer();
      const first = buffer.push(bytes(MESSAGE.slice(0, cut)));
      // Before the head is whole, the bytes are handed on (the reader says "incomplete").
      if (first !== null) assert.equal(readRequest(first).kind, "incomplete", `cut at ${cut}`);
      const whole = buffer.push(bytes(MESSAGE.slice(cut)));
      assert.ok(whole !== null, `cut at ${cut}`);
      const read = readRequest(whole);
      assert.equal(read.kind, "message");
      assert.equal(buffer.length, MESSAGE.length);
    }
  });

  it("a body arriving in many chunks is read once", () => {
    const head = MESSAGE.slice(0, MESSAGE.indexOf("\r\n\r\n") + 4);
    const buffer = new MessageBuffer();
    assert.equal(buffer.push(bytes(head)), null, "the head names ten bytes still to come");
    const handed = [..."0123456789"].map((c) => buffer.push(bytes(c)));
    assert.deepEqual(
      handed.map((h) => h !== null),
      [false, false, false, false, false, false, false, false, false, true],
    );
    assert.equal(new TextDecoder().decode(buffer.bytes()), MESSAGE);
  });
});
