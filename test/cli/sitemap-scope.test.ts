// `heed sitemap build` and `update` refuse what heed's own reader would drop (another host, a
// path outside the folder the sitemap is served at, a repeated loc), summarise repeated
// findings, and print JSON with --json. Run as a child process on real files.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "../helpers/run-cli.js";

const SITE = "http://127.0.0.1:18080";

describe("heed sitemap build/update scope", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-sitemap-scope-"));
    const pages = Array.from({ length: 120 }, (_, i) => `${SITE}/p${i}.html`);
    await writeFile(join(dir, "list.txt"), `${pages.join("\n")}\n`);
    await writeFile(
      join(dir, "mixed.txt"),
      [`${SITE}/a.html`, "http://other.example/b.html", `${SITE}/a.html`, `${SITE}/c.html`].join(
        "\n",
      ),
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("URLs outside --base's folder are refused at build time, summarised after three", async () => {
    const r = await runCli(
      [
        "sitemap",
        "build",
        "list.txt",
        "--out",
        "out",
        "--max-urls",
        "50",
        "--gzip",
        "--base",
        `${SITE}/sm/out/`,
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 1);
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.filter((l) => l.endsWith("[loc-out-of-scope]")).length, 4);
    assert.ok(lines.includes("… and 117 more [loc-out-of-scope]"), r.stderr);
    assert.match(r.stderr, /^list\.txt:1: error: .*outside .*\/sm\/out\//m);
  });

  it("another host and a repeated loc are refused; the rest reads back whole", async () => {
    const r = await runCli(["sitemap", "build", "mixed.txt", "--out", "m", "--json"], {
      cwd: dir,
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /mixed\.txt:2: .*another host.*\[loc-other-host\]/);
    assert.match(r.stderr, /mixed\.txt:3: .*listed already.*\[duplicate-loc\]/);
    const summary = JSON.parse(r.stdout) as { urls: number; skipped: number; root: string };
    assert.deepEqual([summary.urls, summary.skipped], [2, 2]);
    const read = await runCli(["sitemap", summary.root, "--url", `${SITE}/sitemap.xml`, "--count"]);
    assert.equal(read.stdout.trim(), "2");
    assert.equal(read.code, 0, read.stderr);
  });

  it("sitemap update --loc refuses a URL outside the file's scope and keeps the file", async () => {
    const file = join(dir, "m", "sitemap.xml");
    const other = await runCli(["sitemap", "update", file, "--loc", "http://other.example/x"]);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /another host/);
    const folder = await runCli([
      "sitemap",
      "update",
      file,
      "--loc",
      `${SITE}/x.html`,
      "--base",
      `${SITE}/m/`,
    ]);
    assert.equal(folder.code, 2);
    assert.match(folder.stderr, /outside/);
    const ok = await runCli(["sitemap", "update", file, "--loc", `${SITE}/d.html`, "--json"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal((JSON.parse(ok.stdout) as { action: string }).action, "added");
  });
});
