// Hostile agents in the sandbox (issue 9, "Proof"): each is contained with a clear error, and
// the next agent runs as usual. Real QuickJS in a real worker thread on a real directory.
import assert from "node:assert/strict";
import { realpath } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import type {
  SandboxJob,
  SandboxLimits,
  SandboxOutcome,
} from "../../../src/site/agent-host/sandbox/job.js";
import { runSandboxed } from "../../../src/site/agent-host/sandbox/spawn.js";
import { type AgentSite, makeAgentSite, seedRobots } from "../../helpers/agent-site.js";

const LIMITS: SandboxLimits = {
  timeMs: 1500,
  memoryBytes: 16 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxResultBytes: 64 * 1024,
  maxResultRecords: 100,
  maxReadBytes: 1024 * 1024,
  maxListEntries: 1000,
  maxStateLength: 64 * 1024,
};
const ROBOTS = seedRobots("atp://127.0.0.1:1", "atp://127.0.0.1:2");

describe("the sandbox", { timeout: 120_000 }, () => {
  let site: AgentSite;
  let root: string;
  before(async () => {
    site = await makeAgentSite();
    root = await realpath(site.root);
  });
  after(() => site.cleanup());

  function run(
    code: string,
    limits: Partial<SandboxLimits> = {},
    moveTargets: string[] = [],
  ): Promise<SandboxOutcome> {
    const job: SandboxJob = {
      code,
      state: { start: true },
      info: {
        id: "t1",
        site: "http://www.fict.org",
        path: "/home/user1/",
        robot: "HeedBot",
        host: "atp://127.0.0.1:1",
      },
      root,
      robotsText: ROBOTS,
      moveTargets,
      limits: { ...LIMITS, ...limits },
    };
    return runSandboxed(job).done;
  }
  const records = (o: SandboxOutcome) =>
    o.records.map((r) => JSON.parse(r) as Record<string, unknown>);

  it("a well-behaved agent lists, reads, emits and keeps state", async () => {
    const out = await run(`
      const names = heed.list(heed.info.path).map((e) => e.name + ":" + e.type);
      const page = heed.read("index.html");
      heed.emit({ names, url: page.url, size: page.size, sha: page.sha256.length, state: heed.getState() });
      heed.setState({ done: true });`);
    assert.equal(out.status, "finished", JSON.stringify(out.error));
    const [first] = records(out);
    // private/ is forbidden by robots.txt, to-user2.html and to-outside.txt lead outside: not listed.
    assert.deepEqual(first?.names, ["index.html:file", "notes.txt:file", "sub:directory"]);
    assert.equal(first?.url, "http://www.fict.org/home/user1/index.html");
    assert.equal(first?.sha, 64);
    assert.deepEqual(first?.state, { start: true });
    assert.deepEqual(out.state, { done: true });
  });

  const escapes: readonly (readonly [string, string])[] = [
    ["../user2/b.html", "outside-subtree"],
    ["/home/user2/b.html", "outside-subtree"],
    ["/etc/passwd", "outside-subtree"],
    ["%2e%2e/%2e%2e/%2e%2e/etc/passwd", "outside-subtree"],
    ["to-user2.html", "outside-subtree"],
    ["to-outside.txt", "outside-subtree"],
    ["private/p.html", "forbidden-by-robots"],
  ];
  it("`../`, absolute paths, encodings and symlinks out are refused with the reason", async () => {
    const out = await run(`
      for (const p of ${JSON.stringify(escapes.map(([p]) => p))}) {
        try { const r = heed.read(p); heed.emit({ p, leaked: r.text }); }
        catch (e) { heed.emit({ p, error: e.message }); }
      }`);
    assert.equal(out.status, "finished");
    const got = records(out);
    assert.equal(got.length, escapes.length);
    escapes.forEach(([path, code], i) => {
      assert.equal(got[i]?.leaked, undefined, `${path} was read`);
      assert.match(String(got[i]?.error), new RegExp(`\\[${code}\\]`), path);
    });
  });

  it("an infinite loop stops at the time limit", async () => {
    const out = await run("for (;;) {}");
    assert.deepEqual([out.status, out.error?.code], ["failed", "time-limit"]);
    assert.match(String(out.error?.message), /time limit of 1500 ms/);
  });

  it("a loop that catches every error is still stopped", async () => {
    const out = await run("for (;;) { try { for (;;) {} } catch (e) {} }");
    assert.equal(out.error?.code, "time-limit");
  });

  it("a memory bomb stops at the memory limit", async () => {
    const out = await run("const a = []; for (;;) a.push(new Uint8Array(1 << 20));", {
      timeMs: 20_000,
    });
    assert.deepEqual([out.status, out.error?.code], ["failed", "memory-limit"]);
  });

  it("deep recursion stops at the stack limit", async () => {
    const out = await run("function f() { return f() + 1; } f();");
    assert.equal(out.error?.code, "stack-overflow");
  });

  it("a huge result stops at the result limit, even when the agent catches the error", async () => {
    const out = await run(
      `for (;;) { try { heed.emit({ pad: "x".repeat(4096) }); } catch (e) {} }`,
    );
    assert.deepEqual([out.status, out.error?.code], ["failed", "result-too-large"]);
    assert.ok(out.records.join("").length <= LIMITS.maxResultBytes);
  });

  it("a huge state is refused", async () => {
    const out = await run(`heed.setState("x".repeat(70000));`);
    assert.equal(out.error?.code, "agent-error");
    assert.match(String(out.error?.message), /setState: over the limit/);
  });

  it("there is no process, require, fetch, timer, module loader or Node global", async () => {
    const out =
      await run(`heed.emit({ t: [typeof process, typeof require, typeof fetch, typeof setTimeout,
      typeof XMLHttpRequest, typeof WebAssembly, typeof std, typeof os, typeof Buffer, typeof globalThis.__call] });`);
    assert.deepEqual(records(out)[0]?.t, Array(10).fill("undefined"));
    const imported = await run(
      `import("os").then(() => heed.emit({ loaded: true }), (e) => heed.emit({ error: String(e) }));`,
    );
    assert.equal(records(imported)[0]?.loaded, undefined);
    const escaped = await run(
      `heed.emit({ t: typeof heed.read.constructor("return this")().process });`,
    );
    assert.equal(records(escaped)[0]?.t, "undefined");
  });

  it("prototype tricks on the capability API change nothing on the host side", async () => {
    const out = await run(`
      const results = [];
      heed.read = () => ({ text: "fake" }); // sloppy mode: ignored, heed is frozen
      try { Object.defineProperty(heed, "list", { value: 1 }); } catch (e) { results.push("define: " + e.name); }
      heed.info.path = "/";
      Object.prototype.toJSON = function () { return "/etc/passwd"; };
      String.prototype.toString = function () { return "/etc/passwd"; };
      JSON.parse = function () { return { text: "forged" }; };
      let read;
      try { read = heed.read({ toString() { return "../user2/b.html"; } }); } catch (e) { results.push("read: " + e.message); }
      delete Object.prototype.toJSON;
      heed.emit({ results, read: read === undefined ? null : read.text, path: heed.info.path });`);
    assert.equal(out.status, "finished", JSON.stringify(out.error));
    const [got] = records(out);
    const results = got?.results as string[];
    assert.equal(results[0], "define: TypeError");
    assert.match(String(results[1]), /outside-subtree|arguments must be a list/);
    assert.equal(got?.read, null);
    assert.equal(got?.path, "/home/user1/");
  });

  it("a syntax error or a throw is the agent's error, named", async () => {
    const broken = await run("this is not javascript");
    assert.equal(broken.error?.code, "agent-error");
    assert.match(String(broken.error?.message), /SyntaxError/);
    const thrown = await run(`throw new RangeError("on purpose")`);
    assert.equal(thrown.error?.message, "RangeError: on purpose");
  });

  it("moving on is allowed only to the site's agent hosts", async () => {
    const out = await run(
      `try { heed.moveTo("atp://evil.example:434"); } catch (e) { heed.emit({ error: e.message }); }
       heed.moveTo("atp://127.0.0.1:2", "/home/user2/");`,
      {},
      ["atp://127.0.0.1:2"],
    );
    assert.match(String(records(out)[0]?.error), /not an agent host of/);
    assert.deepEqual(out.moveTo, { url: "atp://127.0.0.1:2", path: "/home/user2/" });
  });

  it("a running agent can be stopped from outside: the thread is terminated", async () => {
    const running = runSandboxed({
      code: "for (;;) {}",
      state: null,
      info: {
        id: "t2",
        site: "http://www.fict.org",
        path: "/home/user1/",
        robot: "HeedBot",
        host: "atp://127.0.0.1:1",
      },
      root,
      robotsText: ROBOTS,
      moveTargets: [],
      limits: { ...LIMITS, timeMs: 60_000 },
    });
    setTimeout(() => running.stop("stopped by the test"), 300);
    const out = await running.done;
    assert.deepEqual(
      [out.status, out.error?.code, out.error?.message],
      ["failed", "terminated", "stopped by the test"],
    );
  });

  it("each capability limit holds: records, bytes read, directory entries", async () => {
    const many = await run(`for (let i = 0; i < 200; i++) heed.emit({ i });`);
    assert.deepEqual(
      [many.error?.code, many.records.length],
      ["result-too-large", LIMITS.maxResultRecords],
    );
    const big = await run(
      `try { heed.read("index.html"); } catch (e) { heed.emit({ e: e.message }); }`,
      { maxReadBytes: 10 },
    );
    assert.match(String(records(big)[0]?.e), /read: \d+ bytes, over the limit of 10/);
    const wide = await run(
      `try { heed.list("/home/user1/"); } catch (e) { heed.emit({ e: e.message }); }`,
      { maxListEntries: 2 },
    );
    assert.match(String(records(wide)[0]?.e), /list: \d+ entries, over the limit of 2/);
  });
});
