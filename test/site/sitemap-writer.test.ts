// The site side: writing sitemaps split at the limits, gzip, an index; and keeping a sitemap
// current entry by entry, as seeds/003 §4.1's news site does (Figs. 2-3: releasing news adds an
// entry with <srcloc> and <type>data</type>; a new comment updates its <lastmod>). Real files in
// temporary directories.
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { readSitemaps } from "../../src/net/sitemap-fetch.js";
import {
  parseSitemapText,
  REGP_NAMESPACE,
  SITEMAP_NAMESPACE,
  SitemapInputError,
  type SitemapUrl,
  type SitemapUrlInput,
} from "../../src/protocol/sitemap/index.js";
import { SitemapWriteError, updateSitemap, writeSitemaps } from "../../src/site/sitemap-writer.js";

const SUITE = { timeout: 60_000 };
const FIXED = () => new Date(Date.UTC(2015, 2, 19, 8, 0, 0, 250));

let root: string;
let n = 0;
before(async () => {
  root = await mkdtemp(join(tmpdir(), "heed-sitemap-writer-"));
});
after(() => rm(root, { recursive: true, force: true }));

/** A directory name not used yet; the writer makes it (the updater needs it made). */
async function freshDir(): Promise<string> {
  return join(root, `d${n++}`);
}

async function readAll(path: string): Promise<SitemapUrl[]> {
  const urls: SitemapUrl[] = [];
  for await (const e of readSitemaps(path)) {
    if (e.kind === "diagnostic") assert.fail(`${e.source}: ${e.diagnostic.message}`);
    if (e.kind === "url") urls.push(e.url);
  }
  return urls;
}

async function leftovers(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith(".tmp"));
}

function* entries(count: number): Generator<SitemapUrlInput> {
  for (let i = 0; i < count; i++)
    yield {
      loc: `https://www.example.com/news/${i}.html?a=1&b=${i}`,
      lastmod: "2015-03-19",
      ...(i % 2 === 0
        ? { type: "data" as const, srcloc: `https://www.example.com/newsItem.do?id=${i}` }
        : {}),
    };
}

describe("writeSitemaps", SUITE, () => {
  it("one file while the entries fit", async () => {
    const dir = await freshDir();
    const result = await writeSitemaps(entries(3), { outDir: dir });
    assert.equal(result.root, join(dir, "sitemap.xml"));
    assert.equal(result.index, null);
    assert.equal(result.urls, 3);
    const urls = await readAll(result.root);
    assert.deepEqual(
      urls.map((u) => [u.loc, u.type, u.srcloc]),
      [
        [
          "https://www.example.com/news/0.html?a=1&b=0",
          "data",
          "https://www.example.com/newsItem.do?id=0",
        ],
        ["https://www.example.com/news/1.html?a=1&b=1", null, null],
        [
          "https://www.example.com/news/2.html?a=1&b=2",
          "data",
          "https://www.example.com/newsItem.do?id=2",
        ],
      ],
    );
    const xml = await readFile(result.root, "utf8");
    assert.match(xml, new RegExp(`xmlns="${SITEMAP_NAMESPACE}"`));
    assert.match(xml, new RegExp(`xmlns:regp="${REGP_NAMESPACE}"`));
    assert.deepEqual(await leftovers(dir), []);
  });

  it("splits at maxUrls and writes an index under baseUrl", async () => {
    const dir = await freshDir();
    const result = await writeSitemaps(entries(7), {
      outDir: dir,
      maxUrls: 3,
      baseUrl: "https://www.example.com",
      now: FIXED,
    });
    assert.deepEqual(
      result.sitemaps.map((s) => [s.path, s.url, s.urls]),
      [
        [join(dir, "sitemap-1.xml"), "https://www.example.com/sitemap-1.xml", 3],
        [join(dir, "sitemap-2.xml"), "https://www.example.com/sitemap-2.xml", 3],
        [join(dir, "sitemap-3.xml"), "https://www.example.com/sitemap-3.xml", 1],
      ],
    );
    assert.equal(result.root, join(dir, "sitemap.xml"));
    const index = parseSitemapText(await readFile(result.root));
    assert.deepEqual(
      index.sitemaps.map((s) => [s.loc, s.lastmod]),
      result.sitemaps.map((s) => [s.url, "2015-03-19T08:00:00Z"]),
    );
    const urls = await readAll(result.root);
    assert.deepEqual(
      urls.map((u) => u.loc),
      [...entries(7)].map((e) => e.loc),
    );
  });

  it("splits at maxBytes, counted uncompressed, and never writes a file over it", async () => {
    const dir = await freshDir();
    const result = await writeSitemaps(entries(40), { outDir: dir, maxBytes: 2048, gzip: true });
    assert.ok(result.sitemaps.length > 1);
    for (const s of result.sitemaps) {
      const raw = gunzipSync(await readFile(s.path));
      assert.ok(raw.byteLength <= 2048, `${s.path}: ${raw.byteLength} bytes`);
      assert.equal(raw.byteLength, s.bytes);
      assert.match(s.path, /\.xml\.gz$/);
    }
    // The index is plain XML; its URLs default to the root of the entries' site.
    assert.match(
      result.sitemaps[0]?.url ?? "",
      /^https:\/\/www\.example\.com\/sitemap-1\.xml\.gz$/,
    );
    assert.equal((await readAll(result.root)).length, 40);
  });

  it("streams an async source", async () => {
    const dir = await freshDir();
    async function* source() {
      for (const e of entries(5)) yield e;
    }
    const result = await writeSitemaps(source(), { outDir: dir });
    assert.equal(result.urls, 5);
  });

  it("an empty list gives an empty, valid urlset", async () => {
    const dir = await freshDir();
    const result = await writeSitemaps([], { outDir: dir });
    const r = parseSitemapText(await readFile(result.root));
    assert.equal(r.summary.format, "urlset");
    assert.deepEqual(r.diagnostics, []);
  });

  it("an invalid entry throws, leaving nothing behind; with onInvalid it is skipped", async () => {
    const dir = await freshDir();
    const bad = [{ loc: "https://e.com/a" }, { loc: "/relative" }];
    await assert.rejects(writeSitemaps(bad, { outDir: dir }), SitemapInputError);
    assert.deepEqual(await readdir(dir), []);
    const seen: number[] = [];
    const result = await writeSitemaps(bad, { outDir: dir, onInvalid: (_e, i) => seen.push(i) });
    assert.deepEqual(seen, [1]);
    assert.equal(result.urls, 1);
    assert.equal(result.skipped, 1);
  });

  it("checks its options", async () => {
    await assert.rejects(writeSitemaps([], { outDir: root, maxUrls: 0 }), /maxUrls/);
    await assert.rejects(writeSitemaps([], { outDir: root, name: "../x" }), /name/);
    await assert.rejects(
      writeSitemaps(entries(3), { outDir: join(root, "opt"), maxUrls: 1, baseUrl: "ftp://x/" }),
      /baseUrl/,
    );
  });
});

describe("updateSitemap: the news site of seeds/003 §4.1", SUITE, () => {
  it("releasing news adds an entry; a comment updates its <lastmod>; the rest stays as it was", async () => {
    const dir = await freshDir();
    const path = join(dir, "sitemap.xml");
    await mkdir(dir, { recursive: true });
    const news = (id: number): SitemapUrlInput => ({
      loc: `http://www.example.com/html/news${id}.html`,
      srcloc: `http://www.example.com/newsItem.do?id=${id}`,
      type: "data",
      lastmod: "2015-03-19",
      changefreq: "weekly",
      priority: 0.5,
    });
    assert.deepEqual(await updateSitemap(path, news(1)), {
      action: "added",
      file: path,
      created: [],
    });
    assert.equal((await updateSitemap(path, news(2))).action, "added");
    const before = await readFile(path, "utf8");
    const comment = await updateSitemap(path, {
      loc: "http://www.example.com/html/news1.html",
      lastmod: "2015-03-20T10:00:00+08:00",
    });
    assert.equal(comment.action, "updated");
    const after = await readFile(path, "utf8");
    assert.equal(
      after,
      before.replace(
        "<lastmod>2015-03-19</lastmod>",
        "<lastmod>2015-03-20T10:00:00+08:00</lastmod>",
      ),
      "only that <lastmod> changed",
    );
    const urls = await readAll(path);
    assert.deepEqual(
      urls.map((u) => [u.loc, u.lastmod, u.type, u.srcloc]),
      [
        [
          "http://www.example.com/html/news1.html",
          "2015-03-20T10:00:00+08:00",
          "data",
          "http://www.example.com/newsItem.do?id=1",
        ],
        [
          "http://www.example.com/html/news2.html",
          "2015-03-19",
          "data",
          "http://www.example.com/newsItem.do?id=2",
        ],
      ],
    );
    const same = await updateSitemap(path, {
      loc: "http://www.example.com/html/news1.html",
      lastmod: "2015-03-20T10:00:00+08:00",
    });
    assert.equal(same.action, "unchanged");
    assert.deepEqual(await leftovers(dir), []);
  });

  it("edits a hand-written file in place: comments, formatting and extensions survive", async () => {
    const dir = await freshDir();
    await mkdir(dir, { recursive: true });
    const path = join(dir, "sitemap.xml");
    const original = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<!-- kept by hand -->
<url><loc>http://e.com/a?x=1&amp;y=2</loc><image:image><image:loc>http://e.com/a.png</image:loc></image:image></url>
\t<url>
\t\t<loc>http://e.com/b</loc>
\t\t<changefreq>daily</changefreq>
\t\t<priority>0.3</priority>
\t</url>
</urlset>
`;
    await writeFile(path, original);
    await chmod(path, 0o640);
    assert.equal(
      (
        await updateSitemap(path, {
          loc: "http://e.com/a?x=1&y=2",
          lastmod: "2020-01-01",
          type: "list",
        })
      ).action,
      "updated",
    );
    assert.equal(
      (
        await updateSitemap(path, {
          loc: "http://e.com/b",
          lastmod: "2020-01-02",
          priority: null,
          srcloc: "http://e.com/o",
        })
      ).action,
      "updated",
    );
    const xml = await readFile(path, "utf8");
    assert.equal(
      xml,
      `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="${SITEMAP_NAMESPACE}" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:regp="${REGP_NAMESPACE}">
<!-- kept by hand -->
<url><loc>http://e.com/a?x=1&amp;y=2</loc><lastmod>2020-01-01</lastmod><image:image><image:loc>http://e.com/a.png</image:loc></image:image><regp:type>list</regp:type></url>
\t<url>
\t\t<loc>http://e.com/b</loc>
\t\t<lastmod>2020-01-02</lastmod>
\t\t<changefreq>daily</changefreq>
\t\t<regp:srcloc>http://e.com/o</regp:srcloc>
\t</url>
</urlset>
`,
    );
    assert.equal((await stat(path)).mode & 0o777, 0o640, "the file's mode is kept");
    assert.deepEqual(parseSitemapText(xml).diagnostics, []);
  });

  it("keeps a gzip-compressed sitemap compressed", async () => {
    const dir = await freshDir();
    await mkdir(dir, { recursive: true });
    const result = await writeSitemaps(entries(2), { outDir: dir, gzip: true });
    await updateSitemap(result.root, { loc: "https://www.example.com/extra", lastmod: "2021" });
    const raw = await readFile(result.root);
    assert.equal(raw[0], 0x1f);
    assert.deepEqual(
      parseSitemapText(gunzipSync(raw))
        .urls.map((u) => u.loc)
        .at(-1),
      "https://www.example.com/extra",
    );
  });

  it("a full urlset becomes an index of its old content and a new sitemap", async () => {
    const dir = await freshDir();
    const result = await writeSitemaps(entries(3), { outDir: dir });
    const path = result.root;
    const before = await readFile(path);
    const added = await updateSitemap(
      path,
      { loc: "https://www.example.com/news/new.html" },
      { maxUrls: 3, now: FIXED },
    );
    assert.equal(added.action, "added");
    assert.deepEqual(added.created, [join(dir, "sitemap-1.xml"), join(dir, "sitemap-2.xml")]);
    assert.equal(added.file, join(dir, "sitemap-2.xml"));
    assert.deepEqual(
      await readFile(join(dir, "sitemap-1.xml")),
      before,
      "the old content, byte for byte",
    );
    const index = parseSitemapText(await readFile(path));
    assert.deepEqual(
      index.sitemaps.map((s) => s.loc),
      ["https://www.example.com/sitemap-1.xml", "https://www.example.com/sitemap-2.xml"],
    );
    const urls = await readAll(path);
    assert.equal(urls.length, 4);

    // Now an index: a change finds the entry in its sitemap and touches the index's <lastmod>.
    const later = () => new Date(Date.UTC(2016, 0, 1));
    const changed = await updateSitemap(
      path,
      { loc: "https://www.example.com/news/1.html?a=1&b=1", lastmod: "2016-01-01" },
      { maxUrls: 3, now: later },
    );
    assert.deepEqual(changed, { action: "updated", file: join(dir, "sitemap-1.xml"), created: [] });
    const touched = parseSitemapText(await readFile(path));
    assert.deepEqual(
      touched.sitemaps.map((s) => s.lastmod),
      ["2016-01-01T00:00:00Z", "2015-03-19T08:00:00Z"],
    );
    // New entries go to the last sitemap while it has room, then to a new one.
    assert.equal(
      (await updateSitemap(path, { loc: "https://www.example.com/n2" }, { maxUrls: 3 })).file,
      join(dir, "sitemap-2.xml"),
    );
    assert.equal(
      (await updateSitemap(path, { loc: "https://www.example.com/n3" }, { maxUrls: 3 })).file,
      join(dir, "sitemap-2.xml"),
    );
    const fourth = await updateSitemap(path, { loc: "https://www.example.com/n4" }, { maxUrls: 3 });
    assert.deepEqual(fourth.created, [join(dir, "sitemap-3.xml")]);
    const all = await readAll(path);
    assert.deepEqual(
      all.slice(-4).map((u) => u.loc),
      [
        "https://www.example.com/news/new.html",
        "https://www.example.com/n2",
        "https://www.example.com/n3",
        "https://www.example.com/n4",
      ],
    );
    assert.deepEqual(await leftovers(dir), []);
  });

  it("serialises concurrent updates of one file in a process: none is lost", async () => {
    const dir = await freshDir();
    await mkdir(dir, { recursive: true });
    const path = join(dir, "sitemap.xml");
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => updateSitemap(path, { loc: `https://e.com/${i}` })),
    );
    const urls = await readAll(path);
    assert.deepEqual(
      urls.map((u) => u.loc).sort(),
      Array.from({ length: 20 }, (_, i) => `https://e.com/${i}`).sort(),
    );
  });

  it("refuses what it cannot edit, leaving the file alone", async () => {
    const dir = await freshDir();
    await mkdir(dir, { recursive: true });
    const broken = join(dir, "broken.xml");
    await writeFile(
      broken,
      `<urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>http://e.com/a</loc></url>`,
    );
    await assert.rejects(updateSitemap(broken, { loc: "http://e.com/b" }), SitemapWriteError);
    const html = join(dir, "page.html");
    await writeFile(html, "<!DOCTYPE html><html></html>");
    await assert.rejects(
      updateSitemap(html, { loc: "http://e.com/b" }),
      /not-a-sitemap|not a sitemap|HTML/,
    );
    assert.equal(await readFile(html, "utf8"), "<!DOCTYPE html><html></html>");
    await assert.rejects(updateSitemap(join(dir, "x.xml"), { loc: "relative" }), SitemapInputError);
    assert.deepEqual(await leftovers(dir), []);
  });
});
