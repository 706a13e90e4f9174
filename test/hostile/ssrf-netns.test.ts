// issue 14 §1, tested as the real thing: a network namespace of the test's own, with a
// public-looking address on its `lo` serving hostile redirects and canaries on 127.0.0.1,
// 169.254.169.254 and ::1 (test/helpers/hostile-hosts.ts). Every heed command that fetches runs
// inside the namespace, as a user would run it against a public site, and no canary may ever
// be reached: the guard runs on every hop (DESIGN §2 "One way out").
//
// Needs root and iproute2 (`ip`), which scripts/setup.mjs installs; skipped, saying why,
// without them.
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { CONTROL_TARGET, hostsFile, PUBLIC_ADDRESS, TARGETS } from "../helpers/hostile-hosts.js";
import { BIN } from "../helpers/run-cli.js";

const HOSTS_SCRIPT = fileURLToPath(new URL("../helpers/hostile-hosts.js", import.meta.url));
const NS = `heed-ssrf-${process.pid}`;
/** Exit status of an internal error (a crash): never the answer to hostile input. */
const EXIT_INTERNAL = 70;
/** Hang guard per command; each run takes well under a second when nothing hangs. */
const RUN_LIMIT_MS = 60_000;
/** Commands run at once inside the namespace. */
const PARALLEL = 4;

function whyNoNamespace(): string | null {
  if (process.platform !== "linux") return "network namespaces are Linux only";
  if (process.getuid?.() !== 0) return "creating a network namespace needs root";
  try {
    execFileSync("ip", ["-V"], { stdio: "ignore" });
  } catch {
    return "`ip` (iproute2) is not installed: apt-get install iproute2";
  }
  try {
    execFileSync("ip", ["netns", "add", `${NS}-probe`], { stdio: "ignore" });
    execFileSync("ip", ["netns", "del", `${NS}-probe`], { stdio: "ignore" });
  } catch {
    return "this machine does not let root create a network namespace";
  }
  return null;
}

const skip = whyNoNamespace();

interface Run {
  readonly args: readonly string[];
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs heed inside the namespace; `untilLine` ends it with SIGTERM once stdout has that text. */
function heed(args: readonly string[], untilLine?: RegExp): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("ip", ["netns", "exec", NS, process.execPath, BIN, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`heed ${args.join(" ")} took longer than ${RUN_LIMIT_MS} ms`));
    }, RUN_LIMIT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      if (untilLine?.test(stdout)) child.kill("SIGTERM");
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ args, code, stdout, stderr });
    });
    child.stdin.end();
  });
}

/** Runs the commands PARALLEL at a time, in order of the list. */
async function runAll(commands: ReadonlyArray<readonly string[]>): Promise<Run[]> {
  const results: Run[] = new Array<Run>(commands.length);
  let next = 0;
  const worker = async () => {
    while (next < commands.length) {
      const index = next++;
      results[index] = await heed(commands[index] ?? []);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return results;
}

interface Hit {
  readonly local: string;
  readonly host: string;
  readonly path: string;
}

describe(
  "SSRF: hostile redirects inside a network namespace (issue 14 §1)",
  { skip: skip ?? false },
  () => {
    let hosts: ChildProcess | null = null;
    const hits: Hit[] = [];
    let synced: () => void = () => undefined;
    let root = "";

    before(async () => {
      root = mkdtempSync(join(tmpdir(), "heed-ssrf-"));
      execFileSync("ip", ["netns", "add", NS]);
      execFileSync("ip", ["-n", NS, "link", "set", "lo", "up"]);
      execFileSync("ip", ["-n", NS, "addr", "add", `${PUBLIC_ADDRESS}/32`, "dev", "lo"]);
      execFileSync("ip", ["-n", NS, "addr", "add", "169.254.169.254/32", "dev", "lo"]);
      // `ip netns exec` mounts /etc/netns/NS/hosts over /etc/hosts for what runs inside.
      mkdirSync(`/etc/netns/${NS}`, { recursive: true });
      writeFileSync(`/etc/netns/${NS}/hosts`, hostsFile());
      const started = spawn(
        "ip",
        ["netns", "exec", NS, process.execPath, HOSTS_SCRIPT, "--serve"],
        {
          stdio: ["pipe", "pipe", "inherit"],
        },
      );
      hosts = started;
      let buffered = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("hostile hosts did not start")), 30_000);
        started.on("exit", (code) => reject(new Error(`hostile hosts exited with ${code}`)));
        started.stdout.on("data", (chunk: Buffer) => {
          buffered += chunk.toString("utf8");
          let end: number;
          while ((end = buffered.indexOf("\n")) >= 0) {
            const line = buffered.slice(0, end);
            buffered = buffered.slice(end + 1);
            const message = JSON.parse(line) as { ready?: true; synced?: true; hit?: Hit };
            if (message.hit !== undefined) hits.push(message.hit);
            if (message.synced === true) synced();
            if (message.ready === true) {
              clearTimeout(timer);
              resolve();
            }
          }
        });
      });
    });

    after(() => {
      hosts?.removeAllListeners("exit");
      hosts?.stdin?.end();
      hosts?.kill("SIGKILL");
      try {
        execFileSync("ip", ["netns", "pids", NS], { encoding: "utf8" })
          .split("\n")
          .filter((pid) => /^\d+$/.test(pid))
          .forEach((pid) => process.kill(Number(pid), "SIGKILL"));
      } catch {
        // nothing left inside
      }
      try {
        execFileSync("ip", ["netns", "del", NS], { stdio: "ignore" });
      } catch {
        // never made: \`before\` failed first
      }
      rmSync(`/etc/netns/${NS}`, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    });

    /**
     * Hits since `mark` on anything but the public address: a canary reached. Asks the hosts to
     * answer "synced" first: they print each hit before answering, so every hit is in by then.
     */
    const breaches = async (mark: number) => {
      await new Promise<void>((resolve) => {
        synced = resolve;
        hosts?.stdin?.write("sync\n");
      });
      return hits
        .slice(mark)
        .filter((hit) => hit.local !== PUBLIC_ADDRESS && hit.local !== `::ffff:${PUBLIC_ADDRESS}`);
    };

    const assertClean = async (mark: number, runs: readonly Run[]) => {
      for (const run of runs) {
        assert.notEqual(run.code, EXIT_INTERNAL, `heed ${run.args.join(" ")}: ${run.stderr}`);
        assert.ok(
          run.code !== null && run.code > 0,
          `heed ${run.args.join(" ")} exited ${run.code}`,
        );
        assert.doesNotMatch(run.stdout + run.stderr, /secret-canary-body|canary\.example/);
      }
      assert.deepEqual(await breaches(mark), [], "a canary was reached");
    };

    it("control: a redirect to a public address is followed, and the canary sees it", async () => {
      const run = await heed([
        "check",
        "http://control.hostile.example/robots.txt",
        "--agent",
        "bot",
        "--url",
        "/secret-canary-body",
      ]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stdout, /^disallowed/);
      assert.ok(
        hits.some((hit) => hit.path === new URL(CONTROL_TARGET).pathname),
        "the public canary was not reached: the test would see nothing",
      );
    });

    const everyTarget = (make: (n: number) => readonly string[]) => TARGETS.map((_, n) => make(n));
    // Each CLI run costs about a second of CPU: `check` (whose robots.txt fetch the other
    // robots.txt commands share) and `sitemap --follow` (one run) meet every target; the other
    // commands a sample of the kinds: a decimal IPv4, an IPv4-mapped IPv6, a name that resolves
    // to loopback, and two hops ending at the metadata address.
    const SAMPLE = [1, 9, 14, TARGETS.length - 1];
    const byTarget = (make: (n: number) => readonly string[]) => SAMPLE.map((n) => make(n));

    it("heed check follows no redirect to a private address", async () => {
      const mark = hits.length;
      const runs = await runAll(
        everyTarget((n) => [
          "check",
          `http://t${n}.hostile.example/robots.txt`,
          "--agent",
          "bot",
          "--url",
          "/x",
        ]),
      );
      await assertClean(mark, runs);
      // The message names the hop the guard refused.
      for (const run of runs) assert.match(run.stderr, /redirected to \S+: refusing to connect/);
    });

    it("heed lint follows no redirect to a private address", async () => {
      const mark = hits.length;
      await assertClean(
        mark,
        await runAll(byTarget((n) => ["lint", `http://t${n}.hostile.example/robots.txt`])),
      );
    });

    it("heed agents resolve follows no redirect to a private address", async () => {
      const mark = hits.length;
      await assertClean(
        mark,
        await runAll(
          byTarget((n) => [
            "agents",
            "resolve",
            `http://t${n}.hostile.example/robots.txt`,
            "--url",
            "/x",
          ]),
        ),
      );
    });

    it("heed sitemap URL and --discover follow no redirect to a private address", async () => {
      const mark = hits.length;
      await assertClean(
        mark,
        await runAll([
          ...byTarget((n) => ["sitemap", `http://t${n}.hostile.example/sitemap.xml`]),
          ...byTarget((n) => ["sitemap", "--discover", `http://d${n}.hostile.example/`]),
        ]),
      );
    });

    it("heed sitemap --follow reads no listed sitemap that redirects to a private address", async () => {
      const mark = hits.length;
      const run = await heed(["sitemap", "--follow", "http://public.example/index.xml"]);
      await assertClean(mark, [run]);
      // Every listed sitemap was tried, and each failed at the guard.
      // Repeated findings are summarised: "… and N more [fetch-failed]".
      const shown = run.stderr.match(/^\S+: error: .*\[fetch-failed\]$/gm)?.length ?? 0;
      const more = Number(/… and (\d+) more \[fetch-failed\]/.exec(run.stderr)?.[1] ?? 0);
      assert.equal(shown + more, TARGETS.length, run.stderr);
    });

    it("heed datasets follows no redirect to a private address", async () => {
      const mark = hits.length;
      await assertClean(
        mark,
        await runAll([
          ...byTarget((n) => ["datasets", `http://t${n}.hostile.example/`]),
          ...byTarget((n) => ["datasets", `http://d${n}.hostile.example/`]),
        ]),
      );
    });

    it("heed agents host --site follows no redirect to a private address", async () => {
      const mark = hits.length;
      const docs = join(root, "docs");
      mkdirSync(docs, { recursive: true });
      const runs: Run[] = [];
      for (const n of SAMPLE) {
        const run = await heed(
          [
            "agents",
            "host",
            "--root",
            docs,
            "--listen",
            "127.0.0.1:0",
            "--site",
            `http://t${n}.hostile.example`,
          ],
          /listening on/,
        );
        runs.push(run);
        assert.match(run.stdout, /listening on/, run.stderr);
        // The canary's robots.txt would assign / to canary.example.
        assert.doesNotMatch(run.stdout, /agents accepted for \//);
      }
      // A signal ends the host with 0; what matters is that no canary was reached.
      assert.deepEqual(await breaches(mark), []);
      for (const run of runs) assert.notEqual(run.code, EXIT_INTERNAL);
    });

    it("heed crawl --purpose train-ai follows no tdmrep.json redirect to a private address", async () => {
      const crawl = (host: string, name: string) => [
        "crawl",
        `http://${host}/`,
        "--agent",
        "bot",
        "--purpose",
        "train-ai",
        "--store",
        join(root, `${name}.db`),
        "--max-pages",
        "3",
        "--quiet",
      ];
      const tdmrepLog = async (name: string) => {
        const exported = await heed([
          "export",
          "--store",
          join(root, `${name}.db`),
          "--format",
          "jsonl",
        ]);
        return exported.stdout
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((r) => r.outcome === "tdmrep");
      };
      // Control: the hop to a public address is taken (its robots.txt first), so the file is read.
      const control = await heed(crawl("control.hostile.example", "tdm-control"));
      assert.notEqual(control.code, EXIT_INTERNAL, control.stderr);
      assert.deepEqual(
        (await tdmrepLog("tdm-control")).map((r) => [r.url, r.detail]),
        [
          [
            "http://control.hostile.example/.well-known/tdmrep.json",
            `redirect to ${CONTROL_TARGET}`,
          ],
          [CONTROL_TARGET, null],
        ],
      );
      const mark = hits.length;
      const runs = await runAll(byTarget((n) => crawl(`d${n}.hostile.example`, `tdm-${n}`)));
      for (const run of runs) assert.notEqual(run.code, EXIT_INTERNAL, run.stderr);
      assert.deepEqual(await breaches(mark), [], "a canary was reached");
      // Each hop stopped where the guard refused the hop's robots.txt: no request past it.
      for (const n of SAMPLE) {
        const [first, ...rest] = await tdmrepLog(`tdm-${n}`);
        assert.match(
          String(first?.detail),
          /^redirect not followed: .*robots\.txt no answer/,
          `target ${n}`,
        );
        assert.deepEqual(rest, [], `target ${n}`);
      }
    });

    it("a Location that is not a URL is a one-line error, never an internal error", async () => {
      const mark = hits.length;
      const runs = await runAll([
        ["check", "http://badloc.hostile.example/robots.txt", "--agent", "bot", "--url", "/x"],
        ["lint", "http://badloc.hostile.example/robots.txt"],
        ["agents", "resolve", "http://badloc.hostile.example/robots.txt", "--url", "/x"],
        ["sitemap", "http://badloc.hostile.example/sitemap.xml"],
        ["datasets", "http://badloc.hostile.example/"],
      ]);
      await assertClean(mark, runs);
      for (const run of runs) {
        const said = `heed ${run.args.join(" ")}:\n${run.stderr}`;
        assert.match(run.stderr, /"http:\/\/\[::1": not a URL/, said);
        assert.doesNotMatch(run.stderr, /^\s+at /m, said);
        // datasets reports each file on a line of its own; the others stop at the one error.
        if (run.args[0] !== "datasets") assert.equal(run.stderr.trim().split("\n").length, 1, said);
      }
    });
  },
);
