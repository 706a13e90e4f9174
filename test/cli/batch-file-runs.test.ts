// `heed check --batch` reads each robots.txt once for its run of lines (docs/check-batch.md),
// whichever way the run's lines are answered: a line the quick path cannot take (a non-ASCII
// robot name, an IP field) must not read the file again in the middle of the run. And what it
// remembers of the files named before stays bounded, however long their names are. A byte order
// mark split across the pieces standard input comes in is still no part of the first line.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { BatchAnswerer } from "../../src/cli/batch/answerer.js";
import { answersOf } from "../helpers/batch-answers.js";
import { lineReader } from "../helpers/child-lines.js";
import { BIN, jsonLines, runCli } from "../helpers/run-cli.js";

// The collector run on demand, so that the heap holds only what is still kept.
setFlagsFromString("--expose-gc");

describe("heed check --batch: a file's run of lines", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-batch-runs-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("a co-process that rewrites the file mid-run gets the run's answers from one reading", async () => {
    const robots = join(dir, "changing.txt");
    const other = join(dir, "other.txt");
    await writeFile(robots, "User-agent: *\nDisallow: /p\n");
    await writeFile(other, "User-agent: *\nAllow: /\n");
    const child = spawn(process.execPath, [BIN, "check", "--batch", "-", "--json"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    const next = lineReader(child.stdout);
    const ended = new Promise<number | null>((resolve) => child.on("close", resolve));
    const ask = async (line: string): Promise<{ allowed: boolean; rule: string | null }> => {
      child.stdin.write(`${line}\n`);
      return JSON.parse(await next()) as { allowed: boolean; rule: string | null };
    };
    try {
      assert.equal((await ask(`${robots}\tbot\t/p`)).rule, "Disallow: /p");
      await writeFile(robots, "User-agent: *\nAllow: /p\n");
      // The same run of lines: a robot name with a non-ASCII letter, an IP field, a plain line.
      for (const line of [
        `${robots}\tbötbot\t/p`,
        `${robots}\tbot\t/p\t127.0.0.1`,
        `${robots}\tbot\t/p`,
        `${robots}\tbötbot\t/p`,
      ]) {
        const answer = await ask(line);
        assert.deepEqual([line, answer.allowed, answer.rule], [line, false, "Disallow: /p"]);
      }
      // A later run reads the file again (docs/check-batch.md), whichever line starts it.
      assert.equal((await ask(`${other}\tbot\t/p`)).allowed, true);
      assert.equal((await ask(`${robots}\tbötbot\t/p`)).rule, "Allow: /p");
      assert.equal((await ask(`${robots}\tbot\t/p`)).rule, "Allow: /p");
      child.stdin.end();
      assert.equal(await ended, 1);
    } finally {
      child.kill();
    }
  });

  it("a file kept for a later run answers from its own text after other files were read into the same read buffer", async () => {
    // Small files are read into one buffer that the next read overwrites (read-local.ts): a
    // kept policy must hold nothing of those bytes. Each file longer than the one before, so
    // that a policy still reading the buffer would find another file's lines at its offsets.
    const kept = join(dir, "kept.txt");
    await writeFile(kept, "User-agent: *\nDisallow: /a\n\nUser-agent: otherbot\nAllow: /\n");
    const others = [1, 2, 3].map((n) => join(dir, `over-${n}.txt`));
    for (const [n, file] of others.entries())
      await writeFile(file, `User-agent: *\n${"Allow: /zzzzzzzz\n".repeat(4 * (n + 1))}`);
    const [one, two, three] = others as [string, string, string];
    const lines = [
      `${kept}\tbot\t/a`,
      `${one}\tbot\t/a`,
      // Named again: read again, and from now on kept (docs/check-batch.md).
      `${kept}\tbot\t/a`,
      `${two}\tbot\t/a`,
      `${three}\tbot\t/a`,
      // The kept policy: a robot not asked about before, and a rule's text cut only now.
      `${kept}\totherbot\t/a`,
      `${kept}\tbot\t/a/b`,
    ];
    const { code, stdout } = await runCli(["check", "--batch", "-", "--json"], {
      input: `${lines.join("\n")}\n`,
    });
    assert.equal(code, 1);
    const answers = jsonLines(stdout).map((a) => [a.allowed, a.line, a.rule]);
    assert.deepEqual(answers, [
      [false, 2, "Disallow: /a"],
      [true, null, null],
      [false, 2, "Disallow: /a"],
      [true, null, null],
      [true, null, null],
      [true, 5, "Allow: /"],
      [false, 2, "Disallow: /a"],
    ]);
  });

  it("files named once each with 30 KB names leave a bounded set of names remembered", async () => {
    const answerer = new BatchAnswerer(
      { dialect: "auto", defaults: {}, json: true, plan: false },
      null,
    );
    // 200 runs of one line, each naming a file of its own that is not there: 6 MB of names.
    const lines = Array.from(
      { length: 200 },
      (_, i) => `${join(dir, `${i}-${"n".repeat(30_000)}`)}\tbot\t/p\n`,
    );
    const chunk = { bytes: Buffer.from(lines.join("")), firstLine: 1, tooLong: false };
    let errors = 0;
    for await (const result of answersOf(answerer, chunk)) errors += result.errors;
    assert.equal(errors, 200);
    assert.ok(answerer.keptNameChars > 0);
    assert.ok(
      answerer.keptNameChars <= 1024 * 1024 + 64 * 1024,
      `${answerer.keptNameChars} characters of names kept`,
    );
  });
});

describe("heed check --batch -: a byte order mark that comes in pieces", () => {
  it("is not read as part of the first line's robots-file field", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-batch-bom-"));
    try {
      const robots = join(dir, "r.txt");
      await writeFile(robots, "User-agent: *\nDisallow: /p\n");
      const child = spawn(process.execPath, [BIN, "check", "--batch", "-"], {
        stdio: ["pipe", "pipe", "pipe"],
      });
      const next = lineReader(child.stdout);
      const ended = new Promise<number | null>((resolve) => child.on("close", resolve));
      try {
        // The mark's first two bytes alone, then the rest once heed has surely read them: a
        // co-process that writes the mark apart from its first line.
        child.stdin.write(Buffer.from([0xef, 0xbb]));
        await new Promise((resolve) => setTimeout(resolve, 300));
        child.stdin.write(
          Buffer.concat([Buffer.from([0xbf]), Buffer.from(`${robots}\tbot\t/p\n`)]),
        );
        assert.equal(
          await next(),
          `disallowed /p [${robots}] (bot, rfc9309: line 2: Disallow: /p)`,
        );
        child.stdin.end();
        assert.equal(await ended, 1);
      } finally {
        child.kill();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("heed check --batch: robots with long names asked of files kept", () => {
  // A string of 13 characters or more cut from a longer one is a view of the whole in V8: a
  // product token cut from a 60 KB name, kept as a key of a policy's selections or of the
  // token fields the JSON answers share across files, kept the name with it; a robot's name
  // cut from a line the quick path leaves (one with an IP field), kept as a key of the robots
  // a policy knows, kept the line. Only the key's own characters were counted.
  const shapes = [
    {
      name: "tokens cut from long names",
      line: (file: string, robot: string) => `${file}\t${robot} ${"b".repeat(60_000)}\t/p\n`,
    },
    {
      name: "names cut from long lines",
      line: (file: string, robot: string) =>
        `${file}\t${robot}\t/p${"b".repeat(60_000)}\t10.0.0.1\n`,
    },
  ];
  for (const shape of shapes) {
    it(`are not kept whole as keys counted by their own characters: ${shape.name}`, async () => {
      const dir = await mkdtemp(join(tmpdir(), "heed-batch-long-tokens-"));
      try {
        const files = Array.from({ length: 12 }, (_, f) => join(dir, `${f}.txt`));
        for (const file of files) await writeFile(file, "User-agent: *\nDisallow: /p\n");
        const answerer = new BatchAnswerer(
          { dialect: "auto", defaults: {}, json: true, plan: false },
          null,
        );
        const answer = async (text: string): Promise<number> => {
          let disallowed = 0;
          const chunk = { bytes: Buffer.from(text), firstLine: 1, tooLong: false };
          for await (const result of answersOf(answerer, chunk)) disallowed += result.disallowed;
          return disallowed;
        };
        assert.equal(await answer(files.map((file) => `${file}\tbot\t/p\n`).join("")), 12);
        const gc = runInNewContext("gc") as () => void;
        gc();
        const heapBefore = process.memoryUsage().heapUsed;
        // 1,200 robots of 15-character tokens, 100 a file, on lines of 60 KB: 72 MB, which
        // the twelve policies kept would hold nearly whole.
        for (const [f, file] of files.entries()) {
          const lines = Array.from({ length: 100 }, (_, a) =>
            shape.line(file, `robot${String(f * 100 + a).padStart(10, "0")}`),
          );
          assert.equal(await answer(lines.join("")), 100);
        }
        gc();
        const grown = process.memoryUsage().heapUsed - heapBefore;
        assert.ok(grown < 25 * 1024 * 1024, `the heap grew by ${grown} bytes`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }

  it("are not all kept by the policies kept: a policy keeps the robots it was asked about up to 64 Ki characters of names", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-batch-long-agents-"));
    try {
      const files = Array.from({ length: 6 }, (_, f) => join(dir, `${f}.txt`));
      for (const file of files) await writeFile(file, "User-agent: *\nDisallow: /p\n");
      const answerer = new BatchAnswerer(
        { dialect: "auto", defaults: {}, json: false, plan: false },
        null,
      );
      const answer = async (text: string): Promise<number> => {
        let disallowed = 0;
        const chunk = { bytes: Buffer.from(text), firstLine: 1, tooLong: false };
        for await (const result of answersOf(answerer, chunk)) disallowed += result.disallowed;
        return disallowed;
      };
      // Each file named in runs of its own first: from its second run on, its policy is kept.
      const plain = files.map((file) => `${file}\tbot\t/p\n`).join("");
      assert.equal(await answer(plain + plain + plain), 18);
      const gc = runInNewContext("gc") as () => void;
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      // Then 120 robots of 60 KB names each asked of each file: 43 MB of names, which the six
      // policies would keep.
      for (const file of files) {
        const lines = Array.from(
          { length: 120 },
          (_, a) => `${file}\t${String(a).padStart(4, "0")}${"b".repeat(60_000)}\t/p\n`,
        );
        assert.equal(await answer(lines.join("")), 120);
      }
      gc();
      const grown = process.memoryUsage().heapUsed - heapBefore;
      assert.ok(grown < 25 * 1024 * 1024, `the heap grew by ${grown} bytes`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
