// net/guarded-request.ts: the one client every fetch outside the crawler's page loop goes
// through (DESIGN §2 "One way out"): redirects followed here, hop by hop, each hop guarded.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  BAD_URL_CODE,
  GuardedRequestError,
  guardedRequest,
} from "../../src/net/guarded-request.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const local = { allowPrivateAddresses: true } as const;

describe("guardedRequest", () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      "/ok": (_req, res) => res.end("fine"),
      "/to-ok": (_req, res) => {
        res.writeHead(301, { location: "/ok" });
        res.end();
      },
      "/bad-location": (_req, res) => {
        res.writeHead(302, { location: "http://[::1" });
        res.end();
      },
      "/file-location": (_req, res) => {
        res.writeHead(302, { location: "file:///etc/passwd" });
        res.end();
      },
      "/no-location": (_req, res) => {
        res.writeHead(302);
        res.end();
      },
      "/post": (req, res) => {
        res.writeHead(307, { location: "/ok", "x-method": req.method ?? "" });
        res.end();
      },
    });
  });
  after(() => server.close());

  it("follows redirects and says where the answer came from", async () => {
    const answer = await guardedRequest(`${server.origin}/to-ok`, { ...local, maxRedirects: 5 });
    assert.equal(answer.status, 200);
    assert.equal(answer.url, `${server.origin}/ok`);
    assert.equal(answer.redirects, 1);
    assert.equal(await answer.body.text(), "fine");
  });

  it("follows none by default and hands back the 3xx with its Location resolved", async () => {
    const answer = await guardedRequest(`${server.origin}/to-ok`, local);
    await answer.body.dump();
    assert.equal(answer.status, 301);
    assert.equal(answer.location, `${server.origin}/ok`);
    assert.equal(answer.redirects, 0);
  });

  it("stops at the hop limit: a redirect loop ends with the last 3xx", async () => {
    const loop = await startServer({
      "/loop": (_req, res) => {
        res.writeHead(302, { location: "/loop" });
        res.end();
      },
    });
    try {
      const answer = await guardedRequest(`${loop.origin}/loop`, { ...local, maxRedirects: 3 });
      await answer.body.dump();
      assert.equal(answer.status, 302);
      assert.equal(answer.redirects, 3);
      assert.equal(loop.requests.length, 4);
    } finally {
      await loop.close();
    }
  });

  it("a Location that is not a URL, or not http(s), is a one-line HEED_BAD_URL error", async () => {
    for (const path of ["/bad-location", "/file-location"]) {
      const error = await guardedRequest(`${server.origin}${path}`, { ...local, maxRedirects: 5 })
        .then(() => null)
        .catch((caught: unknown) => caught);
      assert.ok(error instanceof GuardedRequestError, `${path}: ${String(error)}`);
      assert.equal(error.code, BAD_URL_CODE);
      assert.equal(error.url, `${server.origin}${path}`);
      assert.doesNotMatch(error.message, /\n/);
    }
    await assert.rejects(guardedRequest("ftp://example.com/", local), { code: BAD_URL_CODE });
    await assert.rejects(guardedRequest("not a url", local), { code: BAD_URL_CODE });
  });

  it("a 3xx without a Location comes back as it is", async () => {
    const answer = await guardedRequest(`${server.origin}/no-location`, {
      ...local,
      maxRedirects: 5,
    });
    await answer.body.dump();
    assert.equal(answer.status, 302);
    assert.equal(answer.location, null);
  });

  it("never follows the redirect of a POST", async () => {
    const answer = await guardedRequest(`${server.origin}/post`, {
      ...local,
      method: "POST",
      body: "a=1",
      maxRedirects: 5,
    });
    await answer.body.dump();
    assert.equal(answer.status, 307);
    assert.equal(answer.headers["x-method"], "POST");
  });

  it("without the user naming a private host, loopback is refused before any byte is sent", async () => {
    const before = server.requests.length;
    await assert.rejects(guardedRequest(`${server.origin}/ok`), { code: "HEED_BLOCKED_ADDRESS" });
    await assert.rejects(guardedRequest(`http://localhost:${new URL(server.origin).port}/ok`), {
      code: "HEED_BLOCKED_ADDRESS",
    });
    assert.equal(server.requests.length, before);
  });
});
