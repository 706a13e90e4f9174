// A site's /.well-known/tdmrep.json behind redirects (docs/usage-preferences.md#the-crawler):
// followed as RFC 9309 §2.3.1.2 has robots.txt followed, to another host too, at most
// MAX_TDMREP_REDIRECTS hops; each hop asked of its site's robots.txt, under its site's
// reservation, and logged. Real `heed crawl --purpose train-ai` runs against real servers.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { MAX_TDMREP_REDIRECTS } from "../../src/crawler/usage-site-files.js";
import { MAX_TDMREP_BYTES } from "../../src/protocol/usage/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";
import { type Site, startSite } from "../helpers/synthetic-site.js";

const TDMREP = JSON.stringify([{ location: "/tdm-file/", "tdm-reservation": 1 }]);
const WELL_KNOWN = "/.well-known/tdmrep.json";
const TLS = new URL("../../../test/fixtures/tls/", import.meta.url);

type Route = (req: IncomingMessage, res: ServerResponse) => boolean;

/** A site whose home page links to /tdm-file/a.html, which its tdmrep.json (if read) reserves. */
function siteWith(robots: string, route: Route): Promise<Site> {
  return startSite({
    pages: 1,
    robots,
    route: (req, res) => {
      if (route(req, res)) return true;
      if (req.url === "/") {
        res.writeHead(200, { "content-type": "text/html" }).end('<a href="/tdm-file/a.html">a</a>');
        return true;
      }
      if (req.url === "/tdm-file/a.html") {
        res.writeHead(200, { "content-type": "text/html" }).end("<p>leaf</p>");
        return true;
      }
      return false;
    },
  });
}

function redirect(res: ServerResponse, to: string, status = 301): true {
  res.writeHead(status, { location: to }).end();
  return true;
}

function file(res: ServerResponse): true {
  res.writeHead(200, { "content-type": "application/json" }).end(TDMREP);
  return true;
}

describe("tdmrep.json behind redirects", { timeout: 120_000 }, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  const sites: Site[] = [];
  before(async () => {
    temp = await tempDir("heed-tdmrep-redirects-");
  });
  after(async () => {
    await Promise.all(sites.map((s) => s.close()));
    await temp.cleanup();
  });

  async function start(robots: string, route: Route): Promise<Site> {
    const site = await siteWith(robots, route);
    sites.push(site);
    return site;
  }

  /** Crawls `site` for AI training; the crawl log's records, in order. */
  async function crawl(site: Site, name: string, env: NodeJS.ProcessEnv = {}) {
    const store = join(temp.dir, `${name}.db`);
    const run = await runCli(
      [
        "crawl",
        `${site.origin}/`,
        "--agent",
        "UsageBot",
        "--store",
        store,
        "--purpose",
        "train-ai",
        "--quiet",
      ],
      { timeoutMs: 60_000, env },
    );
    assert.equal(run.code, 0, run.stderr);
    const exported = await runCli(["export", "--store", store, "--format", "jsonl"]);
    assert.equal(exported.code, 0, exported.stderr);
    const records = jsonLines(exported.stdout);
    const page = records.find((r) => String(r.url) === `${site.origin}/tdm-file/a.html`);
    return { records, tdmrep: records.filter((r) => r.outcome === "tdmrep"), page };
  }

  it("a redirect on the same site (a CDN path) is followed, each hop paced by the site's Crawl-delay", async () => {
    const site = await start("User-agent: *\nAllow: /\nCrawl-delay: 0.5\n", (req, res) =>
      req.url === WELL_KNOWN
        ? redirect(res, "/cdn/v1/tdmrep.json")
        : req.url === "/cdn/v1/tdmrep.json"
          ? file(res)
          : false,
    );
    const { tdmrep, page } = await crawl(site, "same-site");
    assert.equal(page?.outcome, "fetched-usage-refused");
    assert.match(String(page?.detail), /tdmrep\.json rule 1/);
    assert.deepEqual(
      tdmrep.map((r) => [r.url, r.status, r.detail]),
      [
        [`${site.origin}${WELL_KNOWN}`, 301, `redirect to ${site.origin}/cdn/v1/tdmrep.json`],
        [`${site.origin}/cdn/v1/tdmrep.json`, 200, null],
      ],
    );
    // Each hop took the site's reservation: its Crawl-delay (0.5 s) lies between them.
    const at = (path: string) => site.log.find((r) => r.path === path)?.at ?? NaN;
    assert.ok(at("/cdn/v1/tdmrep.json") - at(WELL_KNOWN) >= 450, "gap kept between the hops");
  });

  it("a redirect to https on the same host is followed, its certificate checked", async () => {
    // A certificate for 127.0.0.1 that the crawl trusts through NODE_EXTRA_CA_CERTS only.
    const key = fileURLToPath(new URL("loopback.key.pem", TLS));
    const cert = fileURLToPath(new URL("loopback.cert.pem", TLS));
    const secure = createHttpsServer(
      { key: await readFile(key), cert: await readFile(cert) },
      (req, res) => {
        if (req.url === "/robots.txt") res.writeHead(200).end("User-agent: *\nAllow: /\n");
        else if (req.url === WELL_KNOWN) file(res);
        else res.writeHead(404).end();
      },
    );
    await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
    const https = `https://127.0.0.1:${(secure.address() as AddressInfo).port}`;
    try {
      const route: Route = (req, res) =>
        req.url === WELL_KNOWN ? redirect(res, `${https}${WELL_KNOWN}`, 308) : false;
      const site = await start("User-agent: *\nAllow: /\n", route);
      const trusted = await crawl(site, "https", { NODE_EXTRA_CA_CERTS: cert });
      assert.equal(trusted.page?.outcome, "fetched-usage-refused");
      assert.deepEqual(
        trusted.tdmrep.map((r) => [r.url, r.status]),
        [
          [`${site.origin}${WELL_KNOWN}`, 308],
          [`${https}${WELL_KNOWN}`, 200],
        ],
      );
      // Without the certificate trusted, the hop's site cannot be reached: no file is read.
      const other = await start("User-agent: *\nAllow: /\n", route);
      const untrusted = await crawl(other, "https-untrusted");
      assert.equal(untrusted.page?.outcome, "fetched");
      assert.match(String(untrusted.tdmrep[0]?.detail), /^redirect not followed: https:/);
    } finally {
      secure.closeAllConnections();
      await new Promise<void>((resolve) => secure.close(() => resolve()));
    }
  });

  it("a redirect to another host is followed: its robots.txt first, under its own Crawl-delay", async () => {
    const other = await start("User-agent: *\nAllow: /\nCrawl-delay: 0.5\n", (req, res) =>
      req.url === "/files/tdmrep.json" ? file(res) : false,
    );
    const site = await start("User-agent: *\nAllow: /\n", (req, res) =>
      req.url === WELL_KNOWN ? redirect(res, `${other.origin}/files/tdmrep.json`, 302) : false,
    );
    const { tdmrep, page } = await crawl(site, "other-host");
    assert.equal(page?.outcome, "fetched-usage-refused");
    assert.deepEqual(other.paths(), ["/robots.txt", "/files/tdmrep.json"]);
    const [robotsAt, fileAt] = other.log.map((r) => r.at) as [number, number];
    assert.ok(fileAt - robotsAt >= 450, "the other host's Crawl-delay kept");
    assert.deepEqual(
      tdmrep.map((r) => [r.url, r.origin, r.status]),
      [
        [`${site.origin}${WELL_KNOWN}`, site.origin, 302],
        [`${other.origin}/files/tdmrep.json`, other.origin, 200],
      ],
    );
  });

  it(`an endless chain: ${MAX_TDMREP_REDIRECTS} redirects followed, then the file is not read`, async () => {
    const site = await start("User-agent: *\nAllow: /\n", (req, res) => {
      const hop = req.url === WELL_KNOWN ? 0 : Number(/^\/hop\/(\d+)$/.exec(req.url ?? "")?.[1]);
      return Number.isNaN(hop) ? false : redirect(res, `/hop/${hop + 1}`, 307);
    });
    const { tdmrep, page } = await crawl(site, "endless");
    assert.equal(page?.outcome, "fetched");
    const asked = site.paths().filter((p) => p === WELL_KNOWN || p.startsWith("/hop/"));
    assert.equal(asked.length, MAX_TDMREP_REDIRECTS + 1);
    assert.equal(tdmrep.length, MAX_TDMREP_REDIRECTS + 1);
    assert.equal(
      tdmrep.at(-1)?.detail,
      `redirect not followed: more than ${MAX_TDMREP_REDIRECTS} redirects`,
    );
  });

  it("a loop between two hosts ends at the same bound", async () => {
    let peer = "";
    const a = await start("User-agent: *\nAllow: /\n", (req, res) =>
      req.url === WELL_KNOWN || req.url === "/loop" ? redirect(res, `${peer}/loop`, 302) : false,
    );
    const b = await start("User-agent: *\nAllow: /\n", (req, res) =>
      req.url === "/loop" ? redirect(res, `${a.origin}/loop`, 302) : false,
    );
    peer = b.origin;
    const { tdmrep, page } = await crawl(a, "loop");
    assert.equal(page?.outcome, "fetched");
    assert.equal(tdmrep.length, MAX_TDMREP_REDIRECTS + 1);
  });

  it(`a file over ${MAX_TDMREP_BYTES} bytes is read no further than that, and not used`, async () => {
    const huge = `[${'{"location":"/tdm-file/","tdm-reservation":1},'.repeat(100_000)}{}]`;
    const site = await start("User-agent: *\nAllow: /\n", (req, res) => {
      if (req.url !== WELL_KNOWN) return false;
      res.writeHead(200, { "content-type": "application/json" }).end(huge);
      return true;
    });
    const { tdmrep, page } = await crawl(site, "huge");
    assert.equal(page?.outcome, "fetched");
    assert.equal(tdmrep[0]?.detail, `over ${MAX_TDMREP_BYTES} bytes: not read`);
    assert.ok(Number(tdmrep[0]?.bytes) < huge.length / 2, String(tdmrep[0]?.bytes));
  });

  it("a hop robots.txt refuses, and a hop that is not http, are not asked", async () => {
    const refused = await start("User-agent: *\nAllow: /\nDisallow: /private/\n", (req, res) =>
      req.url === WELL_KNOWN
        ? redirect(res, "/private/tdmrep.json")
        : req.url === "/private/tdmrep.json"
          ? file(res)
          : false,
    );
    const one = await crawl(refused, "refused");
    assert.equal(one.page?.outcome, "fetched");
    assert.ok(!refused.paths().includes("/private/tdmrep.json"));
    assert.match(String(one.tdmrep[0]?.detail), /^redirect not followed: .*robots\.txt refuses it/);

    const ftp = await start("User-agent: *\nAllow: /\n", (req, res) =>
      req.url === WELL_KNOWN ? redirect(res, "ftp://127.0.0.1/tdmrep.json") : false,
    );
    const two = await crawl(ftp, "ftp");
    assert.equal(two.page?.outcome, "fetched");
    assert.equal(two.tdmrep[0]?.detail, "redirect not followed: ftp: is not http or https");
  });
});
