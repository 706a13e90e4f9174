// Requests through an HTTP proxy (--proxy, --proxy-for; docs/network-guard.md#proxies), with a
// real proxy written here on 127.0.0.2: it forwards absolute-form requests (http:// targets)
// and tunnels CONNECT (https:// targets), and connects out from 127.0.0.2, so the site's log
// tells a proxied request from a direct one. The proxy is the user's choice and may be on
// loopback; the targets stay under the address guard as direct requests are.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  request,
  type ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, connect, type Server } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createHttpClient } from "../../src/net/http-client.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";

const PROXY_HOST = "127.0.0.2";
const TLS = new URL("../../../test/fixtures/tls/", import.meta.url);

interface Logged {
  readonly server: Server;
  readonly origin: string;
  /** What each request asked for: the request target, or `CONNECT host:port`. */
  readonly seen: string[];
}

async function listen(server: Server, host: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `${host}:${(server.address() as AddressInfo).port}`;
}

/** A forward and CONNECT proxy that logs each request and connects out from 127.0.0.2. */
async function startProxy(): Promise<Logged> {
  const seen: string[] = [];
  const server = createHttpServer((req, res) => {
    seen.push(req.url ?? "");
    const target = new URL(req.url ?? "");
    const out = request(
      target,
      { method: req.method, headers: req.headers, localAddress: PROXY_HOST },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  server.on("connect", (req: IncomingMessage, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host = "", port = ""] = (req.url ?? "").split(":");
    const out = connect({ host, port: Number(port), localAddress: PROXY_HOST }, () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      out.write(head);
      out.pipe(socket);
      socket.pipe(out);
    });
    out.on("error", () => socket.destroy());
    socket.on("error", () => out.destroy());
  });
  return { server, origin: `http://${await listen(server, PROXY_HOST)}`, seen };
}

const PAGES: Record<string, string> = {
  "/robots.txt": "User-agent: *\nDisallow: /private/\nSitemap: /sitemap.txt\n",
  "/": '<a href="/a">a</a> <a href="/b">b</a>',
  "/a": "a",
  "/b": "b",
};

/** A site that logs each path with the address it came from. */
function siteHandler(seen: string[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.socket.remoteAddress} ${req.url}`);
    const body =
      req.url === "/sitemap.txt" ? `http://${req.headers.host}/a\n` : PAGES[req.url ?? ""];
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-type": req.url === "/robots.txt" ? "text/plain" : "text/html",
    });
    res.end(body);
  };
}

describe("requests through a proxy", { timeout: 120_000 }, () => {
  let proxy: Logged;
  let site: Logged;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    proxy = await startProxy();
    const seen: string[] = [];
    const server = createHttpServer(siteHandler(seen));
    site = { server, origin: `http://${await listen(server, "127.0.0.1")}`, seen };
    temp = await tempDir("heed-proxy-");
  });
  after(async () => {
    for (const s of [proxy.server, site.server]) {
      (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
    await temp.cleanup();
  });

  it("goes through the proxy, which the site sees", async () => {
    const client = createHttpClient({
      userAgent: "bot",
      privateHosts: ["127.0.0.1"],
      proxy: proxy.origin,
    });
    try {
      const r = await client.fetchPage(`${site.origin}/a`);
      assert.equal(r.kind, "response");
      assert.equal(r.kind === "response" ? r.status : 0, 200);
      assert.ok(proxy.seen.includes(`${site.origin}/a`), proxy.seen.join(" "));
      assert.equal(site.seen.at(-1), `${PROXY_HOST} /a`);
    } finally {
      await client.close();
    }
  });

  it("a target the guard refuses is refused before the proxy is asked", async () => {
    const client = createHttpClient({ userAgent: "bot", proxy: proxy.origin });
    const before = proxy.seen.length;
    try {
      for (const url of [
        `${site.origin}/a`,
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        // A name is refused by what it resolves to.
        `http://localhost:${new URL(site.origin).port}/a`,
      ]) {
        const r = await client.fetchPage(url);
        assert.equal(r.kind, "error", url);
        assert.equal(r.kind === "error" ? r.code : "", "blocked", url);
      }
      assert.equal(proxy.seen.length, before, proxy.seen.slice(before).join(" "));
    } finally {
      await client.close();
    }
  });

  it("--proxy-for: a host through its own proxy, or direct", async () => {
    const direct = createHttpClient({
      userAgent: "bot",
      privateHosts: ["127.0.0.1"],
      proxy: proxy.origin,
      proxyFor: { "127.0.0.1": "direct" },
    });
    const before = proxy.seen.length;
    try {
      const r = await direct.fetchPage(`${site.origin}/b`);
      assert.equal(r.kind, "response");
      assert.equal(proxy.seen.length, before);
      assert.equal(site.seen.at(-1), "127.0.0.1 /b");
    } finally {
      await direct.close();
    }
    assert.throws(
      () => createHttpClient({ userAgent: "bot", proxy: "socks5://127.0.0.1:1080" }),
      /proxy: "socks5:\/\/127.0.0.1:1080": a proxy is an http:\/\/ or https:\/\/ URL/,
    );
  });

  it("heed crawl --proxy: every request of the crawl through the proxy", async () => {
    const before = site.seen.length;
    const r = await runCli([
      "crawl",
      `${site.origin}/`,
      "--agent",
      "bot",
      "--store",
      join(temp.dir, "c.db"),
      "--quiet",
      "--proxy",
      proxy.origin,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const asked = site.seen.slice(before);
    for (const path of ["/robots.txt", "/", "/a", "/b"])
      assert.ok(asked.includes(`${PROXY_HOST} ${path}`), asked.join(" | "));
    assert.deepEqual(
      asked.filter((line) => !line.startsWith(`${PROXY_HOST} `)),
      [],
      "a request went around the proxy",
    );
  });

  it("heed check, sitemap and datasets take --proxy too; bad values exit 2", async () => {
    for (const args of [
      ["check", `${site.origin}/robots.txt`, "--agent", "bot", "--url", "/a"],
      ["sitemap", `${site.origin}/`, "--discover", "--count"],
      ["datasets", `${site.origin}/`],
    ]) {
      const before = site.seen.length;
      const r = await runCli([...args, "--proxy", proxy.origin]);
      assert.ok(r.code !== 2, `${args[0]}: ${r.stderr}`);
      const asked = site.seen.slice(before);
      assert.ok(asked.length > 0, args[0]);
      assert.ok(
        asked.every((line) => line.startsWith(`${PROXY_HOST} `)),
        `${args[0]}: ${asked.join(" | ")}`,
      );
    }
    for (const [flag, value, message] of [
      ["--proxy", "ftp://127.0.0.2:21", /--proxy: "ftp:\/\/127.0.0.2:21": a proxy is an http/],
      ["--proxy-for", "no-equals-sign", /--proxy-for: expected HOST=URL/],
      ["--proxy-for", "example.com=http://p/x", /--proxy-for example.com: .* has no path/],
    ] as const) {
      const r = await runCli(["check", `${site.origin}/robots.txt`, "--url", "/", flag, value]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
    }
  });

  it("an https:// target goes through a CONNECT tunnel, its certificate checked end to end", async () => {
    const cert = fileURLToPath(new URL("loopback.cert.pem", TLS));
    const key = fileURLToPath(new URL("loopback.key.pem", TLS));
    const seen: string[] = [];
    const server = createHttpsServer(
      { key: await readFile(key), cert: await readFile(cert) },
      siteHandler(seen),
    );
    const origin = `https://${await listen(server, "127.0.0.1")}`;
    try {
      const args = ["check", `${origin}/robots.txt`, "--agent", "bot", "--url", "/private/x"];
      const r = await runCli([...args, "--proxy", proxy.origin], {
        env: { NODE_EXTRA_CA_CERTS: cert },
      });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /^disallowed \/private\/x/);
      assert.ok(proxy.seen.includes(`CONNECT ${origin.slice("https://".length)}`));
      assert.deepEqual(seen, [`${PROXY_HOST} /robots.txt`]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
