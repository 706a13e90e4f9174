// issue 27, row 7: a site that answers at once and then sends its body one byte a second never
// trips a silence timeout. Every one-shot fetch has a total deadline (robots.txt 30 s, a sitemap
// 60 s, any other request 120 s), `--deadline SECONDS` changes it, and the error names the
// deadline that ended the fetch. The sites here drip until the test closes them; the commands
// are bounded by runCli's time limit, and nothing asserts how fast they ran.
import assert from "node:assert/strict";
import { createServer, get, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { runCli } from "../helpers/run-cli.js";
import { type ServingCli, startServing, stopServing } from "../helpers/serving-cli.js";

/** Sends the head at once, then one byte a second until the connection ends. */
function drip(res: ServerResponse, type: string): void {
  res.writeHead(200, { "content-type": type });
  res.write("#");
  const timer = setInterval(() => res.write(" "), 1000);
  res.on("close", () => clearInterval(timer));
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe("one-shot fetches from a site that drips one byte a second", () => {
  // Every path drips.
  const dripping = createServer((_req, res) => drip(res, "text/plain"));
  // robots.txt is missing (no rules), /data.txt drips.
  const dataDrips = createServer((req, res) => {
    if (req.url === "/data.txt") return drip(res, "text/plain");
    res.writeHead(404).end();
  });
  let site = "";
  let dataSite = "";
  before(async () => {
    site = await listen(dripping);
    dataSite = await listen(dataDrips);
  });
  after(async () => {
    await close(dripping);
    await close(dataDrips);
  });

  it("heed check URL --deadline 2: ended by robots.txt's deadline, and the answer says so", async () => {
    const result = await runCli(["check", site, "--url", `${site}/x`, "--deadline", "2"], {
      timeoutMs: 60_000,
    });
    // RFC 9309 §2.3.1.4: a robots.txt that cannot be read closes the site: disallowed, exit 1.
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /^disallowed .*network error: HEED_DEADLINE: the total deadline for robots\.txt \(2 s\) ended/,
    );
  });

  it("heed sitemap URL --deadline 2: ended by the sitemap's deadline, and says so", async () => {
    const result = await runCli(["sitemap", `${site}/sitemap.xml`, "--deadline", "2"], {
      timeoutMs: 60_000,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /the total deadline for the sitemap http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml \(2 s\) ended/,
    );
  });

  it("heed sitemap --discover --deadline 2: robots.txt's deadline ends its reading too", async () => {
    const result = await runCli(["sitemap", site, "--discover", "--deadline", "2"], {
      timeoutMs: 60_000,
    });
    // robots.txt cannot be read: /sitemap.xml is tried, and it drips too.
    assert.match(result.stderr, /the total deadline for the sitemap .*\(2 s\) ended/);
    assert.equal(result.code, 2, result.stderr);
  });

  it("heed datasets URL --deadline 2: /data.txt ended by the request deadline, and says so", async () => {
    const result = await runCli(["datasets", dataSite, "--deadline", "2", "--json"], {
      timeoutMs: 60_000,
    });
    assert.match(
      `${result.stdout}${result.stderr}`,
      /the total deadline for one request \(2 s\) ended/,
    );
  });

  describe("heed ui --deadline 2: the page's fetches share the commands' deadlines", () => {
    let ui: ServingCli;
    before(async () => {
      ui = await startServing(
        ["ui", "--port", "0", "--deadline", "2"],
        /heed ui: http:\/\/127\.0\.0\.1:(\d+)/,
      );
    });
    after(() => stopServing(ui));

    /** The JSON the page gets for `path`. */
    const ask = (path: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const req = get(
          { host: "127.0.0.1", port: ui.port, path, headers: { "x-heed-ui": "1" } },
          (res) => {
            let body = "";
            res.on("data", (c: Buffer) => (body += c.toString("utf8")));
            res.on("end", () => resolve(body));
          },
        );
        req.setTimeout(60_000, () => req.destroy(new Error(`no answer to ${path}`)));
        req.on("error", reject);
      });

    it("/api/robots: ended by robots.txt's deadline", async () => {
      const answer = await ask(`/api/robots?site=${encodeURIComponent(site)}`);
      assert.match(answer, /the total deadline for robots\.txt \(2 s\) ended/);
    });

    it("/api/sitemap: ended by the deadline, and says so", async () => {
      const answer = await ask(`/api/sitemap?url=${encodeURIComponent(`${site}/sitemap.xml`)}`);
      assert.match(answer, /the total deadline for one request \(2 s\) ended/);
    });

    it("/api/data-txt: ended by the deadline, and says so", async () => {
      const answer = await ask(`/api/data-txt?site=${encodeURIComponent(dataSite)}`);
      assert.match(answer, /the total deadline for one request \(2 s\) ended/);
    });
  });

  it("--deadline that is not a number of seconds, or over MAX_DEADLINE_SECONDS (a day), is bad input", async () => {
    for (const bad of ["0", "-1", "soon", "1e3", "86401"]) {
      const result = await runCli(["sitemap", `${site}/sitemap.xml`, "--deadline", bad]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /--deadline: expected seconds/);
    }
  });
});
