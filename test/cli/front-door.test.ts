// What a first try of each command met, turned into tests: run as a person runs heed, as child
// processes on real files and servers on 127.0.0.1.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, text } from "../helpers/http-server.js";
import { jsonLines, runCli, spawnCli } from "../helpers/run-cli.js";
import { until } from "../helpers/until.js";

describe("a first try of each command", { timeout: 120_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-front-door-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("lint --kind data-yaml names the option as it is spelt", async () => {
    await writeFile(join(dir, "catalog.txt"), "- path: a.csv\n");
    const r = await runCli(["lint", "catalog.txt", "--kind", "data-yaml"], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /--kind data-yaml was asked for/);
  });

  it("rup inbox --json: standard output holds only JSON; the address goes to standard error", async () => {
    const inbox = spawnCli(
      ["rup", "inbox", "--listen", "127.0.0.1:0", "--json", "--store", join(dir, "inbox.db")],
      { timeoutMs: 30_000 },
    );
    let stderr = "";
    inbox.child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    await until(() => /listening on 127\.0\.0\.1:\d+/.test(stderr), "the inbox to listen", 20_000);
    inbox.child.kill("SIGINT");
    const ended = await inbox.done;
    assert.equal(ended.stdout, "");
  });

  it("agents host whose site does not answer says the site is closed, not that no record names it", async () => {
    // A port nothing listens on: bound, then let go.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const address = probe.address();
    const deadPort = typeof address === "object" && address !== null ? address.port : 0;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await mkdir(join(dir, "root"), { recursive: true });
    const host = spawnCli(
      [
        "agents",
        "host",
        "--root",
        join(dir, "root"),
        "--listen",
        "127.0.0.1:0",
        "--site",
        `http://127.0.0.1:${deadPort}/`,
        "--quiet",
      ],
      { timeoutMs: 30_000 },
    );
    let stdout = "";
    host.child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    await until(() => stdout.includes("\n"), "the host to start", 20_000);
    host.child.kill("SIGINT");
    await host.done;
    assert.match(
      stdout,
      /no agent accepted for now: the site is closed to robots \(robots\.txt of/,
    );
    assert.doesNotMatch(stdout, /no Mobile-agent-server record names this host/);
  });

  it("check: a --url on another origin than the site's is an error line, as docs/fetching.md says", async () => {
    const server = await startServer({ "/robots.txt": text("User-agent: *\nDisallow: /p/\n") });
    try {
      const other = server.origin.replace("127.0.0.1", "localhost");
      const r = await runCli(["check", `${server.origin}/`, "--url", `${other}/p/x`]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stdout,
        /^error http:\/\/localhost:\d+\/p\/x: .* is not on http:\/\/127\.0\.0\.1:\d+\n$/,
      );
      const json = await runCli(["check", `${server.origin}/`, "--url", `${other}/p/x`, "--json"]);
      const [line = {}] = jsonLines(json.stdout);
      assert.deepEqual(
        [line.allowed, line.reason, typeof line.error],
        [false, "other-origin", "string"],
      );
    } finally {
      await server.close();
    }
  });

  it("check warns that a robots.txt over 500 KiB was read only in part (RFC 9309 §2.5)", async () => {
    const lines = ["User-agent: *"];
    for (let i = 0; i < 40_000; i++) lines.push(`Disallow: /p${i}`);
    await writeFile(join(dir, "long.txt"), `${lines.join("\n")}\n`);
    const r = await runCli(["check", "long.txt", "--url", "/p39999x"], { cwd: dir });
    assert.match(
      r.stderr,
      /warning: long\.txt is over 512000 bytes; only its first 512000 are read/,
    );
    const json = await runCli(["check", "long.txt", "--url", "/x", "--json"], { cwd: dir });
    const [line = {}] = jsonLines(json.stdout);
    assert.ok(Array.isArray(line.warnings) && line.warnings.length === 1, json.stdout);
    await writeFile(join(dir, "short.txt"), "User-agent: *\nDisallow: /p\n");
    const short = await runCli(["check", "short.txt", "--url", "/x"], { cwd: dir });
    assert.equal(short.stderr, "");
  });

  it("crawl: a first run whose only seed redirects nowhere is not called a finished crawl", async () => {
    const server = await startServer({
      "/robots.txt": text("User-agent: *\nDisallow:\n"),
      "/start": (_req, res) => {
        res.writeHead(302, { location: "http://[::1" });
        res.end();
      },
    });
    try {
      const args = ["crawl", `${server.origin}/start`, "--store", join(dir, "redirect.db")];
      const first = await runCli(args, { cwd: dir });
      assert.equal(first.code, 0, first.stderr);
      assert.doesNotMatch(first.stderr, /this crawl is finished/);
      const again = await runCli(args, { cwd: dir });
      assert.match(again.stderr, /this crawl is finished/);
    } finally {
      await server.close();
    }
  });

  it("datasets on a site with none prints no empty table, and says so on standard error", async () => {
    const server = await startServer({ "/robots.txt": text("User-agent: *\nDisallow: /\n") });
    try {
      const r = await runCli(["datasets", `${server.origin}/`]);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /0 datasets for heed/);
    } finally {
      await server.close();
    }
  });
});
