// check --batch writes its output lines straight into bytes (src/cli/line-bytes.ts): they must
// be exactly the bytes JSON.stringify and Buffer's UTF-8 encoding give, for any string.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { LineBytes } from "../../src/cli/line-bytes.js";

// Any UTF-16 units: controls, quotes, backslashes, non-ASCII, pairs and lone surrogates.
const units = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0xffff }),
      fc.constantFrom(0x22, 0x5c, 0x0a, 0x0d, 0x09, 0x08, 0x0c, 0x00, 0x1f, 0x7f),
      fc.constantFrom(0xd800, 0xdbff, 0xdc00, 0xdfff, 0x2028, 0xfeff),
    ),
    { maxLength: 40 },
  )
  .map((codes) => String.fromCharCode(...codes));

function written(write: (out: LineBytes) => void): string {
  const out = new LineBytes(8);
  write(out);
  out.end();
  return Buffer.from(out.take()).toString("latin1");
}

describe("LineBytes", () => {
  it("json() writes what JSON.stringify writes, in UTF-8", () => {
    fc.assert(
      fc.property(units, (text) => {
        assert.equal(
          written((out) => out.json(text)),
          Buffer.from(`${JSON.stringify(text)}\n`, "utf8").toString("latin1"),
        );
      }),
      { numRuns: 2000 },
    );
  });
  it("text() writes what Buffer writes in UTF-8 (a lone surrogate as U+FFFD)", () => {
    fc.assert(
      fc.property(units, (text) => {
        assert.equal(
          written((out) => out.text(text)),
          Buffer.from(`${text}\n`, "utf8").toString("latin1"),
        );
      }),
      { numRuns: 2000 },
    );
  });
  it("number() writes what JSON.stringify writes", () => {
    const values = [0, 1, 9, 10, 99, 100, 12345, 2147483647, 2147483648, 0.5, 1e21, -3, 2.25e-7];
    for (let power = 10; power <= 1e9; power *= 10) values.push(power - 1, power);
    for (const value of values) {
      assert.equal(
        written((out) => out.number(value)),
        `${JSON.stringify(value)}\n`,
        String(value),
      );
    }
    fc.assert(
      fc.property(fc.nat(), (value) => {
        assert.equal(
          written((out) => out.number(value)),
          `${JSON.stringify(value)}\n`,
        );
      }),
    );
  });
  it("span() writes a piece of other bytes as it is, short or long", () => {
    const from = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 7) % 256));
    for (const [start, end] of [
      [0, 0],
      [3, 4],
      [10, 138],
      [10, 139],
      // Either side of the length from which the copy is native.
      [7, 263],
      [7, 264],
      [5, 600],
    ] as const) {
      assert.equal(
        written((out) => {
          out.text("<");
          out.span(from, start, end);
        }),
        `<${from.toString("latin1", start, end)}\n`,
        `${start}-${end}`,
      );
    }
  });

  it("writes lines in order across growth of the buffer, and starts afresh after take", () => {
    const out = new LineBytes(4);
    const lines = ["a", "", "ünïcode ☃ 😀", "x".repeat(1000)];
    for (const line of lines) {
      out.text(line);
      out.end();
    }
    assert.equal(Buffer.from(out.take()).toString("utf8"), lines.map((l) => `${l}\n`).join(""));
    out.text("next");
    assert.equal(Buffer.from(out.take()).toString("utf8"), "next");
  });

  it("writes text of every length as Buffer.from encodes it, loop or native", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", maxLength: 80 })), (texts) => {
        const out = new LineBytes(8);
        for (const text of texts) out.text(text);
        assert.deepEqual(Buffer.from(out.take()), Buffer.from(texts.join(""), "utf8"));
      }),
    );
  });
});
