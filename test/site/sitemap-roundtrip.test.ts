// What heed's sitemap writer writes, heed's reader reads back whole: a property over every
// option of `writeSitemaps` (gzip, --max-urls, --max-bytes, --base at the root or in a folder or
// absent, the file name stem, every field including REGP <type>/<srcloc>), with entries on
// other hosts, outside the base folder and repeated, which the writer must leave out and name.
// sitemaps.org "Sitemap file location" is the scope both sides apply.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { readSitemaps } from "../../src/net/sitemap-fetch.js";
import {
  CHANGE_FREQS,
  checkUrlInput,
  PAGE_TYPES,
  type SitemapUrlInput,
} from "../../src/protocol/sitemap/index.js";
import { type SitemapRefusal, writeSitemaps } from "../../src/site/sitemap-writer.js";

const HOST = "https://www.example.com";
const OTHER = "https://other.example";

const entryArb = fc.record({
  where: fc.constantFrom("in", "in", "in", "outside-folder", "other-host"),
  page: fc.integer({ min: 0, max: 30 }),
  lastmod: fc.option(
    fc.constantFrom("2015-03-19", "2015-03-19T10:00:00Z", "2004-12-23T18:00+01:00"),
  ),
  changefreq: fc.option(fc.constantFrom(...CHANGE_FREQS)),
  priority: fc.option(fc.constantFrom(0, 0.5, 1)),
  type: fc.option(fc.constantFrom(...PAGE_TYPES)),
  srcloc: fc.option(fc.constantFrom(`${HOST}/item.do?id=1&x=<y>`, `${HOST}/a%20b`)),
});

const optionsArb = fc.record({
  base: fc.constantFrom(undefined, `${HOST}/`, `${HOST}/sm/out/`),
  gzip: fc.boolean(),
  maxUrls: fc.integer({ min: 1, max: 7 }),
  maxBytes: fc.option(fc.integer({ min: 2048, max: 6000 })),
  name: fc.constantFrom("sitemap", "news_map"),
});

describe("sitemap build → read round trip", { timeout: 120_000 }, () => {
  let root: string;
  let n = 0;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "heed-sitemap-roundtrip-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it("reads back exactly the entries written, and names every entry left out", async () => {
    await fc.assert(
      fc.asyncProperty(
        optionsArb,
        fc.array(entryArb, { maxLength: 25 }),
        async (options, specs) => {
          const folder = options.base === `${HOST}/sm/out/` ? "/sm/out/" : "/";
          const inputs: SitemapUrlInput[] = specs.map((s) => ({
            loc:
              s.where === "in"
                ? `${HOST}${folder}p${s.page}.html`
                : s.where === "other-host"
                  ? `${OTHER}${folder}p${s.page}.html`
                  : `${HOST}/elsewhere/p${s.page}.html`,
            ...(s.lastmod === null ? {} : { lastmod: s.lastmod }),
            ...(s.changefreq === null ? {} : { changefreq: s.changefreq }),
            ...(s.priority === null ? {} : { priority: s.priority }),
            ...(s.type === null ? {} : { type: s.type }),
            ...(s.srcloc === null ? {} : { srcloc: s.srcloc }),
          }));
          // What a reader keeps: the first of each loc, on the base's host, under its folder.
          const base = new URL(options.base ?? new URL("/", inputs[0]?.loc ?? HOST).href);
          const seen = new Set<string>();
          const expected = inputs.filter((input) => {
            const url = new URL(input.loc);
            const keep =
              url.origin === base.origin &&
              url.pathname.startsWith(base.pathname) &&
              !seen.has(input.loc);
            seen.add(input.loc);
            return keep;
          });
          const refused: SitemapRefusal[] = [];
          const outDir = join(root, `d${n++}`);
          const result = await writeSitemaps(inputs, {
            outDir,
            gzip: options.gzip,
            maxUrls: options.maxUrls,
            ...(options.maxBytes === null ? {} : { maxBytes: options.maxBytes }),
            ...(options.base === undefined ? {} : { baseUrl: options.base }),
            name: options.name,
            onRefused: (r) => refused.push(r),
            onInvalid: (errors) => assert.fail(errors.join("; ")),
          });
          assert.equal(refused.length, inputs.length - expected.length);
          assert.equal(result.skipped, refused.length);

          const read: { loc: string; fields: unknown }[] = [];
          for await (const e of readSitemaps(result.root, {
            follow: true,
            servedAt: new URL(basename(result.root), base).href,
          })) {
            if (e.kind === "diagnostic") assert.fail(`${e.source}: ${e.diagnostic.message}`);
            if (e.kind === "url") {
              const u = e.url;
              read.push({
                loc: u.loc,
                fields: [u.lastmod, u.changefreq, u.priority, u.type, u.srcloc],
              });
            }
          }
          assert.deepEqual(
            read,
            expected.map((input) => {
              const r = checkUrlInput(input);
              assert.ok(r.ok);
              const v = r.value;
              return {
                loc: v.loc,
                fields: [v.lastmod, v.changefreq, v.priority, v.type, v.srcloc],
              };
            }),
          );
          await rm(outDir, { recursive: true, force: true });
        },
      ),
      { numRuns: 60 },
    );
  });
});
