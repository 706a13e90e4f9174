// Fetching robots.txt from a real server on 127.0.0.1 (DESIGN §3).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createHttpClient, type HttpClient } from "../../src/net/http-client.js";
import { fetchRobots, robotsUrlFor } from "../../src/net/robots-fetch.js";
import { redirect, startServer, type TestServer, text } from "../helpers/http-server.js";

/** These tests talk to servers on 127.0.0.1, which the guard refuses unless asked. */
const local = { allowPrivateAddresses: true } as const;

describe("fetchRobots", () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      "/ok/robots.txt": text("User-agent: *\nDisallow: /x\n", 200, {
        "cache-control": "max-age=600",
      }),
      "/r1": redirect("/r2"),
      "/r2": redirect("/ok/robots.txt", 302),
      "/loop": redirect("/loop"),
      "/nolocation": (_req, res) => {
        res.writeHead(302);
        res.end();
      },
      "/forbidden": text("no", 403),
      "/gone": text("gone", 410),
      "/broken": text("oops", 503),
      "/big": text("#".repeat(5 * 1024 * 1024)),
      "/ua/robots.txt": (req, res) => {
        const known = req.headers["user-agent"] === "heed-shared/1.0";
        res.writeHead(known ? 200 : 403, { "content-type": "text/plain" });
        res.end(known ? "User-agent: *\nAllow: /\n" : "who are you?");
      },
    });
  });
  after(() => server.close());

  describe("through a shared HttpClient", () => {
    const clients: HttpClient[] = [];
    after(() => Promise.all(clients.map((client) => client.close())));
    const make = (allowPrivateAddresses: boolean) => {
      const client = createHttpClient({ userAgent: "heed-shared/1.0", allowPrivateAddresses });
      clients.push(client);
      return client;
    };
    it("uses the client's pools and its User-Agent", async () => {
      const result = await fetchRobots(`${server.origin}/ua/robots.txt`, {
        ...local,
        client: make(true),
      });
      assert.equal(result.status, 200);
      assert.equal(result.verdict.action, "parse");
    });
    it("follows redirects through it as before", async () => {
      const result = await fetchRobots(`${server.origin}/r1`, { ...local, client: make(true) });
      assert.equal(result.redirects, 2);
      assert.equal(result.verdict.action, "parse");
    });
    it("gets the client's SSRF guard: a blocked robots.txt is unreachable, never allowed", async () => {
      const before = server.requests.length;
      const result = await fetchRobots(`${server.origin}/ok/robots.txt`, {
        ...local,
        client: make(false),
      });
      assert.equal(result.status, null);
      assert.equal(result.verdict.action, "unreachable");
      assert.match(result.verdict.why, /HEED_BLOCKED_ADDRESS/);
      assert.equal(server.requests.length, before);
    });
  });

  it("reads a 2xx body and its cache lifetime", async () => {
    const result = await fetchRobots(`${server.origin}/ok/robots.txt`, local);
    assert.equal(result.verdict.action, "parse");
    assert.equal(
      new TextDecoder().decode(result.body ?? new Uint8Array()),
      "User-agent: *\nDisallow: /x\n",
    );
    assert.equal(result.lifetimeMs, 600_000);
  });
  it("follows redirects and says where it ended", async () => {
    const result = await fetchRobots(`${server.origin}/r1`, local);
    assert.equal(result.verdict.action, "parse");
    assert.equal(result.redirects, 2);
    assert.equal(result.finalUrl, `${server.origin}/ok/robots.txt`);
  });
  it("gives up after five redirects: unreachable", async () => {
    const before = server.requests.length;
    const result = await fetchRobots(`${server.origin}/loop`, local);
    assert.equal(result.verdict.action, "unreachable");
    assert.equal(server.requests.length - before, 6); // the first request and five hops
  });
  it("a redirect without Location is unreachable", async () => {
    assert.equal(
      (await fetchRobots(`${server.origin}/nolocation`, local)).verdict.action,
      "unreachable",
    );
  });
  it("403 disallows the site, 410 allows it, 503 is unreachable", async () => {
    assert.equal(
      (await fetchRobots(`${server.origin}/forbidden`, local)).verdict.action,
      "disallow-all",
    );
    assert.equal((await fetchRobots(`${server.origin}/gone`, local)).verdict.action, "allow-all");
    assert.equal(
      (await fetchRobots(`${server.origin}/broken`, local)).verdict.action,
      "unreachable",
    );
  });
  it("cuts a body larger than the cap", async () => {
    const result = await fetchRobots(`${server.origin}/big`, { ...local, maxBytes: 1000 });
    assert.equal(result.body?.byteLength, 1000);
    assert.equal(result.bodyCut, true);
  });
  it("a refused connection is a network error, not an exception", async () => {
    const closed = await startServer({});
    const origin = closed.origin;
    await closed.close();
    const result = await fetchRobots(`${origin}/robots.txt`, { ...local, timeoutMs: 2000 });
    assert.equal(result.status, null);
    assert.equal(result.verdict.action, "unreachable");
  });
  it("robotsUrlFor keeps scheme, host and port", () => {
    assert.equal(
      robotsUrlFor("https://a.example:8443/x/y?z#w"),
      "https://a.example:8443/robots.txt",
    );
    assert.equal(robotsUrlFor("http://a.example:80/x"), "http://a.example/robots.txt");
  });
});
