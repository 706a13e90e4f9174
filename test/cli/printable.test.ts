// A hostile robots.txt or URL must not drive the terminal through heed's text output
// (src/cli/printable.ts): control characters are shown, not sent; JSON keeps them, escaped.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { printable } from "../../src/cli/printable.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

describe("printable", () => {
  const cases: [string, string][] = [
    ["plain /path?q=1", "plain /path?q=1"],
    ["tab\tkept", "tab\tkept"],
    ["\u001b]0;owned\u0007", "\\x1b]0;owned\\x07"],
    ["\u001b[2J\u001b[H", "\\x1b[2J\\x1b[H"],
    ["nul\u0000 cr\r lf\n del\u007f", "nul\\x00 cr\\x0d lf\\x0a del\\x7f"],
    ["c1 \u009b31m", "c1 \\x9b31m"],
    ["ünïcode ☃ 😀 \u00a0", "ünïcode ☃ 😀 \u00a0"],
  ];
  for (const [input, shown] of cases) {
    it(JSON.stringify(input), () => {
      assert.equal(printable(input), shown);
      assert.equal(printable(shown), shown, "showing twice changes nothing");
    });
  }
});

describe("heed check text output and control characters", () => {
  let dir = "";
  let robots = "";
  const rule = "Disallow: /a\u001b]0;owned\u0007b";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-printable-"));
    robots = join(dir, "robots.txt");
    await writeFile(robots, `User-agent: *\n${rule}\n`);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("--url: the rule is shown with its controls as \\xHH, and JSON has it whole", async () => {
    const url = "http://a.example/a%1B]0;owned%07b";
    const text = await runCli(["check", robots, "--agent", "bot", "--url", url]);
    assert.equal(text.code, 1);
    assert.doesNotMatch(text.stdout, /[\u0000-\u0008\u000b-\u001f\u007f]/);
    assert.match(text.stdout, /line 2: Disallow: \/a\\x1b\]0;owned\\x07b\)/);
    const json = await runCli(["check", robots, "--agent", "bot", "--url", url, "--json"]);
    assert.equal(jsonLines(json.stdout)[0]?.["rule"], rule);
  });

  it("--batch: the same, on the quick path and on the plain one", async () => {
    const batch = join(dir, "batch.tsv");
    await writeFile(batch, `${robots}\tbot\t/a%1B]0;owned%07b\n${robots}\tbot\u0001\t/a\u001b\n`);
    const r = await runCli(["check", "--batch", batch]);
    assert.doesNotMatch(r.stdout, /[\u0000-\u0008\u000b-\u001f\u007f]/);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 2);
    assert.match(lines[0] ?? "", /line 2: Disallow: \/a\\x1b\]0;owned\\x07b\)$/);
    assert.match(lines[1] ?? "", /^\S+ \/a\\x1b /);
  });
});

describe("heed lint text output and control characters", () => {
  it("a key that carries ESC sequences is quoted with them shown, not sent", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-printable-lint-"));
    try {
      const file = join(dir, "robots.txt");
      await writeFile(file, "User-agent: *\nDisallow: /x\nFoo\u001b[2J: x\n");
      const r = await runCli(["lint", file]);
      assert.doesNotMatch(r.stdout, /[\u0000-\u0008\u000b-\u001f\u007f]/);
      assert.match(r.stdout, /unknown key "Foo\\x1b\[2J"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("heed sitemap text output and control characters", () => {
  it("a text sitemap's bad line is quoted with its controls shown, not sent", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-printable-sitemap-"));
    try {
      const file = join(dir, "sitemap.txt");
      await writeFile(file, "https://a.example/x\u001b]0;owned\u0007\nhttps://a.example/y\n");
      const r = await runCli(["sitemap", file]);
      assert.doesNotMatch(r.stdout + r.stderr, /[\u0000-\u0008\u000b-\u001f\u007f]/);
      assert.match(r.stderr, /x\\x1b\]0;owned\\x07/);
      assert.equal(r.stdout, "https://a.example/y\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
