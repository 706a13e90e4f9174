// Reading sitemaps from a real HTTP server on 127.0.0.1 and from files: gzip by content, the
// gzip-bomb ratio, broken gzip, following indexes (depth, cycles, other sites), discovery from
// robots.txt, and sitemaps.org's cross-submission rule.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createGzip, gzipSync } from "node:zlib";
import {
  discoverSitemaps,
  readSitemap,
  readSitemaps,
  type SourcedSitemapEvent,
} from "../../src/net/sitemap-fetch.js";
import { SITEMAP_NAMESPACE, type SitemapEvent } from "../../src/protocol/sitemap/index.js";
import { redirect, startServer, type TestServer, text } from "../helpers/http-server.js";

/** These tests talk to servers on 127.0.0.1, which the guard refuses unless asked. */
const local = { allowPrivateAddresses: true } as const;

const SUITE = { timeout: 60_000 };

function urlset(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NAMESPACE}">\n${locs.map((l) => `  <url><loc>${l}</loc></url>\n`).join("")}</urlset>\n`;
}

function index(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${locs.map((l) => `  <sitemap><loc>${l}</loc></sitemap>\n`).join("")}</sitemapindex>\n`;
}

async function all<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const locs = (events: readonly SitemapEvent[]) =>
  events.flatMap((e) => (e.kind === "url" ? [e.url.loc] : []));
const codes = (events: readonly SitemapEvent[]) =>
  events.flatMap((e) => (e.kind === "diagnostic" ? [e.diagnostic.code] : []));
const summary = (events: readonly SitemapEvent[]) => {
  const end = events.at(-1);
  assert.equal(end?.kind, "end");
  return end.kind === "end" ? end.summary : assert.fail("no end");
};

/** A gzip bomb made here: valid XML around `megabytes` MiB of spaces, compressed about 1000 times. */
async function gzipBomb(origin: string, megabytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => gzip.on("end", resolve));
  gzip.write(`<urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>${origin}/a</loc></url>`);
  const spaces = Buffer.alloc(1024 * 1024, 0x20);
  for (let i = 0; i < megabytes; i++) gzip.write(spaces);
  gzip.end("</urlset>");
  await done;
  return Buffer.concat(chunks);
}

describe("readSitemap over HTTP", SUITE, () => {
  let server: TestServer;
  let o: string;
  before(async () => {
    const routes: Parameters<typeof startServer>[0] = {};
    server = await startServer(routes);
    o = server.origin;
    const plain = urlset([`${o}/a`, `${o}/b`]);
    Object.assign(routes, {
      "/sitemap.xml": text(plain, 200, { "content-type": "application/xml" }),
      // Compressed without the name saying so, and a plain file named .gz: content decides.
      "/compressed.xml": text(gzipSync(plain)),
      "/plain.xml.gz": text(plain),
      "/moved.xml": redirect("/sitemap.xml"),
      "/gone.xml": text("gone", 404),
      "/bomb.xml.gz": text(await gzipBomb(o, 64)),
      "/truncated.xml.gz": text(gzipSync(urlset([`${o}/a`, `${o}/b`, `${o}/c`])).subarray(0, 150)),
      "/big.xml.gz": text(gzipSync(urlset(Array.from({ length: 2000 }, (_, i) => `${o}/p${i}`)))),
      "/sub/sitemap.xml": text(urlset([`${o}/sub/in`, `${o}/out`])),
      "/robots.txt": text(
        `User-agent: *\nDisallow: /private/\nSitemap: ${o}/sitemap.xml\nSitemap: ${o}/compressed.xml\n`,
      ),
    });
  });
  after(() => server.close());

  it("reads a urlset", async () => {
    const events = await all(readSitemap(`${o}/sitemap.xml`, local));
    assert.deepEqual(locs(events), [`${o}/a`, `${o}/b`]);
    assert.equal(summary(events).compressed, false);
  });

  it("recognises gzip by its bytes (1f 8b), not its name", async () => {
    const gz = await all(readSitemap(`${o}/compressed.xml`, local));
    assert.deepEqual(locs(gz), [`${o}/a`, `${o}/b`]);
    assert.equal(summary(gz).compressed, true);
    assert.ok((summary(gz).compressedBytes ?? 0) > 0);
    const named = await all(readSitemap(`${o}/plain.xml.gz`, local));
    assert.deepEqual(locs(named), [`${o}/a`, `${o}/b`]);
    assert.equal(summary(named).compressed, false);
  });

  it("follows a redirect", async () => {
    assert.deepEqual(locs(await all(readSitemap(`${o}/moved.xml`, local))), [`${o}/a`, `${o}/b`]);
  });

  it("an HTTP error or an unreachable host is a fatal fetch-failed", async () => {
    const gone = await all(readSitemap(`${o}/gone.xml`, local));
    assert.deepEqual(codes(gone), ["fetch-failed"]);
    assert.equal(summary(gone).stoppedBy, "fetch-failed");
    const closed = await startServer({});
    const port = new URL(closed.origin).port;
    await closed.close();
    const down = await all(readSitemap(`http://127.0.0.1:${port}/sitemap.xml`, local));
    assert.deepEqual(codes(down), ["fetch-failed"]);
  });

  it("stops a gzip bomb at the ratio limit, early and quickly", async () => {
    const started = performance.now();
    const events = await all(readSitemap(`${o}/bomb.xml.gz`, local));
    const s = summary(events);
    assert.equal(s.stoppedBy, "compression-ratio");
    assert.ok(s.bytes < 8 * 1024 * 1024, `stopped after ${s.bytes} bytes`);
    assert.ok((s.compressedBytes ?? 0) < 200 * 1024);
    assert.ok(performance.now() - started < 5000);
    assert.deepEqual(locs(events), [`${o}/a`], "what came before the bomb is read");
  });

  it("a lower ratio or size limit stops sooner; size is uncompressed", async () => {
    const sized = await all(readSitemap(`${o}/big.xml.gz`, { ...local, maxBytes: 10_000 }));
    assert.equal(summary(sized).stoppedBy, "too-large");
    const ratio = await all(
      readSitemap(`${o}/big.xml.gz`, { ...local, maxRatio: 2, ratioFloorBytes: 1000 }),
    );
    assert.equal(summary(ratio).stoppedBy, "compression-ratio");
    const fine = await all(readSitemap(`${o}/big.xml.gz`, local));
    assert.equal(summary(fine).urls, 2000);
  });

  it("broken gzip is gzip-corrupt, after what could be read", async () => {
    const events = await all(readSitemap(`${o}/truncated.xml.gz`, local));
    assert.equal(summary(events).stoppedBy, "gzip-corrupt");
  });

  it("checks scope against the URL as named", async () => {
    const events = await all(readSitemap(`${o}/sub/sitemap.xml`, local));
    assert.deepEqual(locs(events), [`${o}/sub/in`]);
    assert.deepEqual(codes(events), ["loc-out-of-scope"]);
    const anyPath = await all(
      readSitemap(`${o}/sub/sitemap.xml`, { ...local, allowAnyPathOnHost: true }),
    );
    assert.deepEqual(locs(anyPath), [`${o}/sub/in`, `${o}/out`]);
  });

  it("discovers sitemaps from robots.txt", async () => {
    const found = await discoverSitemaps(`${o}/any/page`, local);
    assert.equal(found.robotsUrl, `${o}/robots.txt`);
    assert.equal(found.robotsStatus, 200);
    assert.equal(found.fromRobots, true);
    assert.deepEqual(
      found.sitemaps.map((s) => [s.url, s.line]),
      [
        [`${o}/sitemap.xml`, 3],
        [`${o}/compressed.xml`, 4],
      ],
    );
  });
});

describe("discovery without Sitemap lines", SUITE, () => {
  let regp: TestServer;
  let bare: TestServer;
  let none: TestServer;
  before(async () => {
    const routes: Parameters<typeof startServer>[0] = {};
    regp = await startServer(routes);
    // Like the REGP file of seeds/003 §5: its Sitemap is in the global section.
    routes["/robots.txt"] = text(
      `Robot-version: 3.0\n\nUser-agent: *\nDisallow: /login.do\n\nSitemap: ${regp.origin}/test1/sitemap.xml\nCookie: user=robot\n`,
    );
    bare = await startServer({ "/robots.txt": text("User-agent: *\nDisallow:\n") });
    none = await startServer({});
  });
  after(async () => {
    await regp.close();
    await bare.close();
    await none.close();
  });

  it("REGP: the plan's sitemaps", async () => {
    const found = await discoverSitemaps(regp.origin, local);
    assert.equal(found.fromRobots, true);
    assert.equal(found.sitemaps.length, 1);
    assert.match(found.sitemaps[0]?.url ?? "", /\/test1\/sitemap\.xml$/);
  });

  it("no Sitemap line, or no robots.txt: /sitemap.xml", async () => {
    for (const s of [bare, none]) {
      const found = await discoverSitemaps(s.origin, local);
      assert.equal(found.fromRobots, false);
      assert.deepEqual(
        found.sitemaps.map((x) => x.url),
        [`${s.origin}/sitemap.xml`],
      );
    }
  });
});

describe("readSitemaps: following indexes", SUITE, () => {
  let server: TestServer;
  let other: TestServer;
  let o: string;
  before(async () => {
    const routes: Parameters<typeof startServer>[0] = {};
    server = await startServer(routes);
    other = await startServer({ "/s.xml": text(urlset(["http://x/"])) });
    o = server.origin;
    Object.assign(routes, {
      "/index.xml": text(
        index([`${o}/s1.xml`, `${o}/s2.xml.gz`, `${o}/missing.xml`, `${other.origin}/s.xml`]),
      ),
      "/s1.xml": text(urlset([`${o}/1a`, `${o}/1b`])),
      "/s2.xml.gz": text(gzipSync(urlset([`${o}/2a`]))),
      // A cycle: the index lists a nested index that lists the first index again.
      "/loop.xml": text(index([`${o}/nested.xml`, `${o}/s1.xml`])),
      "/nested.xml": text(index([`${o}/loop.xml`, `${o}/deep.xml`])),
      "/deep.xml": text(index([`${o}/s1.xml`])),
      "/wide.xml": text(index(Array.from({ length: 5 }, (_, i) => `${o}/w${i}.xml`))),
      ...Object.fromEntries(
        Array.from({ length: 5 }, (_, i) => [`/w${i}.xml`, text(urlset([`${o}/w${i}`]))]),
      ),
    });
  });
  after(async () => {
    await server.close();
    await other.close();
  });

  it("without follow, an index lists its sitemaps", async () => {
    const events = await all(readSitemaps(`${o}/index.xml`, { ...local, follow: false }));
    assert.deepEqual(
      events.flatMap((e) => (e.kind === "sitemap" ? [e.sitemap.loc] : [])),
      [`${o}/s1.xml`, `${o}/s2.xml.gz`, `${o}/missing.xml`, `${other.origin}/s.xml`],
    );
    assert.deepEqual(locs(events), []);
  });

  it("with follow, reads each sitemap in order, says where each entry came from", async () => {
    const events: SourcedSitemapEvent[] = await all(readSitemaps(`${o}/index.xml`, local));
    const urls = events.flatMap((e) => (e.kind === "url" ? [[e.url.loc, e.source, e.depth]] : []));
    assert.deepEqual(urls, [
      [`${o}/1a`, `${o}/s1.xml`, 1],
      [`${o}/1b`, `${o}/s1.xml`, 1],
      [`${o}/2a`, `${o}/s2.xml.gz`, 1],
    ]);
    const findings = events.flatMap((e) =>
      e.kind === "diagnostic" ? [[e.diagnostic.code, e.source, e.diagnostic.line]] : [],
    );
    assert.deepEqual(findings, [
      ["sitemap-other-site", `${o}/index.xml`, 6],
      ["fetch-failed", `${o}/missing.xml`, null],
    ]);
  });

  it("reads no sitemap twice: a cycle is reported, not followed; a nested index is noted", async () => {
    const events = await all(readSitemaps(`${o}/loop.xml`, { ...local, maxDepth: 5 }));
    const found = events.flatMap((e) =>
      e.kind === "diagnostic" ? [[e.diagnostic.code, e.source]] : [],
    );
    assert.deepEqual(found, [
      ["nested-index", `${o}/nested.xml`],
      ["index-cycle", `${o}/nested.xml`],
      ["nested-index", `${o}/deep.xml`],
      ["index-cycle", `${o}/deep.xml`],
    ]);
    assert.deepEqual(locs(events), [`${o}/1a`, `${o}/1b`]);
  });

  it("stops at the depth limit with index-depth", async () => {
    const events = await all(readSitemaps(`${o}/loop.xml`, { ...local, maxDepth: 1 }));
    const depth = events.find(
      (e) => e.kind === "diagnostic" && e.diagnostic.code === "index-depth",
    );
    assert.ok(depth);
    assert.equal(depth.source, `${o}/nested.xml`);
    assert.equal(depth.kind === "diagnostic" ? depth.diagnostic.severity : null, "error");
    assert.deepEqual(locs(events), [`${o}/1a`, `${o}/1b`]);
  });

  it("stops at the file limit with too-many-sitemaps", async () => {
    const events = await all(readSitemaps(`${o}/wide.xml`, { ...local, maxSitemaps: 3 }));
    assert.deepEqual(locs(events), [`${o}/w0`, `${o}/w1`]);
    assert.deepEqual(codes(events), ["too-many-sitemaps"]);
    await assert.rejects(readSitemaps("x", { maxDepth: -1 }).next(), /maxDepth/);
  });
});

describe("cross-submission (sitemaps.org 'Sitemaps & Cross Submits')", SUITE, () => {
  let host1: TestServer;
  let sitemapHost: TestServer;
  before(async () => {
    const routes: Parameters<typeof startServer>[0] = {};
    host1 = await startServer(routes);
    sitemapHost = await startServer({
      "/sitemap-host1.xml": text(urlset([`${host1.origin}/deep/page`])),
    });
    routes["/robots.txt"] = text(`Sitemap: ${sitemapHost.origin}/sitemap-host1.xml\n`);
  });
  after(async () => {
    await host1.close();
    await sitemapHost.close();
  });

  it("a sitemap on another host may list host1's URLs once host1's robots.txt names it", async () => {
    const url = `${sitemapHost.origin}/sitemap-host1.xml`;
    const plain = await all(readSitemaps(url, local));
    assert.deepEqual(locs(plain), []);
    assert.deepEqual(codes(plain), ["loc-out-of-scope"]);
    const found = await discoverSitemaps(host1.origin, local);
    assert.deepEqual(
      found.sitemaps.map((s) => s.url),
      [url],
    );
    const vouched = await all(readSitemaps(url, { ...local, robotsTxtHosts: [found.robotsUrl] }));
    assert.deepEqual(locs(vouched), [`${host1.origin}/deep/page`]);
  });
});

describe("readSitemaps: local files", SUITE, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-sitemap-fetch-"));
    await writeFile(
      join(dir, "sitemap.xml"),
      index([
        "https://www.example.com/maps/part-1.xml",
        "https://www.example.com/maps/part-2.xml.gz",
      ]),
    );
    await writeFile(
      join(dir, "part-1.xml"),
      urlset(["https://www.example.com/maps/a", "https://www.example.com/b"]),
    );
    await writeFile(
      join(dir, "part-2.xml.gz"),
      gzipSync(urlset(["https://www.example.com/maps/c"])),
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("finds an index's sitemaps beside it, by name, and judges each by the URL the index gives it", async () => {
    const events = await all(readSitemaps(join(dir, "sitemap.xml"), local));
    assert.deepEqual(locs(events), [
      "https://www.example.com/maps/a",
      "https://www.example.com/maps/c",
    ]);
    assert.deepEqual(codes(events), ["loc-out-of-scope"]);
    assert.deepEqual(
      [...new Set(events.map((e) => e.source))],
      [join(dir, "sitemap.xml"), join(dir, "part-1.xml"), join(dir, "part-2.xml.gz")],
    );
  });

  it("with servedAt, maps the index's URLs under it to paths beside the file", async () => {
    const events = await all(
      readSitemaps(join(dir, "sitemap.xml"), {
        ...local,
        servedAt: "https://www.example.com/maps/sitemap.xml",
      }),
    );
    assert.deepEqual(locs(events), [
      "https://www.example.com/maps/a",
      "https://www.example.com/maps/c",
    ]);
    assert.deepEqual(codes(events), ["loc-out-of-scope"]);
  });

  it("a missing file is a fatal fetch-failed", async () => {
    const events = await all(readSitemap(join(dir, "nope.xml"), local));
    assert.deepEqual(codes(events), ["fetch-failed"]);
    assert.match(
      events[0]?.kind === "diagnostic" ? events[0].diagnostic.message : "",
      /no such file/,
    );
    assert.deepEqual(codes(await all(readSitemap(dir, local))), ["fetch-failed"]);
  });
});
