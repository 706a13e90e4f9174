// `heed check --batch -` and `--queries -` as a co-process: a program writes a query line and
// waits for its answer before it writes the next (Python's subprocess, say). Each answer must
// come out when its line has come in, not when 1 MiB of answers has piled up or the input ends.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { lineReader } from "../helpers/child-lines.js";
import { BIN } from "../helpers/run-cli.js";

describe("heed check on standard input, as a co-process", () => {
  let dir = "";
  let robots = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-coprocess-"));
    robots = join(dir, "robots.txt");
    await writeFile(robots, "User-agent: *\nDisallow: /private\n");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const modes: [string, string[], (path: string) => string][] = [
    ["--batch -", ["check", "--batch", "-", "--json"], (path) => `${robots}\tbot\t${path}\n`],
    ["--queries -", ["check", "ROBOTS", "--queries", "-", "--json"], (path) => `bot\t${path}\n`],
  ];
  for (const [name, args, line] of modes) {
    it(`${name}: each answer comes before the next line is written`, async () => {
      const child = spawn(
        process.execPath,
        [BIN, ...args.map((a) => (a === "ROBOTS" ? robots : a))],
        {
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      const next = lineReader(child.stdout);
      const ended = new Promise<number | null>((resolve) => child.on("close", resolve));
      try {
        for (const [path, allowed] of [
          ["/private/x", false],
          ["/public", true],
          ["/private", false],
        ] as const) {
          child.stdin.write(line(path));
          const answer = JSON.parse(await next()) as { url: string; allowed: boolean };
          assert.equal(answer.url, path);
          assert.equal(answer.allowed, allowed);
        }
        child.stdin.end();
        assert.equal(await ended, 1);
      } finally {
        child.kill();
      }
    });
  }
});
