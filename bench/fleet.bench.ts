/**
 * The fleet bench: `heed crawl` in 1, 2 and 4 processes sharing one store (SQLite, Redis),
 * against a local web of many sites. Each site is a loopback address of its own
 * (`http://127.0.X.Y:PORT`, one server listening for all of them), with pages linking to each
 * other and no delay, so that the store's cost a page shows rather than the sites' pace.
 *
 * Printed per row: pages/s (over the wall time from the first start to the last exit), CPU ms a
 * page (user + system of every crawler process, GNU time), and on Redis what the server saw a
 * page: the commands clients sent as `MONITOR` counts them (commands run inside scripts
 * aside), the Lua script calls among them, and the server's reads of client sockets
 * (`total_reads_processed`; at concurrency 1, one a round trip). On SQLite, what each process
 * asked of it (`bench/sqlite-count.ts`): round trips are its commits (transactions, and
 * statements run alone), and statements all it ran. Then the Redis bytes a queued URL:
 * `used_memory` before and after queuing 100,000 URLs across 100 sites, of two shapes.
 *
 *   node dist/bench/fleet.bench.js [--sites 50] [--pages 20] [--urls 100000] [--cluster]
 *     [--processes 1,2,4] [--stores sqlite,redis,cluster] [--split] [--rounds 1] [--limit 300]
 *   HEED_BENCH_FLEET_LARGE=1: 10,000 sites and the cluster rows
 *   (`npm run bench:fleet`)
 *
 * CPU a page is given twice: all of it, and without each process's start-up and end (the CPU
 * of a crawl of one site whose robots.txt refuses everything, measured after each row). That
 * rest is split in two: the fixed costs, what a process spends a second of its life whether it
 * fetches or not (heartbeats, timers, schedule wakes, clock reads: measured per store as the
 * CPU a process used, read from /proc, while it waits out a site's Crawl-delay), times each
 * process's wall time; and the busy work, what is left. With 4 processes each lives about 4×
 * as long a page it fetches, so its fixed costs weigh 4× as much a page.
 *
 * A machine shared with other work moves single runs by ±20%: `--rounds N` runs the rows N
 * times in turn (1 process, 2, 4, and 4 --split, then again), prints the load average at each
 * row, and then the medians, with the ratios to one process and to the --split floor taken
 * within each round.
 *
 * Bounded: each crawl is stopped after --limit seconds (300; its summary still counts), killed
 * a minute later if it has not ended; every child and redis-server end with the bench.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { openRedisStore } from "../src/store/redis/index.js";
import type { NewUrl } from "../src/store/types.js";
import { startRedisCluster, type RedisCluster } from "../test/helpers/redis-cluster.js";
import { monitorCommands } from "../test/helpers/redis-monitor.js";
import { startRedisServer, type RedisServer } from "../test/helpers/redis-server.js";
import { pageSite } from "./page-site.js";
import { fmt, median, option, printTable } from "./report.js";

const LARGE = process.env["HEED_BENCH_FLEET_LARGE"] === "1";
/** The stores of the rows: `--stores sqlite,redis,cluster` (the cluster's also by `--cluster`). */
const STORES = option("--stores", "sqlite,redis").split(",");
/**
 * `--split`: rows where each process crawls its own share of the sites in a store of its own,
 * beside the shared ones: a floor for what processes sharing one store cost a page (what is left
 * is the machine's, not the store's).
 */
const SPLIT = process.argv.includes("--split");
/** `--rounds N`: every row N times, in turn. */
const ROUNDS = Math.min(Math.max(Number(option("--rounds", "1")) || 1, 1), 20);
/** The i-th process's own store under --split: another SQLite file, another key prefix. */
function apart(store: string, i: number): string {
  return store.endsWith(":") ? `${store.slice(0, -1)}-apart-${i}:` : `${store}-apart-${i}`;
}
/** Rows on a 3-master Redis Cluster too (started here): `--cluster`, or the large bench. */
const CLUSTER = LARGE || process.argv.includes("--cluster") || STORES.includes("cluster");
/** Sites are 127.0.X.Y: at most 250 × 250 of them. */
const MAX_SITES = 62_500;
const SITES = Math.min(
  Math.max(Number(option("--sites", LARGE ? "10000" : "50")) || 50, 1),
  MAX_SITES,
);
const PAGES = Math.min(Math.max(Number(option("--pages", LARGE ? "2" : "20")) || 20, 1), 1000);
/** Queued URLs of the memory figure; `--urls 0` leaves the figure out. */
const URLS =
  option("--urls", "100000") === "0"
    ? 0
    : Math.min(Math.max(Number(option("--urls", "100000")) || 100_000, 100), 1_000_000);
/** Processes a row: `--processes 1,4` runs fewer rows (the large bench within its time). */
const PROCESSES = option("--processes", "1,2,4")
  .split(",")
  .map(Number)
  .filter((n) => Number.isInteger(n) && n >= 1 && n <= 8);
/** Requests in flight a process: enough to keep the store busy. */
const CONCURRENCY = 32;
/** A crawl is stopped (SIGINT: it ends with its summary) after this: `--limit SECONDS`. */
const LIMIT_MS = Math.min(Math.max(Number(option("--limit", "300")) || 300, 10), 3600) * 1000;
/**
 * Extra node flags for every crawl process, split on spaces: `HEED_BENCH_NODE_FLAGS="--cpu-prof
 * --cpu-prof-dir=DIR"` profiles each of them (one profile file a process).
 */
const NODE_FLAGS = (process.env["HEED_BENCH_NODE_FLAGS"] ?? "").split(" ").filter((f) => f !== "");
/** The CLI under test; HEED_BENCH_BIN names another build's bin.js (figures before a change). */
const BIN =
  process.env["HEED_BENCH_BIN"] ?? fileURLToPath(new URL("../src/cli/bin.js", import.meta.url));

const children = new Set<ChildProcess>();
/** Signals a crawl and its GNU time together: each is the leader of its own process group. */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, name);
  } catch {
    // Already gone.
  }
}
process.on("exit", () => {
  for (const child of children) signal(child, "SIGKILL");
});

/** A site whose robots.txt refuses everything: a crawl of it is a process's start-up and end. */
const IDLE_HOST = "127.0.254.254";
/** A site of Crawl-delay {@link WAIT_S}: between two of its pages a process only waits. */
const WAIT_HOST = "127.0.254.253";
/** Seconds of the wait: heartbeats (2 s) and clock reads (10 s) enough to count. */
const WAIT_S = 10;

/** The i-th site's address: 127.0.X.Y with X, Y in 1..250. */
function siteHost(i: number): string {
  return `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
}

interface Web {
  readonly port: number;
  /** Tells `listener` of each request (its Host header and path) until the returned call. */
  onRequest(listener: (host: string, path: string) => void): () => void;
  close(): void;
}

/** One server for every site; robots.txt allows all but on IDLE_HOST. */
async function startWeb(): Promise<Web> {
  const listeners = new Set<(host: string, path: string) => void>();
  const site = pageSite({
    pages: PAGES,
    robots: (host) =>
      host.startsWith(`${IDLE_HOST}:`)
        ? "User-agent: *\nDisallow: /\n"
        : host.startsWith(`${WAIT_HOST}:`)
          ? `User-agent: *\nCrawl-delay: ${WAIT_S}\n`
          : "User-agent: *\nAllow: /\n",
    filler: 50,
  });
  const server = createServer((req, res) => {
    for (const listener of listeners) listener(req.headers.host ?? "", req.url ?? "");
    site(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    onRequest(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => server.close(),
  };
}

interface Crawled {
  readonly pages: number;
  readonly cpuMs: number;
  /** From start to exit. */
  readonly wallMs: number;
  /** On SQLite, what `sqlite-count.js` counted; NaN on Redis. */
  readonly statements: number;
  readonly trips: number;
}

/** Counts SQLite statements and commits in a crawl process (`bench/sqlite-count.ts`). */
const SQLITE_COUNT = new URL("./sqlite-count.js", import.meta.url).href;

/**
 * One `heed crawl`, timed by GNU time: pages fetched and CPU ms; on SQLite (a store that is
 * not a URL), its statements and commits too.
 */
function crawlProcess(
  seeds: readonly string[],
  store: string,
  maxPages: number,
  concurrency: number,
  spawned?: (timePid: number) => void,
): Promise<Crawled> {
  const sqlite = !store.includes("://");
  const child = spawn(
    "/usr/bin/time",
    [
      "-f",
      "TIME %U %S",
      process.execPath,
      ...NODE_FLAGS,
      ...(sqlite ? ["--import", SQLITE_COUNT] : []),
      BIN,
      "crawl",
      ...seeds,
      "--agent",
      "heedbench",
      "--store",
      store,
      "--quiet",
      "--json",
      "--allow-private",
      "--concurrency",
      String(concurrency),
      "--max-pages",
      String(maxPages),
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const started = performance.now();
  children.add(child);
  if (child.pid !== undefined) spawned?.(child.pid);
  let out = "";
  let err = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString("utf8")));
  child.stderr?.on("data", (c: Buffer) => (err += c.toString("utf8")));
  // Past the limit the crawl is stopped as Ctrl-C stops it (GNU time ignores the signal and
  // waits): its summary counts the pages it fetched. Killed if it does not end even so.
  const stop = setTimeout(() => {
    process.stderr.write(`a crawl reached the ${LIMIT_MS / 1000} s limit: stopped\n`);
    signal(child, "SIGINT");
  }, LIMIT_MS);
  const kill = setTimeout(() => signal(child, "SIGKILL"), LIMIT_MS + 60_000);
  return new Promise((resolve) => {
    child.on("close", () => {
      clearTimeout(stop);
      clearTimeout(kill);
      children.delete(child);
      const time = /TIME ([\d.]+) ([\d.]+)/.exec(err);
      const cpuMs = time === null ? Number.NaN : (Number(time[1]) + Number(time[2])) * 1000;
      let pages = 0;
      try {
        pages = (JSON.parse(out) as { fetched: number }).fetched;
      } catch {
        process.stderr.write(`crawl gave no summary: ${err.slice(-500)}\n`);
      }
      const counted = /SQLITE statements (\d+) transactions (\d+) alone (\d+)/.exec(err);
      resolve({
        pages,
        cpuMs,
        wallMs: performance.now() - started,
        statements: counted === null ? Number.NaN : Number(counted[1]),
        trips: counted === null ? Number.NaN : Number(counted[2]) + Number(counted[3]),
      });
    });
  });
}

/** The servers' reads of client sockets, summed over the nodes. */
async function readsProcessed(urls: readonly string[]): Promise<number> {
  let sum = 0;
  for (const url of urls) {
    const info = new Redis(url);
    try {
      const text = await info.info("stats");
      sum += Number(/total_reads_processed:(\d+)/.exec(text)?.[1] ?? Number.NaN);
    } finally {
      info.disconnect();
    }
  }
  return sum;
}

interface Row {
  readonly store: string;
  readonly round: number;
  /** Each process its own share of the sites in its own store. */
  readonly split: boolean;
  /** The 1-minute load average as the row ended. */
  readonly load: number;
  readonly processes: number;
  readonly concurrency: number;
  readonly pages: number;
  readonly seconds: number;
  readonly cpuMs: number;
  /** CPU ms of one process's start-up and end alone. */
  readonly startMs: number;
  /** CPU ms of the fixed costs: the store's fixed rate times every process's wall time. */
  readonly fixedMs: number;
  readonly commands: number;
  readonly lua: number;
  readonly trips: number;
  /** SQLite statements run. */
  readonly statements: number;
  /** On Redis, commands a page by name (a script by its SHA-1's start), most first. */
  readonly perPage: Record<string, number>;
}

/** A row's store and how it is crawled. */
interface RowSpec {
  readonly name: string;
  readonly round: number;
  readonly processes: number;
  readonly split: boolean;
  readonly store: string;
  /** The servers' URLs on Redis, what MONITOR counts on; none on SQLite. */
  readonly nodes: readonly string[];
  /** CPU ms a second of a process's life, fetching or not ({@link fixedRate}). */
  readonly fixedPerS: number;
  readonly concurrency?: number;
}

/** CPU ms process `pid` has used so far, user and system (/proc, in ticks of 10 ms). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After the command's name in parentheses: field 3 on; utime and stime are fields 14, 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The node process GNU time `timePid` runs. */
function nodeUnder(timePid: number): number {
  return Number(readFileSync(`/proc/${timePid}/task/${timePid}/children`, "utf8").split(" ")[0]);
}

/**
 * CPU ms a second a process spends whether it fetches or not, on `store`: read from /proc
 * while it waits out the Crawl-delay (WAIT_S) before the third page of a site, from a second
 * after the second page was asked for (its work done) to the third page's request.
 */
async function fixedRate(store: string, web: Web): Promise<number> {
  let timePid: number | null = null;
  let pagesAsked = 0;
  const marks: { wall: number; cpu: number }[] = [];
  const mark = () => {
    if (timePid !== null) marks.push({ wall: performance.now(), cpu: cpuOf(nodeUnder(timePid)) });
  };
  let settled: NodeJS.Timeout | undefined;
  const off = web.onRequest((host, path) => {
    if (!host.startsWith(`${WAIT_HOST}:`) || path === "/robots.txt") return;
    pagesAsked++;
    if (pagesAsked === 2) settled = setTimeout(mark, 1000);
    if (pagesAsked === 3) mark();
  });
  try {
    await crawlProcess([`http://${WAIT_HOST}:${web.port}/`], store, 3, 1, (pid) => {
      timePid = pid;
    });
  } finally {
    off();
    clearTimeout(settled);
  }
  const [from, to] = marks;
  if (from === undefined || to === undefined) return Number.NaN;
  return (to.cpu - from.cpu) / ((to.wall - from.wall) / 1000);
}

async function crawlRow(spec: RowSpec, port: number): Promise<Row> {
  const { name, processes, store, nodes, split } = spec;
  const concurrency = spec.concurrency ?? CONCURRENCY;
  const seeds = Array.from({ length: SITES }, (_, i) => `http://${siteHost(i)}:${port}/`);
  const watch = nodes.length === 0 ? null : await monitorCommands(nodes);
  const readsBefore = await readsProcessed(nodes);
  const started = performance.now();
  const total = SITES * PAGES;
  const runs = await Promise.all(
    Array.from({ length: processes }, (_, i) =>
      split
        ? // Each process its own share of the sites in a store of its own: nothing shared.
          crawlProcess(
            seeds.filter((_, site) => site % processes === i),
            apart(store, i),
            total,
            concurrency,
          )
        : crawlProcess(seeds, store, total, concurrency),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  // The bench's own reads: a MONITOR request and an INFO a node.
  const trips = (await readsProcessed(nodes)) - readsBefore - 2 * nodes.length;
  watch?.stop();
  // A process's start-up and end, measured alone (a crawl of a site that refuses everything).
  const idle = await crawlProcess([`http://${IDLE_HOST}:${port}/`], `${store}-idle`, 1, 1);
  const sum = (of: (r: Crawled) => number): number => runs.reduce((s, r) => s + of(r), 0);
  const pages = sum((r) => r.pages);
  const cpuMs = sum((r) => r.cpuMs);
  return {
    store: name,
    round: spec.round,
    split,
    load: loadavg()[0] ?? Number.NaN,
    processes,
    concurrency,
    pages,
    seconds,
    cpuMs,
    startMs: idle.cpuMs,
    fixedMs: spec.fixedPerS * (sum((r) => r.wallMs) / 1000),
    commands: watch === null ? Number.NaN : watch.commands - nodes.length,
    lua: watch === null ? Number.NaN : watch.lua,
    // On SQLite, the round trips are the commits: transactions and statements run alone.
    trips: nodes.length === 0 ? sum((r) => r.trips) : trips,
    statements: sum((r) => r.statements),
    perPage: Object.fromEntries(
      [...(watch?.byName ?? [])]
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => [name, Math.round((n / pages) * 100) / 100]),
    ),
  };
}

/** Sites the queued URLs of the memory figure are spread over. */
const MEMORY_SITES = 100;

/** The URLs of the memory figure: the crawl's own shape, and real-looking ones of ~78 characters. */
const URL_SHAPES = {
  "bench's": (i: number) => {
    const origin = `https://site-${i % MEMORY_SITES}.example`;
    return { origin, url: `${origin}/section/${i % 97}/article-${i}.html` };
  },
  "news-like": (i: number) => {
    const origin = `https://www.news-site-${i % MEMORY_SITES}.example.com`;
    const day = `${String(1 + (i % 12)).padStart(2, "0")}/${String(1 + (i % 28)).padStart(2, "0")}`;
    return { origin, url: `${origin}/2024/${day}/council-budget-vote-${i}.html` };
  },
} as const;

/**
 * Redis bytes a queued URL: used_memory before and after queuing URLS URLs across
 * MEMORY_SITES sites, each linked from one of 97 pages of its site; and the mean URL length.
 */
async function bytesPerQueuedUrl(
  url: string,
  shape: (i: number) => { origin: string; url: string },
): Promise<{ bytes: number; length: number }> {
  const info = new Redis(url);
  const prefix = `bench-memory-${Math.random().toString(36).slice(2)}:`;
  const store = await openRedisStore({ url, prefix });
  const used = async () =>
    Number(/used_memory:(\d+)/.exec(await info.info("memory"))?.[1] ?? Number.NaN);
  try {
    const before = await used();
    const batch: NewUrl[] = [];
    let length = 0;
    for (let i = 0; i < URLS; i++) {
      const { origin, url: at } = shape(i);
      length += at.length;
      batch.push({
        url: at,
        origin,
        depth: 2,
        priority: 0,
        notBefore: 0,
        referrer: `${origin}/section/${i % 97}/`,
        meta: null,
      });
      if (batch.length === 5000 || i === URLS - 1) await store.frontier.add(batch.splice(0));
    }
    return { bytes: ((await used()) - before) / URLS, length: length / URLS };
  } finally {
    await store.close();
    info.disconnect();
  }
}

/** CPU ms a page, each process's start-up and end aside. */
const aside = (r: Row): number => (r.cpuMs - r.processes * r.startMs) / r.pages;

function rowName(r: Row): string {
  return `${r.store}${r.split ? " --split" : ""}`;
}

function printRows(rows: readonly Row[]): void {
  printTable(
    `heed crawl as a fleet: ${SITES} sites × ${PAGES} pages, no delay`,
    [
      "store",
      "round",
      "load",
      "processes",
      "concurrency",
      "pages",
      "pages/s",
      "CPU ms a page",
      "start-up aside",
      "fixed",
      "busy",
      "commands a page",
      "Lua calls a page",
      "round trips a page",
      "SQLite statements a page",
    ],
    rows.map((r) => [
      rowName(r),
      String(r.round),
      fmt(r.load, 1),
      String(r.processes),
      String(r.concurrency),
      fmt(r.pages, 0),
      fmt(r.pages / r.seconds, 1),
      fmt(r.cpuMs / r.pages, 2),
      fmt(aside(r), 2),
      fmt(r.fixedMs / r.pages, 2),
      fmt(aside(r) - r.fixedMs / r.pages, 2),
      fmt(r.commands / r.pages, 1),
      fmt(r.lua / r.pages, 2),
      fmt(r.trips / r.pages, 1),
      fmt(r.statements / r.pages, 1),
    ]),
  );
}

/**
 * Each row's medians over the rounds, with CPU a page (start-up aside) against one process's
 * and against the --split floor's of as many processes, each ratio taken within its round.
 */
function printMedians(rows: readonly Row[]): void {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${rowName(r)}\t${r.processes}\t${r.concurrency}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const peer = (r: Row, processes: number, split: boolean) =>
    rows.find(
      (o) =>
        o.store === r.store &&
        o.round === r.round &&
        o.processes === processes &&
        o.split === split &&
        o.concurrency === r.concurrency,
    );
  const ratio = (group: Row[], to: (r: Row) => Row | undefined) =>
    median(
      group.map((r) => {
        const other = to(r);
        return other === undefined ? Number.NaN : aside(r) / aside(other);
      }),
    );
  printTable(
    `medians over ${ROUNDS} round(s); ratios of CPU a page (start-up aside) within each round`,
    [
      "store",
      "processes",
      "load",
      "pages/s",
      "CPU ms a page",
      "fixed",
      "busy",
      "× 1 process",
      "× --split",
      "commands a page",
    ],
    [...groups.values()].map((group) => {
      const first = group[0] as Row;
      const of = (f: (r: Row) => number) => median(group.map(f));
      return [
        rowName(first),
        String(first.processes),
        fmt(
          of((r) => r.load),
          1,
        ),
        fmt(
          of((r) => r.pages / r.seconds),
          1,
        ),
        fmt(of(aside), 2),
        fmt(
          of((r) => r.fixedMs / r.pages),
          2,
        ),
        fmt(
          of((r) => aside(r) - r.fixedMs / r.pages),
          2,
        ),
        fmt(
          ratio(group, (r) => peer(r, 1, false)),
          2,
        ),
        first.split
          ? ""
          : fmt(
              ratio(group, (r) => peer(r, r.processes, true)),
              2,
            ),
        fmt(
          of((r) => r.commands / r.pages),
          1,
        ),
      ];
    }),
  );
}

const web = await startWeb();
const dir = mkdtempSync(join(tmpdir(), "heed-fleet-"));
let redis: RedisServer | null = null;
let cluster: RedisCluster | null = null;
try {
  redis = await startRedisServer();
  cluster = CLUSTER ? await startRedisCluster() : null;
  const clusterNodes = cluster?.nodes.map((n) => n.url) ?? [];
  const places = [
    ...(STORES.includes("sqlite") ? [{ name: "SQLite", at: join(dir, "fleet"), nodes: [] }] : []),
    ...(STORES.includes("redis")
      ? [{ name: "Redis", at: `${redis.url}#fleet`, nodes: [redis.url] }]
      : []),
    ...(cluster === null
      ? []
      : [{ name: "Redis Cluster", at: `${cluster.url}#fleet`, nodes: clusterNodes }]),
  ];
  // The fixed costs a second of each store: measured in each round, before its rows, and the
  // rows of a round split with that round's rate (one wait of WAIT_S on a busy machine moves).
  const fixed = new Map<string, number[]>();
  const rows: Row[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const place of places) {
      const at =
        place.nodes.length === 0 ? `${place.at}-fixed-${round}.db` : `${place.at}-fixed-${round}:`;
      fixed.set(place.name, [...(fixed.get(place.name) ?? []), await fixedRate(at, web)]);
    }
    for (const processes of PROCESSES) {
      for (const split of SPLIT && processes > 1 ? [false, true] : [false]) {
        for (const place of places) {
          const id = `${round}-${processes}${split ? "-split" : ""}`;
          const store = place.nodes.length === 0 ? `${place.at}-${id}.db` : `${place.at}-${id}:`;
          const fixedPerS = fixed.get(place.name)?.at(-1) ?? Number.NaN;
          const spec = { name: place.name, round, processes, split, store, fixedPerS };
          rows.push(await crawlRow({ ...spec, nodes: place.nodes }, web.port));
          // Each row as it comes: a long bench stopped midway still gives what it measured.
          console.error(JSON.stringify(rows.at(-1)));
        }
      }
    }
  }
  for (const [name, rates] of fixed) {
    const each = rates.map((n) => fmt(n, 1)).join(", ");
    console.log(`${name}: fixed costs ${fmt(median(rates), 2)} ms a second (median; ${each})`);
  }
  // One request at a time: the server's reads are then the client's round trips, one each
  // (with many in flight, ioredis's writes of several visits arrive in one read). Not on a
  // large web, where it would outlast the row's time limit.
  if (SITES <= 1000 && STORES.includes("redis")) {
    const spec = {
      name: "Redis",
      round: 1,
      processes: 1,
      split: false,
      store: `${redis.url}#fleet-seq:`,
      nodes: [redis.url],
      fixedPerS: median(fixed.get("Redis") ?? [Number.NaN]),
      concurrency: 1,
    };
    rows.push(await crawlRow(spec, web.port));
  }
  printRows(rows);
  printMedians(rows);
  for (const [name, shape] of URLS === 0 ? [] : Object.entries(URL_SHAPES)) {
    const { bytes, length } = await bytesPerQueuedUrl(redis.url, shape);
    console.log(
      `\nRedis bytes a queued URL (${fmt(URLS, 0)} ${name} URLs of ${fmt(length, 0)} characters ` +
        `across ${MEMORY_SITES} sites): ${fmt(bytes, 0)}`,
    );
  }
  console.log(
    `\nload average at the end: ${loadavg()
      .map((n) => fmt(n, 2))
      .join(" ")}`,
  );
} finally {
  web.close();
  await cluster?.stop();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
}
