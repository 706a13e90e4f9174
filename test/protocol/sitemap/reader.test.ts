// Reading sitemaps: every format, the fields of sitemaps.org and REGP (seeds/003 §3.2.12), and
// each finding with its code and line. Content never throws: odd input gives diagnostics.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  parseSitemap,
  parseSitemapText,
  REGP_NAMESPACE,
  SITEMAP_NAMESPACE,
  type SitemapContents,
  type SitemapEvent,
} from "../../../src/protocol/sitemap/index.js";

const NS = `xmlns="${SITEMAP_NAMESPACE}"`;

function urlset(body: string, extra = ""): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}${extra}>\n${body}</urlset>\n`;
}

function codes(r: SitemapContents): string[] {
  return r.diagnostics.map((d) => d.code);
}

function finding(r: SitemapContents, code: string) {
  const d = r.diagnostics.find((x) => x.code === code);
  assert.ok(d, `expected a ${code} finding, got ${codes(r).join(", ") || "none"}`);
  return d;
}

async function collect(
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  options = {},
): Promise<SitemapEvent[]> {
  const events: SitemapEvent[] = [];
  for await (const e of parseSitemap(chunks, options)) events.push(e);
  return events;
}

describe("urlset (sitemaps.org XML format)", () => {
  it("reads the protocol's sample with every optional tag", () => {
    const r = parseSitemapText(
      urlset(
        "  <url>\n    <loc>http://www.example.com/</loc>\n    <lastmod>2005-01-01</lastmod>\n    <changefreq>monthly</changefreq>\n    <priority>0.8</priority>\n  </url>\n",
      ),
    );
    assert.deepEqual(r.urls, [
      {
        loc: "http://www.example.com/",
        lastmod: "2005-01-01",
        changefreq: "monthly",
        priority: 0.8,
        type: null,
        srcloc: null,
        line: 3,
      },
    ]);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.summary.format, "urlset");
    assert.equal(r.summary.urls, 1);
  });

  it("reads seeds/003 §3.2.12's <type> and <srcloc> unprefixed, as the paper writes them", () => {
    // The paper's own example, with its bare "&" in <srcloc>.
    const r = parseSitemapText(
      urlset(`<url>
  <loc>http://www.example.com/crawler/news/20141030008.html</loc>
  <srcloc>http://www.example.com/news/hot.asp?date=1030&id=8</srcloc>
  <lastmod>2014-10-30</lastmod>
  <changefreq>daily</changefreq>
  <priority>0.8</priority>
  <type>data</type>
</url>
`),
    );
    assert.equal(r.urls.length, 1);
    const u = r.urls[0];
    assert.equal(u?.type, "data");
    assert.equal(u?.srcloc, "http://www.example.com/news/hot.asp?date=1030&id=8");
    assert.equal(u?.changefreq, "daily");
    const amp = finding(r, "unescaped-ampersand");
    assert.equal(amp.line, 5);
    assert.equal(amp.severity, "warning");
  });

  it("reads <srcloc> wrapped onto two lines, as seeds/003 §4.1 prints it", () => {
    const r = parseSitemapText(
      urlset(`<url>
<loc>http://10.60.149.65:8089/test1/html/news1.html</loc>
<srcloc>http://10.60.149.65:8089/test1/newsItem.do?id=
  1</srcloc>
<lastmod>2015-03-19</lastmod>
<changefreq>weekly</changefreq>
<priority>0.5</priority>
<type>data</type>
</url>
`),
    );
    assert.equal(r.urls[0]?.srcloc, "http://10.60.149.65:8089/test1/newsItem.do?id=1");
    assert.equal(r.urls[0]?.type, "data");
  });

  it("reads REGP fields in heed's namespace under any prefix", () => {
    const r = parseSitemapText(
      urlset(
        `<url><loc>http://e.com/a</loc><g:type>list</g:type><g:srcloc>http://e.com/orig?a=1&amp;b=2</g:srcloc></url>\n`,
        ` xmlns:g="${REGP_NAMESPACE}"`,
      ),
    );
    assert.equal(r.urls[0]?.type, "list");
    assert.equal(r.urls[0]?.srcloc, "http://e.com/orig?a=1&b=2");
    assert.deepEqual(r.diagnostics, []);
  });

  it("skips image, news, video and unknown extensions without a word, even their <loc>", () => {
    const r = parseSitemapText(
      urlset(
        `<url>
  <loc>http://e.com/page</loc>
  <image:image><image:loc>http://e.com/i.png</image:loc></image:image>
  <news:news><news:publication><news:name>N</news:name></news:publication><news:title>T</news:title></news:news>
  <video:video><video:content_loc>http://e.com/v.mp4</video:content_loc><video:player_loc>http://e.com/p</video:player_loc></video:video>
  <xhtml:link rel="alternate" hreflang="de" href="http://e.com/de"/>
  <foo:type>ignored</foo:type>
  <other><loc>http://e.com/not-this</loc></other>
</url>
`,
        ` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:foo="urn:x-foo"`,
      ),
    );
    assert.deepEqual(
      r.urls.map((u) => [u.loc, u.type]),
      [["http://e.com/page", null]],
    );
    assert.deepEqual(r.diagnostics, []);
  });

  it("a <loc> in another default namespace is not the sitemap's", () => {
    const r = parseSitemapText(
      urlset(
        `<url><loc>http://e.com/a</loc><ext xmlns="urn:x"><loc>http://e.com/b</loc></ext></url>\n`,
      ),
    );
    assert.deepEqual(
      r.urls.map((u) => u.loc),
      ["http://e.com/a"],
    );
  });

  it("decodes the five entities, numeric references and CDATA", () => {
    const r = parseSitemapText(
      urlset(
        `<url><loc>http://e.com/a?x=1&amp;y=&#50;&amp;z=&#x33;&amp;q=&quot;&apos;&lt;&gt;</loc></url>\n<url><loc><![CDATA[http://e.com/b?x=1&y=2]]></loc></url>\n`,
      ),
    );
    assert.deepEqual(
      r.urls.map((u) => u.loc),
      ["http://e.com/a?x=1&y=2&z=3&q=\"'<>", "http://e.com/b?x=1&y=2"],
    );
    assert.deepEqual(r.diagnostics, []);
  });

  it("keeps an undefined entity as written and says so", () => {
    const r = parseSitemapText(urlset(`<url>\n<loc>http://e.com/a&nbsp;b</loc>\n</url>\n`));
    assert.equal(r.urls[0]?.loc, "http://e.com/a&nbsp;b");
    assert.equal(finding(r, "undefined-entity").line, 4);
  });

  it("reports bad fields with their line and keeps the entry", () => {
    const r = parseSitemapText(
      urlset(`<url>
  <loc>http://e.com/a</loc>
  <lastmod>2005-02-30</lastmod>
  <changefreq>often</changefreq>
  <priority>1.5</priority>
  <type>page</type>
  <srcloc>/relative</srcloc>
</url>
`),
    );
    assert.deepEqual(r.urls[0], {
      loc: "http://e.com/a",
      lastmod: null,
      changefreq: null,
      priority: null,
      type: null,
      srcloc: null,
      line: 3,
    });
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.line]),
      [
        ["lastmod-invalid", 5],
        ["changefreq-invalid", 6],
        ["priority-invalid", 7],
        ["type-invalid", 8],
        ["srcloc-invalid", 9],
      ],
    );
  });

  it("priority: 0.0 to 1.0 as a plain decimal", () => {
    const p = (v: string) =>
      parseSitemapText(urlset(`<url><loc>http://e.com/</loc><priority>${v}</priority></url>`))
        .urls[0]?.priority;
    assert.equal(p("0.0"), 0);
    assert.equal(p("1"), 1);
    assert.equal(p("1.0"), 1);
    assert.equal(p(".5"), 0.5);
    assert.equal(p(" 0.80 "), 0.8);
    for (const bad of ["-0.1", "1.01", "1e-1", "high", ""]) assert.equal(p(bad), null, bad);
  });

  it("changefreq and type: the listed words, in any case", () => {
    const r = parseSitemapText(
      urlset(`<url><loc>http://e.com/</loc><changefreq>Daily</changefreq><type>DATA</type></url>`),
    );
    assert.equal(r.urls[0]?.changefreq, "daily");
    assert.equal(r.urls[0]?.type, "data");
  });

  it("skips entries without a usable <loc>: missing, relative, malformed", () => {
    const r = parseSitemapText(
      urlset(`<url><lastmod>2005</lastmod></url>
<url><loc>/page.html</loc></url>
<url><loc>ftp://e.com/file</loc></url>
<url><loc>http://e.com/a b</loc></url>
<url><loc>http://</loc></url>
<url><loc>http://e.com/ok</loc></url>
`),
    );
    assert.deepEqual(
      r.urls.map((u) => u.loc),
      ["http://e.com/ok"],
    );
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.line]),
      [
        ["loc-missing", 3],
        ["loc-relative", 4],
        ["loc-malformed", 5],
        ["loc-malformed", 6],
        ["loc-malformed", 7],
      ],
    );
  });

  it("warns about a <loc> of 2,048 characters or more, and keeps it", () => {
    const long = `http://e.com/${"a".repeat(2048)}`;
    const r = parseSitemapText(urlset(`<url><loc>${long}</loc></url>`));
    assert.equal(r.urls[0]?.loc, long);
    assert.equal(finding(r, "loc-too-long").severity, "warning");
  });

  it("keeps the first of two <loc> and reports the second", () => {
    const r = parseSitemapText(
      urlset(`<url>\n<loc>http://e.com/1</loc>\n<loc>http://e.com/2</loc>\n</url>\n`),
    );
    assert.equal(r.urls[0]?.loc, "http://e.com/1");
    assert.equal(finding(r, "duplicate-field").line, 5);
  });

  it("cuts a field longer than the cap and reports it", () => {
    const r = parseSitemapText(urlset(`<url><loc>http://e.com/${"x".repeat(40_000)}</loc></url>`));
    assert.ok(codes(r).includes("field-too-long"));
  });

  it("warns when <urlset> has no namespace or another one, and reads it all the same", () => {
    const none = parseSitemapText(`<urlset><url><loc>http://e.com/</loc></url></urlset>`);
    assert.equal(none.urls.length, 1);
    assert.equal(finding(none, "namespace").line, 1);
    const other = parseSitemapText(
      `<urlset xmlns="urn:other"><url><loc>http://e.com/</loc></url></urlset>`,
    );
    assert.equal(other.urls.length, 1);
    assert.ok(codes(other).includes("namespace"));
    const legacy = parseSitemapText(
      `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>http://e.com/</loc></url></urlset>`,
    );
    assert.deepEqual(codes(legacy), []);
  });

  it("reads a prefixed sitemaps.org vocabulary", () => {
    const r = parseSitemapText(
      `<sm:urlset xmlns:sm="${SITEMAP_NAMESPACE}"><sm:url><sm:loc>http://e.com/</sm:loc><sm:priority>0.1</sm:priority></sm:url></sm:urlset>`,
    );
    assert.deepEqual(
      r.urls.map((u) => [u.loc, u.priority]),
      [["http://e.com/", 0.1]],
    );
  });
});

describe("sitemapindex", () => {
  it("lists its sitemaps with their <lastmod>", () => {
    const r = parseSitemapText(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex ${NS}>
  <sitemap>
    <loc>http://www.example.com/sitemap1.xml.gz</loc>
    <lastmod>2004-10-01T18:23:17+00:00</lastmod>
  </sitemap>
  <sitemap>
    <loc>http://www.example.com/sitemap2.xml.gz</loc>
  </sitemap>
</sitemapindex>
`);
    assert.equal(r.summary.format, "sitemapindex");
    assert.deepEqual(r.sitemaps, [
      {
        loc: "http://www.example.com/sitemap1.xml.gz",
        lastmod: "2004-10-01T18:23:17+00:00",
        line: 3,
      },
      { loc: "http://www.example.com/sitemap2.xml.gz", lastmod: null, line: 7 },
    ]);
    assert.deepEqual(r.urls, []);
    assert.equal(r.summary.sitemaps, 2);
  });
});

describe("text sitemaps (sitemaps.org 'Text file'; seeds/003 §3.2.12 TXT format)", () => {
  it("reads one URL a line; CRLF, blank lines and spaces around are fine", () => {
    const r = parseSitemapText("http://e.com/a\r\n\r\n  http://e.com/b  \nhttp://e.com/c");
    assert.equal(r.summary.format, "text");
    assert.deepEqual(
      r.urls.map((u) => [u.loc, u.line]),
      [
        ["http://e.com/a", 1],
        ["http://e.com/b", 3],
        ["http://e.com/c", 4],
      ],
    );
  });
  it("reports lines that are not absolute URLs, with their number", () => {
    const r = parseSitemapText("http://e.com/a\n/b\nhttp://e.com/c d\n");
    assert.deepEqual(
      r.urls.map((u) => u.loc),
      ["http://e.com/a"],
    );
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.line]),
      [
        ["loc-relative", 2],
        ["loc-malformed", 3],
      ],
    );
  });
  it("a robots.txt, a README or binary data is not a sitemap at all", () => {
    for (const text of [
      "User-agent: *\nDisallow: /\n",
      "# Read me\nhttp://e.com/\n",
      "\u0000\u0001\u0002",
    ]) {
      const r = parseSitemapText(text);
      assert.equal(r.summary.stoppedBy, "not-a-sitemap", text);
      assert.equal(r.urls.length, 0);
    }
  });
  it("a line longer than the cap is skipped and reported", () => {
    const r = parseSitemapText(
      `http://e.com/a\nhttp://e.com/${"x".repeat(40_000)}\nhttp://e.com/b\n`,
    );
    assert.deepEqual(
      r.urls.map((u) => u.loc),
      ["http://e.com/a", "http://e.com/b"],
    );
    assert.equal(finding(r, "field-too-long").line, 2);
  });
});

describe("feeds (sitemaps.org 'Syndication feed')", () => {
  it("RSS 2.0: <item><link> and <pubDate>", () => {
    const r = parseSitemapText(`<?xml version="1.0"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
  <title>T</title>
  <link>http://e.com/</link>
  <atom:link rel="self" href="http://e.com/feed"/>
  <item>
    <title>One</title>
    <link>http://e.com/one</link>
    <pubDate>Mon, 27 Jun 2011 19:34:00 +0100</pubDate>
  </item>
  <item><title>No link</title></item>
  <item><link>http://e.com/two</link><pubDate>someday</pubDate></item>
</channel>
</rss>
`);
    assert.equal(r.summary.format, "rss");
    assert.deepEqual(
      r.urls.map((u) => [u.loc, u.lastmod, u.line]),
      [
        ["http://e.com/one", "2011-06-27T19:34:00+01:00", 7],
        ["http://e.com/two", null, 13],
      ],
    );
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.line]),
      [
        ["loc-missing", 12],
        ["lastmod-invalid", 13],
      ],
    );
  });

  it("Atom 1.0: <entry><link href> (no rel, or alternate) and <updated>", () => {
    const r = parseSitemapText(`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>T</title>
  <link href="http://e.com/"/>
  <entry>
    <link rel="edit" href="http://e.com/edit/1"/>
    <link rel="alternate" href="http://e.com/1?a=1&amp;b=2"/>
    <link rel="alternate" hreflang="de" href="http://e.com/de/1"/>
    <updated>2011-06-27T19:34:00+01:00</updated>
  </entry>
  <entry><link href="http://e.com/2"/></entry>
</feed>
`);
    assert.equal(r.summary.format, "atom");
    assert.deepEqual(
      r.urls.map((u) => [u.loc, u.lastmod]),
      [
        ["http://e.com/1?a=1&b=2", "2011-06-27T19:34:00+01:00"],
        ["http://e.com/2", null],
      ],
    );
    assert.deepEqual(r.diagnostics, []);
  });

  it("Atom 0.3: <modified>", () => {
    const r = parseSitemapText(
      `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" type="text/html" href="http://e.com/x"/><modified>2004-01-01T00:00:00Z</modified></entry></feed>`,
    );
    assert.deepEqual(
      r.urls.map((u) => [u.loc, u.lastmod]),
      [["http://e.com/x", "2004-01-01T00:00:00Z"]],
    );
  });
});

describe("what is not a sitemap, or is broken", () => {
  it("an HTML page, a JSON file, an empty file, white space, another XML root", () => {
    for (const text of [
      "<!DOCTYPE html><html><body>hi</body></html>",
      "<html><body>hi</body></html>",
      '{"loc": "http://e.com/"}',
      "",
      "   \n\t\n",
      '<?xml version="1.0"?><note><to>x</to></note>',
    ]) {
      const r = parseSitemapText(text);
      assert.equal(r.summary.stoppedBy, "not-a-sitemap", JSON.stringify(text));
      assert.equal(r.summary.errors, 1);
    }
  });

  it("a <!DOCTYPE> is an error and stops reading: nothing is declared, nothing expanded", () => {
    const r = parseSitemapText(`<?xml version="1.0"?>
<!DOCTYPE urlset [<!ENTITY x "http://e.com/x">]>
<urlset ${NS}><url><loc>&x;</loc></url></urlset>`);
    const d = finding(r, "doctype");
    assert.equal(d.line, 2);
    assert.equal(d.fatal, true);
    assert.equal(r.urls.length, 0);
  });

  it("a billion-laughs file expands nothing, at once and in little memory", () => {
    let entities = '<!ENTITY lol "lol">';
    for (let i = 1; i <= 9; i++)
      entities += `<!ENTITY lol${i} "${`&lol${i === 1 ? "" : i - 1};`.repeat(10)}">`;
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE lolz [${entities}]>\n<urlset ${NS}><url><loc>http://e.com/&lol9;</loc></url></urlset>`;
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const r = parseSitemapText(bomb);
    assert.ok(performance.now() - started < 5000, "expanding would take far longer");
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 50 * 1024 * 1024);
    assert.equal(r.summary.stoppedBy, "doctype");
    assert.equal(r.urls.length, 0);
    // And without the DOCTYPE stop, the reference itself would still be left as written.
    const bare = parseSitemapText(urlset(`<url><loc>http://e.com/&lol9;</loc></url>`));
    assert.equal(bare.urls[0]?.loc, "http://e.com/&lol9;");
  });

  it("a file cut short is an error, and its unfinished entry is left out", () => {
    const r = parseSitemapText(
      `<urlset ${NS}>\n<url><loc>http://e.com/a</loc></url>\n<url><loc>http://e.com/b-cut-he`,
    );
    assert.deepEqual(
      r.urls.map((u) => u.loc),
      ["http://e.com/a"],
    );
    const d = finding(r, "xml-malformed");
    assert.equal(d.severity, "error");
    assert.equal(d.line, 3);
  });

  it("an element left open inside another is an error, once", () => {
    const r = parseSitemapText(
      urlset(
        `<url>\n<loc>http://e.com/a</loc>\n<priority>0.5</url>\n<url><loc>http://e.com/b</loc></url>\n`,
      ),
    );
    assert.equal(finding(r, "xml-malformed").line, 5);
    assert.ok(r.urls.some((u) => u.loc === "http://e.com/b"));
  });
});

describe("limits", () => {
  const many = (n: number) => {
    let body = "";
    for (let i = 0; i < n; i++) body += `<url><loc>http://e.com/${i}</loc></url>\n`;
    return urlset(body);
  };

  it("stops past maxUrls with too-many-urls, after giving out the first maxUrls", () => {
    const r = parseSitemapText(many(11), { maxUrls: 10 });
    assert.equal(r.urls.length, 10);
    const d = finding(r, "too-many-urls");
    assert.equal(d.fatal, true);
    assert.equal(d.line, 13);
    assert.match(d.message, /more than 10 URLs/);
    assert.equal(r.summary.stoppedBy, "too-many-urls");
    assert.equal(parseSitemapText(many(10), { maxUrls: 10 }).summary.stoppedBy, null);
  });

  it("50,000 URLs by default (sitemaps.org)", () => {
    const r = parseSitemapText(many(50_001));
    assert.equal(r.urls.length, 50_000);
    assert.equal(r.summary.stoppedBy, "too-many-urls");
  });

  it("the same limit holds for an index's sitemaps and a text file's lines", () => {
    const index = parseSitemapText(
      `<sitemapindex ${NS}>${"<sitemap><loc>http://e.com/s.xml</loc></sitemap>".repeat(4)}</sitemapindex>`,
      { maxUrls: 3 },
    );
    assert.equal(index.sitemaps.length, 3);
    assert.equal(index.summary.stoppedBy, "too-many-urls");
    const text = parseSitemapText("http://e.com/1\nhttp://e.com/2\nhttp://e.com/3\n", {
      maxUrls: 2,
    });
    assert.equal(text.urls.length, 2);
    assert.equal(text.summary.stoppedBy, "too-many-urls");
  });

  it("stops past maxBytes with too-large, uncompressed", () => {
    const r = parseSitemapText(many(100), { maxBytes: 2000 });
    assert.equal(r.summary.stoppedBy, "too-large");
    assert.equal(r.summary.bytes, 2000);
    assert.ok(r.urls.length > 0 && r.urls.length < 100);
  });

  it("checks its limits at the boundary", () => {
    assert.throws(
      () => parseSitemapText("", { maxUrls: 0 }),
      /maxUrls: expected a positive integer, got 0/,
    );
    assert.throws(() => parseSitemapText("", { maxBytes: 1.5 }), /maxBytes/);
    assert.throws(() => parseSitemapText("", { maxRatio: -1 }), /maxRatio/);
  });

  it("a compressed file needs a decompressor: gzip-unsupported", async () => {
    const events = await collect([new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0])]);
    const end = events.at(-1);
    assert.equal(end?.kind, "end");
    if (end?.kind === "end") assert.equal(end.summary.stoppedBy, "gzip-unsupported");
  });

  it("caps the findings of one file", () => {
    const r = parseSitemapText(urlset("<url><loc>/relative</loc></url>\n".repeat(1200)));
    assert.equal(r.diagnostics.length, 1001);
    assert.equal(r.diagnostics.at(-1)?.code, "too-many-diagnostics");
    assert.equal(r.summary.warnings, 1200, "every finding is counted, shown or not");
  });
});

describe("encodings", () => {
  it("decodes a declared ISO-8859-1 file, with a not-utf8 warning", () => {
    const head = `<?xml version="1.0" encoding="ISO-8859-1"?>\n<urlset ${NS}><url><loc>http://e.com/caf`;
    const tail = `</loc></url></urlset>`;
    const bytes = new Uint8Array([
      ...new TextEncoder().encode(head),
      0xe9,
      ...new TextEncoder().encode(tail),
    ]);
    const r = parseSitemapText(bytes);
    assert.equal(r.urls[0]?.loc, "http://e.com/café");
    assert.equal(finding(r, "not-utf8").line, 1);
  });
  it("a UTF-8 byte order mark is not content", () => {
    const r = parseSitemapText(
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("http://e.com/a\n")]),
    );
    assert.deepEqual(
      r.urls.map((u) => u.loc),
      ["http://e.com/a"],
    );
  });
});

describe("streaming", () => {
  const text = urlset(
    `<url>\n  <loc>http://e.com/a?x=1&amp;y=2</loc>\n  <lastmod>2005-01-01</lastmod>\n</url>\n<url>\n  <loc>http://e.com/caf\u00e9</loc>\n  <priority>0.3</priority>\n  <type>data</type>\n</url>\n<url><loc>/bad</loc></url>\n`,
  );
  const whole = parseSitemapText(text);

  it("gives the same entries, findings and lines whatever the chunk size, even one byte", async () => {
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 2, 3, 7, 64]) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
      const events = await collect(chunks);
      assert.deepEqual(
        events.filter((e) => e.kind === "url").map((e) => (e.kind === "url" ? e.url : null)),
        whole.urls,
        `chunk size ${size}`,
      );
      assert.deepEqual(
        events
          .filter((e) => e.kind === "diagnostic")
          .map((e) => (e.kind === "diagnostic" ? e.diagnostic : null)),
        whole.diagnostics,
        `chunk size ${size}`,
      );
    }
  });

  it("hands entries out as they are read, before the input ends", async () => {
    const first = new TextEncoder().encode(
      `<urlset ${NS}>${"<url><loc>http://e.com/x</loc></url>".repeat(5000)}`,
    );
    let released = false;
    let resolveGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      resolveGate = resolve;
    });
    async function* source() {
      yield first;
      await gate;
      released = true;
      yield new TextEncoder().encode("</urlset>");
    }
    const iterator = parseSitemap(source())[Symbol.asyncIterator]();
    let seen = 0;
    for (let i = 0; i < 20; i++) {
      const next = await iterator.next();
      if (next.value?.kind === "url") seen++;
    }
    assert.ok(seen > 0, "entries came before the end of the input");
    assert.equal(released, false);
    resolveGate();
    for (let i = 0; i < 10_000; i++) if ((await iterator.next()).done === true) break;
    assert.equal(released, true);
  });

  it("ends with an end event holding the tallies", async () => {
    const events = await collect([new TextEncoder().encode(text)]);
    assert.equal(events[0]?.kind, "format");
    const end = events.at(-1);
    assert.equal(end?.kind, "end");
    if (end?.kind === "end") {
      assert.equal(end.summary.urls, 2);
      assert.equal(end.summary.warnings, 1);
      assert.equal(end.summary.compressed, false);
      assert.equal(end.summary.compressedBytes, null);
    }
  });
});
