// `heed check --batch` writes its answers through memory it uses again once the answers are
// written (cli/io.ts's `written` call-back, answerer.ts's `recycle`). Answers written to a
// file or a pipe must be the answers, byte for byte, however many chunks reuse the memory.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, createWriteStream, openSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, before, describe, it } from "node:test";
import { BatchAnswerer } from "../../src/cli/batch/answerer.js";
import { LineWriter } from "../../src/cli/io.js";
import { answersOf } from "../helpers/batch-answers.js";
import { BIN, runCli } from "../helpers/run-cli.js";

describe("heed check --batch: answer memory used again", () => {
  let dir: string;
  let batch: Buffer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-batch-memory-"));
    for (let f = 0; f < 40; f++) {
      const rules = Array.from({ length: 1 + (f % 7) }, (_, r) => `Disallow: /d${f}-${r}/`);
      await writeFile(
        join(dir, `r${f}.txt`),
        `User-agent: bot${f % 3}\n${rules.join("\n")}\nAllow: /d${f}-0/open\n\nUser-agent: *\nDisallow: /private\n`,
      );
    }
    // About 4 MB of lines, files in runs and named again later, so that several chunks of
    // answers go through the same memory.
    const lines: string[] = [];
    for (let i = 0; i < 70_000; i++) {
      const f = Math.floor(i / 37) % 40;
      lines.push(
        `${join(dir, `r${f}.txt`)}\tbot${i % 4}\thttps://example.com/d${f}-${i % 9}/open/${i}`,
      );
    }
    batch = Buffer.from(`${lines.join("\n")}\n`);
    assert.ok(batch.length > 3 * 1024 * 1024, `${batch.length} bytes: several chunks`);
    await writeFile(join(dir, "b.tsv"), batch);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** The answers made in this process, each chunk's bytes fresh. */
  async function expected(json: boolean): Promise<string> {
    const answerer = new BatchAnswerer({ dialect: "auto", defaults: {}, json, plan: false }, null);
    const parts: Buffer[] = [];
    for await (const result of answersOf(answerer, { bytes: batch, firstLine: 1, tooLong: false }))
      parts.push(Buffer.from(result.bytes));
    return Buffer.concat(parts).toString("utf8");
  }

  for (const json of [true, false]) {
    const flags = json ? ["--json"] : [];
    it(`${json ? "JSON" : "text"} answers written to a file are the answers`, async () => {
      const path = join(dir, `out-${json}.txt`);
      const fd = openSync(path, "w");
      try {
        const child = spawn(
          process.execPath,
          [BIN, "check", "--batch", "b.tsv", "--jobs", "0", ...flags],
          { cwd: dir, stdio: ["ignore", fd, "pipe"] },
        );
        const [code] = (await once(child, "close")) as [number];
        assert.equal(code, 1);
      } finally {
        closeSync(fd);
      }
      assert.equal(readFileSync(path, "utf8"), await expected(json));
    });

    it(`${json ? "JSON" : "text"} answers written to a pipe are the answers`, async () => {
      const r = await runCli(["check", "--batch", "b.tsv", "--jobs", "0", ...flags], {
        cwd: dir,
        timeoutMs: 120_000,
      });
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, await expected(json));
    });
  }
});

describe("LineWriter.addBytes: when the bytes may be written over", () => {
  const big = (): Buffer => Buffer.alloc(256 * 1024, 0x61);

  it("a stream on a file descriptor says so once it has written them", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-line-writer-"));
    try {
      const path = join(dir, "out");
      const stream = createWriteStream(path);
      await once(stream, "open");
      const writer = new LineWriter(stream);
      const bytes = big();
      let told = false;
      await writer.addBytes(bytes, () => {
        told = true;
        bytes.fill(0x62);
      });
      stream.end();
      await once(stream, "close");
      assert.ok(told);
      assert.equal(readFileSync(path, "latin1"), "a".repeat(256 * 1024));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a stream that may hand them on as they are never says so", async () => {
    const stream = new PassThrough();
    const read: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => read.push(chunk));
    const writer = new LineWriter(stream);
    let told = false;
    await writer.addBytes(big(), () => {
      told = true;
    });
    stream.end();
    await once(stream, "end");
    assert.equal(told, false);
    assert.equal(Buffer.concat(read).length, 256 * 1024);
  });

  it("bytes small enough to be copied may be written over at once", async () => {
    const stream = new PassThrough();
    const writer = new LineWriter(stream);
    let told = false;
    await writer.addBytes(Buffer.from("a line\n"), () => {
      told = true;
    });
    assert.ok(told);
  });
});
