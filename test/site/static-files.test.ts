// heed serve's static files: media types, conditional GET (RFC 9110 §13.1), robots.txt from
// the directory, and every way out of the directory refused.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startSiteServer, type SiteServer } from "../../src/site/site-server.js";

/** A raw request, so that paths like /../x reach the server unnormalised. */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  const u = new URL(base);
  return new Promise((ok, fail) => {
    const req = request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        ok({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", fail);
    req.setTimeout(5000, () => req.destroy(new Error("timeout")));
    req.end();
  });
}

describe("static files", () => {
  let dir: string;
  let outside: string;
  let server: SiteServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-site-"));
    outside = await mkdtemp(join(tmpdir(), "heed-outside-"));
    await writeFile(join(outside, "secret.txt"), "secret");
    await mkdir(join(dir, "docs"));
    await writeFile(join(dir, "index.html"), "<h1>home</h1>");
    await writeFile(join(dir, "docs", "index.html"), "<h1>docs</h1>");
    await writeFile(join(dir, "docs", "a b,c.txt"), "spaces");
    await writeFile(join(dir, "style.css"), "body{}");
    await writeFile(join(dir, "data.bin"), "xx");
    await writeFile(join(dir, "robots.txt"), "User-agent: *\nDisallow: /private/\n");
    await writeFile(join(dir, ".env"), "SECRET=1");
    await symlink(outside, join(dir, "out"));
    await symlink(join(outside, "secret.txt"), join(dir, "link.txt"));
    server = await startSiteServer({ root: dir });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  const TYPES: readonly [path: string, type: string][] = [
    ["/", "text/html; charset=utf-8"],
    ["/style.css", "text/css; charset=utf-8"],
    ["/robots.txt", "text/plain; charset=utf-8"],
    ["/data.bin", "application/octet-stream"],
    ["/docs/", "text/html; charset=utf-8"],
    ["/docs/a%20b%2Cc.txt", "text/plain; charset=utf-8"],
  ];
  for (const [path, type] of TYPES) {
    it(`${path}: 200 ${type}`, async () => {
      const r = await get(server.url, path);
      assert.equal(r.status, 200);
      assert.equal(r.headers["content-type"], type);
    });
  }

  it("serves the directory's robots.txt", async () => {
    assert.equal(
      (await get(server.url, "/robots.txt")).body,
      "User-agent: *\nDisallow: /private/\n",
    );
  });

  it("a directory without its slash is redirected to it", async () => {
    const r = await get(server.url, "/docs");
    assert.equal(r.status, 301);
    assert.equal(r.headers.location, "/docs/");
  });

  it("conditional GET: If-None-Match and If-Modified-Since give 304; a changed file 200", async () => {
    const first = await get(server.url, "/style.css");
    const etag = String(first.headers.etag);
    const lm = String(first.headers["last-modified"]);
    assert.match(etag, /^"[0-9a-f]+-[0-9a-f]+"$/);
    assert.equal((await get(server.url, "/style.css", { "if-none-match": etag })).status, 304);
    assert.equal(
      (await get(server.url, "/style.css", { "if-none-match": `W/${etag}` })).status,
      304,
    );
    assert.equal((await get(server.url, "/style.css", { "if-modified-since": lm })).status, 304);
    assert.equal((await get(server.url, "/style.css", { "if-none-match": '"other"' })).status, 200);
    // RFC 9110 §13.1.3: If-Modified-Since is ignored when If-None-Match is present.
    assert.equal(
      (await get(server.url, "/style.css", { "if-none-match": '"other"', "if-modified-since": lm }))
        .status,
      200,
    );
    await writeFile(join(dir, "style.css"), "body{color:red}");
    const changed = await get(server.url, "/style.css", { "if-none-match": etag });
    assert.equal(changed.status, 200);
    assert.equal(changed.body, "body{color:red}");
  });

  it("HEAD has the headers and no body; POST is 405", async () => {
    const head = await get(server.url, "/style.css", {}, "HEAD");
    assert.equal(head.status, 200);
    assert.equal(head.body, "");
    assert.ok(Number(head.headers["content-length"]) > 0);
    assert.equal((await get(server.url, "/style.css", {}, "POST")).status, 405);
  });

  // Every way out of the directory, and what is not published.
  const REFUSED: readonly string[] = [
    "/../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/docs/..%2f..%2fetc/passwd",
    "/docs/%2e%2e%5c%2e%2e%5cetc",
    "/.env",
    "/%2eenv",
    "/out/secret.txt",
    "/link.txt",
    "/missing.html",
    "/%E0%A4%A",
    "/docs%00.html",
  ];
  for (const path of REFUSED) {
    it(`refuses ${path} with 404`, async () => {
      const r = await get(server.url, path);
      assert.equal(r.status, 404);
      assert.ok(!r.body.includes("secret"));
    });
  }
});
