// Text from a site or a file never reaches the terminal raw: a robots.txt rule, a data.txt
// name, a /rupinfo.txt field or a file name with an ESC sequence in it is shown as `\x1b` in
// the text output of heed crawl (its lines and its progress line), heed report, heed datasets
// (and its download bar), heed datasets build, heed lint of a data.txt and heed rup info.
// JSON output is unchanged: JSON escapes control characters itself.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { DownloadBar } from "../../src/cli/download-progress.js";
import { ProgressLine } from "../../src/cli/progress.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { startServer, type TestServer, text } from "../helpers/http-server.js";
import { type CliResult, runCli } from "../helpers/run-cli.js";

const ESC = "\x1b";
// C0 (ESC, BEL), DEL and C1 (CSI, U+009B): each would reach the terminal as a control.
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const SUITE = { timeout: 120_000 };

/** Neither stream of a run holds a raw control character (other than tab, line feed). */
function assertNoRaw(run: CliResult, what: string): void {
  for (const [name, out] of [
    ["stdout", run.stdout],
    ["stderr", run.stderr],
  ] as const)
    assert.doesNotMatch(
      out,
      RAW,
      `${what}: a raw control character on ${name}: ${JSON.stringify(out)}`,
    );
}

describe("control characters from sites and files in text output", SUITE, () => {
  let site: TestServer;
  let dir = "";
  let cleanup = async (): Promise<void> => {};
  const refused = `/s${ESC}[31mX`;
  before(async () => {
    ({ dir, cleanup } = await tempDir("heed-controls-"));
    site = await startServer({
      "/robots.txt": text(`User-agent: *\nDisallow: ${refused}\n`),
      "/": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(
          `<html><head><title>x</title></head><body><a href="${refused}">s</a></body></html>`,
        );
      },
      "/data.txt": text(
        `- name: "evil\\e[31mname\\x9b2J"\n  path: /d.csv\n  license: "MIT\\e]0;title\\a"\n`,
      ),
      "/d.csv": text("a,b\n1,2\n"),
      "/rupinfo.txt": text(`RUP-CGI: /cgi-bin/rup\nAuthentifier: key${ESC}[31m\nLatency: 1-day\n`),
      // The RUP action endpoint refuses every request, with an ESC sequence in its reason.
      "/cgi-bin/rup": text(`Error: go away${ESC}[31m now\n`, 403),
    });
  });
  after(async () => {
    await site.close();
    await cleanup();
  });

  it("heed crawl: a skipped URL's reason quotes the rule, shown not sent", async () => {
    const run = await runCli(
      ["crawl", `${site.origin}/s%1B[31mX`, "--store", join(dir, "skip.db")],
      { cwd: dir },
    );
    assert.equal(run.code, 0, run.stderr);
    assertNoRaw(run, "crawl");
    assert.match(run.stderr, /skipped .*: rule: line 2: Disallow: \/s\\x1b\[31mX/);
  });

  it("heed report: a refusal's robots.txt line, shown not sent; --json keeps it as it is", async () => {
    const store = join(dir, "crawl.db");
    const crawl = await runCli(["crawl", `${site.origin}/`, "--store", store], { cwd: dir });
    assert.equal(crawl.code, 0, crawl.stderr);
    const report = await runCli(["report", "--store", store], { cwd: dir });
    assert.equal(report.code, 0, report.stderr);
    assertNoRaw(report, "report");
    assert.match(report.stdout, /Disallow: \/s\\x1b\[31mX/);
    const json = await runCli(["report", "--store", store, "--json"], { cwd: dir });
    assert.ok(json.stdout.includes("Disallow: /s\\u001b[31mX"), json.stdout);
  });

  it("heed datasets: names and licenses of the site's data.txt, shown not sent", async () => {
    const run = await runCli(["datasets", `${site.origin}/`], { cwd: dir });
    assertNoRaw(run, "datasets");
    assert.match(run.stdout, /evil\\x1b\[31mname\\x9b2J/);
    assert.match(run.stdout, /MIT\\x1b\]0;title\\x07/);
    const json = await runCli(["datasets", `${site.origin}/`, "--json"], { cwd: dir });
    assert.ok(json.stdout.includes("evil\\u001b[31mname\u009b2J"), json.stdout);
  });

  it("heed rup info: a /rupinfo.txt field and the warning quoting it, shown not sent", async () => {
    const run = await runCli(["rup", "info", `${site.origin}/`], { cwd: dir });
    assertNoRaw(run, "rup info");
    assert.match(run.stdout, /Authentifier: key\\x1b\[31m/);
    assert.match(run.stderr, /"key\\x1b\[31m"/);
  });

  it("an error message quoting a site's answer (a RUP refusal): shown, not sent", async () => {
    const run = await runCli(
      [
        "rup",
        "register",
        `${site.origin}/`,
        "--email",
        "a@b.example",
        "--store",
        join(dir, "rup.db"),
      ],
      { cwd: dir },
    );
    assert.equal(run.code, 1, run.stderr);
    assertNoRaw(run, "rup register");
    assert.match(run.stderr, /^heed: Register refused: HTTP 403: go away\\x1b\[31m now$/m);
  });

  it("heed lint and heed datasets build: a file name with controls, shown not sent", async () => {
    const folder = join(dir, `a${ESC}]0;t${ESC}\\`);
    await mkdir(folder);
    await writeFile(join(folder, "data.txt"), "- path: /a.csv\n  name: a\n");
    const lint = await runCli(["lint", join(folder, "data.txt")], { cwd: dir });
    assertNoRaw(lint, "lint data.txt");
    assert.match(lint.stdout, /a\\x1b\]0;t\\x1b\\/);
    // heed check's warning about a file over 500 KiB names the file.
    await writeFile(join(folder, "robots.txt"), `User-agent: *\n${"#".repeat(600 * 1024)}\n`);
    const check = await runCli(
      ["check", join(folder, "robots.txt"), "--agent", "bot", "--url", "http://a.example/"],
      { cwd: dir },
    );
    assert.equal(check.code, 0, check.stderr);
    assertNoRaw(check, "check");
    assert.match(check.stderr, /a\\x1b\]0;t\\x1b\\\/robots\.txt is over/);
    await writeFile(join(folder, `b${ESC}[2J.csv`), "a,b\n1,2\n");
    const build = await runCli(["datasets", "build", folder, "--out", join(dir, "built.txt")], {
      cwd: dir,
    });
    assert.equal(build.code, 0, build.stderr);
    assertNoRaw(build, "datasets build");
  });

  it("the crawl's progress line and the download bar show a site's controls, not send them", () => {
    let written = "";
    const out = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written += chunk.toString("utf8");
        callback();
      },
    }) as Writable & { isTTY?: boolean; columns?: number };
    out.isTTY = true;
    out.columns = 200;
    const progress = new ProgressLine(
      out,
      () => 0,
      () => 1_000,
    );
    progress.event({
      type: "waiting",
      origin: "http://a",
      until: 5_000,
      why: `Visit-time ${ESC}[2J`,
    });
    progress.stop();
    assert.match(written, /Visit-time \\x1b\[2J/);
    const bar = new DownloadBar(out, () => 10_000);
    bar.progress({ url: "u", file: `f${ESC}[31m.csv`, received: 1, total: 2 });
    bar.done(`f${ESC}[31m.csv`, `failed: ${ESC}]0;x`);
    // The bar's own cursor controls stay; the site's are shown.
    const site = written.replaceAll("\r\x1b[K", "").replaceAll("\r", "");
    assert.doesNotMatch(site, RAW, JSON.stringify(site));
    assert.match(site, /f\\x1b\[31m\.csv: failed: \\x1b\]0;x/);
  });
});
