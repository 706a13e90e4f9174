// issue 14 §2: any sitemap within the size limit is read in bounded time. Markup is what costs a
// reader time, so it is bounded: one element at the top level of a urlset (an entry or anything
// beside the entries) may span MAX_ENTRY_CHARS characters and MAX_ENTRY_TAGS pieces of markup,
// else `entry-too-large`; one file may hold MAX_MARKUP_UNITS of markup, else `too-much-markup`.
// Either stops reading and keeps the entries before it: skipping an oversized element would need
// its end, and a decoy `</url>` in a comment or CDATA section inside it must never yield an entry
// the file does not hold. Each shape is read by both readers (the fast path and the tokenizer
// alone), which must agree; these tests assert counts and findings, never times (the CPU is
// measured in bench/sitemap.bench.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  MAX_ENTRY_CHARS,
  MAX_ENTRY_TAGS,
  MAX_MARKUP_UNITS,
  parseSitemapText,
  SITEMAP_NAMESPACE,
} from "../../src/protocol/sitemap/index.js";
import { Sink } from "../../src/protocol/sitemap/sink.js";
import type { SitemapCode, SitemapEvent } from "../../src/protocol/sitemap/types.js";
import { XmlSitemapReader } from "../../src/protocol/sitemap/xml-reader.js";

const HANG_GUARD = { timeout: 120_000 };
const HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:e="urn:e">\n<url><loc>https://a.example/first</loc></url>\n`;
const FOOT = "</urlset>\n";
const entry = (name: string, body: string): string =>
  `<url><loc>https://a.example/${name}</loc>${body}</url>\n`;
const entries = (n: number, body: string): string =>
  Array.from({ length: n }, (_, i) => entry(String(i), body)).join("");

interface Reading {
  readonly locs: readonly string[];
  readonly stop: SitemapCode | null;
  readonly line: number | null;
}

/** Reads `text` in 64 KiB pieces, with the fast path or the tokenizer alone. */
function read(text: string, fastPath: boolean): Reading {
  const sink = new Sink({ maxUrls: 50_000, scope: null });
  const reader = new XmlSitemapReader(sink, false, { fastPath });
  const events: SitemapEvent[] = [];
  for (let i = 0; i < text.length && !sink.stopped; i += 65_536) {
    reader.write(text.slice(i, i + 65_536));
    events.push(...sink.take());
  }
  reader.end();
  events.push(...sink.take());
  const locs = events.flatMap((e) => (e.kind === "url" ? [e.url.loc] : []));
  const fatal = events.find((e) => e.kind === "diagnostic" && e.diagnostic.fatal);
  const d = fatal?.kind === "diagnostic" ? fatal.diagnostic : null;
  return { locs, stop: d?.code ?? null, line: d?.line ?? null };
}

interface Shape {
  readonly name: string;
  readonly text: () => string;
  readonly stop: SitemapCode | null;
  /** Entries read before the stop (besides the first, on line 3). */
  readonly before: number;
  /** The line the stop names. */
  readonly line?: number;
}

const FIRST = "https://a.example/first";

const SHAPES: readonly Shape[] = [
  {
    name: "twelve 4.3 MB entries of <x/>",
    text: () => HEAD + entries(12, "<x/>".repeat(1_075_000)) + FOOT,
    stop: "entry-too-large",
    before: 0,
    line: 4,
  },
  {
    name: "one giant entry of nested tags",
    text: () => HEAD + entry("giant", "<a><b>t</b></a>".repeat(600_000)) + FOOT,
    stop: "entry-too-large",
    before: 0,
    line: 4,
  },
  {
    name: "an entry of extension elements (a plain entry for the fast path) over the size",
    text: () => HEAD + entry("ok", "") + entry("big", "<e:x/>".repeat(100_000)) + FOOT,
    stop: "entry-too-large",
    before: 1,
    line: 5,
  },
  {
    name: "many tiny tags under the size limit, over the tag limit",
    text: () => HEAD + entry("ok", "") + entry("many", "<x/>".repeat(MAX_ENTRY_TAGS + 1)) + FOOT,
    stop: "entry-too-large",
    before: 1,
    line: 5,
  },
  {
    name: "an instruction first (the tokenizer reads the entry), then 4 MB of <x/>",
    text: () => HEAD + entry("pi", "<?p?>" + "<x/>".repeat(1_000_000)) + FOOT,
    stop: "entry-too-large",
    before: 0,
    line: 4,
  },
  {
    name: "a decoy </url> in a comment inside an oversized entry yields no entry",
    text: () =>
      HEAD +
      entry(
        "giant",
        "<!-- </url><url><loc>https://evil.example/</loc></url> -->" + "<x/>".repeat(200_000),
      ) +
      entry("after", "") +
      FOOT,
    stop: "entry-too-large",
    before: 0,
    line: 4,
  },
  {
    name: "a decoy </url> in CDATA inside an oversized entry yields no entry",
    text: () =>
      HEAD +
      entry(
        "giant",
        "<e:t><![CDATA[</url><url><loc>https://evil.example/</loc></url>]]></e:t>" +
          "z".repeat(MAX_ENTRY_CHARS),
      ) +
      entry("after", "") +
      FOOT,
    stop: "entry-too-large",
    before: 0,
    line: 4,
  },
  {
    name: "an element beside the entries over the size (text only)",
    text: () =>
      HEAD + `<e:note>${"z".repeat(MAX_ENTRY_CHARS)}</e:note>\n` + entry("after", "") + FOOT,
    stop: "entry-too-large",
    before: 0,
    line: 4,
  },
  {
    name: "unmatched end tags inside an entry, over the size",
    text: () => HEAD + entry("ends", "</x>".repeat(200_000)) + FOOT,
    stop: "entry-too-large",
    before: 0,
    line: 4,
  },
  {
    name: "small entries of dense tags: the file's markup is bounded",
    text: () => HEAD + entries(400, "<x/>".repeat(15_000)) + FOOT,
    stop: "too-much-markup",
    before: -1,
  },
  {
    name: "small plain entries of extension elements: the file's markup is bounded",
    text: () => HEAD + entries(600, "<e:x/>".repeat(10_000)) + FOOT,
    stop: "too-much-markup",
    before: -1,
  },
  {
    name: "entries of namespace-declaring tags: each declaration weighs more, the file is bounded",
    text: () => HEAD + entries(800, "<y:x xmlns:y='urn:y'/>".repeat(2_500)) + FOOT,
    stop: "too-much-markup",
    before: -1,
  },
  {
    name: "unmatched end tags between entries: the file's markup is bounded",
    text: () => HEAD + "</x>".repeat(MAX_MARKUP_UNITS) + entry("after", "") + FOOT,
    stop: "too-much-markup",
    before: 0,
    line: 4,
  },
  {
    name: "an entry with 1,000 images (Google's limit) is read",
    text: () =>
      HEAD.replace(
        'xmlns:e="urn:e"',
        'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"',
      ) +
      entry(
        "images",
        Array.from(
          { length: 1000 },
          (_, i) =>
            `<image:image><image:loc>https://a.example/photos/${i}.jpg</image:loc><image:caption>A photo, number ${i}, of things</image:caption></image:image>\n`,
        ).join(""),
      ) +
      FOOT,
    stop: null,
    before: 1,
  },
];

describe("sitemap markup is bounded (issue 14 §2)", () => {
  for (const shape of SHAPES) {
    it(shape.name, HANG_GUARD, () => {
      const text = shape.text();
      const fast = read(text, true);
      const full = read(text, false);
      assert.equal(fast.stop, shape.stop);
      assert.equal(fast.locs[0], FIRST);
      assert.ok(!fast.locs.some((l) => l.includes("evil")), "an entry the file does not hold");
      if (shape.before >= 0) assert.equal(fast.locs.length, 1 + shape.before);
      if (shape.line !== undefined) assert.equal(fast.line, shape.line);
      // Both readers stop for the same reason; where the markup bound falls may differ (the
      // tokenizer's markup counts twice), so entries are compared only for the per-entry bound.
      assert.equal(full.stop, shape.stop);
      if (shape.stop !== "too-much-markup") assert.deepEqual(fast, full);
    });
  }

  it("parseSitemapText reports the stop as an error naming the line", () => {
    const read = parseSitemapText(HEAD + entry("big", "<x/>".repeat(200_000)) + FOOT);
    assert.equal(read.summary.stoppedBy, "entry-too-large");
    const finding = read.diagnostics.find((d) => d.code === "entry-too-large");
    assert.equal(finding?.severity, "error");
    assert.equal(finding?.line, 4);
    assert.deepEqual(
      read.urls.map((u) => u.loc),
      [FIRST],
    );
  });
});

it(
  "a namespace declaration counts more than a plain attribute against the markup budget",
  HANG_GUARD,
  () => {
    const plain = read(HEAD + entries(800, "<y:x z:y='urn:y'/>".repeat(2_500)) + FOOT, true);
    const declaring = read(
      HEAD + entries(800, "<y:x xmlns:y='urn:y'/>".repeat(2_500)) + FOOT,
      true,
    );
    assert.equal(declaring.stop, "too-much-markup");
    assert.ok(
      declaring.locs.length * 2 < plain.locs.length,
      `${declaring.locs.length} entries read with declarations, ${plain.locs.length} without`,
    );
  },
);
