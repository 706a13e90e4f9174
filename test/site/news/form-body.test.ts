// Form bodies of the news site, read over real HTTP with their limits: bytes (declared and
// streamed), fields, and the content type.
import assert from "node:assert/strict";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { type FormResult, parseForm, readForm } from "../../../src/site/news/form-body.js";
import { MAX_FORM_FIELDS } from "../../../src/site/news/limits.js";

let origin = "";
const server = createServer((req, res) => {
  readForm(req, { maxBytes: 1024, maxFields: 3 }).then(
    (result) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(show(result))),
    () => res.destroy(),
  );
});

function show(result: FormResult) {
  return result.ok ? { ok: true, fields: Object.fromEntries(result.fields) } : result;
}

function post(
  body: string,
  headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" },
  chunked = false,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/`, { method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
    });
    req.on("error", reject);
    if (chunked) {
      // No Content-Length: the limit must hold while streaming.
      for (let i = 0; i < body.length; i += 100) req.write(body.slice(i, i + 100));
      req.end();
    } else req.end(body);
  });
}

describe("form bodies", () => {
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("decodes fields, percent-escapes and + included; the first of a repeated name wins", async () => {
    const r = await post("user=ann&text=caf%C3%A9+au+lait&user=bob");
    assert.deepEqual(r, { ok: true, fields: { user: "ann", text: "café au lait" } });
  });

  it("refuses another content type with 415", async () => {
    const r = await post('{"user":"ann"}', { "content-type": "application/json" });
    assert.equal(r.status, 415);
    assert.match(String(r.message), /application\/json/);
  });

  it("refuses a body over the byte limit, by its Content-Length", async () => {
    const r = await post(`text=${"a".repeat(1100)}`);
    assert.equal(r.status, 413);
    assert.match(String(r.message), /1024 bytes/);
  });

  it("refuses a body over the byte limit while streaming it (no Content-Length)", async () => {
    const r = await post(
      `text=${"a".repeat(1100)}`,
      { "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" },
      true,
    );
    assert.equal(r.status, 413);
  });

  it("takes a body of exactly the limit", async () => {
    const r = await post(`text=${"a".repeat(1024 - 5)}`);
    assert.equal(r.ok, true);
  });

  it("refuses more fields than the limit", async () => {
    assert.equal((await post("a=1&b=2&c=3")).ok, true);
    const r = await post("a=1&b=2&c=3&d=4");
    assert.equal(r.status, 413);
    assert.match(String(r.message), /3 fields/);
  });

  it("by default, at most MAX_FORM_FIELDS fields", () => {
    const many = Array.from({ length: MAX_FORM_FIELDS + 1 }, (_, i) => `f${i}=1`).join("&");
    assert.equal(parseForm(many).ok, false);
    assert.equal(parseForm(many.slice(0, many.lastIndexOf("&"))).ok, true);
  });
});
