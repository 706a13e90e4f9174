// `heed crawl --include/--exclude` (docs/crawler.md#include-and-exclude): globs and RE2
// expressions decide which found URLs are taken, before robots.txt is read. Against a real
// site on 127.0.0.1 whose log shows what was asked: a URL left out is never requested and is
// not logged as refused by robots.txt; the patterns hold for links, sitemap entries and
// redirect targets alike. Then the pattern compiler's table and limits.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  compileUrlPattern,
  MAX_URL_PATTERN_LENGTH,
  MAX_URL_PATTERNS,
  urlPatternProblem,
} from "../../src/crawler/url-patterns.js";
import { tempDir } from "../helpers/crawl-harness.js";
import {
  redirect,
  type Route,
  startServer,
  type TestServer,
  text,
} from "../helpers/http-server.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

const html =
  (body: string): Route =>
  (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html><body>${body}</body></html>`);
  };
const links = (...to: string[]) => html(to.map((t) => `<a href="${t}">${t}</a>`).join(" "));

describe("heed crawl --include / --exclude", { timeout: 120_000 }, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let site: TestServer;
  before(async () => {
    temp = await tempDir("heed-crawl-patterns-");
    let origin = "";
    site = await startServer({
      "/robots.txt": (req, res) =>
        text(`User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\n`)(req, res),
      "/sitemap.xml": (req, res) =>
        text(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/blog/from-sitemap</loc></url><url><loc>${origin}/shop/from-sitemap</loc></url></urlset>`,
          200,
          { "content-type": "application/xml" },
        )(req, res),
      "/": links(
        "/blog/a",
        "/blog/b",
        "/blog/2024/c",
        "/private/p",
        "/docs/guide.pdf",
        "/shop/item",
        "/go",
      ),
      "/blog/a": links("/blog/a/deeper"),
      "/blog/a/deeper": html("deep"),
      "/blog/b": html("b"),
      "/blog/2024/c": html("c"),
      "/blog/from-sitemap": html("s"),
      "/shop/from-sitemap": html("s"),
      "/shop/item": html("shop"),
      "/docs/guide.pdf": text("pdf"),
      "/private/p": html("private"),
      "/go": redirect("/shop/redirected", 302),
      "/shop/redirected": html("r"),
    });
    origin = site.origin;
  });
  after(async () => {
    await site.close();
    await temp.cleanup();
  });

  it("leaves out what the patterns leave out, before robots.txt", async () => {
    const store = join(temp.dir, "c.db");
    const r = await runCli(
      [
        "crawl",
        `${site.origin}/`,
        "--agent",
        "bot",
        "--store",
        store,
        "--include",
        "/blog/**",
        "--include",
        "re:\\.pdf$",
        "--include",
        "/go",
        "--include",
        "/private/*",
        "--exclude",
        "/blog/b",
        "--exclude",
        `${site.origin}/blog/*/*`,
        "--quiet",
      ],
      { timeoutMs: 90_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    const asked = new Set(site.requests);
    // Taken: the seed (always), /blog/** but for the two excluded, the .pdf, the redirect.
    for (const path of ["/", "/blog/a", "/blog/from-sitemap", "/docs/guide.pdf", "/go"])
      assert.ok(asked.has(path), `${path} was not fetched: ${[...asked].join(" ")}`);
    // Left out: never requested. /shop/redirected is the target of a redirect the patterns
    // take, and is itself left out.
    for (const path of [
      "/blog/b",
      "/blog/a/deeper",
      "/blog/2024/c",
      "/shop/item",
      "/shop/from-sitemap",
      "/shop/redirected",
    ])
      assert.ok(!asked.has(path), `${path} was fetched`);
    assert.ok(!asked.has("/private/p"), "robots.txt disallows /private/p");
    // /private/p is taken by the patterns, then refused by robots.txt; the URLs the patterns
    // left out are in no record of the crawl log at all.
    const exported = await runCli(["export", "--store", store]);
    assert.equal(exported.code, 0, exported.stderr);
    const records = jsonLines(exported.stdout) as { url: string; outcome: string }[];
    const refused = records.filter((x) => x.outcome === "disallowed");
    assert.deepEqual(
      refused.map((x) => new URL(x.url).pathname),
      ["/private/p"],
      JSON.stringify(records),
    );
    const logged = new Set(records.map((x) => new URL(x.url).pathname));
    for (const path of ["/blog/b", "/shop/item", "/shop/from-sitemap", "/shop/redirected"])
      assert.ok(!logged.has(path), `${path} is in the crawl log`);
    const go = records.find((x) => x.url.endsWith("/go")) as { detail?: string } | undefined;
    assert.match(go?.detail ?? "", /not followed: outside the crawl's scope/);
  });

  it("a bad pattern is refused before anything is fetched, naming the flag", async () => {
    const before = site.requests.length;
    for (const [flag, pattern, message] of [
      [
        "--include",
        "re:(unclosed",
        /--include: "re:\(unclosed" is not a regular expression RE2 reads/,
      ],
      ["--exclude", "blog/*", /--exclude: "blog\/\*" is neither a glob starting with \//],
      ["--include", "re:(a)\\1", /not a regular expression RE2 reads/],
    ] as const) {
      const r = await runCli([
        "crawl",
        `${site.origin}/`,
        "--agent",
        "bot",
        "--store",
        join(temp.dir, "bad.db"),
        flag,
        pattern,
      ]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    }
    assert.equal(site.requests.length, before);
  });
});

describe("URL patterns", () => {
  const U = "https://example.com";
  const TABLE: readonly [string, string, boolean][] = [
    ["/blog/*", `${U}/blog/a`, true],
    ["/blog/*", `${U}/blog/a/b`, false],
    ["/blog/**", `${U}/blog/a/b`, true],
    ["/blog/**", `${U}/blog`, false],
    ["/blog/?", `${U}/blog/a`, true],
    ["/blog/?", `${U}/blog/ab`, false],
    // A path glob sees the path only, not the query.
    ["/*.html", `${U}/a.html?x=1`, true],
    // Dots, pluses and brackets are themselves, not regular expression syntax.
    ["/a.b", `${U}/aXb`, false],
    ["/a+(b)", `${U}/a+(b)`, true],
    [`${U}/docs/*`, `${U}/docs/x`, true],
    [`${U}/docs/*`, "https://other.example/docs/x", false],
    ["re:\\.pdf$", `${U}/x/y.pdf`, true],
    ["re:\\.pdf$", `${U}/x/y.pdf?z`, false],
    ["re:/(en|fr)/", `${U}/fr/page`, true],
    ["re:^https://example\\.com/$", `${U}/`, true],
  ];
  for (const [pattern, url, expected] of TABLE) {
    it(`${pattern} ${expected ? "matches" : "does not match"} ${url}`, () => {
      const c = compileUrlPattern(pattern);
      assert.ok(c.ok);
      assert.equal(c.test(url), expected);
    });
  }

  it("a pattern that makes a backtracking engine take forever runs in the URL's length", () => {
    const c = compileUrlPattern("re:(a+)+$");
    assert.ok(c.ok);
    // 2^40 steps for a backtracking engine; RE2 reads the URL once.
    assert.equal(c.test(`${U}/${"a".repeat(40)}!`), false);
  });

  it("limits: pattern length and count", () => {
    assert.equal(urlPatternProblem([`/${"a".repeat(MAX_URL_PATTERN_LENGTH - 1)}`], []), null);
    assert.match(
      urlPatternProblem([`/${"a".repeat(MAX_URL_PATTERN_LENGTH)}`], []) ?? "",
      /^include: a pattern of 2049 characters; at most 2048/,
    );
    const many = Array.from({ length: MAX_URL_PATTERNS }, (_, i) => `/p${i}`);
    assert.equal(urlPatternProblem(many, []), null);
    assert.match(urlPatternProblem(many, ["/one-more"]) ?? "", /at most 100/);
  });
});
