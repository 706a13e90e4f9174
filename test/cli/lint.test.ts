// `heed lint` as users run it: the built CLI in a child process, on real files and on a real
// HTTP server. Exit codes (DESIGN §6 and the lint issue): 0 no errors, 1 errors, 2 bad input.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../src/cli/bin.js", import.meta.url));
const RUN_TIMEOUT_MS = 15_000;
const SUITE = { timeout: 60_000 };

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function heed(args: readonly string[], input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`heed ${args.join(" ")} took longer than ${RUN_TIMEOUT_MS} ms`));
    }, RUN_TIMEOUT_MS);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input ?? "");
  });
}

interface JsonReport {
  file: string;
  dialect: string;
  errors: number;
  warnings: number;
  infos: number;
  findings: { line: number | null; severity: string; code: string; message: string }[];
}

function parseReport(stdout: string): JsonReport {
  const lines = stdout.trimEnd().split("\n");
  assert.equal(lines.length, 1, "one JSON object");
  return JSON.parse(lines[0] as string) as JsonReport;
}

function assertShape(report: JsonReport): void {
  assert.deepEqual(Object.keys(report).sort(), [
    "dialect",
    "errors",
    "file",
    "findings",
    "infos",
    "warnings",
  ]);
  for (const f of report.findings) {
    assert.deepEqual(Object.keys(f).sort(), ["code", "line", "message", "severity"]);
    assert.ok(f.line === null || Number.isInteger(f.line));
    assert.ok(["error", "warning", "info"].includes(f.severity));
  }
  const count = (s: string) => report.findings.filter((f) => f.severity === s).length;
  assert.deepEqual(
    [report.errors, report.warnings, report.infos],
    [count("error"), count("warning"), count("info")],
  );
}

const CLEAN = "User-agent: *\nDisallow: /private/\nAllow: /private/public/\n";
const WARNINGS = "User-agent: *\nDisallow: private/\nDisallow: /x\nDisallow: /x\n";
const HTML = "<!DOCTYPE html>\n<html><body>Not found</body></html>\n";
const SHADOWED = "User-agent: *\nDisallow: /\nAllow: /public/\n";

describe("heed lint on files", SUITE, () => {
  let dir = "";
  const file = (name: string) => join(dir, name);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-lint-"));
    await writeFile(file("clean.txt"), CLEAN);
    await writeFile(file("warnings.txt"), WARNINGS);
    await writeFile(file("html.txt"), HTML);
    await writeFile(file("shadowed.txt"), SHADOWED);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("a clean file: exit 0 and only the summary", async () => {
    const run = await heed(["lint", file("clean.txt")]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "0 errors, 0 warnings, 0 notes\n");
  });

  it("warnings only: exit 0, one FILE:LINE: severity: message [code] line each", async () => {
    const path = file("warnings.txt");
    const run = await heed(["lint", path]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    assert.match(
      lines[0] ?? "",
      new RegExp(
        `^${escapeRegExp(path)}:2: warning: .*did you mean "/private/"\\? \\[bad-path\\]$`,
      ),
    );
    assert.match(
      lines[1] ?? "",
      new RegExp(`^${escapeRegExp(path)}:4: warning: .* \\[duplicate-rule\\]$`),
    );
    assert.equal(lines[2], "0 errors, 2 warnings, 0 notes");
  });

  it("an HTML page: exit 1", async () => {
    const run = await heed(["lint", file("html.txt")]);
    assert.equal(run.code, 1);
    assert.match(
      run.stdout,
      /:1: error: this looks like an HTML page, not a robots\.txt \[html-page\]/,
    );
    assert.match(run.stdout, /^1 error, 0 warnings, 0 notes$/m);
  });

  it("--json: one object with file, dialect, counts and findings", async () => {
    const path = file("warnings.txt");
    const run = await heed(["lint", path, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    assertShape(report);
    assert.equal(report.file, path);
    assert.equal(report.dialect, "rfc9309");
    assert.deepEqual(
      report.findings.map((f) => [f.line, f.code]),
      [
        [2, "bad-path"],
        [4, "duplicate-rule"],
      ],
    );
  });

  it("--json on an error file exits 1", async () => {
    const run = await heed(["lint", "--json", file("html.txt")]);
    assert.equal(run.code, 1);
    const report = parseReport(run.stdout);
    assertShape(report);
    assert.equal(report.errors, 1);
  });

  it("--dialect koster1996: first match wins, so a later Allow is shadowed", async () => {
    const path = file("shadowed.txt");
    const rfc = parseReport((await heed(["lint", path, "--json"])).stdout);
    assert.deepEqual(rfc.findings, []);
    const run = await heed(["lint", path, "--json", "--dialect", "koster1996"]);
    assert.equal(run.code, 0);
    const koster = parseReport(run.stdout);
    assert.equal(koster.dialect, "koster1996");
    assert.deepEqual(
      koster.findings.map((f) => [f.line, f.code, f.severity]),
      [[3, "shadowed-rule", "warning"]],
    );
  });

  it("standard input with -", async () => {
    const run = await heed(["lint", "-", "--json"], WARNINGS);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    assert.equal(report.file, "<stdin>");
    assert.equal(report.warnings, 2);
  });

  it("a missing file: exit 2 with a message", async () => {
    const run = await heed(["lint", file("nope.txt")]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cannot read .*nope\.txt: no such file/);
    assert.equal(run.stdout, "");
  });

  it("a bad --dialect: exit 2", async () => {
    const run = await heed(["lint", file("clean.txt"), "--dialect", "robots4"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--dialect/);
  });

  it("no file at all: exit 2", async () => {
    const run = await heed(["lint"]);
    assert.equal(run.code, 2);
  });

  it("--help describes every option", async () => {
    const run = await heed(["lint", "--help"]);
    assert.equal(run.code, 0);
    for (const option of ["--dialect", "--json"]) assert.ok(run.stdout.includes(option), option);
  });
});

// seeds/003 §3.2 and §5: the paper's REGP files, and an unbalanced brace (Table 2).
describe("heed lint on REGP files", SUITE, () => {
  const fixture = (name: string) =>
    fileURLToPath(new URL(`../../../test/fixtures/regp/${name}`, import.meta.url));
  let dir = "";

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-lint-regp-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const name of ["paper-sample.txt", "news-experiment.txt"]) {
    it(`${name}: exit 0, REGP, no errors or warnings`, async () => {
      const run = await heed(["lint", fixture(name), "--json"]);
      assert.equal(run.code, 0, run.stderr);
      const report = parseReport(run.stdout);
      assertShape(report);
      assert.equal(report.dialect, "regp");
      assert.equal(report.errors + report.warnings, 0, JSON.stringify(report.findings));
    });
  }

  it("an unclosed { is an error: exit 1", async () => {
    const path = join(dir, "unclosed.txt");
    await writeFile(
      path,
      "Robot-version: 3.0\n\nUser-agent: *\nDisallow: /a\n{\nAllow: /a/b\nCrawl-delay: 2\n",
    );
    const run = await heed(["lint", path]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^${escapeRegExp(path)}:5: error: .*\\[unbalanced-brace\\]$`, "m"),
    );
  });

  it("a bad Ip line: a warning that says why, exit 0", async () => {
    const path = join(dir, "bad-ip.txt");
    await writeFile(
      path,
      "Robot-version: 3.0\n\nUser-agent: *\nIp-disallow: 222.69.300.1\nDisallow: /a\n",
    );
    const run = await heed(["lint", path, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    assert.deepEqual(
      report.findings.map((f) => [f.line, f.code, f.severity]),
      [[4, "bad-ip", "warning"]],
    );
    assert.match(report.findings[0]?.message ?? "", /0-255/);
  });
});

describe("heed lint on URLs", SUITE, () => {
  let server: Server;
  let base = "";

  before(async () => {
    server = createServer((req, res) => {
      const send = (status: number, body: string, type = "text/plain") => {
        res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
        res.end(body);
      };
      switch (req.url) {
        case "/robots.txt":
          return send(200, WARNINGS);
        case "/clean/robots.txt":
          return send(200, CLEAN);
        case "/soft404/robots.txt":
          return send(200, HTML, "text/html");
        case "/forbidden/robots.txt":
          return send(403, "no");
        case "/broken/robots.txt":
          return send(500, "oops");
        default:
          return send(404, "not found");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("200: the body is linted", async () => {
    const url = `${base}/robots.txt`;
    const run = await heed(["lint", url]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.startsWith(`${url}:2: warning: `), run.stdout);
    assert.match(run.stdout, /^0 errors, 2 warnings, 0 notes$/m);
  });

  it("200 with a clean file: exit 0, no findings", async () => {
    const report = parseReport((await heed(["lint", `${base}/clean/robots.txt`, "--json"])).stdout);
    assertShape(report);
    assert.deepEqual(report.findings, []);
  });

  it("200 with an HTML page: exit 1", async () => {
    const run = await heed(["lint", `${base}/soft404/robots.txt`, "--json"]);
    assert.equal(run.code, 1);
    assert.deepEqual(
      parseReport(run.stdout).findings.map((f) => f.code),
      ["html-page"],
    );
  });

  it("404: a note that everything is allowed, exit 0", async () => {
    const run = await heed(["lint", `${base}/missing/robots.txt`, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const report = parseReport(run.stdout);
    assertShape(report);
    assert.deepEqual(
      report.findings.map((f) => [f.line, f.code, f.severity]),
      [[null, "no-robots-txt", "info"]],
    );
    assert.match(report.findings[0]?.message ?? "", /everything is allowed/);
  });

  it("404 in text mode: FILE: severity: message [code] without a line number", async () => {
    const url = `${base}/missing/robots.txt`;
    const run = await heed(["lint", url]);
    assert.equal(run.code, 0);
    assert.match(
      run.stdout.split("\n")[0] ?? "",
      new RegExp(`^${escapeRegExp(url)}: info: no robots\\.txt`),
    );
  });

  it("403: a warning that the whole site is disallowed, exit 0", async () => {
    const run = await heed(["lint", `${base}/forbidden/robots.txt`, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      parseReport(run.stdout).findings.map((f) => [f.line, f.code, f.severity]),
      [[null, "site-disallowed", "warning"]],
    );
  });

  it("500: an error, exit 1", async () => {
    const run = await heed(["lint", `${base}/broken/robots.txt`, "--json"]);
    assert.equal(run.code, 1, run.stderr);
    const report = parseReport(run.stdout);
    assertShape(report);
    assert.deepEqual(
      report.findings.map((f) => [f.line, f.code, f.severity]),
      [[null, "unreachable", "error"]],
    );
  });

  it("nothing listening: exit 2", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await heed(["lint", `http://127.0.0.1:${port}/robots.txt`]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /cannot fetch/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
