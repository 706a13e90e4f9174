// A `heed check --batch` process runs its helper threads (V8's compiler and collector helpers,
// libuv's pool) at a lower priority than the thread that answers (src/cli/helper-threads.ts);
// a command run inside another program leaves that program's threads alone.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, before, describe, it } from "node:test";
import { lineReader } from "../helpers/child-lines.js";
import { BIN } from "../helpers/run-cli.js";
import { main } from "../../src/cli/main.js";

const linux = process.platform === "linux";

/** The nice value of each thread of process `pid`, by thread id. */
function niceness(pid: number): Map<number, number> {
  const found = new Map<number, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
      // Fields after the command name, which is in parentheses and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      found.set(Number(task), Number(fields[16]));
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return found;
}

describe(
  "helper threads of a batch",
  { skip: !linux && "thread priorities are set on Linux only" },
  () => {
    let dir = "";
    let robots = "";
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), "heed-helper-threads-"));
      robots = join(dir, "robots.txt");
      await writeFile(robots, "User-agent: *\nDisallow: /private\n");
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it("heed check --batch runs its helpers at nice 5 and its own thread as it was", async () => {
      const child = spawn(process.execPath, [BIN, "check", "--batch", "-", "--json"], {
        stdio: ["pipe", "pipe", "pipe"],
      });
      const next = lineReader(child.stdout);
      const ended = new Promise<number | null>((resolve) => child.on("close", resolve));
      try {
        // The batch has begun once its first answer is out; the process waits for more lines.
        child.stdin.write(`${robots}\tbot\t/private/x\n`);
        assert.equal((JSON.parse(await next()) as { allowed: boolean }).allowed, false);
        const threads = niceness(child.pid as number);
        assert.equal(threads.get(child.pid as number), 0);
        const helpers = [...threads].filter(([tid]) => tid !== child.pid);
        assert.ok(helpers.length >= 4, `${helpers.length} helper threads`);
        for (const [tid, nice] of helpers) assert.equal(nice, 5, `thread ${tid}`);
        child.stdin.end();
        assert.equal(await ended, 1);
      } finally {
        child.kill();
      }
    });

    it("a batch run inside another program leaves that program's threads as they were", async () => {
      const before = niceness(process.pid);
      const batch = join(dir, "batch.tsv");
      await writeFile(batch, `${robots}\tbot\t/public\n`);
      const stdout = new PassThrough();
      const answers: Buffer[] = [];
      stdout.on("data", (piece: Buffer) => answers.push(piece));
      const code = await main(["check", "--batch", batch], {
        stdout,
        stderr: new PassThrough(),
        stdin: new PassThrough(),
        cwd: dir,
      });
      assert.equal(code, 0);
      assert.match(Buffer.concat(answers).toString("utf8"), /^allowed \/public /);
      for (const [tid, nice] of niceness(process.pid)) {
        if (before.has(tid)) assert.equal(nice, before.get(tid), `thread ${tid}`);
      }
    });
  },
);
