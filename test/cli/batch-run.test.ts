// `heed check --batch` as a hostile or careless batch drives it: standard input named as a
// robots.txt (with --jobs, with the batch itself on standard input, after many other files),
// robots-file fields naming a FIFO, and a reader that goes away mid-run (`| head -1`).
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { closeSync, openSync, statSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BatchAnswerer, OUTPUT_BYTES } from "../../src/cli/batch/answerer.js";
import { answersOf } from "../helpers/batch-answers.js";
import { BIN, runCli } from "../helpers/run-cli.js";

const ROBOTS = "User-agent: *\nDisallow: /p\n";
const DISALLOWED = "(bot, rfc9309: line 2: Disallow: /p)";

describe("heed check --batch: standard input as a robots.txt", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-batch-run-"));
    await writeFile(join(dir, "r.txt"), ROBOTS);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("--jobs 1 answers a `-` line as --jobs 0 does, wherever in the chunk it falls", async () => {
    const lines = ["-\tbot\t/p"];
    for (let i = 0; i < 50; i++) lines.push(`r.txt\tbot\t/p${i}`);
    lines.push("-\tbot\t/p/last");
    await writeFile(join(dir, "stdin.tsv"), `${lines.join("\n")}\n`);
    const alone = await runCli(["check", "--batch", "stdin.tsv", "--jobs", "0"], {
      cwd: dir,
      input: ROBOTS,
    });
    const shared = await runCli(["check", "--batch", "stdin.tsv", "--jobs", "1"], {
      cwd: dir,
      input: ROBOTS,
    });
    assert.equal(shared.stdout, alone.stdout);
    assert.equal(alone.code, 1, alone.stderr);
    const answers = alone.stdout.trimEnd().split("\n");
    assert.equal(answers[0], `disallowed /p [-] ${DISALLOWED}`);
    assert.equal(answers[51], `disallowed /p/last [-] ${DISALLOWED}`);
  });

  it("`-` named again after more files than the cache keeps is not read again as empty", async () => {
    const lines = ["-\tbot\t/p"];
    for (let i = 0; i < 70; i++) {
      await writeFile(join(dir, `c${i}.txt`), ROBOTS);
      lines.push(`c${i}.txt\tbot\t/p`);
    }
    lines.push("-\tbot\t/p");
    await writeFile(join(dir, "again.tsv"), `${lines.join("\n")}\n`);
    const r = await runCli(["check", "--batch", "again.tsv", "--jobs", "0"], {
      cwd: dir,
      input: ROBOTS,
    });
    assert.equal(r.code, 1, r.stderr);
    const answers = r.stdout.trimEnd().split("\n");
    assert.equal(answers.length, 72);
    assert.equal(answers[71], `disallowed /p [-] ${DISALLOWED}`);
  });

  it("with the batch on standard input, a `-` robots.txt is an error, not the batch's own rest", async () => {
    const r = await runCli(["check", "--batch", "-", "--json"], {
      cwd: dir,
      input: "-\tbot\t/p\nr.txt\tbot\t/p\n",
    });
    assert.equal(r.code, 2);
    const [first, second] = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { allowed: boolean; error?: string });
    assert.equal(first?.allowed, false);
    assert.match(first?.error ?? "", /^line 1: cannot read a robots.txt from standard input/);
    assert.deepEqual([second?.allowed, second?.error], [false, undefined]);
  });
});

/** Runs heed with a standard input that never ends: zero bytes written until heed is gone. */
function runWithEndlessStdin(
  args: readonly string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; written: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.resume();
    const zeros = Buffer.alloc(64 * 1024);
    let written = 0;
    let gone = false;
    child.stdin.on("error", () => {
      // EPIPE once heed stops reading and ends: what this test waits for.
    });
    // Bounded: 256 MiB at most, far past the 500 KiB a robots.txt is read to.
    const feed = (): void => {
      while (!gone && written < 256 * 1024 * 1024) {
        written += zeros.length;
        if (!child.stdin.write(zeros)) {
          child.stdin.once("drain", feed);
          return;
        }
      }
    };
    feed();
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`heed ${args.join(" ")} did not end while its standard input went on`));
    }, 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      gone = true;
      clearTimeout(timer);
      resolve({ code, stdout, written });
    });
  });
}

describe("heed check --batch: an endless standard input as a robots.txt", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-batch-endless-"));
    await writeFile(join(dir, "b.tsv"), "-\tbot\t/p\n");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("is read only as far as parsing goes (500 KiB), and the run ends", async () => {
    const r = await runWithEndlessStdin(["check", "--batch", "b.tsv"], dir);
    assert.equal(r.stdout, "allowed /p [-] (bot, rfc9309: no group applies to this robot)\n");
    assert.equal(r.code, 0);
    assert.ok(r.written < 256 * 1024 * 1024, `${r.written} bytes written`);
  });
});

describe("heed check --batch: robots-file fields that are not files", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-batch-fifo-"));
    await writeFile(join(dir, "r.txt"), ROBOTS);
    execFileSync("mkfifo", [join(dir, "fifo")]);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("a FIFO with no writer is an error on its lines, and the run goes on", async () => {
    await writeFile(join(dir, "b.tsv"), "fifo\tbot\t/p\nr.txt\tbot\t/p\n.\tbot\t/p\n");
    const r = await runCli(["check", "--batch", "b.tsv"], { cwd: dir, timeoutMs: 20_000 });
    assert.equal(r.code, 2);
    assert.deepEqual(r.stdout.trimEnd().split("\n"), [
      "error /p [fifo]: line 1: cannot read fifo: not a regular file",
      `disallowed /p [r.txt] ${DISALLOWED}`,
      "error /p [.]: line 3: cannot read .: it is a directory",
    ]);
  });
});

/** Runs heed into a pipe whose reader takes the first bytes and goes away, as `| head -1`. */
function runIntoHead(
  args: readonly string[],
  cwd: string,
): Promise<{ code: number | null; stderr: string; first: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let first = "";
    child.stdout.once("data", (chunk: Buffer) => {
      first = chunk.toString("utf8").split("\n")[0] ?? "";
      child.stdout.destroy();
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`heed ${args.join(" ")} did not end once its reader went away`));
    }, 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, first });
    });
  });
}

describe("heed check --batch into a reader that goes away", { timeout: 180_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-batch-head-"));
    await writeFile(join(dir, "r.txt"), ROBOTS);
    // Several MiB of answers: more than a pipe holds, so writes wait for the reader.
    const lines: string[] = [];
    for (let i = 0; i < 150_000; i++) lines.push(`r.txt\tbot\t/p${i}`);
    lines.push("r.txt\tbot\t");
    await writeFile(join(dir, "big.tsv"), `${lines.join("\n")}\n`);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const jobs of ["0", "1"]) {
    it(`--jobs ${jobs}: ends, with the status of every query (2: the last could not be answered)`, async () => {
      const ended = await runIntoHead(["check", "--batch", "big.tsv", "--jobs", jobs], dir);
      assert.equal(ended.first, `disallowed /p0 [r.txt] ${DISALLOWED}`);
      assert.doesNotMatch(ended.stderr, /EPIPE|internal error|\n\s+at /, ended.stderr);
      assert.equal(ended.code, 2, ended.stderr);
    });
  }
});

describe("heed check --batch into a full disk", { timeout: 120_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-batch-full-"));
    await writeFile(join(dir, "r.txt"), ROBOTS);
    const lines: string[] = [];
    for (let i = 0; i < 100_000; i++) lines.push(`r.txt\tbot\t/q${i}`);
    await writeFile(join(dir, "b.tsv"), `${lines.join("\n")}\n`);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("exits 2, not the answers' 0, and says so once: the output was lost", async () => {
    // /dev/full fails every write with ENOSPC, as a full disk does.
    const full = openSync("/dev/full", "w");
    try {
      const ended = await runWithStdio(
        ["check", "--batch", "b.tsv"],
        dir,
        ["ignore", full],
        60_000,
      );
      assert.equal(ended.code, 2, ended.stderr);
      assert.equal(
        ended.stderr.match(/cannot write to standard output: .*ENOSPC/g)?.length,
        1,
        ended.stderr,
      );
    } finally {
      closeSync(full);
    }
  });
});

describe("heed check --batch: answers many times larger than their lines", () => {
  let dir: string;
  const lines = 1_500;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-batch-large-"));
    // Robot a's group is on 3,000 groups of lines: every answer lists them all, 20 KB a line
    // of 9 bytes; 1,500 lines make 30 MB of answers from 13 KB of input.
    await writeFile(join(dir, "m.txt"), "User-agent: a\nAllow: /x\n".repeat(3_000));
    await writeFile(join(dir, "b.tsv"), "m.txt\ta\t/x\n".repeat(lines));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("a chunk's answers are held only up to a bound; the rest of its lines follow, numbered on", async () => {
    const answerer = new BatchAnswerer(
      { dialect: "auto", defaults: {}, json: true, plan: false, fields: "all" },
      null,
    );
    const bytes = Buffer.from(`${join(dir, "m.txt")}\ta\t/x\n`.repeat(lines));
    const numbers: number[] = [];
    let pieces = 0;
    for await (const result of answersOf(answerer, { bytes, firstLine: 1, tooLong: false })) {
      pieces++;
      // One answer line past the bound at most.
      assert.ok(result.bytes.length < OUTPUT_BYTES + 64 * 1024, `${result.bytes.length} bytes`);
      for (const line of Buffer.from(result.bytes).toString("utf8").trimEnd().split("\n"))
        numbers.push((JSON.parse(line) as { input: number }).input);
    }
    assert.ok(pieces >= 3, `${pieces} pieces`);
    assert.deepEqual(
      numbers,
      Array.from({ length: lines }, (_, i) => i + 1),
    );
  });

  it("--jobs 1 writes what --jobs 0 writes, every line once, in order", async () => {
    const alone = await runCli(
      ["check", "--batch", "b.tsv", "--json", "--fields", "all", "--jobs", "0"],
      {
        cwd: dir,
        timeoutMs: 60_000,
      },
    );
    const shared = await runCli(
      ["check", "--batch", "b.tsv", "--json", "--fields", "all", "--jobs", "1"],
      {
        cwd: dir,
        timeoutMs: 60_000,
      },
    );
    assert.equal(alone.code, 0, alone.stderr);
    assert.ok(shared.stdout === alone.stdout, "--jobs 1 and --jobs 0 differ");
    const numbers = alone.stdout
      .trimEnd()
      .split("\n")
      .map((l) => (JSON.parse(l) as { input: number }).input);
    assert.deepEqual(
      numbers,
      Array.from({ length: lines }, (_, i) => i + 1),
    );
  });
});

describe("heed check --batch b.tsv >> b.tsv", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-batch-self-"));
    await writeFile(join(dir, "r.txt"), ROBOTS);
    // Over the 1 MiB written at a time: answers would be written before the input's end.
    await writeFile(join(dir, "b.tsv"), "r.txt\tbot\t/p\n".repeat(200_000));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const input of ["b.tsv", "-"]) {
    it(`refuses ${input === "-" ? "standard input that is" : "a batch file that is"} its own output, which would grow without end`, async () => {
      const batch = join(dir, "b.tsv");
      const size = statSync(batch).size;
      const append = openSync(batch, "a");
      const stdin = input === "-" ? openSync(batch, "r") : "ignore";
      try {
        // A hang guard only; a run that is not refused writes gigabytes in that time.
        const ended = await runWithStdio(["check", "--batch", input], dir, [stdin, append], 15_000);
        assert.equal(ended.code, 2, ended.stderr);
        assert.match(ended.stderr, /it is also the standard output/);
        assert.equal(statSync(batch).size, size);
      } finally {
        closeSync(append);
        if (typeof stdin === "number") closeSync(stdin);
      }
    });
  }
});

describe("heed check --batch --jobs", () => {
  for (const jobs of ["", " 2", "0x2", "1e1", "1.0", "65", "-1"]) {
    it(`refuses --jobs ${JSON.stringify(jobs)}`, async () => {
      const r = await runCli(["check", "--batch", "-", "--jobs", jobs], { input: "" });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--jobs: expected a whole number from 0 to 64/);
    });
  }
});

/**
 * Runs heed with standard input and output on the descriptors given (a file, /dev/full) and
 * standard error collected; killed after `guardMs`, a hang guard only.
 */
function runWithStdio(
  args: readonly string[],
  cwd: string,
  [stdin, stdout]: [number | "ignore", number],
  guardMs: number,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: [stdin, stdout, "pipe"] });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("heed did not end"));
    }, guardMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
