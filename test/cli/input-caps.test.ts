// Every file or standard input a command reads is read no further than its limit and one byte
// more (to know there was more): an endless input (a stream that never ends, a FIFO whose writer
// never stops, /dev/zero) ends the read at the cap with a message, and a file just at a limit
// reads as it always did while one just over it says so. RFC 9309 §2.5 for robots.txt; the
// data.txt and tdmrep.json limits are the protocol's own constants.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { MAX_DATA_TXT_BYTES } from "../../src/protocol/datasets/index.js";
import { MAX_ROBOTS_BYTES } from "../../src/protocol/robots/index.js";
import { MAX_TDMREP_BYTES } from "../../src/protocol/usage/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { BIN, jsonLines, runCli } from "../helpers/run-cli.js";

const SUITE = { timeout: 120_000 };
// Hang guard only: an endless input that is not cut keeps the command running until this.
const RUN_MS = 30_000;
// What the endless writers give at most: far past every limit, so that a command that reads
// to the end is caught (it would not end within RUN_MS, or it reads all of this).
const ENDLESS_BYTES = 64 * 1024 * 1024;

interface Endless {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Bytes the command took before it stopped reading. */
  readonly written: number;
}

/** A piece of robots.txt text, repeated: comment lines, so that no rule is ever cut. */
const PIECE = Buffer.from(`# ${"x".repeat(1021)}\n`);

/**
 * Runs heed with standard input fed from a generator that never ends on its own: writes go on
 * until the command closes its end of the pipe (or ENDLESS_BYTES, so that the test ends).
 */
function withEndlessStdin(
  args: readonly string[],
  head: string,
  cwd: string,
  piece: Buffer = PIECE,
): Promise<Endless> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let written = 0;
    let closed = false;
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    // EPIPE once heed stops reading: expected, the point of the test.
    child.stdin.on("error", () => (closed = true));
    child.stdin.on("close", () => (closed = true));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`heed ${args.join(" ")} did not stop reading within ${RUN_MS} ms`));
    }, RUN_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, written });
    });
    const pump = (): void => {
      if (written === 0) child.stdin.write(head);
      while (!closed && written < ENDLESS_BYTES) {
        written += piece.length;
        if (!child.stdin.write(piece)) {
          child.stdin.once("drain", pump);
          return;
        }
      }
      if (!closed) child.stdin.end();
    };
    pump();
  });
}

describe("input caps: endless and oversized inputs", SUITE, () => {
  let dir = "";
  let cleanup = async (): Promise<void> => {};
  before(async () => {
    ({ dir, cleanup } = await tempDir("heed-caps-"));
  });
  after(() => cleanup());

  it("check - --url on an endless standard input stops at the cap and says the file is over it", async () => {
    const run = await withEndlessStdin(
      ["check", "-", "--agent", "bot", "--url", "http://a.example/private/x"],
      "User-agent: *\nDisallow: /private/\n",
      dir,
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /^disallowed http:\/\/a\.example\/private\/x .*line 2: Disallow: \/private\//,
    );
    assert.match(
      run.stderr,
      new RegExp(
        `warning: <stdin> is over ${MAX_ROBOTS_BYTES} bytes; only its first ${MAX_ROBOTS_BYTES} are read`,
      ),
    );
    assert.ok(run.written < ENDLESS_BYTES, `read all ${run.written} bytes`);
  });

  it("lint - on an endless standard input reports the size-limit error, over the limit", async () => {
    const run = await withEndlessStdin(["lint", "-"], "User-agent: *\nDisallow: /p\n", dir);
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(
        `^<stdin>: error: file is over ${MAX_ROBOTS_BYTES} bytes; only the first \\d+ .*\\[size-limit\\]$`,
        "m",
      ),
    );
    assert.ok(run.written < ENDLESS_BYTES, `read all ${run.written} bytes`);
  });

  it("lint --kind data - on an endless standard input: refused as over the data.txt limit", async () => {
    const run = await withEndlessStdin(
      ["lint", "--kind", "data-draft", "-"],
      "User-agent: *\n",
      dir,
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`error: file is over ${MAX_DATA_TXT_BYTES} bytes; .*\\[size-limit\\]`),
    );
    assert.ok(run.written < ENDLESS_BYTES, `read all ${run.written} bytes`);
  });

  it("sitemap build: a list line with no end is refused at the line cap, in bounded memory", async () => {
    // 64 MiB of one line, then a good one: the long line is dropped as it streams.
    const run = await withEndlessStdin(
      ["sitemap", "build", "-", "--base", "http://a.example/", "--out", dir],
      "http://a.example/",
      dir,
      Buffer.alloc(64 * 1024, "x"),
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /^<stdin>:1: error: the line is over 65536 bytes; skipped \[invalid-entry\]$/m,
    );
    assert.ok(run.stderr.length < 4096, `${run.stderr.length} bytes of messages`);
  });

  it("check FIFO and lint FIFO: a writer that never stops is read up to the cap", async () => {
    const fifo = join(dir, "endless.fifo");
    execFileSync("mkfifo", [fifo]);
    for (const args of [
      ["check", fifo, "--agent", "bot", "--url", "http://a.example/x"],
      ["lint", fifo],
    ]) {
      const writer = createWriteStream(fifo);
      let stopped = false;
      writer.on("error", () => (stopped = true));
      writer.on("close", () => (stopped = true));
      let written = 0;
      const pump = (): void => {
        while (!stopped && written < ENDLESS_BYTES) {
          written += PIECE.length;
          if (!writer.write(PIECE)) {
            writer.once("drain", pump);
            return;
          }
        }
      };
      writer.once("open", pump);
      const run = await runCli(args, { cwd: dir, timeoutMs: RUN_MS });
      writer.destroy();
      assert.match(run.stdout + run.stderr, new RegExp(`over ${MAX_ROBOTS_BYTES} bytes`), args[0]);
      assert.ok(written < ENDLESS_BYTES, `${args[0]} read all ${written} bytes`);
    }
  });

  it("check /dev/zero and lint /dev/zero end, over the limit", async () => {
    const check = await runCli(
      ["check", "/dev/zero", "--agent", "bot", "--url", "http://a.example/x"],
      {
        timeoutMs: RUN_MS,
      },
    );
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stderr, new RegExp(`/dev/zero is over ${MAX_ROBOTS_BYTES} bytes`));
    const lint = await runCli(["lint", "/dev/zero"], { timeoutMs: RUN_MS });
    assert.equal(lint.code, 1);
    assert.match(
      lint.stdout,
      new RegExp(`/dev/zero: error: file is over ${MAX_ROBOTS_BYTES} bytes`),
    );
  });

  it("a robots.txt of exactly 500 KiB is read whole, quietly; one byte more is over the limit", async () => {
    const head = "User-agent: *\nDisallow: /p\n";
    const comment = `#${"x".repeat(998)}\n`;
    const room = MAX_ROBOTS_BYTES - head.length;
    const rest = room % comment.length;
    const at = `${head}${comment.repeat(Math.floor(room / comment.length))}#${"x".repeat(rest - 2)}\n`;
    assert.equal(Buffer.byteLength(at), MAX_ROBOTS_BYTES);
    await writeFile(join(dir, "at.txt"), at);
    await writeFile(join(dir, "over.txt"), `${at}#`);
    const url = ["--agent", "bot", "--url", "http://a.example/p"];
    const atCheck = await runCli(["check", "at.txt", ...url, "--json"], { cwd: dir });
    assert.equal(atCheck.code, 1, atCheck.stderr);
    assert.equal(atCheck.stderr, "");
    assert.equal(jsonLines(atCheck.stdout)[0]?.warnings, undefined, atCheck.stdout);
    const overCheck = await runCli(["check", "over.txt", ...url, "--json"], { cwd: dir });
    assert.deepEqual(jsonLines(overCheck.stdout)[0]?.warnings, [
      `over.txt is over ${MAX_ROBOTS_BYTES} bytes; only its first ${MAX_ROBOTS_BYTES} are read (RFC 9309 §2.5), so its later lines decide nothing`,
    ]);
    const atLint = await runCli(["lint", "at.txt"], { cwd: dir });
    assert.equal(atLint.code, 0, atLint.stdout);
    assert.doesNotMatch(atLint.stdout, /size-limit/);
    const overLint = await runCli(["lint", "over.txt", "--json"], { cwd: dir });
    assert.equal(overLint.code, 1);
    const report = JSON.parse(overLint.stdout) as { findings: { code: string; message: string }[] };
    const size = report.findings.find((f) => f.code === "size-limit");
    assert.equal(
      size?.message,
      `file is over ${MAX_ROBOTS_BYTES} bytes; only the first ${MAX_ROBOTS_BYTES} (whole lines within ${MAX_ROBOTS_BYTES}) were read`,
    );
  });

  it("a data.txt of exactly its limit is read; one byte more is refused as over it", async () => {
    const head = "- path: a.csv\n";
    const at = head + "#".repeat(MAX_DATA_TXT_BYTES - head.length - 1) + "\n";
    await writeFile(join(dir, "data.txt"), at);
    const atLint = await runCli(["lint", "data.txt"], { cwd: dir });
    assert.doesNotMatch(atLint.stdout, /size-limit/, atLint.stdout);
    await writeFile(join(dir, "data.txt"), `${at}#`);
    const overLint = await runCli(["lint", "data.txt"], { cwd: dir });
    assert.equal(overLint.code, 1);
    assert.match(
      overLint.stdout,
      new RegExp(
        `error: the file is over ${MAX_DATA_TXT_BYTES} bytes, the most a data\\.txt may have; not read \\[size-limit\\]`,
      ),
    );
  });

  it("check --tdmrep /dev/zero: the file is over the tdmrep.json limit, and the answer says so", async () => {
    await writeFile(join(dir, "r.txt"), "User-agent: *\nDisallow: /p\n");
    const run = await runCli(
      ["check", "r.txt", "--agent", "bot", "--url", "http://a.example/q", "--tdmrep", "/dev/zero"],
      { cwd: dir, timeoutMs: RUN_MS },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(
        `usage warning: --tdmrep /dev/zero: tdmrep\\.json is over ${MAX_TDMREP_BYTES} bytes; more is not read`,
      ),
    );
  });

  it("a tdmrep.json of exactly its limit is read; one byte more is over it", async () => {
    await writeFile(join(dir, "r.txt"), "User-agent: *\nDisallow: /p\n");
    const rules = '[{"location":"/","tdm-reservation":1}]';
    await writeFile(join(dir, "at.json"), rules + " ".repeat(MAX_TDMREP_BYTES - rules.length));
    await writeFile(
      join(dir, "over.json"),
      rules + " ".repeat(MAX_TDMREP_BYTES + 1 - rules.length),
    );
    const ask = ["check", "r.txt", "--agent", "bot", "--url", "http://a.example/q", "--json"];
    const at = await runCli([...ask, "--tdmrep", "at.json"], { cwd: dir });
    const [atAnswer] = jsonLines(at.stdout);
    assert.equal(atAnswer?.warnings, undefined, at.stdout);
    assert.equal(
      (atAnswer?.usage as Record<string, { value: string }>)["train-ai"]?.value,
      "disallowed",
    );
    const over = await runCli([...ask, "--tdmrep", "over.json"], { cwd: dir });
    assert.deepEqual(jsonLines(over.stdout)[0]?.warnings, [
      `--tdmrep over.json: tdmrep.json is over ${MAX_TDMREP_BYTES} bytes; more is not read (docs/usage-preferences.md#limits)`,
    ]);
  });

  it("usage build: an endless description is refused, and an oversized robots.txt is not rewritten", async () => {
    const endless = await runCli(["usage", "build", "/dev/zero"], { cwd: dir, timeoutMs: RUN_MS });
    assert.equal(endless.code, 2);
    assert.match(endless.stderr, new RegExp(`/dev/zero: more than ${MAX_TDMREP_BYTES} characters`));
    await writeFile(join(dir, "usage.json"), JSON.stringify({ default: { "train-ai": "n" } }));
    const big = `User-agent: *\n${"#".repeat(MAX_ROBOTS_BYTES)}\n`;
    await writeFile(join(dir, "robots.txt"), big);
    const refused = await runCli(["usage", "build", "usage.json", "--robots", "robots.txt"], {
      cwd: dir,
    });
    assert.equal(refused.code, 2, refused.stdout);
    assert.match(
      refused.stderr,
      new RegExp(`robots\\.txt is over ${MAX_ROBOTS_BYTES} bytes.*not rewritten`),
    );
    assert.equal(await readFile(join(dir, "robots.txt"), "utf8"), big);
    await writeFile(join(dir, "robots.txt"), "User-agent: *\nDisallow: /p\n");
    const done = await runCli(["usage", "build", "usage.json", "--robots", "robots.txt"], {
      cwd: dir,
    });
    assert.equal(done.code, 0, done.stderr);
    assert.match(await readFile(join(dir, "robots.txt"), "utf8"), /Content-Usage: train-ai=n/);
  });
});
