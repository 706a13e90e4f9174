// The page fetcher against real servers on 127.0.0.1: one request, no redirect followed,
// decoding under caps, timeouts, conditional requests, --ip, and the SSRF guard.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { after, before, describe, it } from "node:test";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import {
  ACCEPT_ENCODING,
  createHttpClient,
  type HttpClient,
  type PageError,
  type PageResponse,
  type PageResult,
  RATIO_GRACE_BYTES,
} from "../../src/net/http-client.js";
import { startServer, type TestServer, text } from "../helpers/http-server.js";

const HELLO = "hello, heed! ".repeat(1000);
const ETAG = '"v1"';
const LAST_MODIFIED = "Wed, 21 Oct 2015 07:28:00 GMT";
// A real decompression bomb: 10 MB of zeros is about 10 KB gzipped.
const BOMB_SIZE = 10 * 1024 * 1024;
const GZIP_BOMB = gzipSync(Buffer.alloc(BOMB_SIZE));
const BROTLI_BOMB = brotliCompressSync(Buffer.alloc(BOMB_SIZE));
const RANDOM_GZIP = gzipSync(randomBytes(1024 * 1024));
/** Every wait in these tests is bounded by this, or less. */
const SHORT_MS = 300;
const BOUND_MS = 2000;

function encoded(body: Buffer, encoding: string) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/plain", "content-encoding": encoding });
    res.end(body);
  };
}

function echo(pick: (req: IncomingMessage) => string | undefined) {
  return (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(pick(req) ?? "(none)");
  };
}

function response(result: PageResult): PageResponse {
  assert.equal(result.kind, "response", JSON.stringify(result));
  return result as PageResponse;
}

function failure(result: PageResult): PageError {
  assert.equal(result.kind, "error", JSON.stringify({ ...result, body: undefined }));
  return result as PageError;
}

function bodyText(result: PageResult): string {
  return new TextDecoder().decode(response(result).body ?? new Uint8Array());
}

describe("fetchPage", () => {
  let server: TestServer;
  let client: HttpClient;
  const opened: HttpClient[] = [];
  const open = (options: Parameters<typeof createHttpClient>[0]) => {
    const made = createHttpClient(options);
    opened.push(made);
    return made;
  };

  before(async () => {
    server = await startServer({
      "/html": text("<p>hi</p>", 200, {
        "content-type": "text/html; charset=UTF-8",
        "x-robots-tag": "noindex",
      }),
      "/multi": (_req, res) => {
        res.setHeader("x-multi", ["first", "second"]);
        res.setHeader("Content-Usage", ["train-ai=y", "train-ai=n"]);
        res.setHeader("content-signal", ["search=yes", "ai-train=no"]);
        res.setHeader("tdm-reservation", ["0", "1"]);
        res.setHeader("x-robots-tag", ["googlebot: noindex", "noai"]);
        res.end("two");
      },
      "/created": text("", 201),
      "/gone": text("gone", 410),
      "/oops": text("oops", 500),
      "/no-content": (_req, res) => {
        res.writeHead(204);
        res.end();
      },
      "/ua": echo((req) => req.headers["user-agent"]),
      "/cookie": echo((req) => req.headers.cookie),
      "/accept-encoding": echo((req) => req.headers["accept-encoding"]),
      "/conditional": (req, res) => {
        const fresh =
          req.headers["if-none-match"] === ETAG ||
          req.headers["if-modified-since"] === LAST_MODIFIED;
        res.writeHead(fresh ? 304 : 200, { etag: ETAG, "last-modified": LAST_MODIFIED });
        res.end(fresh ? undefined : "the page");
      },
      "/gzip": encoded(gzipSync(HELLO), "gzip"),
      "/x-gzip": encoded(gzipSync(HELLO), "x-gzip"),
      "/deflate": encoded(deflateSync(HELLO), "deflate"),
      "/deflate-raw": encoded(deflateRawSync(HELLO), "deflate"),
      "/br": encoded(brotliCompressSync(HELLO), "br"),
      "/identity": encoded(Buffer.from(HELLO), "identity"),
      "/zstd": encoded(Buffer.from(HELLO), "zstd"),
      "/corrupt-gzip": encoded(
        Buffer.concat([gzipSync(HELLO).subarray(0, 10), randomBytes(200)]),
        "gzip",
      ),
      "/truncated-gzip": encoded(gzipSync(HELLO).subarray(0, 200), "gzip"),
      "/gzip-bomb": encoded(GZIP_BOMB, "gzip"),
      "/br-bomb": encoded(BROTLI_BOMB, "br"),
      "/random-gzip": encoded(RANDOM_GZIP, "gzip"),
      "/big": text("#".repeat(5 * 1024 * 1024)),
      "/moved": (_req, res) => {
        res.writeHead(301, { location: "/target?x=1", "content-type": "text/html" });
        res.end("<a href=/target?x=1>moved</a>");
      },
      "/moved-far": (_req, res) => {
        res.writeHead(302, { location: "https://other.example/a b" });
        res.end();
      },
      "/busy": text("later", 503, { "retry-after": "120" }),
      "/busy-date": text("later", 429, { "retry-after": "Tue, 01 Jan 2030 00:01:00 GMT" }),
      "/busy-garbage": text("later", 503, { "retry-after": "whenever" }),
      "/stall-headers": () => {
        // Never answers; the client must give up.
      },
      "/stall-body": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("a start, and then nothing");
      },
      "/trickle": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        const timer = setInterval(() => res.write("."), 50);
        res.on("close", () => clearInterval(timer));
      },
      "/whoami": echo((req) => req.socket.remoteAddress),
      "/port": echo((req) => String(req.socket.remotePort)),
    });
    client = open({ userAgent: "heed-test/1.0", allowPrivateAddresses: true });
  });
  after(async () => {
    await Promise.all(opened.map((made) => made.close()));
    await server.close();
  });

  describe("answers", () => {
    it("a 200 comes back with status, headers, media type, charset and body", async () => {
      const result = response(await client.fetchPage(`${server.origin}/html#fragment`));
      assert.equal(result.url, `${server.origin}/html`);
      assert.equal(result.status, 200);
      assert.equal(result.contentType, "text/html");
      assert.equal(result.charset, "utf-8");
      assert.equal(result.headers["x-robots-tag"], "noindex");
      assert.equal(result.headers["content-type"], "text/html; charset=UTF-8");
      assert.equal(bodyText(result), "<p>hi</p>");
      assert.equal(result.bodyCut, false);
      assert.equal("cutReason" in result, false);
      assert.equal(result.wireBytes, 9);
      assert.equal(result.location, null);
      assert.equal(result.retryAfterMs, null);
      assert.ok(result.ms >= 0 && result.ms < BOUND_MS);
    });
    it("a repeated header gives its first value", async () => {
      assert.equal(
        response(await client.fetchPage(`${server.origin}/multi`)).headers["x-multi"],
        "first",
      );
    });
    it("every line of Content-Usage, Content-Signal, tdm-reservation and X-Robots-Tag is kept", async () => {
      // A second Content-Usage line saying train-ai=n must be read (RFC 9110 §5.3: the lines
      // combine in order); an X-Robots-Tag line naming a robot must not take in the next one.
      const { headers } = response(await client.fetchPage(`${server.origin}/multi`));
      assert.equal(headers["content-usage"], "train-ai=y, train-ai=n");
      assert.equal(headers["content-signal"], "search=yes, ai-train=no");
      // A reservation on the second line is read (protocol/usage/tdmrep.ts: any 1 reserves).
      assert.equal(headers["tdm-reservation"], "0, 1");
      assert.equal(headers["x-robots-tag"], "googlebot: noindex\nnoai");
    });
    it("201, 404, 410 and 500 are responses, not errors", async () => {
      for (const [path, status] of [
        ["/created", 201],
        ["/nowhere", 404],
        ["/gone", 410],
        ["/oops", 500],
      ] as const) {
        assert.equal(response(await client.fetchPage(`${server.origin}${path}`)).status, status);
      }
    });
    it("204 has no body", async () => {
      const result = response(await client.fetchPage(`${server.origin}/no-content`));
      assert.equal(result.status, 204);
      assert.equal(result.body, null);
    });
    it("connections are kept alive and reused", async () => {
      const pooled = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        connectionsPerOrigin: 1,
      });
      const first = bodyText(await pooled.fetchPage(`${server.origin}/port`));
      await pooled.fetchPage(`${server.origin}/gzip`);
      const third = bodyText(await pooled.fetchPage(`${server.origin}/port`));
      assert.equal(first, third);
    });
  });

  describe("what is sent", () => {
    it("User-Agent", async () => {
      assert.equal(bodyText(await client.fetchPage(`${server.origin}/ua`)), "heed-test/1.0");
    });
    it("Cookie, as a REGP Cookie line asks (seeds/003)", async () => {
      const result = await client.fetchPage(`${server.origin}/cookie`, {
        headers: { cookie: "session=abc; lang=en" },
      });
      assert.equal(bodyText(result), "session=abc; lang=en");
      assert.equal(bodyText(await client.fetchPage(`${server.origin}/cookie`)), "(none)");
    });
    it("Accept-Encoding: gzip, deflate, br", async () => {
      assert.equal(
        bodyText(await client.fetchPage(`${server.origin}/accept-encoding`)),
        ACCEPT_ENCODING,
      );
    });
    it("a header value with a line break is an error result, not an exception", async () => {
      const result = await client.fetchPage(`${server.origin}/cookie`, {
        headers: { cookie: "a=b\r\nx-injected: yes" },
      });
      assert.equal(failure(result).code, "other");
    });
  });

  describe("conditional requests (RFC 9110 §13.1)", () => {
    it("the first fetch gives the validators", async () => {
      const result = response(await client.fetchPage(`${server.origin}/conditional`));
      assert.equal(result.status, 200);
      assert.equal(result.etag, ETAG);
      assert.equal(result.lastModified, LAST_MODIFIED);
      assert.equal(bodyText(result), "the page");
    });
    it("If-None-Match is sent and a 304 has no body", async () => {
      const result = response(
        await client.fetchPage(`${server.origin}/conditional`, { headers: { ifNoneMatch: ETAG } }),
      );
      assert.equal(result.status, 304);
      assert.equal(result.body, null);
      assert.equal(result.etag, ETAG);
    });
    it("If-Modified-Since is sent, as a string or a Date", async () => {
      for (const ifModifiedSince of [LAST_MODIFIED, new Date(LAST_MODIFIED)]) {
        const result = response(
          await client.fetchPage(`${server.origin}/conditional`, { headers: { ifModifiedSince } }),
        );
        assert.equal(result.status, 304);
        assert.equal(result.body, null);
      }
    });
    it("a stale validator gets the page", async () => {
      const result = await client.fetchPage(`${server.origin}/conditional`, {
        headers: { ifNoneMatch: '"v0"' },
      });
      assert.equal(response(result).status, 200);
    });
  });

  describe("content codings", () => {
    for (const path of ["/gzip", "/x-gzip", "/deflate", "/deflate-raw", "/br", "/identity"]) {
      it(`${path} is decoded`, async () => {
        const result = response(await client.fetchPage(`${server.origin}${path}`));
        assert.equal(bodyText(result), HELLO);
        assert.equal(result.bodyCut, false);
        if (path !== "/identity") assert.ok(result.wireBytes < HELLO.length / 10);
      });
    }
    it("an unknown coding is an error, not bytes passed off as text", async () => {
      const result = failure(await client.fetchPage(`${server.origin}/zstd`));
      assert.equal(result.code, "other");
      assert.match(result.message, /zstd/);
    });
    it("corrupt gzip is an error", async () => {
      const result = failure(await client.fetchPage(`${server.origin}/corrupt-gzip`));
      assert.equal(result.code, "other");
      assert.match(result.message, /cannot decode the gzip body/);
    });
    it("gzip cut short gives what it holds", async () => {
      const result = response(await client.fetchPage(`${server.origin}/truncated-gzip`));
      const decoded = bodyText(result);
      assert.ok(decoded.length > 0 && HELLO.startsWith(decoded));
    });
  });

  describe("limits", () => {
    it("a gzip bomb stops at the compression-ratio cap", async () => {
      const capped = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        maxRatio: 50,
        maxDecompressedBytes: 100 * 1024 * 1024,
      });
      const result = response(await capped.fetchPage(`${server.origin}/gzip-bomb`));
      assert.equal(result.bodyCut, true);
      assert.equal(result.cutReason, "ratio");
      const size = result.body?.byteLength ?? 0;
      assert.ok(size > RATIO_GRACE_BYTES && size < BOMB_SIZE / 2, `kept ${size} bytes`);
      assert.ok(result.wireBytes <= GZIP_BOMB.byteLength);
    });
    it("a brotli bomb stops too, with the default limits", async () => {
      const result = response(
        await open({ userAgent: "heed-test", allowPrivateAddresses: true }).fetchPage(
          `${server.origin}/br-bomb`,
        ),
      );
      assert.equal(result.bodyCut, true);
      assert.equal(result.cutReason, "ratio");
      assert.ok((result.body?.byteLength ?? 0) < BOMB_SIZE);
    });
    it("a gzip bomb stops at the decompressed-size cap, keeping exactly that much", async () => {
      const capped = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        maxRatio: 1_000_000,
        maxDecompressedBytes: 1024 * 1024,
      });
      const result = response(await capped.fetchPage(`${server.origin}/gzip-bomb`));
      assert.equal(result.cutReason, "size");
      assert.equal(result.body?.byteLength, 1024 * 1024);
      assert.ok(result.body?.every((byte) => byte === 0));
    });
    it("the raw body is cut at maxBodyBytes", async () => {
      const capped = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        maxBodyBytes: 1000,
      });
      const result = response(await capped.fetchPage(`${server.origin}/big`));
      assert.equal(result.bodyCut, true);
      assert.equal(result.cutReason, "size");
      assert.equal(result.wireBytes, 1000);
      assert.equal(bodyText(result), "#".repeat(1000));
      // The cut connection is not reused for garbage: the next request still works.
      assert.equal(bodyText(await capped.fetchPage(`${server.origin}/html`)), "<p>hi</p>");
    });
    it("one exchange may carry its own body limit (a sitemap's 50 MB), above or below the client's", async () => {
      const capped = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        maxBodyBytes: 1000,
      });
      const whole = response(await capped.fetchPage(`${server.origin}/big`, { maxBodyBytes: 6e6 }));
      assert.equal(whole.bodyCut, false);
      assert.ok((whole.body?.byteLength ?? 0) > 1000);
      const small = response(await capped.fetchPage(`${server.origin}/big`, { maxBodyBytes: 10 }));
      assert.equal(small.cutReason, "size");
      assert.equal(bodyText(small), "#".repeat(10));
      // The client's own limit is untouched for the next exchange.
      assert.equal(response(await capped.fetchPage(`${server.origin}/big`)).wireBytes, 1000);
    });
    it("the raw cap counts compressed bytes, and keeps what they decode to", async () => {
      const capped = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        maxBodyBytes: 10_000,
      });
      const result = response(await capped.fetchPage(`${server.origin}/random-gzip`));
      assert.equal(result.cutReason, "size");
      assert.equal(result.wireBytes, 10_000);
      const size = result.body?.byteLength ?? 0;
      assert.ok(size > 0 && size <= 10_000, `kept ${size} bytes`);
    });
  });

  describe("redirects are not followed", () => {
    it("a 301 comes back with its Location resolved, and the target is not asked", async () => {
      const before = server.requests.length;
      const result = response(await client.fetchPage(`${server.origin}/moved`));
      assert.equal(result.status, 301);
      assert.equal(result.location, `${server.origin}/target?x=1`);
      assert.equal(result.body, null);
      assert.deepEqual(server.requests.slice(before), ["/moved"]);
    });
    it("an absolute Location to another host is resolved as a URL", async () => {
      const result = response(await client.fetchPage(`${server.origin}/moved-far`));
      assert.equal(result.location, "https://other.example/a%20b");
    });
  });

  describe("Retry-After (RFC 9110 §10.2.3)", () => {
    it("delta-seconds", async () => {
      const result = response(await client.fetchPage(`${server.origin}/busy`));
      assert.equal(result.status, 503);
      assert.equal(result.retryAfterMs, 120_000);
    });
    it("an HTTP-date, against the injected clock", async () => {
      const clocked = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        now: () => Date.UTC(2030, 0, 1),
      });
      const result = response(await clocked.fetchPage(`${server.origin}/busy-date`));
      assert.equal(result.status, 429);
      assert.equal(result.retryAfterMs, 60_000);
    });
    it("garbage is null", async () => {
      assert.equal(
        response(await client.fetchPage(`${server.origin}/busy-garbage`)).retryAfterMs,
        null,
      );
    });
  });

  describe("timeouts and network errors", () => {
    const quick = () =>
      open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        headersTimeoutMs: SHORT_MS,
        bodyTimeoutMs: SHORT_MS,
        totalTimeoutMs: BOUND_MS,
      });
    it("a server that never sends headers: timeout", async () => {
      const result = failure(await quick().fetchPage(`${server.origin}/stall-headers`));
      assert.equal(result.code, "timeout");
      assert.ok(result.ms >= SHORT_MS - 50 && result.ms < BOUND_MS, `${result.ms} ms`);
    });
    it("a body that stalls: timeout", async () => {
      const result = failure(await quick().fetchPage(`${server.origin}/stall-body`));
      assert.equal(result.code, "timeout");
      assert.ok(result.ms < BOUND_MS, `${result.ms} ms`);
    });
    it("a body that trickles under the idle limit still ends: total timeout", async () => {
      const trickled = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        bodyTimeoutMs: BOUND_MS,
        totalTimeoutMs: SHORT_MS,
      });
      const result = failure(await trickled.fetchPage(`${server.origin}/trickle`));
      assert.equal(result.code, "timeout");
      assert.match(result.message, /the total deadline for one request \(0\.3 s\) ended/);
      assert.ok(result.ms < BOUND_MS, `${result.ms} ms`);
    });
    it("the caller's signal aborts: other", async () => {
      const result = failure(
        await client.fetchPage(`${server.origin}/stall-headers`, {
          signal: AbortSignal.timeout(SHORT_MS),
        }),
      );
      assert.equal(result.code, "other");
      assert.equal(result.message, "aborted");
    });
    it("a refused connection: refused", async () => {
      const closed = await startServer({});
      await closed.close();
      const result = failure(await client.fetchPage(`${closed.origin}/`));
      assert.equal(result.code, "refused");
      assert.ok(result.ms < BOUND_MS);
    });
    it("TLS to a plain HTTP server: tls", async () => {
      const result = failure(
        await quick().fetchPage(server.origin.replace("http:", "https:") + "/html"),
      );
      assert.equal(result.code, "tls", result.message);
    });
    it("not a URL, or not http(s): other", async () => {
      assert.equal(failure(await client.fetchPage("no url")).code, "other");
      assert.equal(failure(await client.fetchPage("ftp://127.0.0.1/")).code, "other");
    });
  });

  describe("--ip: the local address", () => {
    it("localAddress 127.0.0.1 is the address the server sees", async () => {
      const bound = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        localAddress: "127.0.0.1",
      });
      assert.equal(bodyText(await bound.fetchPage(`${server.origin}/whoami`)), "127.0.0.1");
    });
    it("another loopback address, 127.0.0.2, is seen as that", async () => {
      const bound = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        localAddress: "127.0.0.2",
      });
      assert.equal(bodyText(await bound.fetchPage(`${server.origin}/whoami`)), "127.0.0.2");
    });
    it("an address this machine does not have is an error result", async () => {
      const bound = open({
        userAgent: "heed-test",
        allowPrivateAddresses: true,
        localAddress: "192.0.2.1",
        connectTimeoutMs: BOUND_MS,
      });
      const result = failure(await bound.fetchPage(`${server.origin}/whoami`));
      assert.match(result.message, /EADDRNOTAVAIL|EINVAL/);
    });
    it("something that is not an IP address is refused when the client is made", () => {
      assert.throws(
        () => createHttpClient({ userAgent: "heed-test", localAddress: "eth0" }),
        (error: unknown) =>
          error instanceof TypeError &&
          /localAddress: expected an IP address, got "eth0"/.test(error.message) &&
          (error as { code?: unknown }).code === "HEED_BAD_HTTP_OPTION",
      );
    });
  });

  describe("the SSRF guard", () => {
    it("by default 127.0.0.1 is blocked, and nothing reaches the server", async () => {
      const guarded = open({ userAgent: "heed-test" });
      const before = server.requests.length;
      const result = failure(await guarded.fetchPage(`${server.origin}/html`));
      assert.equal(result.code, "blocked");
      assert.match(result.message, /127\.0\.0\.1.*loopback/);
      assert.equal(server.requests.length, before);
    });
    it("a name that resolves to loopback (localhost) is blocked at lookup", async () => {
      const guarded = open({ userAgent: "heed-test" });
      const result = failure(
        await guarded.fetchPage(server.origin.replace("127.0.0.1", "localhost") + "/html"),
      );
      assert.equal(result.code, "blocked");
      assert.match(result.message, /localhost/);
    });
    it("IPv6 loopback and IPv4-mapped loopback are blocked", async () => {
      const guarded = open({ userAgent: "heed-test" });
      const port = new URL(server.origin).port;
      for (const host of ["[::1]", "[::ffff:127.0.0.1]"]) {
        assert.equal(
          failure(await guarded.fetchPage(`http://${host}:${port}/html`)).code,
          "blocked",
          host,
        );
      }
    });
    it("allowPrivateAddresses turns it off", async () => {
      assert.equal(response(await client.fetchPage(`${server.origin}/html`)).status, 200);
    });
  });

  it("options are checked when the client is made", () => {
    assert.throws(() => createHttpClient({ userAgent: "" }), /userAgent: expected a non-empty/);
    assert.throws(
      () => createHttpClient({ userAgent: "x", maxBodyBytes: -1 }),
      /maxBodyBytes: expected a positive number, got -1/,
    );
    assert.throws(
      () => createHttpClient({ userAgent: "x", connectionsPerOrigin: 1.5 }),
      /connectionsPerOrigin: expected a positive integer, got 1.5/,
    );
  });
});
