// `heed check --batch --jobs N` and its worker threads, against a real server and real
// installs: a robots.txt named by URL is fetched once a run whatever N is (a flaky server must
// not make --jobs change the answers); a small batch starts no workers however many are asked
// for; and a worker that cannot run ends the run with a clear error and exit 2, never a hang
// or an unhandled rejection.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "../helpers/crawl-harness.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { BIN, runCli } from "../helpers/run-cli.js";
import { until } from "../helpers/until.js";

const ROBOTS = "User-agent: *\nDisallow: /p\n";
const LINES = 20_000;
const SUITE = { timeout: 180_000 };

describe("heed check --batch --jobs: the worker pool", SUITE, () => {
  let dir = "";
  let cleanup = async (): Promise<void> => {};
  let server: TestServer;
  let served = 0;
  before(async () => {
    ({ dir, cleanup } = await tempDir("heed-batch-pool-"));
    await writeFile(join(dir, "r.txt"), ROBOTS);
    // Flaky: every answer after the first is a 503, which closes the site. A run that fetched
    // the file more than once would answer some lines from the 503.
    server = await startServer({
      "/robots.txt": (_req, res) => {
        served++;
        res.writeHead(served === 1 ? 200 : 503, { "content-type": "text/plain" });
        res.end(served === 1 ? "User-agent: *\nDisallow: /private/\n" : "busy");
      },
    });
    const lines: string[] = [];
    for (let i = 0; i < LINES; i++) lines.push(`r.txt\tbot\t/p${i}`);
    await writeFile(join(dir, "local.tsv"), `${lines.join("\n")}\n`);
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  for (const [name, eol, scheme] of [
    ["urls.tsv", "\n", "http"],
    // CR LF line ends and a scheme in capitals (a URL all the same).
    ["urls-crlf.tsv", "\r\n", "HTTP"],
  ] as const) {
    it(`a robots.txt named by URL is fetched once a run, with --jobs 4 as with --jobs 0 (${name})`, async () => {
      const url = `${scheme}${server.origin.slice(4)}/robots.txt`;
      const lines: string[] = [];
      // URL lines spread over the whole batch, between runs of local files: every thread
      // would have some if they were shared.
      for (let i = 0; i < LINES; i++)
        lines.push(i % 1000 === 7 ? `${url}\tbot\t/private/${i}` : `r.txt\tbot\t/q${i}`);
      await writeFile(join(dir, name), `${lines.join(eol)}${eol}`);
      const answers: string[] = [];
      for (const jobs of ["0", "4"]) {
        served = 0;
        const run = await runCli(["check", "--batch", name, "--jobs", jobs], {
          cwd: dir,
          timeoutMs: 60_000,
        });
        assert.equal(run.code, 1, run.stderr);
        assert.equal(served, 1, `--jobs ${jobs}: robots.txt fetched ${served} times`);
        const out = run.stdout.trimEnd().split("\n");
        assert.equal(out.length, LINES);
        assert.equal(out.filter((l) => l.startsWith("disallowed")).length, LINES / 1000);
        answers.push(run.stdout);
      }
      assert.ok(answers[0] === answers[1], "--jobs 4 answers differ from --jobs 0");
    });
  }

  it("--jobs 64 on a batch of a few lines starts no worker thread", async () => {
    // The batch comes from standard input a line at a time; between lines the process is
    // looked at: its threads (/proc/PID/task) with --jobs 64 are no more than with --jobs 0.
    const threads: number[] = [];
    for (const jobs of ["0", "64"]) {
      const child = spawn(process.execPath, [BIN, "check", "--batch", "-", "--jobs", jobs], {
        cwd: dir,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
      const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
      try {
        child.stdin.write("r.txt\tbot\t/p\n");
        await until(() => out.split("\n").length > 1, "the first answer", 20_000);
        child.stdin.write("r.txt\tbot\t/x\n");
        await until(() => out.split("\n").length > 2, "the second answer", 20_000);
        threads.push((await readdir(`/proc/${child.pid}/task`)).length);
        child.stdin.end();
        assert.equal(await closed, 1);
      } finally {
        child.kill("SIGKILL");
      }
    }
    const [alone = 0, asked = 0] = threads;
    // Node's own threads vary by a few; 64 workers would not.
    assert.ok(asked < alone + 8, `--jobs 0: ${alone} threads; --jobs 64: ${asked}`);
  });

  it("a big batch with --jobs 2 starts its workers and answers as --jobs 0 does", async () => {
    const alone = await runCli(["check", "--batch", "local.tsv", "--jobs", "0"], {
      cwd: dir,
      timeoutMs: 60_000,
    });
    const shared = await runCli(["check", "--batch", "local.tsv", "--jobs", "2"], {
      cwd: dir,
      timeoutMs: 60_000,
    });
    assert.equal(alone.code, 1, alone.stderr);
    assert.equal(shared.code, 1, shared.stderr);
    assert.ok(shared.stdout === alone.stdout, "--jobs 2 answers differ from --jobs 0");
  });

  /**
   * A copy of the built heed (dist/src, package.json, node_modules linked) whose batch worker
   * is `worker`: null for none (an install with the file missing).
   */
  async function install(name: string, worker: string | null): Promise<string> {
    const root = join(dir, name);
    const built = fileURLToPath(new URL("../../src/", import.meta.url));
    const repo = fileURLToPath(new URL("../../../", import.meta.url));
    await cp(built, join(root, "dist", "src"), { recursive: true });
    await cp(join(repo, "package.json"), join(root, "package.json"));
    await symlink(join(repo, "node_modules"), join(root, "node_modules"));
    const file = join(root, "dist", "src", "cli", "batch", "worker.js");
    if (worker === null) await rm(file);
    else await writeFile(file, worker);
    return join(root, "dist", "src", "cli", "bin.js");
  }

  // Hang guard: a pool that waits for a dead worker never ends.
  const runInstalled = (bin: string, args: readonly string[]) =>
    runCli(args, { script: bin, cwd: dir, timeoutMs: 60_000 });

  it("a worker that cannot load (worker.js missing): exit 2 with a clear error, no hang", async () => {
    const bin = await install("no-worker", null);
    const run = await runInstalled(bin, ["check", "--batch", "local.tsv", "--jobs", "2"]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^heed: a --jobs worker thread failed: .*worker\.js/m);
    assert.doesNotMatch(run.stderr, /Unhandled|\n {4}at /);
  });

  it("a worker that stops before answering: exit 2 with a clear error, no hang", async () => {
    // Stands in for a worker ended from outside it (its thread gone without an answer).
    const bin = await install("stopping-worker", "process.exit(0);\n");
    const run = await runInstalled(bin, ["check", "--batch", "local.tsv", "--jobs", "2"]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^heed: a --jobs worker thread stopped \(exit code 0\)/m);
    assert.doesNotMatch(run.stderr, /Unhandled|\n {4}at /);
  });

  it("an install without the pool's module (loaded only for --jobs): exit 2 with a clear error", async () => {
    const bin = await install("no-pool", "");
    // The bundle's chunk of it (cli-chunks/pool-HASH.js), and tsc's module beside run.js.
    const chunks = join(bin, "..", "..", "cli-chunks");
    const names = await readdir(chunks).catch(() => [] as string[]);
    for (const name of names) if (/^pool-\w+\.js$/.test(name)) await rm(join(chunks, name));
    await rm(join(bin, "..", "batch", "pool.js"));
    const run = await runInstalled(bin, ["check", "--batch", "local.tsv", "--jobs", "2"]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^heed: --jobs: cannot load the worker pool: /m);
    assert.doesNotMatch(run.stderr, /internal error|\n {4}at /);
    // A batch without threads needs none of it.
    const alone = await runInstalled(bin, ["check", "--batch", "local.tsv", "--jobs", "0"]);
    assert.equal(alone.code, 1, alone.stderr);
  });
});
