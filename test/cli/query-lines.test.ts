// The --queries/--batch line reader: numbering, skipped lines, line ends across chunk
// boundaries, and the length cap (DESIGN §6; every reader has limits).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_QUERY_LINE_BYTES, type QueryLine, queryLines } from "../../src/cli/query-lines.js";

async function read(chunks: readonly string[], maxBytes?: number): Promise<QueryLine[]> {
  async function* source() {
    for (const chunk of chunks) yield Buffer.from(chunk);
  }
  const lines: QueryLine[] = [];
  for await (const batch of queryLines(source(), maxBytes)) lines.push(...batch);
  return lines;
}

const shape = (lines: readonly QueryLine[]) =>
  lines.map((l) => [l.number, l.tooLong ? "TOO LONG" : l.text]);

describe("query lines", () => {
  it("DESIGN §6: blank and # lines are skipped but keep their numbers", async () => {
    const lines = await read(["# header\n\na\t/1\n   \n  # indented comment\nb\t/2\n"]);
    assert.deepEqual(shape(lines), [
      [3, "a\t/1"],
      [6, "b\t/2"],
    ]);
  });
  it("LF, CRLF and CR end lines, also when split across chunks", async () => {
    const lines = await read(["a\t/1\r", "\nb\t/2\rc\t", "/3\r\n", "d\t/4"]);
    assert.deepEqual(shape(lines), [
      [1, "a\t/1"],
      [2, "b\t/2"],
      [3, "c\t/3"],
      [4, "d\t/4"],
    ]);
  });
  it("a UTF-8 character split across chunks is read whole", async () => {
    const bytes = Buffer.from("a\t/ツ\n");
    async function* source() {
      yield bytes.subarray(0, 4);
      yield bytes.subarray(4);
    }
    const lines: QueryLine[] = [];
    for await (const batch of queryLines(source())) lines.push(...batch);
    assert.deepEqual(shape(lines), [[1, "a\t/ツ"]]);
  });
  it("a line over the cap is reported, not kept, and the next line is read", async () => {
    const max = 16;
    const lines = await read(
      ["a\t/0123456789\n", "a\t/0123456789", "ABCDEFGHIJ", "KLMNOP\nb\t/ok\n", "x".repeat(40)],
      max,
    );
    assert.deepEqual(shape(lines), [
      [1, "a\t/0123456789"],
      [2, "TOO LONG"],
      [3, "b\t/ok"],
      [4, "TOO LONG"],
    ]);
  });
  it("a line exactly at the cap is kept", async () => {
    const line = `a\t/${"x".repeat(MAX_QUERY_LINE_BYTES - 3)}`;
    const lines = await read([line.slice(0, 1000), line.slice(1000), "\n"]);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.text.length, MAX_QUERY_LINE_BYTES);
  });
  it("issue 14: a line of 64 MiB streams through with nothing kept", async () => {
    const chunk = "y".repeat(1 << 20);
    async function* source() {
      yield Buffer.from("a\t/");
      for (let i = 0; i < 64; i++) yield Buffer.from(chunk);
      yield Buffer.from("\nb\t/after\n");
    }
    const lines: QueryLine[] = [];
    for await (const batch of queryLines(source())) lines.push(...batch);
    assert.deepEqual(shape(lines), [
      [1, "TOO LONG"],
      [2, "b\t/after"],
    ]);
  });
});
