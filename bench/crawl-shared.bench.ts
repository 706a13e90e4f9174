/**
 * Four `heed crawl` processes sharing one Redis store against one process, on the same local
 * web, in one run: 10 sites (ports of 127.0.0.1), 30 pages each, five links a page, every
 * robots.txt with `Crawl-delay: 0.1`. Each side gets a fresh copy of the web and its own key
 * prefix on one redis-server started here. The web logs every arrival, so the bench reports
 * pages/s (pages over the wall time from the first start to the last exit) and the smallest
 * gap each site saw between any two requests (robots.txt, sitemaps and pages, from whichever
 * process), against the 100 ms the sites ask for.
 *
 *   node dist/bench/crawl-shared.bench.js [--sites 10] [--pages 30] [--processes 4]
 *
 * Bounded: every crawl has a time limit (killed after 120 s), and redis-server and the
 * children are killed when the bench exits.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { pageSite } from "./page-site.js";
import { fmt, option, printTable } from "./report.js";

const SITES = Math.min(Math.max(Number(option("--sites", "10")) || 10, 1), 50);
const PAGES = Math.min(Math.max(Number(option("--pages", "30")) || 30, 2), 500);
const PROCESSES = Math.min(Math.max(Number(option("--processes", "4")) || 4, 2), 8);
const DELAY_MS = 100;
const LIMIT_MS = 120_000;
const BIN = fileURLToPath(new URL("../src/cli/bin.js", import.meta.url));

const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function startRedis(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  children.add(child);
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  // Ready when it takes a connection.
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = createTcpServer();
      s.once("error", () => resolve(true));
      s.listen(port, "127.0.0.1", () => s.close(() => resolve(false)));
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

interface Site {
  readonly origin: string;
  readonly arrivals: number[];
  readonly server: Server;
}

async function startSite(): Promise<Site> {
  const arrivals: number[] = [];
  const handle = pageSite({
    pages: PAGES,
    robots: () => `User-agent: *\nCrawl-delay: ${DELAY_MS / 1000}\n`,
    filler: 100,
  });
  const server = createServer((req, res) => {
    arrivals.push(performance.now());
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, arrivals, server };
}

function crawlProcess(seeds: readonly string[], store: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      "crawl",
      ...seeds,
      "--agent",
      "heedbench",
      "--store",
      store,
      "--quiet",
      "--json",
      "--scope",
      "host",
      "--concurrency",
      "32",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  children.add(child);
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
  return new Promise((resolve) => {
    child.on("close", () => {
      clearTimeout(timer);
      children.delete(child);
      try {
        resolve((JSON.parse(out) as { fetched: number }).fetched);
      } catch {
        resolve(0);
      }
    });
  });
}

interface Side {
  readonly name: string;
  readonly pages: number;
  readonly seconds: number;
  readonly minGaps: readonly number[];
  /** The web's first and last request, in s from the start: start-up and end, apart. */
  readonly firstAt: number;
  readonly lastAt: number;
}

async function run(name: string, processes: number, redisUrl: string): Promise<Side> {
  const sites = await Promise.all(Array.from({ length: SITES }, () => startSite()));
  const store = `${redisUrl}#bench-${processes}:`;
  const seeds = sites.map((s) => `${s.origin}/`);
  const started = performance.now();
  const fetched = await Promise.all(
    Array.from({ length: processes }, () => crawlProcess(seeds, store)),
  );
  const seconds = (performance.now() - started) / 1000;
  const minGaps = sites.map((s) => {
    let least = Infinity;
    for (let i = 1; i < s.arrivals.length; i++)
      least = Math.min(least, (s.arrivals[i] ?? 0) - (s.arrivals[i - 1] ?? 0));
    return least;
  });
  const all = sites.flatMap((s) => s.arrivals);
  const firstAt = (Math.min(...all) - started) / 1000;
  const lastAt = (Math.max(...all) - started) / 1000;
  for (const s of sites) s.server.close();
  return { name, pages: fetched.reduce((a, b) => a + b, 0), seconds, minGaps, firstAt, lastAt };
}

const redis = await startRedis();
try {
  const one = await run("1 process", 1, redis.url);
  const many = await run(`${PROCESSES} processes`, PROCESSES, redis.url);
  printTable(
    `heed crawl on one Redis store: ${SITES} sites × ${PAGES} pages, Crawl-delay ${DELAY_MS} ms`,
    [
      "",
      "pages",
      "seconds",
      "first request (s)",
      "last request (s)",
      "pages/s",
      "smallest gap (ms), least over sites",
      "sites below delay",
    ],
    [one, many].map((s) => [
      s.name,
      fmt(s.pages, 0),
      fmt(s.seconds, 1),
      fmt(s.firstAt, 2),
      fmt(s.lastAt, 2),
      fmt(s.pages / s.seconds, 1),
      fmt(Math.min(...s.minGaps), 1),
      String(s.minGaps.filter((g) => g < DELAY_MS).length),
    ]),
  );
  console.log(
    `\nsmallest gap per site, ${many.name}: ${many.minGaps.map((g) => fmt(g, 0)).join(" ")} ms`,
  );
  console.log(
    `pages/s, ${many.name} ÷ 1 process: ${fmt(many.pages / many.seconds / (one.pages / one.seconds), 2)}` +
      " (politeness, not processes, bounds a polite crawl of few sites: near 1 is expected)",
  );
} finally {
  redis.stop();
}
