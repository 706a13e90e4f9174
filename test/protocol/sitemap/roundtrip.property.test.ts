// Round trip: what the writer writes, the reader gives back, field for field (fast-check, bounded
// runs). URLs carry the characters XML escapes (& < > " '), non-ASCII text, and every W3C
// datetime precision.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  CHANGE_FREQS,
  PAGE_TYPES,
  parseSitemap,
  parseSitemapText,
  renderSitemapIndex,
  renderUrlset,
  type SitemapUrlInput,
} from "../../../src/protocol/sitemap/index.js";

const RUNS = 300;

const pathChar = fc.constantFrom(..."abcXYZ019-._~/&<>\"'=?;:@!$()*+,%é漢 ".split(""));
const host = fc.constantFrom("example.com", "www.example.com", "a.b.example.org", "127.0.0.1:8080");
const url = fc
  .tuple(fc.constantFrom("http", "https"), host, fc.array(pathChar, { maxLength: 40 }))
  .map(([scheme, h, path]) =>
    `${scheme}://${h}/${path.join("").replace(/ /g, "%20")}`.replace(/%(?![0-9A-F]{2})/g, "%25"),
  );
const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const datetime = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.stringMatching(/^\d{1,4}$/),
    zone: fc.constantFrom("Z", "+01:00", "-05:30", "+14:00"),
    precision: fc.integer({ min: 0, max: 5 }),
  })
  .map((d) => {
    const date = `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
    const time = `${pad(d.hour)}:${pad(d.minute)}`;
    return [
      pad(d.year, 4),
      date.slice(0, 7),
      date,
      `${date}T${time}${d.zone}`,
      `${date}T${time}:${pad(d.second)}${d.zone}`,
      `${date}T${time}:${pad(d.second)}.${d.fraction}${d.zone}`,
    ][d.precision] as string;
  });

const entry: fc.Arbitrary<SitemapUrlInput> = fc.record(
  {
    loc: url,
    lastmod: datetime,
    changefreq: fc.constantFrom(...CHANGE_FREQS),
    priority: fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000),
    type: fc.constantFrom(...PAGE_TYPES),
    srcloc: url,
  },
  { requiredKeys: ["loc"] },
);

function expected(e: SitemapUrlInput) {
  return {
    loc: e.loc,
    lastmod: (e.lastmod as string | undefined) ?? null,
    changefreq: e.changefreq ?? null,
    priority: e.priority ?? null,
    type: e.type ?? null,
    srcloc: e.srcloc ?? null,
  };
}

describe("writer → reader round trip", () => {
  it("urlsets: every field comes back as written", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (entries) => {
        const r = parseSitemapText(renderUrlset(entries));
        assert.deepEqual(r.diagnostics, []);
        assert.deepEqual(
          r.urls.map(({ line: _line, ...u }) => u),
          entries.map(expected),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("the same, streamed in small random chunks", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 97 }),
        async (entries, size) => {
          const bytes = new TextEncoder().encode(renderUrlset(entries));
          const chunks: Uint8Array[] = [];
          for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
          const urls = [];
          for await (const e of parseSitemap(chunks)) if (e.kind === "url") urls.push(e.url);
          assert.deepEqual(
            urls.map(({ line: _line, ...u }) => u),
            entries.map(expected),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it("sitemap indexes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ loc: url, lastmod: datetime }), { maxLength: 20 }),
        (refs) => {
          const r = parseSitemapText(renderSitemapIndex(refs));
          assert.deepEqual(
            r.sitemaps.map(({ loc, lastmod }) => ({ loc, lastmod })),
            // fast-check may build records without a prototype; compare plain objects.
            refs.map(({ loc, lastmod }) => ({ loc, lastmod })),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});
