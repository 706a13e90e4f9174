// The --batch input reader (src/cli/batch/input.ts): chunks of whole lines with their numbers,
// line ends across piece boundaries, and the length cap (DESIGN §6; every reader has limits).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { batchChunks, countLines } from "../../src/cli/batch/input.js";

/** The lines the chunks hold, as [number, text] pairs; a too-long line as "TOO LONG". */
async function read(pieces: readonly (string | Buffer)[], maxBytes?: number) {
  async function* source() {
    for (const piece of pieces) yield typeof piece === "string" ? Buffer.from(piece) : piece;
  }
  const lines: [number, string][] = [];
  for await (const chunk of batchChunks(source(), maxBytes)) {
    if (chunk.tooLong) {
      assert.equal(chunk.bytes.length, 0);
      lines.push([chunk.firstLine, "TOO LONG"]);
      continue;
    }
    const text = Buffer.from(chunk.bytes).toString("utf8");
    // Every chunk ends at a line end, except the input's last line.
    const parts = text.split(/\r\n|\r|\n/);
    if (parts[parts.length - 1] === "") parts.pop();
    assert.equal(parts.length, countLines(chunk.bytes));
    parts.forEach((part, i) => lines.push([chunk.firstLine + i, part]));
  }
  return lines;
}

describe("batch input chunks", () => {
  it("numbers every line, blank and comment lines too", async () => {
    assert.deepEqual(await read(["# header\n\na\t/1\n", "   \nb\t/2\n"]), [
      [1, "# header"],
      [2, ""],
      [3, "a\t/1"],
      [4, "   "],
      [5, "b\t/2"],
    ]);
  });
  it("LF, CRLF and CR end lines, also when split across pieces", async () => {
    assert.deepEqual(await read(["a\t/1\r", "\nb\t/2\rc\t", "/3\r\n", "d\t/4"]), [
      [1, "a\t/1"],
      [2, "b\t/2"],
      [3, "c\t/3"],
      [4, "d\t/4"],
    ]);
  });
  it("a UTF-8 character split across pieces is read whole", async () => {
    const bytes = Buffer.from("a\t/ツ\n");
    assert.deepEqual(await read([bytes.subarray(0, 4), bytes.subarray(4)]), [[1, "a\t/ツ"]]);
  });
  it("a line carried past the cap is one too-long chunk, and the next line is read", async () => {
    const lines = await read(
      ["a\t/0123456789\n", "a\t/0123456789", "ABCDEFGHIJ", "KLMNOP\nb\t/ok\n", "x".repeat(40)],
      16,
    );
    assert.deepEqual(lines, [
      [1, "a\t/0123456789"],
      [2, "TOO LONG"],
      [3, "b\t/ok"],
      [4, "TOO LONG"],
    ]);
  });
  it("a carried line exactly at the cap is kept", async () => {
    const line = `a\t/${"x".repeat(13)}`;
    assert.deepEqual(await read([line.slice(0, 5), line.slice(5), "\r", "\n"], 16), [[1, line]]);
  });
  it("issue 14: a line of 64 MiB streams through with nothing kept", async () => {
    const piece = Buffer.alloc(1 << 20, "y");
    const pieces: Buffer[] = [Buffer.from("a\t/")];
    for (let i = 0; i < 64; i++) pieces.push(piece);
    pieces.push(Buffer.from("\nb\t/after\n"));
    assert.deepEqual(await read(pieces), [
      [1, "TOO LONG"],
      [2, "b\t/after"],
    ]);
  });
  it("empty input gives no chunk; a last line without an end is kept", async () => {
    assert.deepEqual(await read([]), []);
    assert.deepEqual(await read(["", "x"]), [[1, "x"]]);
  });
});

describe("batch input chunks, hostile shapes", () => {
  it(
    "four megabytes of CR-ended lines are read in one pass, every line numbered",
    { timeout: 60_000 },
    async () => {
      // Searched for LF at every line, this input costs a scan of the rest per line, 4 * 10^12
      // bytes in all: minutes, where one pass takes well under a second (the timeout is a hang
      // guard, not a measurement).
      const lines = 2_000_000;
      const piece = Buffer.from("x\r".repeat(lines));
      let seen = 0;
      let last = 0;
      async function* source() {
        yield piece;
      }
      for await (const chunk of batchChunks(source())) {
        seen += countLines(chunk.bytes);
        last = chunk.firstLine;
      }
      assert.equal(seen, lines);
      assert.equal(last, 1);
    },
  );
  it("a UTF-8 byte order mark before the first line is not part of it", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    assert.deepEqual(await read([Buffer.concat([bom, Buffer.from("a\t/1\n")]), "b\t/2\n"]), [
      [1, "a\t/1"],
      [2, "b\t/2"],
    ]);
    // Only there: one later in the input is the line's own.
    assert.deepEqual(await read(["a\t/1\n", Buffer.concat([bom, Buffer.from("b\t/2")])]), [
      [1, "a\t/1"],
      [2, "\ufeffb\t/2"],
    ]);
  });
  it("a byte order mark split across the first pieces is not part of the first line either", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    for (const pieces of [
      [bom.subarray(0, 1), bom.subarray(1), "a\t/1\n"],
      [bom.subarray(0, 2), Buffer.concat([bom.subarray(2), Buffer.from("a\t/1\n")])],
      [bom.subarray(0, 1), "", bom.subarray(1, 2), bom.subarray(2), "a\t/1\n"],
    ]) {
      assert.deepEqual(await read(pieces), [[1, "a\t/1"]]);
    }
    // Bytes that only began like the mark are the line's own, also when they are all there is.
    assert.deepEqual(await read([bom.subarray(0, 2), "x\t/1\n"]), [[1, "\ufffdx\t/1"]]);
    assert.deepEqual(await read([bom.subarray(0, 1)]), [[1, "\ufffd"]]);
    assert.deepEqual(await read([bom.subarray(0, 2), "\n", "b\t/2"]), [
      [1, "\ufffd"],
      [2, "b\t/2"],
    ]);
  });
  it("an empty piece between a CR and its LF does not make a line of the LF", async () => {
    assert.deepEqual(await read(["a\t/1\r", "", "\nb\t/2\n"]), [
      [1, "a\t/1"],
      [2, "b\t/2"],
    ]);
  });
});
