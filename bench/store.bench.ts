/**
 * The SQLite frontier at crawl scale: 1,000,000 URLs over 1,000 origins (the issue: "a frontier
 * of 1,000,000 queued URLs stays under 300 MB RSS"), then the crawler's loop (readyOrigins →
 * lease → settle) for a bounded time. Reports adds/s, lease+settle/s, the peak RSS of this
 * process and the file's size.
 *
 *   npx tsc -p . && node dist/bench/store.bench.js [--urls N] [--seconds S]
 *
 * Bounded: N URLs (default 1,000,000) and S seconds of leasing (default 20); the whole run
 * takes well under two minutes on two cores.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openSqliteStore } from "../src/store/sqlite/index.js";
import type { NewUrl } from "../src/store/types.js";

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? undefined : Number(process.argv[at + 1]);
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

const URLS = option("--urls", 1_000_000);
const ORIGINS = 1_000;
const LEASE_SECONDS = option("--seconds", 20);
/** URLs per add call: the links of one page, all of one origin, with the page as referrer. */
const BATCH = 100;
const T0 = 1_700_000_000_000;

const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
/** Peak resident set of this process so far, in bytes (getrusage's ru_maxrss). */
const peakRss = () => process.resourceUsage().maxRSS * 1024;
const rate = (count: number, ms: number) => Math.round((count / ms) * 1000).toLocaleString("en-US");

const dir = mkdtempSync(join(tmpdir(), "heed-store-bench-"));
const path = join(dir, "frontier.db");
const store = await openSqliteStore(path);
const { frontier } = store;
try {
  const origin = (i: number) => `https://host-${i}.example.com`;
  let started = performance.now();
  let added = 0;
  for (let start = 0, page = 0; start < URLS; start += BATCH, page++) {
    const host = origin(page % ORIGINS);
    const referrer = `${host}/section/${page}/index.html`;
    const batch: NewUrl[] = [];
    for (let i = start; i < Math.min(start + BATCH, URLS); i++) {
      batch.push({
        url: `${host}/section/${page}/article-${i}.html?utm=feed&id=${i * 7919}`,
        origin: host,
        depth: 2,
        priority: i % 4,
        notBefore: 0,
        referrer,
        meta: null,
      });
    }
    added += await frontier.add(batch);
  }
  const addMs = performance.now() - started;
  const afterAdd = await frontier.counts();
  console.log(
    `add: ${added.toLocaleString("en-US")} URLs over ${afterAdd.origins} origins in ` +
      `${(addMs / 1000).toFixed(1)} s = ${rate(added, addMs)} URLs/s (batches of ${BATCH})`,
  );
  console.log(`peak RSS after adding: ${mb(peakRss())} MB`);

  // A second add of the same URLs: all duplicates.
  started = performance.now();
  let again = 0;
  for (let start = 0, page = 0; start < 100_000 && start < URLS; start += BATCH, page++) {
    const host = origin(page % ORIGINS);
    const batch: NewUrl[] = [];
    for (let i = start; i < start + BATCH; i++) {
      const url = `${host}/section/${page}/article-${i}.html?utm=feed&id=${i * 7919}`;
      batch.push({
        url,
        origin: host,
        depth: 2,
        priority: 0,
        notBefore: 0,
        referrer: null,
        meta: null,
      });
    }
    again += await frontier.add(batch);
  }
  const dupMs = performance.now() - started;
  console.log(`add of 100,000 known URLs: ${again} new, ${rate(100_000, dupMs)} URLs/s`);

  // The crawler's loop, with no politeness gap so that the store is the bottleneck.
  started = performance.now();
  let leased = 0;
  let rounds = 0;
  let now = T0;
  const deadline = started + LEASE_SECONDS * 1000;
  while (performance.now() < deadline) {
    now += 1;
    const ready = await frontier.readyOrigins(now, 100, new Set());
    if (ready.length === 0) break;
    rounds++;
    for (const host of ready) {
      const lease = await frontier.lease(host, now, 60_000, now);
      if (lease === null) continue;
      await frontier.settle(lease, { kind: "done", status: 200, at: now });
      leased++;
    }
  }
  const leaseMs = performance.now() - started;
  const counts = await frontier.counts();
  console.log(
    `readyOrigins(100) + lease + settle: ${leased.toLocaleString("en-US")} URLs in ` +
      `${(leaseMs / 1000).toFixed(1)} s = ${rate(leased, leaseMs)} URLs/s ` +
      `(${rounds} rounds; ${counts.queued.toLocaleString("en-US")} still queued)`,
  );
  started = performance.now();
  const due = await frontier.nextReadyAt(new Set());
  console.log(`nextReadyAt: ${due} in ${(performance.now() - started).toFixed(2)} ms`);
  await store.close();
  const bytes = ["", "-wal"].reduce((sum, suffix) => {
    try {
      return sum + statSync(path + suffix).size;
    } catch {
      return sum;
    }
  }, 0);
  console.log(`file: ${mb(bytes)} MB; peak RSS of the whole run: ${mb(peakRss())} MB`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
