// `heed check --queries` and `--batch` input as DESIGN §6 specifies it: skipped lines, errors
// that name their input line, `error` in text, JSON even when the robots.txt cannot be had, and
// the query line cap.
import assert from "node:assert/strict";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { runCheck } from "../../src/cli/commands/check.js";
import { startServer } from "../helpers/http-server.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

const ROBOTS = "User-agent: *\nDisallow: /private/\n";

describe("heed check --queries / --batch input", () => {
  let dir: string;
  let robots: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-check-queries-"));
    robots = join(dir, "robots.txt");
    await writeFile(robots, ROBOTS);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("blank and # lines get no output; a malformed line's error names its line", async () => {
    const queries = join(dir, "q.tsv");
    await writeFile(
      queries,
      "# agent<TAB>url\n\nbot\t/private/x\n   \nno tab here\n#bot\t/private/y\nbot\t/ok\n",
    );
    const json = await runCli(["check", robots, "--queries", queries, "--json"]);
    const lines = jsonLines(json.stdout);
    assert.deepEqual(
      lines.map((l) => [l.input, l.allowed, l.error]),
      [
        [3, false, undefined],
        [5, false, 'line 5: expected agent<TAB>url, got "no tab here"'],
        [7, true, undefined],
      ],
    );
    assert.equal(json.code, 2);
    const text = await runCli(["check", robots, "--queries", queries]);
    const out = text.stdout.trimEnd().split("\n");
    assert.equal(out.length, 3);
    assert.match(out[0] ?? "", /^disallowed \/private\/x /);
    // An unanswerable query is an error, not a refusal.
    assert.equal(out[1], 'error: line 5: expected agent<TAB>url, got "no tab here"');
    assert.match(out[2] ?? "", /^allowed \/ok /);
  });

  it("text mode: an empty or malformed URL prints error with its line", async () => {
    const r = await runCli(["check", robots, "--queries", "-"], {
      input: "bot\t\nbot\thttp://[bad\n",
    });
    assert.deepEqual(r.stdout.trimEnd().split("\n"), [
      "error: line 1: empty URL",
      "error http://[bad: line 2: not a valid URL: http://[bad",
    ]);
    assert.equal(r.code, 2);
  });

  it("--batch: skipped lines, numbered errors, a missing file named", async () => {
    const batch = join(dir, "b.tsv");
    const missing = join(dir, "missing.txt");
    await writeFile(
      batch,
      `# file<TAB>agent<TAB>url\n${robots}\tbot\t/private/\n\njust-a-file\n${missing}\tbot\t/\n`,
    );
    const r = await runCli(["check", "--batch", batch, "--json", "--fields", "all"]);
    const lines = jsonLines(r.stdout);
    assert.deepEqual(
      lines.map((l) => [l.input, l.allowed, typeof l.error]),
      [
        [2, false, "undefined"],
        [4, false, "string"],
        [5, false, "string"],
      ],
    );
    assert.match(String(lines[1]?.error), /^line 4: expected robots-file<TAB>agent<TAB>url/);
    assert.match(String(lines[2]?.error), /^line 5: cannot read .*missing\.txt: no such file/);
    assert.equal(lines[2]?.robots, missing);
    const text = await runCli(["check", "--batch", batch]);
    assert.match(
      text.stdout.split("\n")[2] ?? "",
      /^error \/ \[.*missing\.txt\]: line 5: cannot read/,
    );
  });

  it("--json: a robots.txt fetch that fails still prints one JSON object per query", async () => {
    const closed = await startServer({});
    await closed.close();
    const url = `${closed.origin}/robots.txt`;
    const queries = await runCli(["check", url, "--queries", "-", "--json"], {
      input: "bot\t/a\n# skipped\nbot\t/b\n",
    });
    const lines = jsonLines(queries.stdout);
    assert.deepEqual(
      lines.map((l) => [l.url, l.allowed, l.input]),
      [
        ["/a", false, 1],
        ["/b", false, 3],
      ],
    );
    for (const l of lines) assert.match(String(l.error), /cannot fetch/);
    assert.equal(queries.code, 2);
    const single = await runCli(["check", url, "--agent", "bot", "--url", "/a", "--json"]);
    assert.deepEqual(
      jsonLines(single.stdout).map((l) => [l.url, l.allowed, typeof l.error]),
      [["/a", false, "string"]],
    );
    assert.equal(single.code, 2);
    // As text it stays one message on stderr.
    const text = await runCli(["check", url, "--queries", "-"], { input: "bot\t/a\n" });
    assert.equal(text.stdout, "");
    assert.match(text.stderr, /cannot fetch/);
    assert.equal(text.code, 2);
  });

  it("issue 14: a 200 MB query line is one error line, and the lines after it are answered", async () => {
    const queries = join(dir, "long.tsv");
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(queries);
      out.on("error", reject);
      out.write("bot\t/private/1\nbot\t/");
      const chunk = "z".repeat(1 << 20);
      let left = 200;
      const more = (): void => {
        while (left > 0) {
          left--;
          if (!out.write(chunk)) {
            out.once("drain", more);
            return;
          }
        }
        out.end("\nbot\t/ok\n", resolve);
      };
      more();
    });
    for (const mode of ["--queries", "--batch"] as const) {
      const args =
        mode === "--queries"
          ? ["check", robots, "--queries", queries, "--json"]
          : ["check", "--batch", "-", "--json", "--fields", "all"];
      const input =
        mode === "--batch"
          ? `${robots}\tbot\t/private/1\n${robots}\tbot\t/${"z".repeat(100_000)}\n${robots}\tbot\t/ok\n`
          : undefined;
      const r = await runCli(args, {
        timeoutMs: 120_000,
        ...(input === undefined ? {} : { input }),
      });
      const lines = jsonLines(r.stdout);
      assert.deepEqual(
        lines.map((l) => [l.input, l.allowed, l.error]),
        [
          [1, false, undefined],
          [2, false, "line 2: longer than 64 KiB; skipped"],
          [3, true, undefined],
        ],
        mode,
      );
      assert.equal(r.code, 2);
    }
  });
});

describe("heed check --batch with worker threads", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-check-jobs-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("--jobs 2 answers exactly as the main thread alone, in input order, across chunks and line ends", async () => {
    const files: string[] = [];
    for (let i = 0; i < 12; i++) {
      const file = join(dir, `r${i}.txt`);
      await writeFile(
        file,
        `User-agent: bot${i % 3}\nDisallow: /p${i}/\n\nUser-agent: *\nAllow: /\n`,
      );
      files.push(file);
    }
    const lines: string[] = ["# a comment"];
    // Over 1 MiB, so that the input comes in several pieces and lines cross their edges.
    for (let n = 0; n < 20_000; n++) {
      const file = files[Math.floor(n / 40) % files.length] as string;
      lines.push(`${file}\tbot${n % 4}\t/p${n % 12}/x`);
      if (n % 997 === 0) lines.push(`${join(dir, "missing.txt")}\tbot\t/`);
      if (n % 1001 === 0) lines.push("no tabs");
      if (n % 503 === 0) lines.push(`${file}\tbot\t`);
      if (n === 7_000) lines.push(`${file}\tbot\t/${"y".repeat(70_000)}`);
    }
    const ends = ["\n", "\r\n", "\r"];
    const batch = join(dir, "batch.tsv");
    await writeFile(
      batch,
      lines.map((l, i) => l + (ends[Math.floor(i / 5) % 3] as string)).join(""),
    );
    for (const json of [true, false]) {
      const flags = json ? ["--json"] : [];
      const alone = await runCli(["check", "--batch", batch, "--jobs", "0", ...flags]);
      const shared = await runCli(["check", "--batch", batch, "--jobs", "2", ...flags]);
      assert.equal(shared.stdout, alone.stdout);
      assert.equal(shared.code, alone.code);
      assert.equal(shared.code, 2);
      const answers = alone.stdout.trimEnd().split("\n");
      assert.equal(answers.length, lines.length - 1);
      // The input's line numbers, counted over every kind of line end, name the long line.
      const long = lines.findIndex((l) => l.length > 65_536) + 1;
      assert.ok(
        answers.some((a) => a.includes(`line ${long}: longer than 64 KiB`)),
        `line ${long}`,
      );
    }
  });
  it("a robots.txt over the 500 KiB parse limit is read only as far as the limit (RFC 9309 §2.5)", async () => {
    const big = join(dir, "big.txt");
    await writeFile(
      big,
      `User-agent: *\nDisallow: /a\n${"# filler\n".repeat(70_000)}Disallow: /b\n`,
    );
    const batch = join(dir, "big.tsv");
    await writeFile(batch, `${big}\tbot\t/a\n${big}\tbot\t/b\n`);
    const r = await runCli(["check", "--batch", batch, "--json"]);
    assert.deepEqual(
      jsonLines(r.stdout).map((l) => [l.url, l.allowed]),
      [
        ["/a", false],
        ["/b", true],
      ],
    );
  });
  it("--batch --json writes the contract's fields only, unless --fields all; --plan adds the plan", async () => {
    const rfc = join(dir, "dense-rfc.txt");
    await writeFile(rfc, "Sitemap: https://example.com/s.xml\nUser-agent: *\nDisallow: /p/\n");
    const batch = join(dir, "dense.tsv");
    await writeFile(batch, `${rfc}\tbot\t/p/x\n${rfc}\tbot\t/q\n${rfc}\tbot\t\n`);
    const dense = await runCli(["check", "--batch", batch, "--json"]);
    assert.equal(dense.code, 2, dense.stderr);
    // DESIGN §6: at least these, in this order; `error` only where a query was not answered.
    assert.deepEqual(dense.stdout.trimEnd().split("\n"), [
      `{"allowed":false,"agent":"bot","url":"/p/x","dialect":"rfc9309","line":3,"rule":"Disallow: /p/"}`,
      `{"allowed":true,"agent":"bot","url":"/q","dialect":"rfc9309","line":null,"rule":null}`,
      `{"allowed":false,"agent":"bot","url":"","dialect":"rfc9309","line":null,"rule":null,"error":"line 3: empty URL"}`,
    ]);
    const planned = jsonLines(
      (await runCli(["check", "--batch", batch, "--json", "--plan"])).stdout,
    );
    const keys = ["allowed", "agent", "url", "dialect", "line", "rule", "plan"];
    assert.deepEqual(Object.keys(planned[0] ?? {}), keys);
    const all = jsonLines(
      (await runCli(["check", "--batch", batch, "--json", "--fields", "all"])).stdout,
    );
    assert.deepEqual(
      all.map((l) => [l.reason, l.token, l.robots, l.input]),
      [
        ["rule", "bot", rfc, 1],
        ["default", "bot", rfc, 2],
        ["invalid-url", "bot", rfc, 3],
      ],
    );
    const misplaced = await runCli([
      "check",
      rfc,
      "--agent",
      "bot",
      "--url",
      "/",
      "--fields",
      "all",
    ]);
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.stderr, /--fields goes with --batch/);
  });
  it("--batch --json --fields all leaves a Koster or RFC 9309 answer's plan out unless --plan; REGP keeps it", async () => {
    const rfc = join(dir, "plan-rfc.txt");
    await writeFile(
      rfc,
      "Sitemap: https://example.com/s.xml\nUser-agent: *\nCrawl-delay: 2\nDisallow: /p/\n",
    );
    const regp = join(dir, "plan-regp.txt");
    await writeFile(regp, "Robot-version: 3.0\nUser-agent: *\nDisallow: /p/\nCrawl-delay: 3\n");
    const batch = join(dir, "plan.tsv");
    await writeFile(batch, `${rfc}\tbot\t/p/x\n${regp}\tbot\t/p/x\n`);
    const contract = ["allowed", "agent", "url", "dialect", "line", "rule", "delay", "robots"];
    const all = ["--json", "--fields", "all"];
    const lean = jsonLines((await runCli(["check", "--batch", batch, ...all])).stdout);
    const full = jsonLines((await runCli(["check", "--batch", batch, ...all, "--plan"])).stdout);
    for (const lines of [lean, full]) {
      assert.equal(lines.length, 2);
      for (const line of lines) for (const key of contract) assert.ok(key in line, key);
      assert.deepEqual(
        lines.map((l) => [l.dialect, l.allowed, l.line, l.delay]),
        [
          ["rfc9309", false, 4, 2],
          ["regp", false, 3, 3],
        ],
      );
    }
    assert.equal(lean[0]?.plan, undefined);
    assert.equal((lean[1]?.plan as { delaySeconds: number }).delaySeconds, 3);
    assert.deepEqual(
      (full[0]?.plan as { sitemaps: { value: string }[] }).sitemaps.map((s) => s.value),
      ["https://example.com/s.xml"],
    );
    assert.deepEqual(full[1], lean[1]);
  });
  it("--jobs must be a small whole number", async () => {
    const r = await runCli(["check", "--batch", "-", "--jobs", "many"], { input: "" });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--jobs: expected a whole number/);
  });
});

describe("heed check --queries with large answers", () => {
  it("writes answers as they come: no write holds a whole chunk of 20 KB answers", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-check-large-"));
    try {
      // Robot a's rules are on 3,000 groups: each answer lists them all, about 28 KB a line.
      const robots = join(dir, "robots.txt");
      let text = "";
      for (let i = 0; i < 3_000; i++) text += `User-agent: a\nDisallow: /x${i}\n\n`;
      await writeFile(robots, text);
      // 1,000 queries: one 64 KiB chunk of input, 28 MB of answers.
      const queries = join(dir, "queries.tsv");
      await writeFile(queries, Array.from({ length: 1_000 }, (_, i) => `a\t/z${i}\n`).join(""));
      let largest = 0;
      let total = 0;
      let lines = 0;
      const stdout = new Writable({
        write(chunk: Buffer, _encoding, done) {
          largest = Math.max(largest, chunk.length);
          total += chunk.length;
          for (const byte of chunk) if (byte === 0x0a) lines++;
          done();
        },
      });
      const code = await runCheck(
        robots,
        { url: [], queries, dialect: "auto", json: true },
        { stdout, stderr: new PassThrough(), stdin: new PassThrough(), cwd: dir },
      );
      assert.equal(code, 0);
      assert.equal(lines, 1_000);
      assert.ok(total > 20_000_000, `${total} bytes of answers`);
      // The writer flushes at 1 MiB; one answer more may ride along.
      assert.ok(largest < 2 * 1024 * 1024, `largest write ${largest} bytes`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
