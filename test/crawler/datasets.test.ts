// The robot side of /data.txt as a library, against real sites on 127.0.0.1: each limit of
// discovery and download (with small values, so that the limit itself is what is seen), the
// redirect bounds, a download redirected where robots.txt forbids, a changed file restarted
// rather than spliced, and file names that cannot climb out of the download folder.
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  discoverDatasets,
  MAX_FALLBACK_SITEMAPS,
  MAX_HOME_PAGE_BYTES,
  MAX_MANIFESTS,
} from "../../src/crawler/datasets/discover.js";
import { MAX_CATALOG_HOSTS, storeCatalogs } from "../../src/crawler/datasets/crawl-catalogs.js";
import {
  downloadFile,
  localPath,
  MAX_DOWNLOAD_REDIRECTS,
} from "../../src/crawler/datasets/download.js";
import { openSqliteStore } from "../../src/store/sqlite/index.js";
import { MAX_DATA_TXT_REDIRECTS } from "../../src/net/data-txt-fetch.js";
import { createHttpClient, type HttpClient } from "../../src/net/http-client.js";
import { buildCatalog } from "../../src/site/datasets/build.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { startRouteSite, type RouteHandler } from "../helpers/route-site.js";

const redirect =
  (to: string): RouteHandler =>
  (_req, res, origin) => {
    res.writeHead(302, { location: `${origin}${to}` });
    res.end();
  };

describe("datasets library", { concurrency: true, timeout: 60_000 }, () => {
  let client: HttpClient;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    client = createHttpClient({ userAgent: "HeedTest/1.0", allowPrivateAddresses: true });
    temp = await tempDir("heed-datasets-lib-");
  });
  after(async () => {
    await client.close();
    await temp.cleanup();
  });

  it(`maxManifests (default ${MAX_MANIFESTS}): folders past it are listed, not read, and that is said`, async () => {
    const site = await startRouteSite({
      "/data.txt": "- path: a/\n- path: b/\n- path: c/\n",
      "/a/data.txt": "- path: 1.csv\n",
      "/b/data.txt": "- path: 2.csv\n",
      "/c/data.txt": "- path: 3.csv\n",
    });
    try {
      const { catalog } = await discoverDatasets(site.origin, {
        client,
        agent: "t",
        maxManifests: 2,
      });
      assert.deepEqual(
        catalog.datasets.map((d) => d.entry.urls[0]?.slice(site.origin.length)),
        ["/a/1.csv", "/b/2.csv", "/c/"],
      );
      assert.ok(catalog.notes.some((n) => n.code === "manifest-limit" && n.line === 3));
      assert.ok(!site.paths().includes("/c/data.txt"));
    } finally {
      await site.close();
    }
  });

  it("maxGuesses and maxSitemapUrls bound the 404 fallback, and say so", async () => {
    const urls = Array.from({ length: 6 }, (_, i) => `<url><loc>{origin}/d/${i}.csv</loc></url>`);
    const site = await startRouteSite({
      "/sitemap.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`,
    });
    try {
      const guesses = await discoverDatasets(site.origin, { client, agent: "t", maxGuesses: 2 });
      assert.equal(guesses.catalog.datasets.length, 2);
      assert.ok(guesses.catalog.notes.some((n) => n.code === "guess-limit"));
      const scanned = await discoverDatasets(site.origin, {
        client,
        agent: "t",
        maxSitemapUrls: 3,
      });
      assert.deepEqual(
        scanned.catalog.datasets.map((d) => d.entry.path),
        ["/d/0.csv", "/d/1.csv", "/d/2.csv"],
      );
      assert.ok(scanned.catalog.notes.some((n) => n.code === "sitemap-scan-limit"));
    } finally {
      await site.close();
    }
  });

  it(`MAX_FALLBACK_SITEMAPS (${MAX_FALLBACK_SITEMAPS}): an index's further sitemaps are not read for guesses`, async () => {
    const routes: Record<string, RouteHandler | string> = {};
    const children = Array.from({ length: MAX_FALLBACK_SITEMAPS + 2 }, (_, i) => i);
    routes["/sitemap.xml"] =
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      children.map((i) => `<sitemap><loc>{origin}/s${i}.xml</loc></sitemap>`).join("") +
      "</sitemapindex>";
    for (const i of children) {
      routes[`/s${i}.xml`] =
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{origin}/d/${i}.csv</loc></url></urlset>`;
    }
    const site = await startRouteSite(routes);
    try {
      const { catalog } = await discoverDatasets(site.origin, { client, agent: "t" });
      // The index is one of the files read: MAX_FALLBACK_SITEMAPS - 1 of its sitemaps.
      assert.equal(catalog.datasets.length, MAX_FALLBACK_SITEMAPS - 1);
      assert.ok(catalog.notes.some((n) => n.code === "sitemap-limit"));
      assert.ok(!site.paths().includes(`/s${MAX_FALLBACK_SITEMAPS + 1}.xml`));
    } finally {
      await site.close();
    }
  });

  it(`MAX_DATA_TXT_REDIRECTS (${MAX_DATA_TXT_REDIRECTS}): a longer chain fails with a reason; a shorter one is read`, async () => {
    const routes: Record<string, RouteHandler | string> = {};
    for (let i = 0; i < MAX_DATA_TXT_REDIRECTS + 1; i++)
      routes[i === 0 ? "/data.txt" : `/r${i}`] = redirect(`/r${i + 1}`);
    routes[`/r${MAX_DATA_TXT_REDIRECTS + 1}`] = "- path: /x.csv\n";
    const long = await startRouteSite(routes);
    const shortRoutes = { ...routes, "/data.txt": redirect("/r2") };
    const short = await startRouteSite(shortRoutes);
    try {
      const failed = await discoverDatasets(long.origin, { client, agent: "t" });
      assert.equal(failed.catalog.dataTxt.outcome, "failed");
      assert.match(failed.catalog.dataTxt.message ?? "", /more than 5 redirects/);
      const read = await discoverDatasets(short.origin, { client, agent: "t" });
      assert.equal(read.catalog.dataTxt.outcome, "found");
      assert.deepEqual(
        read.catalog.datasets.map((d) => d.entry.path),
        ["/x.csv"],
      );
    } finally {
      await long.close();
      await short.close();
    }
  });

  it("a download redirected to a path robots.txt forbids is not followed", async () => {
    const site = await startRouteSite({
      "/robots.txt": "User-agent: *\nDisallow: /private/\n",
      "/data.txt": "- path: /pub/a.csv\n",
      "/pub/a.csv": redirect("/private/a.csv"),
      "/private/a.csv": "secret\n",
    });
    try {
      const { catalog, access, pacer } = await discoverDatasets(site.origin, {
        client,
        agent: "t",
      });
      const url = catalog.datasets[0]?.files[0]?.url ?? "";
      const result = await downloadFile(url, {
        dir: join(temp.dir, "redir"),
        client,
        access,
        pacer,
      });
      assert.equal(result.ok, false);
      assert.match(
        result.ok ? "" : result.message,
        /redirected to .*\/private\/a\.csv, forbidden by robots\.txt line 2/,
      );
      assert.ok(!site.paths().includes("/private/a.csv"));
    } finally {
      await site.close();
    }
  });

  it("maxBytes: a larger file stops there, its part kept; a file changed since its part restarts whole", async () => {
    let version = "v1";
    const bodies: Record<string, Buffer> = { v1: Buffer.alloc(5000, 1), v2: Buffer.alloc(3000, 2) };
    const site = await startRouteSite({
      "/data.txt": "- path: /f.bin\n",
      "/f.bin": (req, res) => {
        const body = bodies[version] as Buffer;
        const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
        if (range !== null && req.headers["if-range"] === `"${version}"`) {
          const from = Number(range[1]);
          res.writeHead(206, {
            etag: `"${version}"`,
            "content-range": `bytes ${from}-${body.length - 1}/${body.length}`,
          });
          res.end(body.subarray(from));
          return;
        }
        res.writeHead(200, { etag: `"${version}"`, "content-length": String(body.length) });
        res.end(body);
      },
    });
    try {
      const dir = join(temp.dir, "cap");
      const { access, pacer } = await discoverDatasets(site.origin, { client, agent: "t" });
      const url = `${site.origin}/f.bin`;
      const capped = await downloadFile(url, { dir, client, access, pacer, maxBytes: 1000 });
      assert.equal(capped.ok, false);
      // Announced bigger than the cap (Content-Length): not started at all.
      assert.match(capped.ok ? "" : capped.message, /5000 bytes, more than 1000 \(--max-bytes\)/);
      version = "v2"; // the If-Range validator no longer matches: the server sends it all
      const whole = await downloadFile(url, { dir, client, access, pacer });
      assert.ok(whole.ok);
      assert.equal(whole.how, "downloaded");
      assert.ok(
        (await readFile(join(dir, new URL(site.origin).host, "f.bin"))).equals(bodies.v2 as Buffer),
      );
    } finally {
      await site.close();
    }
  });

  it(`MAX_DOWNLOAD_REDIRECTS (${MAX_DOWNLOAD_REDIRECTS}): a longer chain is not followed to its end`, async () => {
    const routes: Record<string, RouteHandler | string> = { "/data.txt": "- path: /r0\n" };
    for (let i = 0; i <= MAX_DOWNLOAD_REDIRECTS; i++) routes[`/r${i}`] = redirect(`/r${i + 1}`);
    routes[`/r${MAX_DOWNLOAD_REDIRECTS + 1}`] = "the end\n";
    const site = await startRouteSite(routes);
    try {
      const { access, pacer } = await discoverDatasets(site.origin, { client, agent: "t" });
      const dir = join(temp.dir, "redirects");
      const long = await downloadFile(`${site.origin}/r0`, { dir, client, access, pacer });
      assert.equal(long.ok, false);
      assert.match(long.ok ? "" : long.message, /more than 5 redirects/);
      assert.ok(!site.paths().includes(`/r${MAX_DOWNLOAD_REDIRECTS + 1}`));
      const short = await downloadFile(`${site.origin}/r1`, { dir, client, access, pacer });
      assert.ok(short.ok, short.ok ? "" : short.message);
      assert.equal(await readFile(join(dir, new URL(site.origin).host, "r1"), "utf8"), "the end\n");
    } finally {
      await site.close();
    }
  });

  it(`MAX_HOME_PAGE_BYTES (${MAX_HOME_PAGE_BYTES}): links past it on the home page are not read`, async () => {
    const site = await startRouteSite({
      "/": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(
          '<a href="/early.csv">e</a>' +
            " ".repeat(MAX_HOME_PAGE_BYTES) +
            '<a href="/late.csv">l</a>',
        );
      },
    });
    try {
      const { catalog } = await discoverDatasets(site.origin, { client, agent: "t" });
      assert.deepEqual(
        catalog.datasets.map((d) => d.entry.path),
        ["/early.csv"],
      );
    } finally {
      await site.close();
    }
  });

  it(`storeCatalogs maxHosts (default ${MAX_CATALOG_HOSTS}): hosts past it are counted, not asked`, async () => {
    const a = await startRouteSite({ "/data.txt": "- path: /a.csv\n" });
    const b = await startRouteSite({ "/data.txt": "- path: /b.csv\n" });
    const store = await openSqliteStore(join(temp.dir, "hosts.db"));
    try {
      const run = await storeCatalogs({
        store,
        client,
        agent: "t",
        origins: [a.origin, b.origin, a.origin],
        maxHosts: 1,
      });
      assert.equal(run.stored.length, 1);
      assert.equal(run.skipped, 1);
      assert.deepEqual(
        (await store.datasets.list()).map((c) => [c.origin, c.datasets]),
        [[a.origin, 1]],
      );
      assert.deepEqual(b.paths(), []);
    } finally {
      await store.close();
      await a.close();
      await b.close();
    }
  });

  it("file names stay inside the download folder, one per URL", () => {
    const TABLE: readonly [string, string][] = [
      ["http://s.example/a/b.csv", "s.example/a/b.csv"],
      ["http://s.example:8080/a/b.csv", "s.example:8080/a/b.csv"],
      ["http://s.example/a%20b/c.csv", "s.example/a b/c.csv"],
      ["http://s.example/%C3%A9t%C3%A9.csv", "s.example/été.csv"],
      // RFC 3986 §6.2.2.2: an encoded unreserved character is the character.
      ["http://s.example/%7Ejoe/%61.csv", "s.example/~joe/a.csv"],
      // WHATWG URL parsing resolves encoded dot segments first: the path never climbs.
      ["http://s.example/x/%2e%2e/%2e%2e/etc/passwd", "s.example/etc/passwd"],
      ["http://s.example/a%2fb.csv", "s.example/a%2Fb.csv"],
      ["http://s.example/a%2Fb.csv", "s.example/a%2Fb.csv"],
      ["http://s.example/dir/", "s.example/dir/#index"],
      ["http://s.example/dir/index", "s.example/dir/index"],
      ["http://s.example/a//b", "s.example/a/#/b"],
      ["http://s.example/a%00b", "s.example/a%00b"],
      ["http://s.example/get?id=1", "s.example/get?id=1"],
      ["http://s.example/get?id=2", "s.example/get?id=2"],
      ["http://s.example/get?", "s.example/get?"],
      ["http://s.example/get#part", "s.example/get"],
      // No hidden names: heed's own folder (.heed) and dot files are out of reach.
      ["http://s.example/.heed/SHA256SUMS", "s.example/%2Eheed/SHA256SUMS"],
      ["http://s.example/.bashrc", "s.example/%2Ebashrc"],
      // A query with a "/" is named by its hash (checked below by its shape).
      ["http://s.example/g?u=/a/b", "s.example/g?#"],
    ];
    for (const [url, path] of TABLE) {
      if (path.endsWith("?#")) assert.match(localPath(url), /^s\.example\/g\?#[0-9a-f]{32}$/, url);
      else assert.equal(localPath(url), path, url);
    }
    const long = localPath(`http://s.example/${"x".repeat(300)}`);
    assert.match(long, /^s\.example\/x{100}#[0-9a-f]{32}$/);
    const names = new Set(
      [
        "/get?id=1",
        "/get?id=2",
        "/a%2Fb",
        "/a/b",
        "/d/",
        "/d/index",
        "/d/#index",
        "/d/%23index",
      ].map((p) => localPath(`http://s.example${p}`)),
    );
    assert.equal(names.size, 7, "/d/#index is /d/ (a fragment), the rest are distinct");
  });

  it("buildCatalog maxFiles: a bigger tree is cut there, and that is said", async () => {
    const root = join(temp.dir, "many");
    await mkdir(root, { recursive: true });
    for (let i = 0; i < 5; i++) await writeFile(join(root, `${i}.csv`), "a\n1\n");
    const built = await buildCatalog(root, { maxFiles: 3 });
    assert.equal(built.top.length, 3);
    assert.deepEqual(built.notes, ["more than 3 files; the rest are not listed"]);
  });
});
