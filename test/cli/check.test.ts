// `heed check` as DESIGN §6 specifies it, run as a child process on real files and servers.
import assert from "node:assert/strict";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { FICT_ORG as FICT } from "../fixtures/fict-org.js";
import { startServer, type TestServer, text } from "../helpers/http-server.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

describe("heed check", () => {
  let dir: string;
  let robots: string;
  let server: TestServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-check-"));
    robots = join(dir, "robots.txt");
    await writeFile(robots, FICT);
    server = await startServer({
      "/robots.txt": text(FICT),
      "/forbidden/robots.txt": text("", 403),
      "/missing/robots.txt": text("", 404),
      "/down/robots.txt": text("", 500),
    });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("one --url: text line starting with the verdict, exit 1 when disallowed", async () => {
    const r = await runCli([
      "check",
      robots,
      "--agent",
      "FigTree/0.1",
      "--url",
      "http://www.fict.org/org/plans.html",
    ]);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /^disallowed http:\/\/www\.fict\.org\/org\/plans\.html .*line 12: Disallow: \/org\/plans\.html/,
    );
  });
  it("all allowed: exit 0, input order kept", async () => {
    const urls = ["/server.html", "/org/about.html", "/robots.txt"];
    const r = await runCli([
      "check",
      robots,
      "--agent",
      "other",
      "--json",
      ...urls.flatMap((u) => ["--url", u]),
    ]);
    assert.equal(r.code, 0);
    const lines = jsonLines(r.stdout);
    assert.deepEqual(
      lines.map((l) => [l.url, l.allowed]),
      urls.map((u) => [u, true]),
    );
  });
  it("--json has the contract fields", async () => {
    const r = await runCli(["check", robots, "--agent", "unhipbot", "--url", "/x", "--json"]);
    const [line = {}] = jsonLines(r.stdout);
    const contract = [
      "allowed",
      "agent",
      "url",
      "dialect",
      "line",
      "rule",
      "reason",
      "delay",
      "next",
    ];
    assert.deepEqual(Object.fromEntries(contract.map((k) => [k, line[k]])), {
      allowed: false,
      agent: "unhipbot",
      url: "/x",
      dialect: "rfc9309",
      line: 5,
      rule: "Disallow: /",
      reason: "rule",
      delay: 0,
      next: null,
    });
    assert.equal(typeof line.plan, "object");
  });
  it("--dialect koster1996 changes the answer where the dialects differ", async () => {
    const file = join(dir, "order.txt");
    await writeFile(file, "User-agent: *\nDisallow: /a\nAllow: /a/b\n");
    const rfc = await runCli(["check", file, "--agent", "x", "--url", "/a/b", "--json"]);
    const koster = await runCli([
      "check",
      file,
      "--agent",
      "x",
      "--url",
      "/a/b",
      "--json",
      "--dialect",
      "koster1996",
    ]);
    assert.equal(jsonLines(rfc.stdout)[0]?.allowed, true);
    assert.deepEqual(
      [jsonLines(koster.stdout)[0]?.allowed, jsonLines(koster.stdout)[0]?.dialect, koster.code],
      [false, "koster1996", 1],
    );
  });
  it("--queries: one output line per query line, errors included, exit 2", async () => {
    const queries = join(dir, "q.tsv");
    await writeFile(
      queries,
      "unhipbot\t/\nexcite\t/x\nno tab here\nother\t\nother\t/org/\t10.0.0.1\t2026-11-21T08:00:00Z\n",
    );
    const r = await runCli(["check", robots, "--queries", queries, "--json"]);
    const lines = jsonLines(r.stdout);
    assert.deepEqual(
      lines.map((l) => [l.allowed, typeof l.error]),
      [
        [false, "undefined"],
        [true, "undefined"],
        [false, "string"],
        [false, "string"],
        [true, "undefined"],
      ],
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /2 queries could not be answered/);
  });
  it("--queries - reads standard input", async () => {
    const r = await runCli(["check", robots, "--queries", "-"], {
      input: "other\t/org/about.html\r\n",
    });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^allowed \/org\/about\.html/);
  });
  it("--batch: many files, each named in its output line", async () => {
    const other = join(dir, "closed.txt");
    await writeFile(other, "User-agent: *\nDisallow: /\n");
    const batch = join(dir, "batch.tsv");
    await writeFile(
      batch,
      `${robots}\tother\t/org/about.html\n${other}\tother\t/org/about.html\n${robots}\tunhipbot\t/\n`,
    );
    const r = await runCli(["check", "--batch", batch, "--json", "--fields", "all"]);
    const lines = jsonLines(r.stdout);
    assert.deepEqual(
      lines.map((l) => [l.robots, l.allowed]),
      [
        [robots, true],
        [other, false],
        [robots, false],
      ],
    );
    assert.equal(r.code, 1);
  });
  it("streams a large --queries file in order", async () => {
    const queries = join(dir, "many.tsv");
    const count = 200_000;
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(queries);
      out.on("error", reject);
      let chunk = "";
      for (let i = 0; i < count; i++) {
        chunk += `bot${i % 7}\t/org/${i}\n`;
        if (chunk.length > 1 << 16) {
          out.write(chunk);
          chunk = "";
        }
      }
      out.end(chunk, resolve);
    });
    const r = await runCli(["check", robots, "--queries", queries], { timeoutMs: 60_000 });
    const lines = r.stdout.split("\n").filter((l) => l !== "");
    assert.equal(lines.length, count);
    assert.ok(lines[count - 1]?.startsWith(`allowed /org/${count - 1} `));
    assert.equal(r.code, 0);
  });
  it("a URL: fetched, and other origins refused", async () => {
    const r = await runCli([
      "check",
      `${server.origin}/robots.txt`,
      "--agent",
      "other",
      "--json",
      "--url",
      `${server.origin}/org/about.html`,
      "--url",
      "http://elsewhere.example/org/about.html",
    ]);
    const lines = jsonLines(r.stdout);
    assert.deepEqual(
      lines.map((l) => [l.allowed, l.reason]),
      [
        [true, "rule"],
        [false, "other-origin"],
      ],
    );
    assert.equal(r.code, 2);
  });
  it("403 disallows the whole site, 404 allows it, 500 closes it for now", async () => {
    const ask = async (path: string) =>
      jsonLines(
        (
          await runCli([
            "check",
            `${server.origin}${path}`,
            "--agent",
            "a",
            "--url",
            `${server.origin}/page`,
            "--json",
          ])
        ).stdout,
      )[0];
    assert.deepEqual(
      [(await ask("/forbidden/robots.txt"))?.allowed, (await ask("/forbidden/robots.txt"))?.reason],
      [false, "fetch-status"],
    );
    assert.equal((await ask("/missing/robots.txt"))?.allowed, true);
    assert.equal((await ask("/down/robots.txt"))?.allowed, false);
  });
  it("exit 2 with a message: missing file, unreachable URL, bad options", async () => {
    const closed = await startServer({});
    await closed.close();
    const cases: readonly (readonly string[])[] = [
      ["check", join(dir, "nope.txt"), "--agent", "a", "--url", "/"],
      ["check", `${closed.origin}/robots.txt`, "--agent", "a", "--url", "/"],
      ["check", robots, "--agent", "a"],
      ["check", robots, "--agent", "a", "--url", "/", "--dialect", "klingon"],
      ["check", robots, "--agent", "a", "--url", "/", "--ip", "300.1.1.1"],
      ["check", robots, "--agent", "a", "--url", "/", "--at", "yesterday"],
      ["check", robots, "--queries", join(dir, "nope.tsv")],
      ["check", robots, "--agent", "a", "--url", "/", "--frobnicate"],
    ];
    for (const args of cases) {
      const r = await runCli(args);
      assert.equal(r.code, 2, `exit code of heed ${args.join(" ")}`);
      assert.notEqual(r.stderr.trim(), "", `message of heed ${args.join(" ")}`);
    }
  });
  it("an empty or malformed URL still gets its line", async () => {
    const r = await runCli([
      "check",
      robots,
      "--agent",
      "a",
      "--url",
      "",
      "--url",
      "http://[bad",
      "--url",
      "/ok",
      "--json",
    ]);
    const lines = jsonLines(r.stdout);
    assert.equal(lines.length, 3);
    assert.deepEqual(
      lines.map((l) => typeof l.error),
      ["string", "string", "undefined"],
    );
    assert.equal(r.code, 2);
  });
  it("--help describes every option", async () => {
    const r = await runCli(["check", "--help"]);
    assert.equal(r.code, 0);
    for (const option of [
      "--agent",
      "--url",
      "--queries",
      "--batch",
      "--dialect",
      "--ip",
      "--at",
      "--json",
    ]) {
      assert.ok(r.stdout.includes(option), option);
    }
  });
});
