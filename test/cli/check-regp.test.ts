// `heed check` on REGP files (DESIGN §6, seeds/003 §3.2 and §5), run as a child process on the
// fixtures: --ip, --at, --languages, --encodings, --queries with ip and time, JSON and text.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { jsonLines, runCli } from "../helpers/run-cli.js";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/regp/", import.meta.url));
const SAMPLE = join(FIXTURES, "paper-sample.txt");
const NEWS = join(FIXTURES, "news-experiment.txt");

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

describe("heed check on REGP files", () => {
  let dir: string;
  let ipFile: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-check-regp-"));
    ipFile = join(dir, "ip.txt");
    await writeFile(
      ipFile,
      "Robot-version: 3.0\n\nUser-agent: *\nIp-disallow: 222.69.*.*\nIp-allow: 222.69.212.14\nDisallow: /private\nCrawl-delay: 2\n\nVisit-time: 1:00-16:00 UT\n",
    );
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("the fixtures are where the test expects them", async () => {
    assert.match(await readFile(SAMPLE, "utf8"), /^Robot-version: 3\.0/);
    assert.match(await readFile(NEWS, "utf8"), /^Robot-version: 3\.0/);
  });

  it("--json on the §5 file: reason, delay, next and plan (home page: 0.5 s)", async () => {
    const r = await runCli(["check", NEWS, "--agent", "NewsCrawler", "--url", "/", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const [line] = jsonLines(r.stdout);
    assert.equal(line?.allowed, true);
    assert.equal(line?.dialect, "regp");
    assert.equal(line?.reason, "default");
    assert.equal(line?.delay, 0.5);
    assert.equal(line?.next, null);
    const plan = line?.plan as {
      delaySeconds: number;
      cookie: { value: string } | null;
      sitemaps: { value: string }[];
      rates: { scope: string; requests: number; seconds: number }[];
      requires: { encoding: { value: string[] } | null };
    };
    assert.equal(plan.delaySeconds, 0.5);
    assert.equal(plan.cookie?.value, "user=robot");
    assert.deepEqual(
      plan.sitemaps.map((s) => s.value),
      ["http://10.60.149.65:8089/test1/sitemap.xml"],
    );
    assert.deepEqual(
      plan.rates.map((x) => [x.scope, x.requests, x.seconds]),
      [["agent", 120, 60]],
    );
    assert.deepEqual(plan.requires.encoding?.value, ["gzip", "deflate"]);
  });

  it("several --url on the §5 file: Table 10, in input order, exit 1", async () => {
    const urls = [
      "/",
      "/login.do",
      "/reg.do",
      "/newsRelease.do",
      "/html/news1.html",
      "/newsItem.do?id=1",
    ];
    const r = await runCli([
      "check",
      NEWS,
      "--agent",
      "NewsCrawler",
      "--json",
      ...urls.flatMap((u) => ["--url", u]),
    ]);
    assert.equal(r.code, 1);
    assert.deepEqual(
      jsonLines(r.stdout).map((l) => [l.url, l.allowed, l.delay, l.line]),
      [
        ["/", true, 0.5, null],
        ["/login.do", false, 0.5, 5],
        ["/reg.do", false, 0.5, 6],
        ["/newsRelease.do", false, 0.5, 7],
        ["/html/news1.html", true, 1, null],
        ["/newsItem.do?id=1", true, 5, null],
      ],
    );
  });

  it("text output says the delay to keep", async () => {
    const r = await runCli(["check", NEWS, "--agent", "NewsCrawler", "--url", "/html/news1.html"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^allowed \/html\/news1\.html /);
    assert.match(r.stdout, /\b1 s\b/);
    assert.match(r.stdout, /between requests/);
  });

  it("--at outside Visit-time: disallowed, JSON next is an RFC 3339 string", async () => {
    const r = await runCli([
      "check",
      SAMPLE,
      "--agent",
      "WebCrawler",
      "--url",
      "/data/open/x",
      "--at",
      "2014-10-30T16:30:00Z",
      "--json",
    ]);
    assert.equal(r.code, 1);
    const [line] = jsonLines(r.stdout);
    assert.equal(line?.allowed, false);
    assert.equal(line?.reason, "time");
    assert.equal(typeof line?.next, "string");
    assert.match(line?.next as string, RFC3339);
    assert.equal(Date.parse(line?.next as string), Date.UTC(2014, 9, 31, 1));
    assert.equal(line?.line, 19);
  });

  it("--at outside Visit-time, text: says when the site reopens", async () => {
    const r = await runCli([
      "check",
      SAMPLE,
      "--agent",
      "WebCrawler",
      "--url",
      "/data/open/x",
      "--at",
      "2014-10-30T00:30:00Z",
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^disallowed \/data\/open\/x /);
    assert.match(r.stdout, /reopens/);
    assert.match(r.stdout, /2014-10-30T01:00:00/);
  });

  it("--at inside Visit-time (with a zone offset): allowed, exit 0", async () => {
    const r = await runCli([
      "check",
      SAMPLE,
      "--agent",
      "WebCrawler",
      "--url",
      "/data/open/x",
      "--at",
      "2014-10-30T18:00:00+08:00",
      "--json",
    ]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(jsonLines(r.stdout)[0]?.next, null);
  });

  it("--languages en on the §3.2 sample: refused, reason language; zh: allowed", async () => {
    const en = await runCli([
      "check",
      SAMPLE,
      "--agent",
      "WebCrawler",
      "--url",
      "/data/open/x",
      "--languages",
      "en",
      "--json",
    ]);
    assert.equal(en.code, 1);
    assert.equal(jsonLines(en.stdout)[0]?.reason, "language");
    const zh = await runCli([
      "check",
      SAMPLE,
      "--agent",
      "WebCrawler",
      "--url",
      "/data/open/x",
      "--languages",
      "en,zh",
    ]);
    assert.equal(zh.code, 0);
  });

  it("--encodings br on the §5 file: refused, reason encoding", async () => {
    const r = await runCli([
      "check",
      NEWS,
      "--agent",
      "NewsCrawler",
      "--url",
      "/",
      "--encodings",
      "br",
      "--json",
    ]);
    assert.equal(r.code, 1);
    assert.equal(jsonLines(r.stdout)[0]?.reason, "encoding");
  });

  it("--ip refused by the IP group: reason ip, the whole site closed", async () => {
    const r = await runCli([
      "check",
      ipFile,
      "--agent",
      "bot",
      "--ip",
      "222.69.1.1",
      "--url",
      "/",
      "--url",
      "/public",
      "--url",
      "/robots.txt",
      "--json",
    ]);
    assert.equal(r.code, 1);
    assert.deepEqual(
      jsonLines(r.stdout).map((l) => [l.url, l.allowed, l.reason]),
      [
        ["/", false, "ip"],
        ["/public", false, "ip"],
        ["/robots.txt", true, "robots-txt"],
      ],
    );
  });

  it("--ip admitted: the sequence decides, with its delay", async () => {
    const r = await runCli([
      "check",
      ipFile,
      "--agent",
      "bot",
      "--ip",
      "222.69.212.14",
      "--url",
      "/public",
      "--json",
    ]);
    assert.equal(r.code, 0);
    const [line] = jsonLines(r.stdout);
    assert.equal(line?.allowed, true);
    assert.equal(line?.delay, 2);
  });

  it("--queries with <TAB>ip<TAB>time: each line answered for its robot, in order", async () => {
    const queries = join(dir, "queries.tsv");
    await writeFile(
      queries,
      [
        "bot\t/public\t222.69.212.14\t2014-10-30T10:00:00Z",
        "bot\t/public\t222.69.1.1\t2014-10-30T10:00:00Z",
        "bot\t/public\t10.0.0.1\t2014-10-30T00:30:00Z",
        "bot\t/private/x\t10.0.0.1\t2014-10-30T10:00:00Z",
        "bot\t/public\t\t2014-10-30T10:00:00Z",
        "bot\t/public\t2001:db8::1",
        "bot\t/public",
      ].join("\n") + "\n",
    );
    const r = await runCli(["check", ipFile, "--queries", queries, "--json"]);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      jsonLines(r.stdout).map((l) => [l.allowed, l.reason, l.next]),
      [
        [true, "default", null],
        [false, "ip", null],
        [false, "time", "2014-10-30T01:00:00.000Z"],
        [false, "rule", null],
        [true, "default", null],
        [true, "default", null],
        [true, "default", null],
      ],
    );
  });

  it("--queries text output: one line a query, beginning allowed or disallowed", async () => {
    const r = await runCli(["check", ipFile, "--queries", "-"], {
      input: "bot\t/a\t222.69.1.1\nbot\t/b\t10.0.0.1\t2014-10-30T12:00:00Z\n",
    });
    const lines = r.stdout.split("\n").filter((l) => l !== "");
    assert.equal(lines.length, 2);
    assert.match(lines[0] ?? "", /^disallowed \/a /);
    assert.match(lines[1] ?? "", /^allowed \/b /);
    assert.equal(r.code, 1);
  });

  it("--queries with a malformed IP or time: that line gets an error, exit 2", async () => {
    const r = await runCli(["check", ipFile, "--queries", "-", "--json"], {
      input: "bot\t/a\t300.1.1.1\nbot\t/a\t10.0.0.1\tyesterday\nbot\t/a\t10.0.0.1\n",
    });
    assert.equal(r.code, 2);
    const lines = jsonLines(r.stdout);
    assert.deepEqual(
      lines.map((l) => [l.allowed, typeof l.error]),
      [
        [false, "string"],
        [false, "string"],
        [true, "undefined"],
      ],
    );
  });

  it("bad --ip, bad --at, bad --languages: exit 2 with a message naming the option", async () => {
    const base = ["check", SAMPLE, "--agent", "WebCrawler", "--url", "/"];
    for (const [option, value] of [
      ["--ip", "1.2.3"],
      ["--at", "30 Oct 2014"],
      ["--languages", ","],
    ] as const) {
      const r = await runCli([...base, option, value]);
      assert.equal(r.code, 2, `${option} ${value}`);
      assert.match(r.stderr, new RegExp(option), `${option} ${value}`);
      assert.equal(r.stdout, "");
    }
  });

  it("a missing robots.txt file: exit 2", async () => {
    const r = await runCli(["check", join(dir, "nope.txt"), "--agent", "a", "--url", "/"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /nope\.txt/);
  });

  it("--dialect rfc9309 on the §5 REGP file: no delay, no braces, Disallow lines still hold", async () => {
    const r = await runCli([
      "check",
      NEWS,
      "--agent",
      "NewsCrawler",
      "--dialect",
      "rfc9309",
      "--url",
      "/login.do",
      "--url",
      "/",
      "--json",
    ]);
    const lines = jsonLines(r.stdout);
    assert.deepEqual(
      lines.map((l) => [l.dialect, l.allowed]),
      [
        ["rfc9309", false],
        ["rfc9309", true],
      ],
    );
    assert.equal(r.code, 1);
  });
});
