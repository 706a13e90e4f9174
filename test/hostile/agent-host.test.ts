// issue 14 §3: the agent host against hostile agents and hostile senders. Memory: bodies
// limited to what code and state need, results counted in bytes, typed arrays (outside
// QuickJS's memory limit) not offered, connections limited per address. Fairness: limits per
// network (/24), ended agents dropped before a newcomer is refused. Reporting: an out of
// memory inside a promise job is `memory-limit` with the records kept; state nested 5,000
// deep gets a clear refusal; QuickJS's abort when it cannot free such a runtime goes to the
// host's log, not to stderr. Real TCP on 127.0.0.0/8 (several source addresses), real QuickJS.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { HEED_AGENT_CONTENT_TYPE } from "../../src/protocol/atp/index.js";
import { AgentHost, DEFAULT_HOST_LIMITS } from "../../src/site/agent-host/host.js";
import type { SandboxJob } from "../../src/site/agent-host/sandbox/job.js";
import { runSandboxed } from "../../src/site/agent-host/sandbox/spawn.js";
import { type AgentSite, makeAgentSite } from "../helpers/agent-site.js";

const SITE = "http://www.fict.org";

function agent(code: string, state = "null"): string {
  return `{"format":1,"code":${JSON.stringify(code)},"state":${state},"robot":"HeedBot","site":"${SITE}","path":"/home/user1/"}`;
}

/** One raw ATP request from a chosen source address; the status line and body of the answer. */
function raw(
  port: number,
  wire: string | Buffer,
  from = "127.0.0.1",
  guardMs = 30_000,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: from });
    const chunks: Buffer[] = [];
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${guardMs} ms`));
    }, guardMs);
    socket.on("connect", () => socket.write(wire));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(guard);
      const text = Buffer.concat(chunks).toString("utf8");
      resolve({ status: Number(/^ATP\/0\.1 (\d+)/.exec(text)?.[1] ?? 0), text });
    });
  });
}

function dispatchWire(body: string): string {
  return (
    `DISPATCH / ATP/0.1\r\nAgent-System: heed\r\nAgent-Language: javascript\r\n` +
    `Content-Type: ${HEED_AGENT_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

describe("hostile agents and senders", { timeout: 300_000 }, () => {
  let site: AgentSite;
  before(async () => {
    site = await makeAgentSite();
  });
  after(() => site.cleanup());

  function job(code: string, limits: Partial<SandboxJob["limits"]> = {}): SandboxJob {
    return {
      code,
      state: null,
      info: {
        id: "h",
        site: SITE,
        path: "/home/user1/",
        robot: "HeedBot",
        host: "atp://127.0.0.1:1",
      },
      root: site.root,
      robotsText: "",
      moveTargets: [],
      limits: { ...DEFAULT_HOST_LIMITS, ...limits },
    };
  }

  it("out of memory inside a promise job: memory-limit, the records emitted kept", async () => {
    // Small heap so that QuickJS reaches it soon; the time limit is only a hang guard.
    const limits = { memoryBytes: 8 * 1024 * 1024, timeMs: 120_000 };
    const detached = await runSandboxed(
      job(
        `Promise.resolve().then(() => { const a = []; for (;;) a.push(new Array(1 << 14).fill(a.length)); });
         heed.emit({ before: 1 });`,
        limits,
      ),
    ).done;
    assert.deepEqual([detached.status, detached.error?.code], ["failed", "memory-limit"]);
    assert.deepEqual(detached.records, ['{"before":1}']);
    const awaited = await runSandboxed(
      job(
        `heed.emit({ before: 2 });
         (async () => { await null; const a = []; for (;;) a.push(new Array(1 << 14).fill(a.length)); })()`,
        limits,
      ),
    ).done;
    assert.deepEqual([awaited.status, awaited.error?.code], ["failed", "memory-limit"]);
    assert.deepEqual(awaited.records, ['{"before":2}']);
  });

  it("QuickJS failing to free a runtime writes nothing to stderr: the abort is a note for the host's log", async () => {
    // An out of memory inside an async function leaves QuickJS unable to free the runtime: its
    // WebAssembly module aborts and, left to itself, prints `Aborted(…)` on the process's stderr.
    // Run in a process of its own, so that its stderr is the sandbox's alone.
    const spawnModule = new URL("../../src/site/agent-host/sandbox/spawn.js", import.meta.url).href;
    const script =
      `import { runSandboxed } from ${JSON.stringify(spawnModule)};\n` +
      `const out = await runSandboxed(JSON.parse(process.argv[2])).done;\n` +
      `process.stdout.write(JSON.stringify(out));\n`;
    const hostile = job(
      `heed.emit({ before: 3 });
       (async () => { await null; const a = []; for (;;) a.push(new Array(1 << 14).fill(a.length)); })()`,
      { memoryBytes: 8 * 1024 * 1024, timeMs: 120_000 },
    );
    // A file, not `--input-type=module -e`: the sandbox's worker thread inherits the flags.
    const folder = await mkdtemp(join(tmpdir(), "heed-abort-"));
    const file = join(folder, "run.mjs");
    await writeFile(file, script);
    const child = spawn(process.execPath, [file, JSON.stringify(hostile)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const guard = setTimeout(() => child.kill("SIGKILL"), 150_000);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(guard);
    await rm(folder, { recursive: true, force: true });
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "", "nothing on stderr");
    const out = JSON.parse(stdout) as {
      error: { code: string } | null;
      records: string[];
      notes?: string[];
    };
    assert.deepEqual([out.error?.code, out.records], ["memory-limit", ['{"before":3}']], stdout);
    assert.match((out.notes ?? []).join("\n"), /^Aborted\(Assertion failed: list_empty/m);
  });

  it("the host puts a sandbox's abort in its own log, prefixed with the agent", async () => {
    const lines: string[] = [];
    const host = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: 0,
      assign: ["/home/user1/"],
      limits: { memoryBytes: 8 * 1024 * 1024, timeMs: 120_000 },
      log: (line) => lines.push(line),
    });
    const port = Number(new URL((await host.listen()).replace("atp:", "http:")).port);
    try {
      const hostile = agent(
        "(async () => { await null; const a = []; for (;;) a.push(new Array(1 << 14).fill(a.length)); })()",
      );
      assert.equal((await raw(port, dispatchWire(hostile))).status, 100);
      const deadline = Date.now() + 120_000;
      while (!lines.some((l) => / failed: /.test(l)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      assert.ok(
        lines.some((l) => /^agent \S+ failed: memory-limit/.test(l)),
        lines.join("\n"),
      );
      assert.ok(
        lines.some((l) => /^agent \S+ sandbox: Aborted\(Assertion failed/.test(l)),
        lines.join("\n"),
      );
    } finally {
      await host.close();
    }
  });

  it("binary buffers count against the memory limit", async () => {
    // Their bytes escaped QuickJS's own limit: 1 MiB arrays grew the thread to 2 GiB before
    // it failed. The time limit is only a hang guard.
    const out = await runSandboxed(
      job(`heed.emit({ start: 1 }); const a = []; for (;;) a.push(new Uint8Array(1 << 20));`, {
        timeMs: 120_000,
      }),
    ).done;
    assert.deepEqual([out.error?.code, out.records], ["memory-limit", ['{"start":1}']]);
  });

  it("results are counted in UTF-8 bytes", async () => {
    // 2 records of 300 "é": 616 characters of JSON, 1,216 bytes.
    const out = await runSandboxed(
      job(`for (let i = 0; i < 2; i++) heed.emit({ s: "é".repeat(300) });`, {
        maxResultBytes: 1000,
      }),
    ).done;
    assert.equal(out.error?.code, "result-too-large");
    assert.equal(out.records.length, 1);
  });

  it("state nested 5,000 deep is refused clearly; setState too", async () => {
    const host = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: 0,
      assign: ["/home/user1/"],
    });
    const port = Number(new URL((await host.listen()).replace("atp:", "http:")).port);
    try {
      const deep = "[".repeat(5000) + "]".repeat(5000);
      const r = await raw(port, dispatchWire(agent("heed.emit({})", deep)));
      assert.equal(r.status, 300, r.text);
      assert.match(r.text, /state: nested more than 256 levels deep/);
      const inVm = await runSandboxed(
        job(`let s = 0; for (let i = 0; i < 5000; i++) s = [s];
             try { heed.setState(s); } catch (e) { heed.emit({ e: e.message }); }`),
      ).done;
      assert.match(inVm.records[0] ?? "", /setState: nested more than 256 levels deep/);
    } finally {
      await host.close();
    }
  });

  it("a body declared over the limit is refused at once, not buffered", async () => {
    const host = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: 0,
      assign: ["/home/user1/"],
      limits: { requestTimeoutMs: 120_000 },
    });
    const port = Number(new URL((await host.listen()).replace("atp:", "http:")).port);
    try {
      assert.ok(DEFAULT_HOST_LIMITS.maxBodyBytes <= 4 * 1024 * 1024);
      const head =
        `DISPATCH / ATP/0.1\r\nAgent-System: heed\r\nAgent-Language: javascript\r\n` +
        `Content-Type: ${HEED_AGENT_CONTENT_TYPE}\r\nContent-Length: ${20 * 1024 * 1024}\r\n\r\n`;
      // Only the head is sent: the answer must not wait for 20 MiB (or the request timeout).
      const r = await raw(port, head, "127.0.0.1", 60_000);
      assert.equal(r.status, 301, r.text);
      assert.match(r.text, /over the limit of 4194304/);
    } finally {
      await host.close();
    }
  });

  it("connections are limited per address; another address is still served", async () => {
    const host = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: 0,
      assign: ["/home/user1/"],
      limits: { maxConnectionsPerAddress: 4, requestTimeoutMs: 60_000 },
    });
    const port = Number(new URL((await host.listen()).replace("atp:", "http:")).port);
    const idle = [];
    try {
      for (let i = 0; i < 4; i++) {
        const s = connect({ port, host: "127.0.0.1", localAddress: "127.0.0.5" });
        s.on("error", () => {});
        await new Promise((r) => s.once("connect", r));
        idle.push(s);
      }
      const fifth = await raw(port, "PING / ATP/0.1\r\n\r\n", "127.0.0.5");
      assert.equal(fifth.status, 0, "the fifth connection of one address gets no answer");
      const other = await raw(port, "PING / ATP/0.1\r\n\r\n", "127.0.0.6");
      assert.equal(other.status, 100, other.text);
    } finally {
      for (const s of idle) s.destroy();
      await host.close();
    }
  });

  it("per-network limits, and ended agents make room before a newcomer is refused", async () => {
    const host = new AgentHost({
      root: site.root,
      host: "127.0.0.1",
      port: 0,
      assign: ["/home/user1/"],
      limits: { maxHeld: 8, maxPerSender: 2, maxPerNetwork: 4, maxRunning: 2 },
    });
    const port = Number(new URL((await host.listen()).replace("atp:", "http:")).port);
    try {
      assert.ok(DEFAULT_HOST_LIMITS.expiryMs <= 120_000, "finished agents expire soon");
      // Rotating addresses within one /24 stops at the network's limit.
      const slow = agent("const until = Date.now() + 200; while (Date.now() < until) {}");
      const statuses: number[] = [];
      const texts: string[] = [];
      for (const from of ["127.0.1.1", "127.0.1.1", "127.0.1.2", "127.0.1.2", "127.0.1.3"]) {
        const r = await raw(port, dispatchWire(slow), from);
        statuses.push(r.status);
        texts.push(r.text);
      }
      assert.deepEqual(statuses, [100, 100, 100, 100, 403]);
      assert.match(texts[4] ?? "", /limit per network/);
      // Fill the host from other networks; once those agents have ended, a newcomer from yet
      // another network is let in (the oldest ended agent makes room), not refused.
      for (const from of ["127.0.2.1", "127.0.2.2", "127.0.3.1", "127.0.3.2"]) {
        assert.equal((await raw(port, dispatchWire(agent("heed.emit({})")), from)).status, 100);
      }
      const deadline = Date.now() + 120_000;
      while (host.counts().running + host.counts().queued > 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      assert.equal(host.counts().held, 8);
      const newcomer = await raw(port, dispatchWire(agent("heed.emit({})")), "127.0.4.1");
      assert.equal(newcomer.status, 100, newcomer.text);
      assert.equal(host.counts().held, 8);
    } finally {
      await host.close();
    }
  });
});
