/**
 * Indexing a 10,000-page subtree through a mobile agent on the same machine, against crawling
 * it over HTTP with the same politeness (issue 9, "Speed"). One synthetic site on 127.0.0.1:
 * /home/user1/ holds 100 directories of 100 pages (about 2 KB each, five links a page, an index
 * page per directory); its robots.txt names an agent host for /home/user1/. Both runs use heed's
 * crawler with the same robots.txt, one request in flight to the site, no Crawl-delay, an SQLite
 * store in a temporary directory, from the same seed:
 *
 *   HTTP    `crawl()` as `heed crawl` runs it: every page fetched over HTTP;
 *   agent   `crawl()` with `agents` (`heed crawl --agents`): the indexing agent is dispatched to
 *           the agent host (in this process; the agent in its worker thread), retracted, and its
 *           index filed in the store.
 *
 * Every byte both ways over every TCP connection is counted: the site's HTTP server counts its
 * sockets; the agent host is reached through a counting TCP relay. Prints bytes over the
 * network, requests (HTTP requests plus ATP requests), wall time, and the ratios HTTP / agent.
 *
 *   npm run build && node dist/bench/agents.bench.js            # 10,000 pages
 *   node dist/bench/agents.bench.js --pages 2000                # a smaller subtree
 *
 * Not part of `npm run bench`. Bounded: each crawl has a page limit and an abort after 10
 * minutes; servers and the temporary directory are removed at the end.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { readFile, stat } from "node:fs/promises";
import { AgentPaths } from "../src/crawler/agent-paths.js";
import { crawl, type CrawlSummary } from "../src/crawler/crawler.js";
import { createHttpClient } from "../src/net/http-client.js";
import { AgentHost } from "../src/site/agent-host/host.js";
import { openSqliteStore } from "../src/store/index.js";
import { option } from "./report.js";

const PAGES = Math.max(100, Math.trunc(Number(option("--pages", "10000"))) || 10_000);
const PER_DIR = 100;
const AGENT = "HeedBench";
const USER_AGENT = `${AGENT}/0.0 (+https://example.org/bench)`;
const RUN_LIMIT_MS = 10 * 60_000;

/** Bytes both ways over the sockets of one server: closed ones summed, open ones read live. */
class Counter {
  requests = 0;
  private closed = 0;
  private readonly open = new Set<Socket>();
  watch(socket: Socket): void {
    this.open.add(socket);
    socket.once("close", () => {
      this.open.delete(socket);
      this.closed += socket.bytesRead + socket.bytesWritten;
    });
  }
  bytes(): number {
    let live = 0;
    for (const s of this.open) live += s.bytesRead + s.bytesWritten;
    return this.closed + live;
  }
}

/** Writes the subtree; returns the number of pages written (directory index pages included). */
function writeSite(root: string): number {
  const dirs = Math.ceil(PAGES / PER_DIR);
  const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(24);
  let written = 0;
  const top: string[] = [];
  for (let d = 0; d < dirs; d++) {
    const dir = join(root, "home/user1", `d${d}`);
    mkdirSync(dir, { recursive: true });
    const names: string[] = [];
    for (let p = 0; p < PER_DIR && d * PER_DIR + p < PAGES; p++) {
      const links = [1, 2, 3, 7, 13]
        .map((k) => `<a href="p${(p + k) % PER_DIR}.html">next ${k}</a>`)
        .join(" ");
      writeFileSync(
        join(dir, `p${p}.html`),
        `<html><head><title>Page ${d}/${p}</title></head><body><p>${filler}</p>${links} <a href="../">up</a></body></html>`,
      );
      names.push(`p${p}.html`);
      written++;
    }
    writeFileSync(
      join(dir, "index.html"),
      `<title>Directory ${d}</title>${names.map((n) => `<a href="${n}">${n}</a>`).join("\n")}`,
    );
    top.push(`<a href="d${d}/">d${d}</a>`);
    written++;
  }
  writeFileSync(join(root, "home/user1/index.html"), `<title>User one</title>${top.join("\n")}`);
  return written + 1;
}

/** The site over HTTP, counting bytes both ways on every socket and every request. */
async function serveSite(
  root: string,
  robots: () => string,
  counter: { watch(socket: Socket): void; count(): void },
) {
  const server = createHttpServer((req, res) => {
    counter.count();
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
      if (path === "/robots.txt") {
        res.writeHead(200, { "content-type": "text/plain" }).end(robots());
        return;
      }
      try {
        const file = join(root, path);
        const info = await stat(file);
        const body = await readFile(info.isDirectory() ? join(file, "index.html") : file);
        res
          .writeHead(200, {
            "content-type": "text/html; charset=utf-8",
            "content-length": body.length,
          })
          .end(body);
      } catch {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      }
    })();
  });
  server.on("connection", (socket: Socket) => counter.watch(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A TCP relay in front of the agent host that counts every byte both ways. */
async function relay(targetPort: number, counter: Counter) {
  const server = createTcpServer((inbound) => {
    counter.requests++;
    counter.watch(inbound);
    const outbound = connect(targetPort, "127.0.0.1");
    inbound.pipe(outbound).pipe(inbound);
    inbound.on("error", () => outbound.destroy());
    outbound.on("error", () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function run(
  name: string,
  origin: string,
  agents: AgentPaths | null,
  store: Awaited<ReturnType<typeof openSqliteStore>>,
) {
  const client = createHttpClient({
    userAgent: USER_AGENT,
    allowPrivateAddresses: true,
    connectionsPerOrigin: 1,
  });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), RUN_LIMIT_MS);
  const started = performance.now();
  let summary: CrawlSummary;
  try {
    summary = await crawl({
      seeds: [`${origin}/home/user1/`],
      agent: AGENT,
      userAgent: USER_AGENT,
      store,
      client,
      maxPages: PAGES * 3,
      maxDepth: 10,
      concurrency: 4,
      perHost: 1,
      scope: "host",
      signal: abort.signal,
      ...(agents === null ? {} : { agents }),
    });
  } finally {
    clearTimeout(timer);
    await client.close();
  }
  const ms = performance.now() - started;
  process.stderr.write(
    `${name}: ${summary.fetched} pages in ${(ms / 1000).toFixed(1)} s (${summary.stoppedBy})\n`,
  );
  return { ms, pages: summary.fetched };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "heed-agents-bench-"));
  const closers: (() => Promise<void>)[] = [];
  try {
    const root = join(dir, "www");
    const pages = writeSite(root);
    const httpOfHttpRun = new Counter();
    const httpOfAgentRun = new Counter();
    const atp = new Counter();
    let http = httpOfHttpRun;
    let relayPort = 0;
    const site = await serveSite(
      root,
      () =>
        `User-agent: *\nDisallow: /private/\nMobile-agent-server: / none\nMobile-agent-server: /home/user1/ atp://127.0.0.1:${relayPort}\n`,
      {
        watch: (socket) => http.watch(socket),
        count: () => http.requests++,
      },
    );
    closers.push(() => new Promise((resolve) => site.server.close(() => resolve())));
    const host = new AgentHost({
      root,
      host: "127.0.0.1",
      port: 0,
      assign: ["/home/user1/"],
      site: site.origin,
    });
    const hostUrl = await host.listen();
    closers.push(() => host.close());
    const front = await relay(Number(hostUrl.split(":")[2]), atp);
    relayPort = front.port;
    closers.push(() => new Promise((resolve) => front.server.close(() => resolve())));

    const httpStore = await openSqliteStore(join(dir, "http.db"));
    const byHttp = await run("HTTP", site.origin, null, httpStore);
    await httpStore.close();
    site.server.closeAllConnections();
    const httpBytes = httpOfHttpRun.bytes();
    const httpRequests = httpOfHttpRun.requests;

    http = httpOfAgentRun;
    const agentStore = await openSqliteStore(join(dir, "agent.db"));
    const agents = new AgentPaths({
      robot: AGENT,
      userAgent: USER_AGENT,
      store: agentStore,
      allowPrivate: true,
      now: Date.now,
    });
    const byAgent = await run("agent", site.origin, agents, agentStore);
    let agentMs = 0;
    for await (const batch of agentStore.log.scan(1000)) {
      for (const r of batch) if (r.outcome === "agent-index") agentMs += r.ms;
    }
    await agentStore.close();
    const agentBytes = httpOfAgentRun.bytes() + atp.bytes();
    const agentRequests = httpOfAgentRun.requests + atp.requests;

    const rows = [
      ["", "HTTP crawl", "agent", "HTTP / agent"],
      [
        "pages indexed",
        String(byHttp.pages),
        String(byAgent.pages),
        ratio(byHttp.pages, byAgent.pages),
      ],
      [
        "bytes over the network",
        mb(httpBytes),
        `${mb(agentBytes)} (ATP ${mb(atp.bytes())})`,
        ratio(httpBytes, agentBytes),
      ],
      [
        "requests",
        String(httpRequests),
        `${agentRequests} (ATP ${atp.requests})`,
        ratio(httpRequests, agentRequests),
      ],
      [
        "wall time",
        `${(byHttp.ms / 1000).toFixed(1)} s`,
        `${(byAgent.ms / 1000).toFixed(1)} s`,
        ratio(byHttp.ms, byAgent.ms),
      ],
      ["  of which dispatch to retract", "", `${(agentMs / 1000).toFixed(1)} s`, ""],
    ];
    process.stdout.write(
      `agents bench: a ${pages}-page subtree (${PAGES} pages of content) on 127.0.0.1\n`,
    );
    const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
    for (const row of rows)
      process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ")}\n`);
  } finally {
    for (const close of closers.reverse()) await close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}

function ratio(a: number, b: number): string {
  return b === 0 ? "n/a" : `${(a / b).toFixed(1)}×`;
}

await main();
