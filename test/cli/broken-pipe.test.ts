// A reader that goes away before heed has written (`heed --help | head -1`, `heed check … | true`)
// ends heed's output quietly: no EPIPE stack trace, and the command's own exit status, not a
// process that stops waiting for a drain that never comes.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BIN } from "../helpers/run-cli.js";

interface Ended {
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs heed with its standard output closed by the reader before heed writes a byte. */
function runIntoClosedPipe(args: readonly string[], cwd: string): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`heed ${args.join(" ")} did not end`));
    }, 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe("output into a closed pipe", { timeout: 120_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-broken-pipe-"));
    await writeFile(join(dir, "robots.txt"), "User-agent: *\nDisallow: /p\n");
    const queries = ["bot\t/p/1", "bot\t", "bot\t/q"];
    for (let i = 0; i < 20_000; i++) queries.push(`bot\t/x/${i}`);
    await writeFile(join(dir, "queries.tsv"), `${queries.join("\n")}\n`);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const cases: readonly [args: readonly string[], code: number][] = [
    [["--help"], 0],
    [["completion", "bash"], 0],
    [["lint", "robots.txt"], 0],
    [["check", "robots.txt", "--url", "/p/x", "--url", "/q"], 1],
    // An unanswerable query (line 2) still makes it exit 2, with 20,000 lines to drop.
    [["check", "robots.txt", "--queries", "queries.tsv"], 2],
    [["check", "robots.txt", "--queries", "queries.tsv", "--json"], 2],
  ];
  for (const [args, code] of cases) {
    it(`heed ${args.join(" ")}: exit ${code}, no stack trace`, async () => {
      const ended = await runIntoClosedPipe(args, dir);
      assert.doesNotMatch(ended.stderr, /EPIPE|internal error|\n\s+at /, ended.stderr);
      assert.equal(ended.code, code, ended.stderr);
    });
  }
});
