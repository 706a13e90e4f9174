// `heed serve --rup` and `heed rup …` as users run them: the built CLI in child processes, the
// site on 127.0.0.1, the robot's store in a temporary directory; exit codes 0, 1 (the site
// refused; reports lost) and 2 (bad input) as documented.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { parseReport } from "../../src/protocol/rup/index.js";
import { runCli, type RunningCli, spawnCli } from "../helpers/run-cli.js";
import { until } from "../helpers/until.js";

const SUITE = { timeout: 120_000 };

describe("heed serve --rup and heed rup", SUITE, () => {
  let dir: string;
  let tmp: string;
  let server: RunningCli;
  let site = "";
  const out: string[] = [];
  const store = () => join(tmp, "crawl.db");

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-cli-rup-site-"));
    tmp = await mkdtemp(join(tmpdir(), "heed-cli-rup-"));
    await writeFile(join(dir, "index.html"), "home");
    server = spawnCli(
      [
        "serve",
        dir,
        "--port",
        "0",
        "--rup",
        "--state",
        join(tmp, "site.db"),
        "--latency",
        "day,week",
        "--exclude",
        "^/tmp/",
      ],
      { timeoutMs: 110_000 },
    );
    server.child.stdout.on("data", (c: Buffer) => out.push(c.toString("utf8")));
    await until(
      () => /serving .* at (http:\/\/\S+)/.test(out.join("")) && out.join("").includes("RUP:"),
      "heed serve to start",
      20_000,
    );
    site = /serving .* at (http:\/\/\S+)/.exec(out.join(""))?.[1] ?? "";
  });
  after(async () => {
    server.child.kill("SIGTERM");
    const done = await server.done;
    assert.equal(done.code, 0, "heed serve ends cleanly on SIGTERM");
    await rm(dir, { recursive: true, force: true });
    await rm(tmp, { recursive: true, force: true });
  });

  it("rup info reads /rupinfo.txt", async () => {
    const r = await runCli(["rup", "info", site, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const info = JSON.parse(r.stdout) as {
      cgiUrl: string;
      info: { latencies: string[]; exclude: string[] };
    };
    assert.equal(info.cgiUrl, new URL("/cgi-bin/rup", site).href);
    assert.deepEqual(info.info.latencies, ["day", "week"]);
    assert.deepEqual(info.info.exclude, ["^/tmp/"]);
  });

  it("register prints the key once; key prints it when asked; seq, modify, index, unregister", async () => {
    const reg = await runCli([
      "rup",
      "register",
      site,
      "--email",
      "bot@robot.test",
      "--latency",
      "week",
      "--exclude",
      "^/tmp/",
      "--store",
      store(),
    ]);
    assert.equal(reg.code, 0, reg.stderr);
    const key = /^RegistrationKey: (\S+)$/m.exec(reg.stdout)?.[1];
    assert.ok(key);
    assert.match(reg.stderr, /not shown again/);
    const again = await runCli(["rup", "key", site, "--store", store()]);
    assert.equal(again.stdout, `RegistrationKey: ${key}\n`);
    for (const args of [
      ["seq", site],
      ["modify", site, "--latency", "day"],
    ]) {
      const r = await runCli(["rup", ...args, "--store", store()]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!r.stdout.includes(key), "the key is not printed again");
    }
    const seq = await runCli(["rup", "seq", site, "--store", store(), "--json"]);
    assert.deepEqual(JSON.parse(seq.stdout), {
      sequenceNumber: 0,
      received: 0,
      lost: 0,
      behind: false,
    });
    // A site whose state was reset numbers its reports behind what the robot received: not
    // "-3 lost", but said, and exit 1 (its next reports would look old).
    const db = new Database(store());
    db.prepare("UPDATE rup_sites SET last_seq = 3").run();
    db.close();
    const behind = await runCli(["rup", "seq", site, "--store", store(), "--json"]);
    assert.equal(behind.code, 1);
    assert.deepEqual(JSON.parse(behind.stdout), {
      sequenceNumber: 0,
      received: 3,
      lost: 0,
      behind: true,
    });
    assert.match(behind.stderr, /behind the 3 received: its RUP state was reset/);
    await writeFile(join(dir, "fresh.html"), "fresh");
    await until(
      async () =>
        (await runCli(["rup", "index", site, "--span", "1-day"])).stdout.includes("/fresh.html"),
      "the change in the index",
      15_000,
    );
    const index = await runCli(["rup", "index", site, "--span", "1-day"]);
    const parsed = parseReport(index.stdout);
    assert.deepEqual(parsed.diagnostics, []);
    assert.ok(
      parsed.report?.changes.some((c) => c.kind === "New" && c.paths.includes("/fresh.html")),
    );
    const un = await runCli(["rup", "unregister", site, "--store", store()]);
    assert.equal(un.code, 0, un.stderr);
    const gone = await runCli(["rup", "seq", site, "--store", store()]);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /not registered/);
  });

  // Bad input: exit 2 with a message naming the problem; refusals by the site: exit 1.
  const CASES: readonly [
    name: string,
    args: (site: string) => string[],
    code: number,
    says: RegExp,
  ][] = [
    ["register without --email", (s) => ["rup", "register", s], 2, /--email ADDR is required/],
    [
      "register with a bad address",
      (s) => ["rup", "register", s, "--email", "nobody"],
      2,
      /--email/,
    ],
    [
      "--exclude with --include-only",
      (s) => [
        "rup",
        "register",
        s,
        "--email",
        "b@r.test",
        "--exclude",
        "^/tmp/",
        "--include-only",
        "^/a/",
      ],
      2,
      /not both/,
    ],
    [
      "an unknown latency",
      (s) => ["rup", "register", s, "--email", "b@r.test", "--latency", "fortnight"],
      2,
      /unknown unit/,
    ],
    [
      "a latency the site does not offer",
      (s) => ["rup", "register", s, "--email", "c@r.test", "--latency", "month"],
      1,
      /refused: HTTP 400: Latency/,
    ],
    [
      "a pattern the site does not offer",
      (s) => ["rup", "register", s, "--email", "d@r.test", "--exclude", "^/x/"],
      1,
      /not one of the offered/,
    ],
    ["index without --span", (s) => ["rup", "index", s], 2, /--span N-unit is required/],
    ["index with a bad span", (s) => ["rup", "index", s, "--span", "week"], 2, /--span/],
    [
      "index beyond MaxQuerySpan",
      (s) => ["rup", "index", s, "--span", "2-month"],
      1,
      /MaxQuerySpan/,
    ],
    [
      "info of a site without RUP",
      () => ["rup", "info", "http://127.0.0.1:1/"],
      2,
      /127\.0\.0\.1:1/,
    ],
    [
      "inbox with a bad --listen",
      () => ["rup", "inbox", "--listen", "nowhere"],
      2,
      /--listen: expected HOST:PORT/,
    ],
    [
      "a Redis store that does not answer",
      (s) => ["rup", "seq", s, "--store", "redis://127.0.0.1:1"],
      2,
      /cannot connect to Redis/,
    ],
    [
      "serve of a missing directory",
      () => ["serve", "/nonexistent/heed-site", "--port", "0"],
      2,
      /not a directory/,
    ],
    [
      "serve --smtp without --rup",
      () => ["serve", ".", "--port", "0", "--smtp", "smtp://127.0.0.1:25"],
      2,
      /--smtp needs --rup/,
    ],
    [
      "serve --rup with a bad --smtp",
      () => ["serve", ".", "--port", "0", "--rup", "--smtp", "http://x"],
      2,
      /--smtp: expected smtp/,
    ],
    [
      "serve --rup with a bad pattern",
      () => ["serve", ".", "--port", "0", "--rup", "--exclude", "(["],
      2,
      /--exclude/,
    ],
    [
      "serve --rup with a bad span",
      () => ["serve", ".", "--port", "0", "--rup", "--max-query-span", "month"],
      2,
      /--max-query-span/,
    ],
  ];
  for (const [name, args, code, says] of CASES) {
    it(`${name}: exit ${code}`, async () => {
      const r = await runCli([
        ...args(site),
        ...(args(site)[0] === "rup" &&
        !args(site).includes("--store") &&
        ["register", "seq"].includes(args(site)[1] ?? "")
          ? ["--store", join(tmp, "other.db")]
          : []),
      ]);
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, says);
    });
  }
});
