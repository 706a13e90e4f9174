// issue 14 §2: nesting depth must not cost time with its square. htmlparser2's Parser keeps its
// open elements with Array#unshift: a 2.1 MB sitemap of `<x>` x 300,000 then `</x>` x 300,000
// took about a minute, link extraction on 200,000 nested `<div>` 37.7 s. Sitemaps now stop at
// MAX_XML_DEPTH open elements with `xml-too-deep`; HTML is read from its start tags alone, with
// no stack. These tests assert the finding and that the read completes; the time limits on them
// are hang guards only (speed is measured in bench/html-depth.bench.ts, as ratios).
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { forEachStartTag } from "../../src/crawler/html-tags.js";
import { extractLinks, MAX_PAGE_LINKS } from "../../src/crawler/links.js";
import { normalizeUrl } from "../../src/crawler/url-normal.js";
import {
  MAX_XML_DEPTH,
  parseSitemapText,
  SITEMAP_NAMESPACE,
  SitemapPatcher,
  SitemapPatchError,
} from "../../src/protocol/sitemap/index.js";
import { runCrawl } from "../helpers/crawl-harness.js";
import { startServer, text } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

/** Generous: a read that takes this long is hung, not slow. */
const HANG_GUARD = { timeout: 120_000 };
const DEEP = 300_000;

function deepSitemap(depth: number, inside = "x"): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}">\n` +
    "<url><loc>https://a.example/first</loc></url>\n" +
    `<url><loc>https://a.example/nested</loc>${`<${inside}>`.repeat(depth)}${`</${inside}>`.repeat(depth)}</url>\n` +
    "<url><loc>https://a.example/after</loc></url>\n</urlset>\n"
  );
}

describe("sitemaps nested deeper than MAX_XML_DEPTH", () => {
  it(
    "300,000 nested elements: xml-too-deep, reading stops, what came before is kept",
    HANG_GUARD,
    () => {
      const read = parseSitemapText(deepSitemap(DEEP));
      assert.equal(read.summary.stoppedBy, "xml-too-deep");
      assert.deepEqual(
        read.urls.map((u) => u.loc),
        ["https://a.example/first"],
      );
      const finding = read.diagnostics.find((d) => d.code === "xml-too-deep");
      assert.equal(finding?.line, 4);
      assert.equal(finding?.severity, "error");
      assert.match(finding?.message ?? "", new RegExp(`more than ${MAX_XML_DEPTH} elements`));
    },
  );

  it("at the limit exactly, everything is read (an entry and an extension element make two levels)", () => {
    // urlset (1) > url (2) > x … x: MAX_XML_DEPTH - 2 extension levels reach the limit.
    const read = parseSitemapText(deepSitemap(MAX_XML_DEPTH - 2, "ext:x xmlns:ext='urn:e'"));
    assert.equal(read.summary.stoppedBy, null, JSON.stringify(read.diagnostics));
    assert.deepEqual(
      read.urls.map((u) => u.loc),
      ["https://a.example/first", "https://a.example/nested", "https://a.example/after"],
    );
    const over = parseSitemapText(deepSitemap(MAX_XML_DEPTH - 1));
    assert.equal(over.summary.stoppedBy, "xml-too-deep");
  });

  it(
    "`heed sitemap --count` on the 2.1 MB file exits 1 naming the finding",
    HANG_GUARD,
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "heed-depth-"));
      try {
        const file = join(dir, "sitemap.xml");
        await writeFile(file, deepSitemap(DEEP));
        const run = await runCli(["sitemap", "--count", file], { timeoutMs: 110_000 });
        assert.equal(run.code, 1, run.stderr);
        assert.equal(run.stdout.trim(), "1");
        assert.match(run.stderr, /\[xml-too-deep\]/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it("`heed sitemap update` refuses to edit such a file", HANG_GUARD, () => {
    const patcher = new SitemapPatcher({
      loc: "https://a.example/first",
      set: { priority: "0.5" },
      needsRegp: false,
    });
    assert.throws(
      () => patcher.write(deepSitemap(DEEP)),
      (error: unknown) => {
        assert.ok(error instanceof SitemapPatchError);
        assert.equal(error.code, "malformed");
        assert.match(error.message, /elements open at once/);
        return true;
      },
    );
  });
});

describe("links of HTML nested without end", () => {
  it("400,000 nested <div>: every link is found, before, inside and after", HANG_GUARD, () => {
    const n = 400_000;
    const html =
      '<a href="/before">b</a>' +
      "<div>".repeat(n) +
      '<a href="/deepest">d</a>' +
      "</div>".repeat(n) +
      '<a href="/after">a</a>';
    assert.ok(html.length > 4_000_000);
    const page = extractLinks(html, "https://a.example/", "bot");
    assert.deepEqual(page.links, [
      "https://a.example/before",
      "https://a.example/deepest",
      "https://a.example/after",
    ]);
  });

  it(
    "a crawl of a 4.4 MB page of 400,000 nested <div> reads it and follows its links",
    HANG_GUARD,
    async () => {
      const n = 400_000;
      const page = `<html><body>${"<div>".repeat(n)}<a href="/deepest">d</a>${"</div>".repeat(n)}<a href="/after">a</a></body></html>`;
      const html = { "content-type": "text/html; charset=utf-8" };
      const site = await startServer({
        "/robots.txt": text("User-agent: *\nAllow: /\n"),
        "/": text(page, 200, html),
        "/deepest": text("<p>deepest</p>", 200, html),
        "/after": text("<p>after</p>", 200, html),
      });
      try {
        await runCrawl([`${site.origin}/`], { limitMs: 110_000 });
        assert.ok(site.requests.includes("/deepest"), site.requests.join(" "));
        assert.ok(site.requests.includes("/after"), site.requests.join(" "));
      } finally {
        await site.close();
      }
    },
  );

  it(
    "a page of more than MAX_PAGE_LINKS distinct links: the first are kept, the cut is said, the rest of the page still read",
    HANG_GUARD,
    () => {
      const links = Array.from(
        { length: MAX_PAGE_LINKS + 10 },
        (_, i) => `<a href="/p/${i}">x</a>`,
      );
      const html = `${links.join("\n")}<link rel=canonical href="/canon"><meta name=robots content=noindex>`;
      const page = extractLinks(html, "https://a.example/", "bot");
      assert.equal(page.links.length, MAX_PAGE_LINKS);
      assert.equal(page.links.at(-1), `https://a.example/p/${MAX_PAGE_LINKS - 1}`);
      assert.equal(page.linksCut, true);
      assert.equal(page.canonical, "https://a.example/canon");
      assert.equal(page.noindex, true);
      const fewer = extractLinks(links.slice(0, 100).join(""), "https://a.example/", "bot");
      assert.equal(fewer.linksCut, false);
    },
  );

  it("normalizeUrl drops fragments, empty ones too, and credentials", () => {
    const table: ReadonlyArray<readonly [string, string]> = [
      ["https://a.example/x#", "https://a.example/x"],
      ["https://a.example/x#y", "https://a.example/x"],
      ["https://u:p@a.example/x", "https://a.example/x"],
      ["https://u@a.example/#", "https://a.example/"],
    ];
    for (const [href, want] of table) assert.equal(normalizeUrl(href), want, href);
  });

  it("start tags come once each, in order: the reader does one pass, whatever the depth", () => {
    let calls = 0;
    forEachStartTag("<div>".repeat(10_000) + "<p>" + "</div>".repeat(10_000), () => calls++);
    assert.equal(calls, 10_001);
  });

  it("reads what the parser read: names lower-cased, entities decoded, first of a repeated attribute", () => {
    const html = `<!doctype html><HTML><head>
      <BASE HREF="https://b.example/dir/">
      <link rel="Canonical" href="/canon">
      <link rel="alternate next" href="alt">
      <meta name="ROBOTS" content="NoIndex">
      <script>document.write('<a href="/in-script">x</a>')</script>
      <style>a[href="/in-style"] {}</style>
      <title><a href="/in-title"></a></title>
      </head><body>
      <!-- <a href="/in-comment"> -->
      <A HREF="/x?a=1&amp;b=2" Href="/second">x</A>
      <area href="/area" rel="NoFollow">
      <iframe src="/frame"></iframe>
      <a href='/self-closing'/>
      <svg><a href="/in-svg"></a></svg>
      <textarea><a href="/in-textarea"></a></textarea>
    </body></HTML>`;
    const page = extractLinks(html, "https://a.example/page", "bot");
    assert.deepEqual(page.links, [
      "https://b.example/dir/alt",
      "https://b.example/x?a=1&b=2",
      "https://b.example/frame",
      "https://b.example/self-closing",
      "https://b.example/in-svg",
    ]);
    assert.deepEqual(page.nofollow, ["https://b.example/area"]);
    assert.equal(page.canonical, "https://b.example/canon");
    assert.equal(page.noindex, true);
    assert.equal(page.nofollowAll, false);
  });

  it("a tag cut off at the end of the text gives nothing, and nothing throws", () => {
    for (const html of ['<a href="/x', "<a", "<", '<a href="&#x110000;">', "<a href=/y"]) {
      const seen: string[] = [];
      forEachStartTag(html, (name, attributes) => seen.push(`${name} ${attributes.href ?? ""}`));
      assert.ok(seen.length <= 1, html);
    }
  });
});
