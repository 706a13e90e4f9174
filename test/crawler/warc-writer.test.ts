// `heed crawl --out DIR`: WARC 1.1 files (ISO 28500:2017, "WARC/1.1" in the IIPC text). Each
// file is read back twice: with warcio's WARCParser, and with a reader written here from the
// spec (split the gzip members, gunzip each, parse the header block, check Content-Length and
// the digests), so that the files are not only what warcio happens to accept.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { appendFile, mkdtemp, readdir, readFile, rm, stat, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync, gzipSync, inflateRawSync } from "node:zlib";
import { WARCParser } from "warcio";
import type { FetchedPage } from "../../src/crawler/crawler.js";
import {
  BAD_WARC_OPTION_CODE,
  WARC_CLOSED_CODE,
  WarcWriter,
  type WarcWriterOptions,
} from "../../src/crawler/warc-writer.js";
import { BIN, runCli } from "../helpers/run-cli.js";
import { pageHtml, type SiteOptions, startSite } from "../helpers/synthetic-site.js";
import { isPage } from "../helpers/synthetic-site.js";

const SUITE = { timeout: 60_000 };
const AT = Date.UTC(2024, 4, 17, 9, 30, 12, 345);
const CLOCK = () => AT;

let root: string;
let n = 0;
before(async () => {
  root = await mkdtemp(join(tmpdir(), "heed-warc-"));
});
after(() => rm(root, { recursive: true, force: true }));

const freshDir = () => join(root, `d${n++}`);

function page(i: number, extra: Partial<FetchedPage> = {}): FetchedPage {
  return {
    url: `http://example.test/page/${i}.html?q=${i}`,
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8", "x-page": String(i) },
    body: new TextEncoder().encode(`<p>page ${i} ${"é".repeat(i)}</p>`),
    at: AT + i * 1000,
    rule: "line 2: Allow: /page/",
    delaySeconds: 1,
    requestHeaders: { "user-agent": "x/1.0 (+http://info.test/)", "accept-encoding": "gzip" },
    ...extra,
  };
}

async function warcFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort().map((f) => join(dir, f));
}

// ---------------------------------------------------------------------------------------------
// Reading back, twice

interface Rec {
  /** WARC header names lower-cased. */
  readonly warc: Readonly<Record<string, string>>;
  readonly statusLine: string | null;
  /** HTTP header names lower-cased (request and response records only). */
  readonly http: Readonly<Record<string, string>> | null;
  /** The payload: the block after the HTTP headers, or the whole block. */
  readonly payload: Buffer;
}

/** warcio's reader. */
async function readWithWarcio(path: string): Promise<Rec[]> {
  const out: Rec[] = [];
  for await (const record of WARCParser.iterRecords(createReadStream(path))) {
    const http = record.httpHeaders;
    out.push({
      warc: lowerKeys([...record.warcHeaders.headers]),
      statusLine: http?.statusline ?? null,
      http: http === null ? null : lowerKeys([...http.headers]),
      payload: Buffer.from(await record.readFully(false)),
    });
  }
  return out;
}

/**
 * A reader from the spec: a `.warc.gz` is gzip members one after another, one record each
 * (WARC 1.1 Annex D); a record is `WARC/1.1` CRLF, named fields, CRLF, Content-Length bytes of
 * block, CRLF CRLF (§4, §5). Checks the digests (§5.8, §5.9) and returns the records.
 */
function readIndependently(bytes: Buffer, gzip = true): Rec[] {
  const records: Buffer[] = [];
  if (gzip) {
    let offset = 0;
    while (offset < bytes.length) {
      assert.equal(bytes.readUInt16BE(offset), 0x1f8b, `a gzip member starts at ${offset}`);
      assert.equal(bytes[offset + 3], 0, "no optional gzip header fields");
      const { engine } = inflateRawSync(bytes.subarray(offset + 10), { info: true }) as unknown as {
        engine: { bytesWritten: number };
      };
      const end = offset + 10 + engine.bytesWritten + 8;
      // gunzip checks the member's CRC-32 and length.
      records.push(gunzipSync(bytes.subarray(offset, end)));
      offset = end;
    }
  } else records.push(bytes);

  const out: Rec[] = [];
  for (const member of records) {
    let at = 0;
    // Without gzip the file is one stream of records; with it, one record a member.
    while (at < member.length) {
      const headEnd = member.indexOf("\r\n\r\n", at);
      assert.ok(headEnd > at, "the WARC header block ends in CRLF CRLF");
      const [version, ...lines] = member.subarray(at, headEnd).toString("utf8").split("\r\n");
      assert.equal(version, "WARC/1.1");
      const warc = lowerKeys(lines.map(splitField));
      const length = Number(warc["content-length"]);
      assert.ok(Number.isSafeInteger(length), "Content-Length is a number");
      const block = member.subarray(headEnd + 4, headEnd + 4 + length);
      assert.equal(block.length, length, "the block is Content-Length bytes");
      assert.equal(
        member.subarray(headEnd + 4 + length, headEnd + 8 + length).toString("latin1"),
        "\r\n\r\n",
        "two CRLFs end the record",
      );
      at = headEnd + 8 + length;
      if (gzip) assert.equal(at, member.length, "one record a gzip member");

      const type = warc["warc-type"];
      if (type !== "warcinfo") assert.equal(warc["warc-block-digest"], sha256(block));
      if (type === "request" || type === "response") {
        const httpEnd = block.indexOf("\r\n\r\n");
        const [statusLine = "", ...httpLines] = block
          .subarray(0, httpEnd)
          .toString("utf8")
          .split("\r\n");
        const payload = block.subarray(httpEnd + 4);
        assert.equal(warc["warc-payload-digest"], sha256(payload));
        out.push({ warc, statusLine, http: lowerKeys(httpLines.map(splitField)), payload });
      } else out.push({ warc, statusLine: null, http: null, payload: block });
    }
  }
  return out;
}

function splitField(line: string): [string, string] {
  const colon = line.indexOf(":");
  assert.ok(colon > 0, `a named field: ${JSON.stringify(line)}`);
  return [line.slice(0, colon), line.slice(colon + 1).trim()];
}

function lowerKeys(entries: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of entries) out[k.toLowerCase()] = v;
  return out;
}

function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

function fields(rec: Rec): Record<string, string> {
  return lowerKeys(
    rec.payload
      .toString("utf8")
      .split("\r\n")
      .filter((l) => l !== "")
      .map(splitField),
  );
}

/** Both readings of every file, which must agree; returns the records of all files in order. */
async function readBoth(paths: readonly string[], gzip = true): Promise<Rec[][]> {
  const all: Rec[][] = [];
  for (const path of paths) {
    const mine = readIndependently(await readFile(path), gzip);
    const theirs = await readWithWarcio(path);
    assert.equal(theirs.length, mine.length, `${path}: both readers see the same records`);
    mine.forEach((rec, i) => {
      const other = theirs[i];
      assert.ok(other !== undefined);
      assert.equal(other.warc["warc-record-id"], rec.warc["warc-record-id"]);
      assert.equal(other.warc["warc-type"], rec.warc["warc-type"]);
      assert.equal(other.statusLine, rec.statusLine);
      assert.deepEqual(other.http, rec.http);
      assert.deepEqual(other.payload, rec.payload);
    });
    all.push(mine);
  }
  return all;
}

async function writeAll(
  dir: string,
  pages: readonly FetchedPage[],
  options: WarcWriterOptions = {},
): Promise<string[]> {
  const writer = await WarcWriter.open(dir, { now: CLOCK, ...options });
  for (const p of pages) await writer.write(p, { srcloc: `http://origin.test/item?id=${p.at}` });
  await writer.close();
  return warcFiles(dir);
}

// ---------------------------------------------------------------------------------------------

describe("WarcWriter: one file", SUITE, () => {
  it("writes warcinfo, then request, response, metadata per page (WARC 1.1 §6-§10)", async () => {
    const dir = freshDir();
    const pages = [page(1), page(2), page(3)];
    const files = await writeAll(dir, pages, { software: "heed/9.9.9" });
    assert.equal(files.length, 1);
    assert.match(files[0] ?? "", /[/\\]heed-20240517093012345-00000\.warc\.gz$/);
    const [records = []] = await readBoth(files);
    assert.deepEqual(
      records.map((r) => r.warc["warc-type"]),
      ["warcinfo", ...pages.flatMap(() => ["request", "response", "metadata"])],
    );

    const [info] = records;
    assert.ok(info !== undefined);
    assert.equal(info.warc["warc-filename"], "heed-20240517093012345-00000.warc.gz");
    assert.equal(info.warc["content-type"], "application/warc-fields");
    assert.equal(info.warc["warc-date"], "2024-05-17T09:30:12.345Z");
    assert.equal(fields(info)["software"], "heed/9.9.9");
    assert.equal(fields(info)["format"], "WARC File Format 1.1");

    const ids = new Set(records.map((r) => r.warc["warc-record-id"]));
    assert.equal(ids.size, records.length, "every WARC-Record-ID differs");
    for (const r of records)
      assert.match(r.warc["warc-record-id"] ?? "", /^<urn:uuid:[0-9a-f-]{36}>$/);

    pages.forEach((p, i) => {
      const [request, response, metadata] = records.slice(1 + 3 * i, 4 + 3 * i);
      assert.ok(request && response && metadata);
      for (const r of [request, response, metadata]) {
        assert.equal(r.warc["warc-target-uri"], p.url);
        assert.equal(r.warc["warc-date"], new Date(p.at).toISOString());
      }
      const responseId = response.warc["warc-record-id"];
      assert.equal(request.warc["warc-concurrent-to"], responseId);
      assert.equal(metadata.warc["warc-concurrent-to"], responseId);

      assert.equal(request.warc["content-type"], "application/http; msgtype=request");
      assert.equal(request.statusLine, `GET /page/${i + 1}.html?q=${i + 1} HTTP/1.1`);
      assert.deepEqual(request.http, {
        host: "example.test",
        "user-agent": "x/1.0 (+http://info.test/)",
        "accept-encoding": "gzip",
      });
      assert.equal(request.payload.length, 0);

      assert.equal(response.warc["content-type"], "application/http; msgtype=response");
      assert.equal(response.statusLine, "HTTP/1.1 200 OK");
      assert.equal(response.http?.["content-type"], "text/html; charset=utf-8");
      assert.equal(response.http?.["x-page"], String(i + 1));
      assert.equal(response.http?.["content-length"], String(p.body?.byteLength));
      assert.deepEqual(new Uint8Array(response.payload), p.body);

      assert.equal(metadata.warc["content-type"], "application/warc-fields");
      assert.deepEqual(fields(metadata), {
        "robots-rule": "line 2: Allow: /page/",
        "crawl-delay-seconds": "1",
        srcloc: `http://origin.test/item?id=${p.at}`,
      });
    });
  });

  it("stores decoded bodies as such: no Content-Encoding, the decoded length; the sent values go to metadata", async () => {
    const body = new TextEncoder().encode("<p>decoded by heed</p>");
    const dir = freshDir();
    const files = await writeAll(dir, [
      page(1, {
        headers: {
          "content-type": "text/html",
          "content-encoding": "gzip",
          "transfer-encoding": "chunked",
          "content-length": "17",
        },
        body,
      }),
    ]);
    const [records = []] = await readBoth(files);
    const response = records.find((r) => r.warc["warc-type"] === "response");
    const metadata = records.find((r) => r.warc["warc-type"] === "metadata");
    assert.ok(response && metadata);
    assert.deepEqual(response.http, {
      "content-type": "text/html",
      "content-length": String(body.byteLength),
    });
    assert.deepEqual(new Uint8Array(response.payload), body);
    assert.deepEqual(fields(metadata), {
      "robots-rule": "line 2: Allow: /page/",
      "crawl-delay-seconds": "1",
      srcloc: `http://origin.test/item?id=${AT + 1000}`,
      "original-content-encoding": "gzip",
      "original-transfer-encoding": "chunked",
      "original-content-length": "17",
    });
  });

  it("a 304 keeps an empty body; a cut body is WARC-Truncated; no rule, no robots-rule", async () => {
    const dir = freshDir();
    const files = await writeAll(dir, [
      page(1, { status: 304, headers: { etag: '"v1"' }, body: null, rule: null }),
      page(2, { truncated: "size" }),
      page(3, { status: 404, truncated: "ratio", requestHeaders: {} }),
    ]);
    const [records = []] = await readBoth(files);
    const responses = records.filter((r) => r.warc["warc-type"] === "response");
    assert.equal(responses[0]?.statusLine, "HTTP/1.1 304 Not Modified");
    assert.deepEqual(responses[0]?.http, { etag: '"v1"' });
    assert.equal(responses[0]?.payload.length, 0);
    assert.equal(responses[0]?.warc["warc-truncated"], undefined);
    assert.equal(responses[1]?.warc["warc-truncated"], "length");
    assert.equal(responses[2]?.warc["warc-truncated"], "unspecified");
    assert.equal(responses[2]?.statusLine, "HTTP/1.1 404 Not Found");
    const metadata = records.filter((r) => r.warc["warc-type"] === "metadata").map(fields);
    assert.equal(metadata[0]?.["robots-rule"], undefined);
    assert.equal(metadata[1]?.["truncated"], "size");
    const requests = records.filter((r) => r.warc["warc-type"] === "request");
    assert.deepEqual(requests[2]?.http, { host: "example.test" });
  });

  it("keeps call order when pages are written concurrently", async () => {
    const dir = freshDir();
    const writer = await WarcWriter.open(dir, { now: CLOCK });
    const pages = Array.from({ length: 20 }, (_, i) => page(i));
    await Promise.all(pages.map((p) => writer.write(p)));
    await writer.close();
    const [records = []] = await readBoth(await warcFiles(dir));
    assert.deepEqual(
      records
        .filter((r) => r.warc["warc-type"] === "response")
        .map((r) => r.warc["warc-target-uri"]),
      pages.map((p) => p.url),
    );
  });

  it("writes plain .warc when gzip is off", async () => {
    const dir = freshDir();
    const files = await writeAll(dir, [page(1), page(2)], { gzip: false, prefix: "plain" });
    assert.match(files[0] ?? "", /plain-\d{17}-00000\.warc$/);
    const [records = []] = await readBoth(files, false);
    assert.equal(records.length, 7);
  });

  it("refuses bad options and writes after close, with stable codes", async () => {
    await assert.rejects(WarcWriter.open(freshDir(), { prefix: "../x" }), {
      code: BAD_WARC_OPTION_CODE,
    });
    await assert.rejects(WarcWriter.open(freshDir(), { maxBytes: 0 }), {
      code: BAD_WARC_OPTION_CODE,
      message: /maxBytes: expected a positive whole number, got 0/,
    });
    const writer = await WarcWriter.open(freshDir());
    await writer.close();
    await assert.rejects(writer.write(page(1)), { code: WARC_CLOSED_CODE });
  });
});

describe("WarcWriter: rotation and restarts", SUITE, () => {
  it("closes a file once it passes maxBytes; a page's records stay together", async () => {
    const dir = freshDir();
    const maxBytes = 3000;
    const pages = Array.from({ length: 12 }, (_, i) =>
      page(i, { body: new TextEncoder().encode(`${i} `.repeat(400)) }),
    );
    const files = await writeAll(dir, pages, { maxBytes, prefix: "rot" });
    assert.ok(files.length >= 3, `several files, got ${files.length}`);
    assert.deepEqual(
      files.map((f) => f.slice(-14)),
      files.map((_, i) => `-${String(i).padStart(5, "0")}.warc.gz`),
    );
    const perFile = await readBoth(files);
    const seen: string[] = [];
    for (const [i, records] of perFile.entries()) {
      const types = records.map((r) => r.warc["warc-type"]);
      assert.equal(types[0], "warcinfo", "each file starts with warcinfo");
      assert.deepEqual(
        types.slice(1),
        Array.from({ length: (types.length - 1) / 3 }).flatMap(() => [
          "request",
          "response",
          "metadata",
        ]),
      );
      for (const r of records.filter((x) => x.warc["warc-type"] === "response"))
        seen.push(r.warc["warc-target-uri"] ?? "");
      const size = (await stat(files[i] ?? "")).size;
      if (i < files.length - 1) assert.ok(size >= maxBytes, `file ${i} rotated at ${size} bytes`);
    }
    assert.deepEqual(
      seen,
      pages.map((p) => p.url),
    );
  });

  it("a new run starts a new file, never appends, even after a partial last record", async () => {
    const dir = freshDir();
    const first = await writeAll(dir, [page(1), page(2)]);
    assert.equal(first.length, 1);
    const [path = ""] = first;
    // What SIGKILL can leave: the file ends inside a gzip member.
    const whole = (await stat(path)).size;
    const again = gzipSync("WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 999\r\n\r\n");
    await appendFile(path, again.subarray(0, 20));

    const second = await writeAll(dir, [page(3)]);
    assert.equal(second.length, 2, "the second run made its own file");
    assert.equal((await stat(path)).size, whole + 20, "the first file was not touched");
    const [records = []] = await readBoth([second[1] ?? ""]);
    assert.deepEqual(
      records.map((r) => r.warc["warc-type"]),
      ["warcinfo", "request", "response", "metadata"],
    );
    // warcio reads every complete record and stops at the partial member; cut off, the file
    // reads whole both ways.
    assert.equal((await readWithWarcio(path)).length, 7);
    await truncate(path, whole);
    const [kept = []] = await readBoth([path]);
    assert.equal(kept.length, 7);
  });
});

describe("heed crawl --out", SUITE, () => {
  it("--warc-max-bytes: rotates files, each exchange whole in one of them, every request once", async () => {
    const site = await startSite({ pages: 12, links: 3, pageBytes: 1500 });
    const dir = freshDir();
    try {
      const result = await runCli([
        "crawl",
        `${site.origin}/`,
        "--agent",
        "x",
        "--store",
        join(root, `crawl${n++}.db`),
        "--out",
        dir,
        "--warc-max-bytes",
        "3000",
        "--json",
        "--quiet",
      ]);
      assert.equal(result.code, 0, result.stderr);
      const files = await warcFiles(dir);
      assert.ok(files.length >= 4, `${files.length} files`);
      const perFile = await readBoth(files);
      const uris: string[] = [];
      for (const records of perFile) {
        const of = (type: string) =>
          records.filter((r) => r.warc["warc-type"] === type).map((r) => r.warc["warc-target-uri"]);
        assert.equal(
          records[0]?.warc["warc-type"],
          "warcinfo",
          "each file opens with its warcinfo",
        );
        assert.deepEqual(of("request"), of("response"), "an exchange's records stay in one file");
        // Each exchange is followed by a note of what heed did with it, in the same file.
        const noted = new Set(of("metadata"));
        for (const uri of of("response")) assert.ok(noted.has(uri), `a note on ${uri}`);
        uris.push(...(of("response") as string[]));
      }
      const fetched = site.log.map((r) => `${site.origin}${r.path}`);
      assert.deepEqual([...uris].sort(), [...fetched].sort());
      assert.equal(new Set(uris).size, uris.length);
      const bad = await runCli([
        "crawl",
        `${site.origin}/`,
        "--agent",
        "x",
        "--warc-max-bytes",
        "0",
      ]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--warc-max-bytes: expected a whole number ≥ 1, got "0"/);
    } finally {
      await site.close();
    }
  });

  it("writes one response record per request in the server log, with its body, headers and rule", async () => {
    const gzipped = 2;
    const options: SiteOptions = {
      pages: 10,
      links: 3,
      robots: "User-agent: *\nAllow: /page/\nDisallow: /page/5.html\nCrawl-delay: 0.05\n",
      extraLinks: ["/page/5.html", "/missing.html"],
      route: (req, res) => {
        if (req.url !== `/page/${gzipped}.html`) return false;
        // No Content-Length: Node sends it chunked.
        res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
        res.end(gzipSync(pageHtml(gzipped, options)));
        return true;
      },
    };
    const site = await startSite(options);
    const dir = freshDir();
    try {
      const result = await runCli([
        "crawl",
        `${site.origin}/`,
        "--agent",
        "x",
        "--store",
        join(root, `crawl${n++}.db`),
        "--out",
        dir,
        "--json",
        "--quiet",
      ]);
      assert.equal(result.code, 0, result.stderr);
      const summary = JSON.parse(result.stdout) as { fetched: number };
      const files = await warcFiles(dir);
      assert.equal(files.length, 1);
      const [records = []] = await readBoth(files);
      const fetched = site.log.filter((r) => isPage(r.path));
      assert.ok(
        !fetched.some((r) => r.path === "/page/5.html"),
        "the disallowed page was not asked",
      );
      const responses = records.filter((r) => r.warc["warc-type"] === "response");
      assert.deepEqual(
        responses.map((r) => r.warc["warc-target-uri"]).sort(),
        site.log.map((r) => `${site.origin}${r.path}`).sort(),
        "robots.txt and the sitemap fallback too",
      );
      assert.equal(
        responses.filter((r) => isPage(new URL(r.warc["warc-target-uri"] ?? "").pathname)).length,
        summary.fetched,
      );
      const [info] = records;
      assert.ok(info !== undefined);
      assert.match(fields(info)["software"] ?? "", /^heed\/\d+\.\d+\.\d+/);

      for (const logged of fetched) {
        const uri = `${site.origin}${logged.path}`;
        const of = (type: string) =>
          records.find((r) => r.warc["warc-type"] === type && r.warc["warc-target-uri"] === uri);
        const request = of("request");
        const response = of("response");
        // Two notes: what heed knew of the page it kept, then the crawl log's record.
        const [metadata, record] = records.filter(
          (r) => r.warc["warc-type"] === "metadata" && r.warc["warc-target-uri"] === uri,
        );
        assert.ok(request && response && metadata && record, uri);
        assert.equal(request.statusLine, `GET ${logged.path} HTTP/1.1`);
        assert.equal(request.http?.["user-agent"], logged.userAgent);
        assert.equal(request.http?.["host"], logged.headers["host"]);
        assert.equal(request.http?.["accept-encoding"], logged.headers["accept-encoding"]);
        const m = fields(metadata);
        assert.equal(metadata.warc["warc-refers-to"], response.warc["warc-record-id"]);
        assert.equal(record.warc["warc-refers-to"], response.warc["warc-record-id"]);
        assert.equal(fields(record)["heed-outcome"], "fetched");
        assert.equal(m["crawl-delay-seconds"], "0.05");
        const page = /^\/page\/(\d+)\.html$/.exec(logged.path);
        if (page !== null) {
          assert.equal(response.statusLine, "HTTP/1.1 200 OK");
          assert.equal(response.payload.toString("utf8"), pageHtml(Number(page[1]), options));
          assert.match(m["robots-rule"] ?? "", /Allow: \/page\//);
        }
        if (logged.path === "/missing.html") {
          assert.equal(response.statusLine, "HTTP/1.1 404 Not Found");
          assert.equal(response.payload.toString("utf8"), "not found");
        }
        if (logged.path === `/page/${gzipped}.html`) {
          assert.equal(response.http?.["content-encoding"], undefined);
          assert.equal(response.http?.["transfer-encoding"], undefined);
          assert.equal(response.http?.["content-length"], String(response.payload.length));
          assert.equal(m["original-content-encoding"], "gzip");
          assert.equal(m["original-transfer-encoding"], "chunked");
        }
      }
    } finally {
      await site.close();
    }
  });

  it("a crawl killed with SIGKILL leaves readable files; the resumed run adds a new file", async () => {
    const site = await startSite({
      pages: 30,
      links: 4,
      robots: "User-agent: *\nCrawl-delay: 0.1\n",
    });
    const dir = freshDir();
    const db = join(root, `crawl${n++}.db`);
    const args = [
      "crawl",
      `${site.origin}/`,
      "--agent",
      "x",
      "--store",
      db,
      "--out",
      dir,
      "--quiet",
    ];
    try {
      const child = spawn(process.execPath, [BIN, ...args], { stdio: "ignore" });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      const deadline = Date.now() + 20_000;
      while (site.log.length < 8 && Date.now() < deadline) await sleep(20);
      child.kill("SIGKILL");
      await exited;
      const killed = await warcFiles(dir);
      assert.equal(killed.length, 1);
      const pagesBefore = site.log.length;

      const result = await runCli(args);
      assert.equal(result.code, 0, result.stderr);
      const files = await warcFiles(dir);
      assert.equal(files.length, 2, "the resumed run wrote a file of its own");
      assert.ok(site.log.length > pagesBefore, "the resumed run fetched more pages");
      const asked = new Set(site.log.map((r) => `${site.origin}${r.path}`));
      const archived = new Set<string>();
      for (const records of await readBoth(files)) {
        for (const r of records.filter((x) => x.warc["warc-type"] === "response"))
          archived.add(r.warc["warc-target-uri"] ?? "");
      }
      // A page fetched just before the kill may be fetched again by the resumed run (its lease
      // was not settled); every request asked is archived at least once, and nothing else is.
      assert.deepEqual([...archived].sort(), [...asked].sort());
    } finally {
      await site.close();
    }
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
