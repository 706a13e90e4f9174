// The XML reader's fast path (src/protocol/sitemap/xml-fast-scan.ts) and the tokenizer alone read
// every sitemap alike: the same entries, the same findings on the same lines, the same stop, for
// sitemaps as sites write them and for hostile ones (fast-check, bounded runs; text pushed in
// pieces cut anywhere, as a network gives it). Anything the fast path read differently would be
// a bug of the fast path.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { REGP_NAMESPACE, SITEMAP_NAMESPACE } from "../../../src/protocol/sitemap/limits.js";
import { sitemapScope } from "../../../src/protocol/sitemap/scope.js";
import { Sink } from "../../../src/protocol/sitemap/sink.js";
import type { SitemapEvent } from "../../../src/protocol/sitemap/types.js";
import { XmlSitemapReader } from "../../../src/protocol/sitemap/xml-reader.js";

const RUNS = Number(process.env.HEED_FUZZ_RUNS ?? 300);
const IMAGE = "http://www.google.com/schemas/sitemap-image/1.1";

interface Reading {
  readonly events: SitemapEvent[];
  readonly fastEntries: number;
}

function read(
  text: string,
  cuts: readonly number[],
  fastPath: boolean,
  options: { maxUrls?: number; scoped?: boolean } = {},
): Reading {
  const sink = new Sink({
    maxUrls: options.maxUrls ?? 50_000,
    scope:
      options.scoped === true ? sitemapScope({ sitemapUrl: "http://s.example/sm/map.xml" }) : null,
  });
  const reader = new XmlSitemapReader(sink, false, { fastPath });
  const events: SitemapEvent[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut <= at || cut >= text.length) continue;
    reader.write(text.slice(at, cut));
    events.push(...sink.take());
    at = cut;
  }
  reader.write(text.slice(at));
  reader.end();
  events.push(...sink.take());
  return { events, fastEntries: reader.fastEntries };
}

function agree(
  text: string,
  cuts: readonly number[],
  options: { maxUrls?: number; scoped?: boolean } = {},
): Reading {
  const fast = read(text, cuts, true, options);
  const full = read(text, [], false, options);
  assert.deepEqual(fast.events, full.events);
  return fast;
}

// ---- generated sitemaps ---------------------------------------------------------------------

const ROOTS = [
  `<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:image="${IMAGE}" xmlns:regp="${REGP_NAMESPACE}">`,
  `<urlset xmlns="${SITEMAP_NAMESPACE}">`,
  `<urlset\n  xmlns="${SITEMAP_NAMESPACE}"\n  xmlns:image='${IMAGE}'>`,
  "<urlset>",
  `<urlset xmlns="http://other.example/ns" xmlns:image="${IMAGE}">`,
  `<sm:urlset xmlns:sm="${SITEMAP_NAMESPACE}">`,
  `<sitemapindex xmlns="${SITEMAP_NAMESPACE}">`,
  `<urlset xmlns="${SITEMAP_NAMESPACE}"/>`,
  `<urlset xmlns:image="${SITEMAP_NAMESPACE}" xmlns="${SITEMAP_NAMESPACE}">`,
];
const HEADS = [
  "",
  '<?xml version="1.0" encoding="UTF-8"?>\n',
  "<?xml version='1.0'?><!-- made by hand -->\n",
  "\n\n  ",
  "<!DOCTYPE urlset>\n",
  "<?xml-stylesheet href='a>b'?>\n",
];
const URL_TEXT = [
  "http://s.example/a",
  "https://s.example/sm/b?x=1&amp;y=2",
  "http://s.example/sm/c&d",
  "http://s.example/sm/&bogus;x",
  "http://s.example/&#x41;&#65;&#0;",
  "  http://s.example/sm/padded  ",
  "http://s.example/sm/wrapped?id=\n  1",
  "/relative",
  "http://other.example/x",
  "http://s.example/é漢",
  "mailto:x@s.example",
  "",
  "http://s.example/sm/" + "x".repeat(2100),
  "http://s.example/sm/" + "y".repeat(17_000),
  "a > b",
  "http://s.example/sm/\r\nq",
];
const FIELD_TEXT: Record<string, readonly string[]> = {
  lastmod: ["2024-01-02T03:04:05+01:00", "2024-05", "yesterday", " 2024-01-01 ", ""],
  changefreq: ["daily", "Weekly", "sometimes", ""],
  priority: ["0.5", "1.0", "7", "-0", "0.5.5"],
  type: ["data", "list", "other", "movie"],
  srcloc: ["http://s.example/orig", "nope"],
};

const urlText = fc.constantFrom(...URL_TEXT);
const fieldName = fc.constantFrom("lastmod", "changefreq", "priority", "type", "srcloc");

/** One child of an entry: a field as sites write it, or something a hostile file might hold. */
const child: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: urlText.map((u) => `<loc>${u}</loc>`) },
  {
    weight: 6,
    arbitrary: fieldName.chain((f) =>
      fc.constantFrom(...(FIELD_TEXT[f] ?? [""])).map((v) => `<${f}>${v}</${f}>`),
    ),
  },
  {
    weight: 3,
    arbitrary: urlText.map(
      (u) =>
        `<image:image>\n  <image:loc>${u}</image:loc><image:caption>A &amp; B</image:caption>\n</image:image>`,
    ),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "<regp:type>list</regp:type>",
      "<regp:srcloc>http://s.example/o</regp:srcloc>",
      "<regp:other>x</regp:other>",
      "<image:image/>",
      "<image:image a=\"x>y\" b='<'/>",
      '<news:news xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"><news:title>t</news:title></news:news>',
      `<x:loc xmlns:x="${SITEMAP_NAMESPACE}">http://s.example/x</x:loc>`,
      '<loc xmlns="http://other.example/">http://s.example/ns</loc>',
      "<unknown:thing>z</unknown:thing>",
      "<foo>bar</foo>",
      "<foo><bar/></foo>",
      "<loc/>",
      '<loc a="1">http://s.example/attr</loc>',
      "<loc >http://s.example/space</loc >",
      "<loc><![CDATA[http://s.example/cdata&x]]></loc>",
      "<loc>http://s.example/<!-- c -->commented</loc>",
      "<loc>http://s.example/<b>bold</b></loc>",
      "<!-- a comment -->",
      "<!---->",
      "<![CDATA[ </url> ]]>",
      "<?pi inside?>",
      "<?pi </url> ?>",
      "<!-- </url> -->",
      "<![CDATA[</url>]]>",
      '<x a="</url>"/>',
      "<!DOCTYPE x>",
      "<loc>http://s.example/unclosed",
      "</loc>",
      "<lastmod>2024</changefreq>",
      "<",
      "< loc>",
      "<1x>",
      "&",
      ">",
      "text & more",
      "<a><b><c><d><e><f><g><h><i><j><k><l><m><n><o><p><q><r><s><t><u><v><w><x><y><z>deep</z></y></x></w></v></u></t></s></r></q></p></o></n></m></l></k></j></i></h></g></f></e></d></c></b></a>",
      "<url>",
      "</url>",
      "<url/>",
      "<sitemap>",
      "</urlset>",
    ),
  },
  // Noise: any short text, and the characters markup is made of.
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.constantFrom(
          "<",
          ">",
          "/",
          "!",
          "?",
          "-",
          "[",
          "]",
          "&",
          ";",
          '"',
          "'",
          "=",
          ":",
          "a",
          " ",
          "\n",
        ),
        {
          maxLength: 10,
        },
      )
      .map((chars) => chars.join("")),
  },
);

const space = fc.constantFrom("", "\n", "  ", "\r\n", "\n    ", "\t");

const entry: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom("<url>", "<url>", "<url>", "<sitemap>", '<url id="1">', "<url >", "<foo>"),
    fc.array(fc.tuple(space, child), { maxLength: 7 }),
    space,
    fc.constantFrom("</url>", "</url>", "</url>", "</sitemap>", "</foo>", "", "</url >"),
  )
  .map(
    ([open, children, end, close]) => open + children.map(([s, c]) => s + c).join("") + end + close,
  );

const sitemap: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...HEADS),
    fc.constantFrom(...ROOTS),
    fc.array(
      fc.tuple(space, fc.oneof({ weight: 4, arbitrary: entry }, { weight: 1, arbitrary: child })),
      {
        maxLength: 12,
      },
    ),
    space,
    fc.constantFrom(
      "</urlset>\n",
      "</sitemapindex>",
      "",
      "</urlset><url><loc>http://s.example/after</loc></url>",
    ),
  )
  .map(
    ([head, root, entries, end, close]) =>
      head + root + entries.map(([s, e]) => s + e).join("") + end + close,
  );

const cuts = fc.array(fc.nat({ max: 40_000 }), { maxLength: 6 });

describe("the XML reader's fast path reads as the tokenizer does", () => {
  it("generated sitemaps, plain and hostile, cut anywhere", () => {
    fc.assert(
      fc.property(
        sitemap,
        cuts,
        fc.integer({ min: 1, max: 15 }),
        fc.boolean(),
        (text, at, maxUrls, scoped) => {
          agree(text, at, { maxUrls, scoped });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("a sitemap as sites write them is read by the fast path, and alike", () => {
    let text = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:image="${IMAGE}">\n`;
    for (let i = 0; i < 2_000; i++)
      text +=
        `  <url>\n    <loc>https://www.example.com/item-${i}.html${i % 3 === 0 ? "?a=1&amp;b=2" : ""}</loc>\n` +
        `    <lastmod>2024-05-0${1 + (i % 9)}T10:00:00+02:00</lastmod>\n    <changefreq>daily</changefreq>\n` +
        `    <priority>0.${i % 10}</priority>\n` +
        `    <image:image><image:loc>https://img.example.com/${i}.jpg</image:loc></image:image>\n  </url>\n`;
    text += "</urlset>\n";
    const cutsEvery = Array.from({ length: 40 }, (_, k) => k * 4_099);
    const reading = agree(text, cutsEvery);
    assert.equal(reading.events.filter((e) => e.kind === "url").length, 2_000);
    assert.equal(reading.fastEntries, 2_000);
  });

  it("an index as sites write it is read by the fast path, and alike", () => {
    let text = `<sitemapindex xmlns="${SITEMAP_NAMESPACE}">`;
    for (let i = 0; i < 50; i++)
      text += `<sitemap><loc>http://s.example/s${i}.xml</loc><lastmod>2024-01-01</lastmod></sitemap>\n`;
    text += "</sitemapindex>";
    const reading = agree(text, [7, 700]);
    assert.equal(reading.fastEntries, 50);
  });

  it("findings of fast-read entries name the lines the tokenizer names", () => {
    const text = `<urlset xmlns="${SITEMAP_NAMESPACE}">\n<url>\n<loc>http://s.example/a&b</loc>\n<priority>9</priority>\n</url>\n<url><loc>http://s.example/ok</loc><loc>http://s.example/again</loc></url>\n</urlset>`;
    const reading = agree(text, [30, 31, 90]);
    assert.equal(reading.fastEntries, 2);
    const lines = reading.events.flatMap((e) =>
      e.kind === "diagnostic" ? [e.diagnostic.line] : [],
    );
    assert.deepEqual(lines, [3, 4, 6]);
  });

  it("after something unusual, the tokenizer reads to the next entry's end, then the fast path again", () => {
    const body = (i: number) => `<url><loc>http://s.example/${i}</loc></url>\n`;
    const text = `<urlset xmlns="${SITEMAP_NAMESPACE}">\n${body(1)}</nope>\n${body(2)}${body(3)}</urlset>`;
    const reading = agree(text, []);
    assert.equal(reading.fastEntries, 2, "entries 1 and 3");
    assert.equal(reading.events.filter((e) => e.kind === "url").length, 3);
  });

  it("a head the scan does not read: the tokenizer reads it, then the fast path, alike", () => {
    const body = (i: number) => `<url><loc>http://s.example/${i}</loc></url>\n`;
    const entries = [1, 2, 3].map(body).join("");
    const heads = [
      `junk before the root <urlset xmlns="${SITEMAP_NAMESPACE}">\n`,
      `<urlset xmlns="${SITEMAP_NAMESPACE}" note="${"n".repeat(70 * 1024)}">\n`,
      `<urlset xmlns="http://other.example/" note="${"n".repeat(70 * 1024)}">\n`,
      `<!DOCTYPE urlset><urlset xmlns="${SITEMAP_NAMESPACE}">`,
    ];
    for (const [k, head] of heads.entries()) {
      const text = `${head}${entries}<url xmlns="http://other.example/"><loc>http://s.example/x</loc></url>${entries}</urlset>`;
      // The head alone in the first pieces, as a network gives it; the entries after.
      const pieces = [[], [head.length], [10, head.length], [10, 66_000, head.length]];
      const fast = pieces.map((cuts) => agree(text, cuts).fastEntries);
      // After a DOCTYPE reading stops. (A root in another namespace is read in its own: its
      // unprefixed <url> is an entry, with a finding on the root.)
      if (k === 3) assert.deepEqual(fast, [0, 0, 0, 0]);
      else
        assert.ok(
          fast.slice(1).every((n) => n >= 5),
          `${k}: ${fast.join(",")}`,
        );
    }
  });

  it("an end tag in a comment, CDATA, an attribute or an instruction does not fool the catch-up", () => {
    const body = (i: number) => `<url><loc>http://s.example/${i}</loc></url>\n`;
    const decoys = [
      "<?pi </url> ?>",
      "<!-- </url> -->",
      "<url><loc>http://s.example/c</loc><![CDATA[</url>]]></url>",
      '<url><x:y xmlns:x="http://x.example/" a="</url>"/><loc>http://s.example/a</loc></url>',
      "<url><loc>http://s.example/open</loc><foo></url><loc>http://s.example/after</loc></url>",
    ];
    for (const decoy of decoys) {
      const text = `<urlset xmlns="${SITEMAP_NAMESPACE}">\n${body(1)}</nope>${decoy}\n${body(2)}${body(3)}\n<url><loc>http://s.example/&bad;</loc></url></urlset>`;
      for (const cuts of [[], [60], [70, 71, 72, 120]]) agree(text, cuts);
    }
  });

  it("an entry over MAX_ENTRY_CHARS stops both readers alike, at its line, keeping what came before", () => {
    const huge = `<image:image><image:caption>${"z".repeat(5 * 1024 * 1024)}</image:caption></image:image>`;
    const text = `<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:image="${IMAGE}">\n<url><loc>http://s.example/a</loc></url>\n<url><loc>http://s.example/b</loc>${huge}</url><url><loc>http://s.example/c</loc></url></urlset>`;
    const at = Array.from({ length: 100 }, (_, k) => k * 65_536);
    const reading = agree(text, at);
    assert.deepEqual(
      reading.events.flatMap((e) => (e.kind === "url" ? [e.url.loc] : [])),
      ["http://s.example/a"],
    );
    const stop = reading.events.find((e) => e.kind === "diagnostic" && e.diagnostic.fatal);
    assert.equal(stop?.kind === "diagnostic" ? stop.diagnostic.code : null, "entry-too-large");
    assert.equal(stop?.kind === "diagnostic" ? stop.diagnostic.line : null, 3);
  });
});
