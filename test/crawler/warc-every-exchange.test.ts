// `heed crawl --out`: every exchange of the crawl is in the WARC, not only the pages kept:
// robots.txt, the sitemaps, a redirect, a noindex page and a 404 each have a request and a
// response record, and a metadata record of what heed did with it (the crawl log's outcome).
// The files are read back with node-warc, a reader other than warcio, which writes them.
import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TransformCallback, Transform } from "node:stream";
import { after, before, describe, it } from "node:test";
import { createGunzip } from "node:zlib";
import { runCli } from "../helpers/run-cli.js";
import { startSite } from "../helpers/synthetic-site.js";

/** The parts of node-warc 3.x read here (it ships no types). */
interface NodeWarcRecord {
  readonly warcHeader: Readonly<Record<string, string>>;
  readonly warcType: string;
  readonly warcTargetURI: string | null;
  readonly httpInfo: { readonly statusCode?: string | null } | null;
  readonly content: Buffer | null;
}
interface RecordTransform extends Transform {
  buffered: Buffer | undefined;
  _consumeChunk(chunk: Buffer, done: () => void, pushLast: boolean): void;
}
interface NodeWarc {
  readonly WARCStreamTransform: new () => RecordTransform;
}
const nodeWarc = createRequire(import.meta.url)("node-warc") as NodeWarc;

/**
 * node-warc's stream reader, with its end mended: its `_flush` calls back twice whenever bytes
 * are left over (always, on Node 20: an empty remainder counts), which Node now refuses.
 */
function recordReader(): RecordTransform {
  const reader = new nodeWarc.WARCStreamTransform();
  reader._flush = (done: TransformCallback) => {
    reader._consumeChunk(reader.buffered ?? Buffer.alloc(0), () => undefined, true);
    done();
  };
  return reader;
}

async function readWarcs(dir: string): Promise<NodeWarcRecord[]> {
  const records: NodeWarcRecord[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith(".warc.gz")).sort()) {
    const stream = createReadStream(join(dir, name)).pipe(createGunzip()).pipe(recordReader());
    for await (const record of stream) records.push(record as NodeWarcRecord);
  }
  return records;
}

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), "heed-warc-all-"));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("heed crawl --out: every exchange", { timeout: 90_000 }, () => {
  it("a request and a response record for every request in the site's log, each with what heed did", async () => {
    let origin = "";
    const site = await startSite({
      pages: 4,
      links: 2,
      robots: () => "",
      extraLinks: ["/moved", "/hidden.html", "/missing.html"],
      route: (req, res) => {
        const html = (body: string) =>
          res.writeHead(200, { "content-type": "text/html" }).end(body);
        switch (req.url) {
          case "/robots.txt":
            res
              .writeHead(200, { "content-type": "text/plain" })
              .end(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`);
            return true;
          case "/sitemap.xml":
            res
              .writeHead(200, { "content-type": "application/xml" })
              .end(
                `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/from-sitemap.html</loc></url></urlset>`,
              );
            return true;
          case "/moved":
            res.writeHead(301, { location: "/page/1.html" }).end();
            return true;
          case "/hidden.html":
            html('<meta name="robots" content="noindex"><p>hidden</p>');
            return true;
          case "/from-sitemap.html":
            html("<p>listed</p>");
            return true;
          default:
            return false;
        }
      },
    });
    origin = site.origin;
    const out = join(root, "warc");
    try {
      const result = await runCli([
        "crawl",
        `${site.origin}/`,
        "--agent",
        "x",
        "--store",
        join(root, "crawl.db"),
        "--out",
        out,
        "--quiet",
      ]);
      assert.equal(result.code, 0, result.stderr);
      const records = await readWarcs(out);
      const of = (type: string, url: string) =>
        records.filter((r) => r.warcType === type && r.warcTargetURI === url);
      const asked = site.paths();
      for (const path of ["/robots.txt", "/sitemap.xml", "/moved", "/hidden.html", "/missing.html"])
        assert.ok(asked.includes(path), `${path} was asked: ${asked.join(" ")}`);
      for (const path of asked) {
        const url = `${site.origin}${path}`;
        assert.equal(of("request", url).length >= 1, true, `a request record for ${path}`);
        const [response] = of("response", url);
        assert.ok(response !== undefined, `a response record for ${path}`);
        const notes = of("metadata", url).map((r) => r.content?.toString("utf8") ?? "");
        assert.ok(
          notes.some((n) => /^heed-outcome: \S+/m.test(n)),
          `what heed did with ${path}: ${notes.join(" | ")}`,
        );
        const refers = records.filter(
          (r) =>
            r.warcType === "metadata" &&
            r.warcHeader["WARC-Refers-To"] === response.warcHeader["WARC-Record-ID"],
        );
        assert.ok(refers.length >= 1, `a note refers to the response of ${path}`);
      }
      const status = (path: string) =>
        of("response", `${site.origin}${path}`)[0]?.httpInfo?.statusCode;
      const text = (type: string, path: string) =>
        of(type, `${site.origin}${path}`)
          .map((r) => r.content?.toString("utf8") ?? "")
          .join("\n");
      assert.match(text("response", "/robots.txt"), /Sitemap: /);
      assert.match(text("response", "/sitemap.xml"), /from-sitemap\.html/);
      assert.equal(status("/moved"), "301");
      assert.match(text("metadata", "/moved"), /^heed-outcome: redirect/m);
      assert.match(text("response", "/hidden.html"), /noindex/);
      assert.match(text("metadata", "/hidden.html"), /noindex/i);
      assert.equal(status("/missing.html"), "404");
    } finally {
      await site.close();
    }
  });
});
