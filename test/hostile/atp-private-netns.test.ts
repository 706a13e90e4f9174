// issue 27 row 5, the agent host: a crawl whose one seed is on loopback may reach that host's
// agent host, but a robots.txt naming an agent host elsewhere does not open private addresses
// to it. Tested as the real thing: a network namespace of the test's own with 169.254.169.254
// on its `lo`, a name (`agents.example`) that resolves to it, a canary listening there, and the
// built `heed serve` and `heed crawl --agents` running inside.
//
// Needs root and iproute2 (`ip`); skipped, saying why, without them.
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BIN } from "../helpers/run-cli.js";

const NS = `heed-atp-${process.pid}`;
const METADATA = "169.254.169.254";
const ATP_PORT = 8701;
const SITE_PORT = 8080;
/** Hang guard for each process; the crawl takes a second or two when nothing hangs. */
const RUN_LIMIT_MS = 60_000;

function whyNoNamespace(): string | null {
  if (process.platform !== "linux") return "network namespaces are Linux only";
  if (process.getuid?.() !== 0) return "creating a network namespace needs root";
  try {
    execFileSync("ip", ["netns", "add", `${NS}-probe`], { stdio: "ignore" });
    execFileSync("ip", ["netns", "del", `${NS}-probe`], { stdio: "ignore" });
  } catch {
    return "this machine does not let root create a network namespace (or has no `ip`)";
  }
  return null;
}

const skip = whyNoNamespace();

/** A TCP listener that prints a line for each connection and answers an ATP PING. */
const CANARY = `
const { createServer } = require("node:net");
const server = createServer((socket) => {
  process.stdout.write("hit " + socket.localAddress + "\\n");
  socket.end("ATP/0.1 100 OKAY\\r\\nContent-Length: 2\\r\\n\\r\\n{}");
});
server.listen(${ATP_PORT}, process.argv[1], () => process.stdout.write("ready\\n"));
`;

/** Starts `command` inside the namespace; resolves with it once stdout matches `ready`. */
function inside(
  command: readonly string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn("ip", ["netns", "exec", NS, ...command], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command.join(" ")}: not ready: ${out}`)),
      RUN_LIMIT_MS,
    );
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({ child, out: () => out });
      }
    });
    child.stderr?.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.on("exit", (code) => reject(new Error(`${command.join(" ")} exited ${code}: ${out}`)));
  });
}

/** Runs `heed ARGS` inside the namespace to its end. */
function heed(args: readonly string[]): Promise<{ code: number | null; text: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("ip", ["netns", "exec", NS, process.execPath, BIN, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`heed ${args.join(" ")} took longer than ${RUN_LIMIT_MS} ms`));
    }, RUN_LIMIT_MS);
    child.stdout.on("data", (c: Buffer) => (text += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (text += c.toString("utf8")));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, text });
    });
  });
}

describe(
  "agent hosts: private addresses per host (issue 27 row 5)",
  { skip: skip ?? false },
  () => {
    const started: ChildProcess[] = [];
    let root = "";
    let canary: { child: ChildProcess; out: () => string } | null = null;

    before(async () => {
      root = mkdtempSync(join(tmpdir(), "heed-atp-ns-"));
      execFileSync("ip", ["netns", "add", NS]);
      execFileSync("ip", ["-n", NS, "link", "set", "lo", "up"]);
      execFileSync("ip", ["-n", NS, "addr", "add", `${METADATA}/32`, "dev", "lo"]);
      // `ip netns exec` mounts /etc/netns/NS/hosts over /etc/hosts for what runs inside.
      mkdirSync(`/etc/netns/${NS}`, { recursive: true });
      writeFileSync(`/etc/netns/${NS}/hosts`, `127.0.0.1 localhost\n${METADATA} agents.example\n`);
      canary = await inside([process.execPath, "-e", CANARY, METADATA], /ready/);
      started.push(canary.child);
    });

    after(() => {
      for (const child of started) {
        child.removeAllListeners("exit");
        child.kill("SIGKILL");
      }
      try {
        execFileSync("ip", ["netns", "del", NS], { stdio: "ignore" });
      } catch {
        // never made: `before` failed first
      }
      rmSync(`/etc/netns/${NS}`, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    });

    it("a loopback seed's robots.txt naming an agent host on 169.254.169.254: never connected", async () => {
      const site = join(root, "site");
      mkdirSync(site);
      writeFileSync(
        join(site, "robots.txt"),
        `User-agent: *\nDisallow:\nMobile-agent-server: / atp://agents.example:${ATP_PORT}\n`,
      );
      writeFileSync(join(site, "index.html"), "<p>home</p>");
      const served = await inside(
        [process.execPath, BIN, "serve", site, "--port", String(SITE_PORT), "--quiet"],
        /at http:\/\//,
      );
      started.push(served.child);
      const run = await heed([
        "crawl",
        `http://127.0.0.1:${SITE_PORT}/`,
        "--agent",
        "bot",
        "--agents",
        "--store",
        join(root, "crawl.db"),
        "--max-pages",
        "3",
        "--quiet",
      ]);
      assert.equal(run.code, 0, run.text);
      assert.doesNotMatch(
        canary?.out() ?? "",
        /hit/,
        "the agent host on 169.254.169.254 was reached",
      );
      // The agent host counts as unavailable, and the page is fetched over HTTP instead.
      const report = await heed(["report", "--store", join(root, "crawl.db"), "--json"]);
      assert.match(report.text, /"key":"agent-unavailable"/, report.text);
      assert.match(report.text, /"byStatus":\[\{"key":200/, report.text);
    });
  },
);
