/**
 * What RUP saves a robot (seeds/001 §2: "registered robots will only have to retrieve modified
 * URLs"), measured in one run on one local site of 10,000 pages (100 section pages of 100 pages
 * each, about 2 KB a page, and an index), after 1% of the pages changed:
 *
 *   RUP                 the site mails its report over SMTP to heed's inbox, which queues the
 *                       100 changed URLs; `crawl({ queued: true })` fetches them;
 *   full re-crawl       a fresh store, from `/`, every page again;
 *   conditional         `crawl({ recrawl: true })` on the store of the first crawl: every page
 *                       again, with If-None-Match / If-Modified-Since (304 for the unchanged).
 *
 * Counted at the site: requests, body bytes, seconds of each way to get current; printed with
 * the ratios against RUP and a verdict on the issue's aim (at least 50× fewer requests than the
 * conditional re-crawl). Then, in a child process of its own, the RUP server's start-up (the
 * first scan and the watcher) on a tree of 100,000 files, and its memory (RSS) after it.
 *
 *   npm run build && node dist/bench/rup.bench.js [--files N] [--tree N]
 *
 * Bounded: every crawl has a time limit, the child is killed after 5 minutes, every temporary
 * directory is removed at the end.
 */
import { fork } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { crawl } from "../src/crawler/crawler.js";
import { startInbox } from "../src/crawler/rup/inbox.js";
import { register } from "../src/crawler/rup/robot.js";
import { SqliteRobotState } from "../src/crawler/rup/robot-state.js";
import { createHttpClient } from "../src/net/http-client.js";
import { type MailTransport, smtpTransport } from "../src/site/rup/mailer.js";
import { RupSite } from "../src/site/rup/rup-site.js";
import { startSiteServer } from "../src/site/site-server.js";
import { openSqliteStore } from "../src/store/index.js";
import { option } from "./report.js";

const DAY = 86_400_000;
const PAGES = Number(option("--files", "10000"));
const TREE = Number(option("--tree", "100000"));
const SECTIONS = Math.max(1, Math.round(Math.sqrt(PAGES)));
const PER_SECTION = Math.ceil(PAGES / SECTIONS);
const CHANGED = Math.max(1, Math.round(PAGES / 100));
const CRAWL_LIMIT_MS = 10 * 60_000;
const FILLER = "lorem ipsum dolor sit amet ".repeat(70);

interface Tally {
  requests: number;
  bytes: number;
}

function page(title: string, links: readonly string[]): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}<p>${FILLER}</p></body></html>\n`;
}

function buildSite(dir: string): string[] {
  const pages: string[] = [];
  const sections: string[] = [];
  for (let s = 0; s < SECTIONS; s += 1) {
    const links: string[] = [];
    mkdirSync(join(dir, `s${s}`));
    for (let p = 0; p < PER_SECTION && pages.length < PAGES; p += 1) {
      const path = `/s${s}/p${p}.html`;
      writeFileSync(join(dir, path), page(path, []));
      links.push(path);
      pages.push(path);
    }
    writeFileSync(join(dir, `s${s}`, "index.html"), page(`section ${s}`, links));
    sections.push(`/s${s}/`);
  }
  writeFileSync(join(dir, "index.html"), page("home", sections));
  writeFileSync(join(dir, "robots.txt"), "User-agent: *\nAllow: /\n");
  return pages;
}

async function timedCrawl(
  storePath: string,
  options: { seeds: string[]; recrawl?: boolean; queued?: boolean },
  tally: Tally,
  counter: { on: Tally | null },
) {
  const store = await openSqliteStore(storePath);
  const client = createHttpClient({
    userAgent: "rupbench/1.0",
    allowPrivateAddresses: true,
    connectionsPerOrigin: 8,
  });
  const signal = AbortSignal.timeout(CRAWL_LIMIT_MS);
  counter.on = tally;
  const started = performance.now();
  try {
    const summary = await crawl({
      ...options,
      agent: "rupbench",
      userAgent: "rupbench/1.0",
      store,
      client,
      maxPages: 10 * PAGES,
      maxDepth: 5,
      concurrency: 8,
      perHost: 8,
      scope: "host",
      signal,
    });
    process.stderr.write(
      `  crawl: ${summary.fetched} fetched, ${summary.skipped} skipped, ${summary.failed} failed, ${summary.queued} queued\n`,
    );
  } finally {
    await client.close();
    await store.close();
    // The site logs an answer when it has left ("finish"), which may come after the crawler has
    // read it: let the last ones be counted before the tally is read.
    await new Promise((resolve) => setTimeout(resolve, 200));
    counter.on = null;
  }
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "heed-rup-bench-"));
  const dir = join(tmp, "site");
  mkdirSync(dir);
  try {
    const pages = buildSite(dir);
    process.stderr.write(`site: ${pages.length} pages in ${SECTIONS} sections\n`);
    const clock = { t: Date.now() };
    const counter: { on: Tally | null } = { on: null };
    let mailBytes = 0;
    // Reports go to the robot's inbox once it listens.
    let deliver: MailTransport | null = null;
    const server = await startSiteServer({
      root: dir,
      onRequest: (e) => {
        if (counter.on !== null && e.method === "GET") {
          counter.on.requests += 1;
          counter.on.bytes += e.bytes;
        }
      },
      rup: {
        statePath: join(tmp, "site.db"),
        transport: {
          send: async (m) => {
            if (deliver === null) throw new Error("no inbox yet");
            mailBytes += Buffer.byteLength(m.text);
            await deliver.send(m);
          },
          close: () => deliver?.close(),
        },
        from: "rup@bench.test",
        now: () => clock.t,
        tickMs: 0,
        scanIntervalMs: 0,
      },
    });
    const base = server.url;
    const rupSite = server.rup as RupSite;

    // The robot crawled the site once; its store is that crawl's. The conditional re-crawl
    // starts from a copy of the same store.
    process.stderr.write("first crawl …\n");
    const robotDb = join(tmp, "robot.db");
    await timedCrawl(robotDb, { seeds: [base] }, { requests: 0, bytes: 0 }, counter);
    copyFileSync(robotDb, join(tmp, "conditional.db"));

    const robot = SqliteRobotState.open(robotDb);
    const robotStore = await openSqliteStore(robotDb);
    const robotClient = createHttpClient({
      userAgent: "rupbench/1.0",
      allowPrivateAddresses: true,
    });
    const inbox = await startInbox({
      host: "127.0.0.1",
      port: 0,
      state: robot,
      store: robotStore,
      client: robotClient,
      now: () => clock.t,
    });
    deliver = smtpTransport({ host: "127.0.0.1", port: inbox.port, secure: false });
    await register(
      { client: robotClient, state: robot, now: () => clock.t },
      base,
      "robot@bench.test",
      { latency: { count: 1, unit: "day" } },
    );

    // 1% of the pages change.
    const step = Math.floor(pages.length / CHANGED);
    for (let i = 0; i < CHANGED; i += 1)
      writeFileSync(join(dir, pages[i * step] ?? ""), page(`changed ${i}`, []));
    await rupSite.log.rescan();

    process.stderr.write("RUP: the report, then the queued pages …\n");
    clock.t += DAY;
    const rupStarted = performance.now();
    const tick = await rupSite.tick();
    if (tick.sent !== 1) throw new Error(`the report was not delivered: ${JSON.stringify(tick)}`);
    const taken = (await robot.reports(new URL(base).origin)).at(-1);
    process.stderr.write(`report ${taken?.seq ?? "?"} taken in: ${taken?.detail ?? "?"}\n`);
    await inbox.close();
    await robotStore.close();
    await robot.close();
    await robotClient.close();
    const rup: Tally = { requests: 0, bytes: 0 };
    await timedCrawl(robotDb, { seeds: [], queued: true }, rup, counter);
    const rupSeconds = (performance.now() - rupStarted) / 1000;

    process.stderr.write("conditional re-crawl …\n");
    const conditional: Tally = { requests: 0, bytes: 0 };
    const conditionalSeconds = await timedCrawl(
      join(tmp, "conditional.db"),
      { seeds: [base], recrawl: true },
      conditional,
      counter,
    );
    process.stderr.write("full re-crawl …\n");
    const full: Tally = { requests: 0, bytes: 0 };
    const fullSeconds = await timedCrawl(join(tmp, "full.db"), { seeds: [base] }, full, counter);

    await server.close();

    const rows: [string, Tally, number][] = [
      [
        "RUP (report + queued pages)",
        { requests: rup.requests, bytes: rup.bytes + mailBytes },
        rupSeconds,
      ],
      ["conditional-GET re-crawl", conditional, conditionalSeconds],
      ["full re-crawl", full, fullSeconds],
    ];
    console.log(
      `\n${pages.length} pages, ${CHANGED} changed (${((CHANGED / pages.length) * 100).toFixed(0)}%); counted at the site (GET requests, body bytes; RUP's bytes include the report mail: ${mailBytes} bytes)\n`,
    );
    console.log(
      "way to get current               requests      bytes   seconds   × RUP requests  × RUP bytes  × RUP seconds",
    );
    for (const [name, t, s] of rows) {
      console.log(
        `${name.padEnd(32)} ${String(t.requests).padStart(9)} ${String(t.bytes).padStart(10)} ${s.toFixed(2).padStart(9)} ${(t.requests / rup.requests).toFixed(1).padStart(16)} ${(t.bytes / (rup.bytes + mailBytes)).toFixed(1).padStart(12)} ${(s / rupSeconds).toFixed(1).padStart(13)}`,
      );
    }
    const ratio = conditional.requests / rup.requests;
    console.log(
      `\naim: ≥ 50× fewer requests than the conditional re-crawl: ${ratio.toFixed(1)}× — ${ratio >= 50 ? "met" : "NOT met"}`,
    );

    await startupChild(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Start-up time and memory of the RUP server on a large tree, measured in a fresh process. */
function startupChild(tmp: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(import.meta.url),
      ["--startup-child", tmp, "--tree", String(TREE)],
      { stdio: "inherit" },
    );
    const timer = setTimeout(() => child.kill("SIGKILL"), 5 * 60_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`the start-up child ended with ${String(code)}`));
    });
  });
}

async function startupMeasure(tmp: string): Promise<void> {
  const dir = join(tmp, "tree");
  mkdirSync(dir);
  const perDir = 1000;
  for (let d = 0; d * perDir < TREE; d += 1) {
    mkdirSync(join(dir, `d${d}`));
    for (let f = 0; f < perDir && d * perDir + f < TREE; f += 1)
      writeFileSync(join(dir, `d${d}`, `f${f}.html`), "x");
  }
  const rssBefore = process.memoryUsage().rss;
  for (const [label, state] of [
    ["first start (snapshot taken)", "tree.db"],
    ["second start (snapshot compared)", "tree.db"],
  ] as const) {
    const started = performance.now();
    const site = await RupSite.open({
      root: dir,
      statePath: join(tmp, state),
      urlBase: "http://127.0.0.1/",
      transport: null,
      from: "rup@bench.test",
      tickMs: 0,
      scanIntervalMs: 0,
    });
    const seconds = (performance.now() - started) / 1000;
    const rss = process.memoryUsage().rss;
    console.log(
      `RUP server on ${TREE} files, ${label}: ${seconds.toFixed(2)} s, RSS ${(rss / 2 ** 20).toFixed(0)} MB (${((rss - rssBefore) / 2 ** 20).toFixed(0)} MB above the bare process)`,
    );
    await site.close();
  }
}

if (process.argv.includes("--startup-child")) {
  const tmp = process.argv[process.argv.indexOf("--startup-child") + 1] ?? "";
  startupMeasure(tmp).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
