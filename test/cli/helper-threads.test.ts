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

/** Waits until `count()` reaches `want`, 60 s at most (a hang guard). */
async function answered(count: () => number, want: number): Promise<void> {
  for (let waited = 0; count() < want; waited += 20) {
    if (waited > 60_000) throw new Error(`${count()} answers of ${want} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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

    for (const nice of [0, 10]) {
      it(`--jobs workers run at the main thread's priority, and nothing is raised (started at nice ${nice})`, async () => {
        const command = [BIN, "check", "--batch", "-", "--json", "--jobs", "3"];
        const child =
          nice === 0
            ? spawn(process.execPath, command, { stdio: ["pipe", "pipe", "pipe"] })
            : spawn("nice", ["-n", String(nice), process.execPath, ...command], {
                stdio: ["pipe", "pipe", "pipe"],
              });
        // Answers counted as they come: thousands come at once, more than a line reader awaits.
        let answers = 0;
        child.stdout.on("data", (piece: Buffer) => {
          for (let at = piece.indexOf(10); at >= 0; at = piece.indexOf(10, at + 1)) answers++;
        });
        const ended = new Promise<number | null>((resolve) => child.on("close", resolve));
        try {
          // One line: the batch has begun, and no worker has (a line is too few to share).
          child.stdin.write(`${robots}\tbot\t/private/x\n`);
          await answered(() => answers, 1);
          const before = niceness(child.pid as number);
          assert.equal(before.get(child.pid as number), nice);
          for (const [tid, value] of before) {
            if (tid !== child.pid) assert.equal(value, Math.max(nice, 5), `helper ${tid}`);
          }
          // Then enough lines at once to be shared with workers, which start now.
          const lines = 4_000;
          child.stdin.write(`${robots}\tbot\t/private/${"x".repeat(100)}\n`.repeat(lines));
          await answered(() => answers, 1 + lines);
          const after = niceness(child.pid as number);
          assert.equal(after.get(child.pid as number), nice);
          const started = [...after].filter(([tid]) => !before.has(tid));
          assert.ok(started.length >= 1, "no worker thread started");
          for (const [tid, value] of started) assert.equal(value, nice, `thread ${tid}`);
          child.stdin.end();
          assert.equal(await ended, 1);
        } finally {
          child.kill();
        }
      });
    }

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

    it("in a process namespace whose /proc is not its own, lowers no other program's process", async (t) => {
      // `unshare --pid --fork` without a /proc of its own: /proc/self/task lists the thread ids
      // of the namespace outside, and a process inside may have one of them as its own id.
      // The script below makes one so (ns_last_pid) and asks for the helpers to be lowered.
      if (process.getuid?.() !== 0) return t.skip("needs root, for a process namespace");
      const script = join(dir, "namespace.mjs");
      const helpers = new URL("../../src/cli/helper-threads.js", import.meta.url).href;
      await writeFile(
        script,
        [
          'import { readdirSync, writeFileSync } from "node:fs";',
          'import { spawn } from "node:child_process";',
          'import { getPriority } from "node:os";',
          `const { lowerHelperThreads } = await import(${JSON.stringify(helpers)});`,
          'const tasks = readdirSync("/proc/self/task").map(Number).filter((n) => n !== process.pid);',
          "const taken = Math.max(...tasks);",
          'writeFileSync("/proc/sys/kernel/ns_last_pid", String(taken - 1));',
          'const other = spawn("sleep", ["60"]);',
          "const before = getPriority(other.pid);",
          "lowerHelperThreads();",
          "console.log(JSON.stringify({ pid: process.pid, taken, other: other.pid, before, after: getPriority(other.pid) }));",
          "other.kill();",
        ].join("\n"),
      );
      const child = spawn("unshare", ["--pid", "--fork", process.execPath, script], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.setEncoding("utf8").on("data", (piece: string) => (out += piece));
      child.stderr.setEncoding("utf8").on("data", (piece: string) => (err += piece));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      if (code !== 0 && out === "") return t.skip(`no process namespace here: ${err.trim()}`);
      const seen = JSON.parse(out) as {
        pid: number;
        taken: number;
        other: number;
        before: number;
        after: number;
      };
      // The namespace is as described: this process is 1 inside, the other has a listed id.
      assert.equal(seen.pid, 1);
      assert.equal(seen.other, seen.taken);
      assert.equal(seen.after, seen.before, "the other program's process was lowered");
    });
  },
);
