// `heed sitemap`, `heed sitemap build` and `heed sitemap update` as users run them: the built CLI
// in a child process, on real files and a real HTTP server on 127.0.0.1. Exit status: 0 read
// (warnings allowed), 1 errors, 2 nothing could be read or bad options.
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { SITEMAP_NAMESPACE } from "../../src/protocol/sitemap/index.js";
import { startServer, type TestServer, text } from "../helpers/http-server.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

const SUITE = { timeout: 120_000 };

const PAPER = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="${SITEMAP_NAMESPACE}">
<url>
<loc>http://10.60.149.65:8089/test1/html/news1.html</loc>
<srcloc>http://10.60.149.65:8089/test1/newsItem.do?id=1&amp;c=2</srcloc>
<lastmod>2015-03-19</lastmod>
<changefreq>weekly</changefreq>
<priority>0.5</priority>
<type>data</type>
</url>
<url>
<loc>http://10.60.149.65:8089/test1/html/news2.html</loc>
<lastmod>2015-13-01</lastmod>
</url>
<url><loc>/relative.html</loc></url>
</urlset>
`;

describe("heed sitemap", SUITE, () => {
  let dir: string;
  let server: TestServer;
  let o: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-cli-sitemap-"));
    await writeFile(join(dir, "paper.xml"), PAPER);
    await writeFile(join(dir, "paper.xml.gz"), gzipSync(PAPER));
    await writeFile(join(dir, "urls.txt"), "http://e.com/a\nhttp://e.com/b\n");
    await writeFile(join(dir, "robots.txt"), "User-agent: *\nDisallow: /\n");
    await writeFile(
      join(dir, "doctype.xml"),
      `<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY a "b">]>\n<urlset xmlns="${SITEMAP_NAMESPACE}"/>`,
    );
    const routes: Parameters<typeof startServer>[0] = {};
    server = await startServer(routes);
    o = server.origin;
    Object.assign(routes, {
      "/robots.txt": text(`User-agent: *\nSitemap: ${o}/index.xml\n`),
      "/index.xml": text(
        `<sitemapindex xmlns="${SITEMAP_NAMESPACE}"><sitemap><loc>${o}/s1.xml</loc><lastmod>2020-01-01</lastmod></sitemap><sitemap><loc>${o}/s2.xml.gz</loc></sitemap><sitemap><loc>${o}/gone.xml</loc></sitemap></sitemapindex>`,
      ),
      "/s1.xml": text(`<urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>${o}/a</loc></url></urlset>`),
      "/s2.xml.gz": text(
        gzipSync(
          `<urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>${o}/b</loc><type>list</type></url></urlset>`,
        ),
      ),
      "/ok-index.xml": text(
        `<sitemapindex xmlns="${SITEMAP_NAMESPACE}"><sitemap><loc>${o}/s1.xml</loc></sitemap></sitemapindex>`,
      ),
    });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("lists entries, warnings on stderr as FILE:LINE: warning: … [code]; exit 0", async () => {
    const file = join(dir, "paper.xml");
    const run = await runCli(["sitemap", file]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stdout.trimEnd().split("\n"), [
      "http://10.60.149.65:8089/test1/html/news1.html lastmod=2015-03-19 changefreq=weekly priority=0.5 type=data srcloc=http://10.60.149.65:8089/test1/newsItem.do?id=1&c=2",
      "http://10.60.149.65:8089/test1/html/news2.html",
    ]);
    const lines = run.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 2);
    assert.match(
      lines[0] ?? "",
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:13: warning: .* \\[lastmod-invalid\\]$`,
      ),
    );
    assert.match(lines[1] ?? "", /:15: warning: .* \[loc-relative\]$/);
  });

  it("--json: one object a line with every field and where it came from", async () => {
    const run = await runCli(["sitemap", join(dir, "paper.xml.gz"), "--json"]);
    assert.equal(run.code, 0);
    const [first] = jsonLines(run.stdout);
    assert.deepEqual(first, {
      kind: "url",
      loc: "http://10.60.149.65:8089/test1/html/news1.html",
      lastmod: "2015-03-19",
      changefreq: "weekly",
      priority: 0.5,
      type: "data",
      srcloc: "http://10.60.149.65:8089/test1/newsItem.do?id=1&c=2",
      sitemap: join(dir, "paper.xml.gz"),
      line: 3,
    });
  });

  it("--count prints the number only", async () => {
    const run = await runCli(["sitemap", "--count", join(dir, "urls.txt")]);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "2\n");
  });

  it("reads standard input with -", async () => {
    const run = await runCli(["sitemap", "-"], { input: "http://e.com/x\n" });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "http://e.com/x\n");
  });

  it("without --follow an index lists its sitemaps; with it, their entries", async () => {
    const list = await runCli(["sitemap", `${o}/index.xml`]);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(list.stdout.trimEnd().split("\n"), [
      `${o}/s1.xml kind=sitemap lastmod=2020-01-01`,
      `${o}/s2.xml.gz kind=sitemap`,
      `${o}/gone.xml kind=sitemap`,
    ]);
    const follow = await runCli(["sitemap", `${o}/index.xml`, "--follow", "--json"]);
    assert.equal(follow.code, 1, "a listed sitemap could not be read: an error");
    assert.deepEqual(
      jsonLines(follow.stdout).map((e) => [e.loc, e.type, e.sitemap]),
      [
        [`${o}/a`, null, `${o}/s1.xml`],
        [`${o}/b`, "list", `${o}/s2.xml.gz`],
      ],
    );
    assert.match(
      follow.stderr,
      new RegExp(`^${o}/gone.xml: error: .*HTTP 404 \\[fetch-failed\\]$`, "m"),
    );
    const ok = await runCli(["sitemap", `${o}/ok-index.xml`, "--follow", "--count"]);
    assert.equal(ok.code, 0);
    assert.equal(ok.stdout, "1\n");
  });

  it("--discover reads the sitemaps robots.txt names", async () => {
    const run = await runCli(["sitemap", "--discover", "--follow", "--count", o]);
    assert.equal(run.stdout, "2\n");
    assert.equal(run.code, 1);
  });

  it("exit 2: a missing file, an unreachable URL, not a sitemap at all, bad options", async () => {
    for (const args of [
      ["sitemap", join(dir, "missing.xml")],
      ["sitemap", `${o}/nothing-here.xml`],
      ["sitemap", join(dir, "robots.txt")],
      ["sitemap", join(dir, "paper.xml"), "--max-urls", "zero"],
      ["sitemap"],
    ]) {
      const run = await runCli(args);
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.notEqual(run.stderr, "");
    }
  });

  it("exit 1: errors such as a limit reached or a DOCTYPE", async () => {
    const limit = await runCli(["sitemap", join(dir, "paper.xml"), "--max-urls", "1"]);
    assert.equal(limit.code, 1);
    assert.equal(limit.stdout.trimEnd().split("\n").length, 1);
    assert.equal(limit.stderr.trimEnd().split("\n").length, 1, "nothing past the limit is read");
    assert.match(limit.stderr, /:11: error: more than 1 URL; reading stopped .* \[too-many-urls\]/);
    const doctype = await runCli(["sitemap", join(dir, "doctype.xml")]);
    assert.equal(doctype.code, 1);
    assert.match(doctype.stderr, /doctype.xml:2: error: .* \[doctype\]/);
  });

  it("--help describes every option", async () => {
    const run = await runCli(["sitemap", "--help"]);
    for (const flag of [
      "--json",
      "--count",
      "--follow",
      "--discover",
      "--url",
      "--max-urls",
      "--max-depth",
    ])
      assert.ok(run.stdout.includes(flag), flag);
    assert.match(run.stdout, /build/);
    assert.match(run.stdout, /update/);
  });
});

describe("heed sitemap build", SUITE, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-cli-build-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("writes one sitemap from plain URLs and JSON lines on standard input", async () => {
    const out = join(dir, "one");
    const input = [
      "https://www.example.com/a?x=1&y=2",
      JSON.stringify({
        loc: "https://www.example.com/html/news1.html",
        lastmod: "2015-03-19",
        type: "data",
        srcloc: "https://www.example.com/newsItem.do?id=1",
      }),
      "",
    ].join("\n");
    const run = await runCli(["sitemap", "build", "--out", out], { input });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `wrote ${join(out, "sitemap.xml")} (2 URLs)\n`);
    const back = await runCli(["sitemap", join(out, "sitemap.xml"), "--json"]);
    assert.deepEqual(
      jsonLines(back.stdout).map((e) => [e.loc, e.type, e.srcloc]),
      [
        ["https://www.example.com/a?x=1&y=2", null, null],
        [
          "https://www.example.com/html/news1.html",
          "data",
          "https://www.example.com/newsItem.do?id=1",
        ],
      ],
    );
  });

  it("splits at --max-urls, gzip, with an index under --base; bad lines reported, exit 1", async () => {
    const out = join(dir, "split");
    const list = join(dir, "list.txt");
    await writeFile(
      list,
      [
        "https://www.example.com/1",
        "not a url",
        '{"loc": "https://www.example.com/2", "priority": 2}',
        "https://www.example.com/3",
        '{"loc": "https://www.example.com/4", "color": "red"}',
        "https://www.example.com/5",
        "{broken json",
        "",
      ].join("\n"),
    );
    const run = await runCli([
      "sitemap",
      "build",
      list,
      "--out",
      out,
      "--gzip",
      "--max-urls",
      "2",
      "--base",
      "https://www.example.com/",
    ]);
    assert.equal(run.code, 1);
    assert.deepEqual(
      run.stderr
        .trimEnd()
        .split("\n")
        .map((l) => l.replace(/: error: .*\[/, " [")),
      [
        `${list}:2 [invalid-entry]`,
        `${list}:3 [invalid-entry]`,
        `${list}:5 [invalid-entry]`,
        `${list}:7 [invalid-entry]`,
      ],
    );
    assert.deepEqual(run.stdout.trimEnd().split("\n"), [
      `wrote ${join(out, "sitemap-1.xml.gz")} (2 URLs)`,
      `wrote ${join(out, "sitemap-2.xml.gz")} (1 URLs)`,
      `wrote ${join(out, "sitemap.xml")} (index of 2 sitemaps)`,
    ]);
    assert.deepEqual((await readdir(out)).sort(), [
      "sitemap-1.xml.gz",
      "sitemap-2.xml.gz",
      "sitemap.xml",
    ]);
    const back = await runCli(["sitemap", join(out, "sitemap.xml"), "--follow"]);
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(back.stdout.trimEnd().split("\n"), [
      "https://www.example.com/1",
      "https://www.example.com/3",
      "https://www.example.com/5",
    ]);
  });

  it("exit 2 for a list it cannot read", async () => {
    const run = await runCli(["sitemap", "build", join(dir, "nope.txt"), "--out", dir]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no such file/);
  });
});

describe("heed sitemap update", SUITE, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-cli-update-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("adds news, then updates its <lastmod> (seeds/003 §4.1, Figs. 2-3)", async () => {
    const file = join(dir, "sitemap.xml");
    const add = await runCli([
      "sitemap",
      "update",
      file,
      "--loc",
      "http://www.example.com/html/news9.html",
      "--srcloc",
      "http://www.example.com/newsItem.do?id=9",
      "--type",
      "data",
      "--lastmod",
      "2015-03-19",
    ]);
    assert.equal(add.code, 0, add.stderr);
    assert.equal(add.stdout, `added ${file}\n`);
    const update = await runCli([
      "sitemap",
      "update",
      file,
      "--loc",
      "http://www.example.com/html/news9.html",
      "--lastmod",
      "now",
    ]);
    assert.equal(update.stdout, `updated ${file}\n`);
    const back = jsonLines((await runCli(["sitemap", file, "--json"])).stdout);
    assert.equal(back.length, 1);
    assert.equal(back[0]?.type, "data");
    assert.match(String(back[0]?.lastmod), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.match(await readFile(file, "utf8"), /<regp:srcloc>/);
  });

  it("exit 2 for bad values", async () => {
    const file = join(dir, "bad.xml");
    for (const extra of [
      ["--type", "page"],
      ["--priority", "3"],
      ["--lastmod", "yesterday"],
    ]) {
      const run = await runCli(["sitemap", "update", file, "--loc", "http://e.com/", ...extra]);
      assert.equal(run.code, 2, extra.join(" "));
    }
    const noLoc = await runCli(["sitemap", "update", file]);
    assert.equal(noLoc.code, 2);
  });
});
