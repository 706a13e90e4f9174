// Ordinary mistakes a person makes on a first try get one line naming the file or URL and
// exit 2 (or the command's own failure status), never a stack trace or "internal error";
// sub-commands agree on exit codes; `heed help A B` shows B's help; a webhook registration
// (README: a RobotEmail that is an http(s) URL) is taken by `heed rup register` and judged by
// the site when it is made. Run as child processes, as a person would.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type CliResult, runCli, type RunningCli, spawnCli } from "../helpers/run-cli.js";
import { until } from "../helpers/until.js";

function oneCleanLine(r: CliResult, name: string): void {
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, `${name}: ${r.stderr}`);
  assert.equal(r.stderr.trim().split("\n").length, 1, `${name}: ${r.stderr}`);
}

describe("errors a person sees", { timeout: 120_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-first-errors-"));
    await mkdir(join(dir, "some-dir"));
    await mkdir(join(dir, "site", "sub"), { recursive: true });
    await writeFile(join(dir, "site", "sub", "x.csv"), "a,b\n1,2\n");
    await writeFile(join(dir, "robots.txt"), "User-agent: *\nDisallow: /p\n");
    await writeFile(join(dir, "urls.txt"), "http://a.example/x\n");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const cases: readonly [name: string, args: readonly string[], named: RegExp][] = [
    ["check --queries a folder", ["check", "robots.txt", "--queries", "some-dir"], /some-dir/],
    ["check --batch a folder", ["check", "--batch", "some-dir"], /some-dir/],
    [
      "datasets build --out in a missing folder",
      ["datasets", "build", "site", "--out", "missing-dir/d/data.txt"],
      /missing-dir\/d/,
    ],
    [
      "datasets build --out a folder",
      ["datasets", "build", "site", "--out", "some-dir"],
      /some-dir/,
    ],
    ["sitemap build a folder", ["sitemap", "build", "some-dir"], /some-dir/],
    [
      "sitemap update a folder",
      ["sitemap", "update", "some-dir", "--loc", "http://a.example/"],
      /some-dir/,
    ],
    [
      "sitemap update --lastmod that is no date",
      ["sitemap", "update", "s.xml", "--loc", "http://a.example/", "--lastmod", "yesterday"],
      /--lastmod: expected now or a W3C date .*got "yesterday"/,
    ],
    ["lint a folder", ["lint", "some-dir"], /some-dir/],
    [
      "datasets build a folder with no data files",
      ["datasets", "build", "some-dir"],
      /some-dir: no data files to list .*; nothing written/,
    ],
    [
      "sitemap on a URL that does not parse",
      ["sitemap", "http://[::1"],
      /not a valid URL: "http:\/\/\[::1"/,
    ],
    [
      "sitemap --discover on a URL that does not parse",
      ["sitemap", "http://[::1", "--discover"],
      /not a valid URL: "http:\/\/\[::1"/,
    ],
    [
      "serve a folder with a --demo option",
      ["serve", "site", "--items", "3"],
      /--items needs --demo/,
    ],
    [
      "serve --demo with a --rup option",
      ["serve", "--demo", "news", "--max-query-span", "2-week"],
      /--max-query-span needs --rup/,
    ],
    [
      "crawl --per-host past any whole number",
      ["crawl", "http://127.0.0.1:9/", "--per-host", "99999999999999999999", "--store", "c.db"],
      /--per-host: expected a whole number/,
    ],
    [
      "sitemap build --out a file",
      ["sitemap", "build", "urls.txt", "--out", "robots.txt"],
      /--out robots\.txt: is a file; name the folder/,
    ],
    // SQLite's own reason, not only "cannot open".
    [
      "report on a file that is no store",
      ["report", "--store", "robots.txt"],
      /robots\.txt: file is not a database/,
    ],
    [
      "crawl --store in a missing folder",
      ["crawl", "http://127.0.0.1:9/", "--store", "missing-dir/c.db"],
      /missing-dir\/c\.db: cannot open database because the directory does not exist/,
    ],
    [
      "rup register --email neither an address nor a URL",
      ["rup", "register", "http://127.0.0.1:9/", "--email", "robot", "--store", "r.db"],
      /an e-mail address, or an http\(s\) URL for a webhook\), got "robot"/,
    ],
  ];
  for (const [name, args, named] of cases) {
    it(`${name}: exit 2, one line naming it`, async () => {
      const r = await runCli(args, { cwd: dir });
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      oneCleanLine(r, name);
      assert.match(r.stderr, named);
    });
  }

  it("datasets build --json prints one object naming the files written", async () => {
    const r = await runCli(["datasets", "build", "site", "--json"], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { files: { path: string; entries: number }[] };
    assert.deepEqual(
      summary.files.map((f) => [f.path.endsWith("data.txt"), f.entries]),
      [[true, 1]],
    );
  });

  it("datasets build --out a folder leaves no stray file beside it", async () => {
    await runCli(["datasets", "build", "site", "--out", "some-dir"], { cwd: dir });
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.endsWith(".tmp")),
      [],
    );
  });

  it("rup key and rup unregister agree for a site the store does not know: exit 2", async () => {
    const store = join(dir, "crawl.db");
    const key = await runCli(["rup", "key", "http://127.0.0.1:9/", "--store", store]);
    const unregister = await runCli(["rup", "unregister", "http://127.0.0.1:9/", "--store", store]);
    assert.deepEqual([key.code, unregister.code], [2, 2], key.stderr + unregister.stderr);
    assert.match(key.stderr, /not registered/);
    assert.match(unregister.stderr, /not registered/);
  });

  it("serve --latency names the units it accepts, hour among them", async () => {
    const r = await runCli(["serve", dir, "--rup", "--latency", "minute", "--port", "0"], {
      cwd: dir,
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /hour, day, week, month/);
  });

  it("heed help rup inbox shows the inbox's own help", async () => {
    const r = await runCli(["help", "rup", "inbox"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: heed rup inbox/);
    assert.match(r.stdout, /--listen/);
  });

  it("heed help on a command that does not exist: exit 2, one line naming it", async () => {
    for (const words of [["nope"], ["rup", "nope"]]) {
      const r = await runCli(["help", ...words]);
      assert.equal(r.code, 2, r.stdout);
      oneCleanLine(r, words.join(" "));
      assert.match(r.stderr, new RegExp(`no command "${words.join(" ")}"`));
      assert.equal(r.stdout, "");
    }
  });
});

describe("webhook registrations", { timeout: 120_000 }, () => {
  let dir: string;
  let server: RunningCli;
  let site = "";
  const out: string[] = [];
  const err: string[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-webhook-reg-"));
    await mkdir(join(dir, "www"));
    await writeFile(join(dir, "www", "index.html"), "home");
    server = spawnCli(
      ["serve", join(dir, "www"), "--port", "0", "--rup", "--state", join(dir, "site.db")],
      { timeoutMs: 110_000 },
    );
    server.child.stdout.on("data", (c: Buffer) => out.push(c.toString("utf8")));
    server.child.stderr.on("data", (c: Buffer) => err.push(c.toString("utf8")));
    await until(() => out.join("").includes("RUP:"), "heed serve to start", 20_000);
    site = /serving .* at (http:\/\/\S+)/.exec(out.join(""))?.[1] ?? "";
  });
  after(async () => {
    server.child.kill("SIGTERM");
    await server.done;
    await rm(dir, { recursive: true, force: true });
  });

  it("a public callback URL is registered", async () => {
    const r = await runCli([
      "rup",
      "register",
      site,
      "--email",
      "https://hooks.example/rup",
      "--store",
      join(dir, "crawl.db"),
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /RegistrationKey: /);
  });

  it("a loopback callback URL is refused at registration, naming RobotEmail", async () => {
    const r = await runCli([
      "rup",
      "register",
      site,
      "--email",
      "http://127.0.0.1:9/",
      "--store",
      join(dir, "crawl2.db"),
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /127\.0\.0\.1:9.*public addresses only/);
  });

  it("rup modify and unregister print JSON with --json", async () => {
    const store = join(dir, "crawl.db");
    const modify = await runCli([
      "rup",
      "modify",
      site,
      "--latency",
      "week",
      "--store",
      store,
      "--json",
    ]);
    assert.equal(modify.code, 0, modify.stderr);
    assert.deepEqual(JSON.parse(modify.stdout), {
      site: new URL(site).origin,
      changed: { latency: "week" },
    });
    const gone = await runCli(["rup", "unregister", site, "--store", store, "--json"]);
    assert.equal(gone.code, 0, gone.stderr);
    assert.deepEqual(JSON.parse(gone.stdout), { site: new URL(site).origin, unregistered: true });
  });

  it("plain heed serve logs each request on standard error", async () => {
    await until(
      () => /POST \/cgi-bin\/rup 200 \d+/.test(err.join("")),
      "an access log line",
      10_000,
    );
  });

  it("the robot refuses what is neither an address nor a URL", async () => {
    const r = await runCli(["rup", "register", site, "--email", "http:/nope"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--email/);
  });
});
