// What people expect of a command line: examples in every --help, `heed help A B`, shell
// completion made from the commands themselves, HEED_AGENT and HEED_STORE with flags winning
// (docs/cli.md), and --agent defaulting the same way in every command.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Command } from "commander";
import { EXAMPLES } from "../../src/cli/help-examples.js";
import { buildProgram } from "../../src/cli/main.js";
import { PassThrough } from "node:stream";
import Database from "better-sqlite3";
import { openStore } from "../../src/store/index.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

function program(): Command {
  const sink = new PassThrough();
  return buildProgram({ stdout: sink, stderr: sink, stdin: sink, cwd: process.cwd() }, () => {});
}

function allPaths(root: Command): string[] {
  const out: string[] = [];
  const walk = (command: Command, prefix: string): void => {
    const path = prefix === "" ? command.name() : `${prefix} ${command.name()}`;
    out.push(path);
    for (const sub of command.commands) walk(sub, path);
  };
  for (const command of root.commands) walk(command, "");
  return out;
}

describe("the command line's help and environment", { timeout: 120_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-help-"));
    await writeFile(join(dir, "robots.txt"), "User-agent: envbot\nDisallow: /\n");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("every command and sub-command has examples", () => {
    const paths = allPaths(program());
    assert.deepEqual(
      paths.filter((p) => EXAMPLES[p] === undefined),
      [],
    );
  });

  it("--help ends with the examples, and heed help A B shows B's help", async () => {
    const r = await runCli(["help", "sitemap", "build"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: heed sitemap build/);
    assert.match(r.stdout, /Examples:\n {2}\$ heed sitemap build/);
  });

  it("completion names every command, sub-command and option", async () => {
    const root = program();
    for (const shell of ["bash", "zsh", "fish"]) {
      const r = await runCli(["completion", shell]);
      assert.equal(r.code, 0, r.stderr);
      for (const path of allPaths(root)) {
        const name = path.split(" ").pop() ?? "";
        assert.ok(r.stdout.includes(name), `${shell}: ${path}`);
      }
      assert.ok(/(--|-l )any-path/.test(r.stdout), `${shell}: options`);
    }
    const bad = await runCli(["completion", "tcsh"]);
    assert.equal(bad.code, 2);
  });

  it("bash completion completes sub-commands and their options", async () => {
    const script = (await runCli(["completion", "bash"])).stdout;
    const file = join(dir, "heed.bash");
    await writeFile(file, script);
    const ask = (words: string): string =>
      spawnSync(
        "bash",
        [
          "-c",
          `source ${file}; COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _heed; echo "\${COMPREPLY[@]}"`,
        ],
        { encoding: "utf8" },
      ).stdout.trim();
    assert.equal(ask("heed sitemap bu"), "build");
    assert.equal(ask("heed sitemap build --gz"), "--gzip");
    assert.equal(ask("heed rup in"), "info index inbox");
    // After an option that takes a value: its choices, else file names, never option names.
    assert.equal(ask('heed check --dialect ""'), "auto rfc9309 koster1996 regp");
    assert.equal(ask("heed export --format c"), "csv");
    assert.equal(ask(`heed check --queries ${join(dir, "heed.ba")}`), file);
  });

  it("HEED_AGENT names the robot; --agent wins; neither: heed", async () => {
    const args = ["check", "robots.txt", "--url", "http://e.example/x"];
    const env = await runCli(args, { cwd: dir, env: { HEED_AGENT: "envbot" } });
    assert.equal(env.code, 1);
    assert.match(env.stdout, /\(envbot, /);
    const flag = await runCli([...args, "--agent", "other"], {
      cwd: dir,
      env: { HEED_AGENT: "envbot" },
    });
    assert.match(flag.stdout, /^allowed .*\(other, /);
    const none = await runCli(args, { cwd: dir, env: { HEED_AGENT: undefined } });
    assert.match(none.stdout, /\(heed, /);
  });

  it("HEED_STORE names the store; --store wins", async () => {
    const env = { HEED_STORE: join(dir, "env.db") };
    const r = await runCli(["report"], { cwd: dir, env });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /env\.db/);
    const flag = await runCli(["report", "--store", join(dir, "flag.db")], { cwd: dir, env });
    assert.match(flag.stderr, /flag\.db/);
  });

  it("export without --format writes JSON lines", async () => {
    const path = join(dir, "crawl.db");
    await (await openStore(path)).close();
    const raw = new Database(path);
    raw
      .prepare(
        "INSERT INTO crawl_log (url, origin, at, ms, status, bytes, outcome, detail) VALUES ('https://a.example/x', 'https://a.example', 1, 5, 200, 100, 'fetched', NULL)",
      )
      .run();
    raw.close();
    const r = await runCli(["export", "--store", path]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(jsonLines(r.stdout)[0]?.url, "https://a.example/x");
  });
});
