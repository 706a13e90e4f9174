/**
 * heed vs robots-parser on two generated corpora: one with the shape of the files the web
 * serves (bench/web-corpus.ts, issue 17's statistics), whose figures are held to the aims, and
 * the "large files" corpus (bench/corpus.ts: CMS, e-commerce and huge files). Parse and query
 * throughput, per-line and per-file cost, parse + queries end to end, `heed check --batch`
 * against robots-parser in a child process each, a batch over 1,000,000 files, pathological
 * patterns, and how often the two libraries answer alike.
 *
 *   npm run bench            # build, then node dist/bench/robots.bench.js
 *   node dist/bench/robots.bench.js --quick   # fewer runs, a 100,000-file batch
 *   node dist/bench/robots.bench.js --million-files N   # size of the big batch run
 *   node --expose-gc dist/bench/robots.bench.js --real-only   # only the real files
 *
 * The real files (bench/real/, filled by `npm run bench:fetch-corpus`) are measured first when
 * they are there; the generated corpora follow. Heap kept is measured under --expose-gc.
 *
 * Every loop is bounded by a run count and a time budget; the whole run takes well under
 * two minutes on two cores. Times are medians of timed runs after warm-up runs.
 * MB = 10^6 bytes of input as served (a file over the 500 KiB parse limit counts whole).
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import robotsParser from "robots-parser";
import { parseRobots, type RobotsPolicy } from "../src/protocol/robots/index.js";
import { adversarialCases, buildCorpus, type CorpusFile, type Query } from "./corpus.js";
import { defaultWorkers } from "../src/cli/batch/run.js";
import { heapMeasured, liveBytes } from "./live-bytes.js";
import { fmt, median, option, printTable } from "./report.js";
import { loadRealCorpus, REAL_DIR } from "./real-corpus.js";
import { buildWebCorpus, corpusShape } from "./web-corpus.js";

const QUICK = process.argv.includes("--quick");
// Only the real files (bench/real/) and their summary: a quicker run while working on them.
const REAL_ONLY = process.argv.includes("--real-only");
// In-process loops are timed by this process's CPU time by default: on a machine shared with
// other work, wall time measures the neighbours as much as the code. `--clock wall` for wall.
const CLOCK = option("--clock", "cpu") === "wall" ? "wall" : "cpu";
const now =
  CLOCK === "wall"
    ? (): number => performance.now()
    : (): number => {
        const used = process.cpuUsage();
        return (used.user + used.system) / 1000;
      };
const wallNow = (): number => performance.now();

// What issue 17 measured on 2,551 real files, printed beside the generated corpus's shape.
const WEB_MEASURED: Record<string, string> = {
  files: "2551",
  MB: "11.2",
  "size p10/median/p90/p99/max": "63 B / 628 B / 6.6 KB / 57 KB / 877 KB",
  "bytes in files > 100 KiB": "44%",
  "lines/file median/p90/p99": "25 / 188 / 1182",
  "line length mean/median/p90": "38 / 25 / 65",
  "rules/agent/comment/blank/other": "66% (20% wild) / 4% / 3% / 9% / 17%",
  "HTML pages": "137",
};

// Results go here so that no loop can be optimised away.
let sink = 0;

// ---------------------------------------------------------------------------------------------
// Helpers

function fmtInt(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${fmt(bytes / 1024 / 1024, 2)} MiB`
    : bytes >= 1024
      ? `${fmt(bytes / 1024, 1)} KiB`
      : `${bytes} B`;
}

interface Bucket {
  readonly label: string;
  readonly max: number;
}

const BUCKETS: readonly Bucket[] = [
  { label: "< 1 KiB", max: 1024 },
  { label: "1-10 KiB", max: 10 * 1024 },
  { label: "10-100 KiB", max: 100 * 1024 },
  { label: "100-500 KiB", max: 500 * 1024 },
  { label: "> 500 KiB", max: Number.POSITIVE_INFINITY },
];

function bucketOf(size: number): number {
  return BUCKETS.findIndex((b) => size <= b.max);
}

/**
 * Runs each contender `warmup` times, then alternates timed runs until each has `maxRuns` or
 * the budget is spent (never fewer than `minRuns`). A run returns its time per bucket.
 */
function race(
  contenders: readonly (() => Float64Array)[],
  options: { warmup: number; minRuns: number; maxRuns: number; budgetMs: number },
): Float64Array[][] {
  for (let w = 0; w < options.warmup; w++) for (const run of contenders) run();
  const runs: Float64Array[][] = contenders.map(() => []);
  const start = now();
  for (let r = 0; r < options.maxRuns; r++) {
    if (r >= options.minRuns && now() - start > options.budgetMs) break;
    contenders.forEach((run, i) => {
      runs[i]?.push(run());
    });
  }
  return runs;
}

/** Median total over runs, and per bucket the median of that bucket's times. */
function summarise(runs: readonly Float64Array[]): { total: number; perBucket: number[] } {
  const total = median(runs.map((r) => r.reduce((a, b) => a + b, 0)));
  const perBucket = BUCKETS.map((_, b) => median(runs.map((r) => r[b] ?? 0)));
  return { total, perBucket };
}

// ---------------------------------------------------------------------------------------------
// Corpus

// The corpus being measured: set by use(), read by every stage below.
let corpus: CorpusFile[] = [];
let buildMs = 0;
const decoder = new TextDecoder("utf-8");
let texts: string[] = [];
let byBucket: number[][] = [];
let bucketBytes: number[] = [];
let totalBytes = 0;
let totalQueries = 0;
let totalLines = 0;
let queries: QuerySet = { file: [], url: [], agent: [] };

function use(files: CorpusFile[], ms: number): void {
  corpus = files;
  buildMs = ms;
  texts = corpus.map((f) => decoder.decode(f.bytes));
  byBucket = BUCKETS.map(() => []);
  corpus.forEach((f, i) => {
    byBucket[bucketOf(f.bytes.length)]?.push(i);
  });
  bucketBytes = byBucket.map((ids) => ids.reduce((n, i) => n + (corpus[i]?.bytes.length ?? 0), 0));
  totalBytes = bucketBytes.reduce((a, b) => a + b, 0);
  totalQueries = corpus.reduce((n, f) => n + f.queries.length, 0);
  totalLines = texts.reduce((n, t) => n + lineCount(t), 0);
  queries = querySet();
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return text.length > 0 && !/[\r\n]$/.test(text) ? n + 1 : n;
}

function printCorpus(title: string): void {
  const sizes = corpus.map((f) => f.bytes.length).sort((a, b) => a - b);
  const pct = (p: number): number =>
    sizes[Math.min(sizes.length - 1, Math.floor(p * sizes.length))] ?? 0;
  console.log(
    `\n=== ${title} ===\n` +
      `corpus: ${corpus.length} files, ${fmtInt(totalLines)} lines, ${kib(totalBytes)} (${fmt(totalBytes / 1e6, 2)} MB), ` +
      `${fmtInt(totalQueries)} queries; built in ${fmt(buildMs, 0)} ms\n` +
      `sizes: min ${kib(sizes[0] ?? 0)}, p10 ${kib(pct(0.1))}, median ${kib(pct(0.5))}, ` +
      `p90 ${kib(pct(0.9))}, max ${kib(sizes[sizes.length - 1] ?? 0)}`,
  );
  const kinds = new Map<string, number>();
  const traits = new Map<string, number>();
  for (const f of corpus) {
    kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
    for (const t of f.traits) traits.set(t, (traits.get(t) ?? 0) + 1);
  }
  console.log(`kinds: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}`);
  console.log(`traits: ${[...traits].map(([k, n]) => `${k} ${n}`).join(", ")}`);
  printTable(
    "size buckets",
    ["bucket", "files", "bytes", "queries"],
    BUCKETS.map((b, i) => [
      b.label,
      String(byBucket[i]?.length ?? 0),
      kib(bucketBytes[i] ?? 0),
      fmtInt((byBucket[i] ?? []).reduce((n, id) => n + (corpus[id]?.queries.length ?? 0), 0)),
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// Parse throughput

function parseHeedBytes(): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const ids = byBucket[b] ?? [];
    const start = now();
    for (const i of ids) sink += parseRobots((corpus[i] as CorpusFile).bytes).groups.length;
    times[b] = now() - start;
  }
  return times;
}

/**
 * heed's parse with every group's rules read as well: a group reads its rules when they are
 * first asked for, which the row above leaves to the first query.
 */
function parseHeedAllRules(): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const ids = byBucket[b] ?? [];
    const start = now();
    for (const i of ids) {
      for (const group of parseRobots((corpus[i] as CorpusFile).bytes).groups) {
        sink += group.to - group.from;
      }
    }
    times[b] = now() - start;
  }
  return times;
}

function parseHeedString(): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const ids = byBucket[b] ?? [];
    const start = now();
    for (const i of ids) sink += parseRobots(texts[i] as string).groups.length;
    times[b] = now() - start;
  }
  return times;
}

function parseRobotsParser(): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const ids = byBucket[b] ?? [];
    const start = now();
    for (const i of ids) {
      const robot = robotsParser((corpus[i] as CorpusFile).robotsUrl, texts[i] as string);
      sink += robot.getSitemaps().length;
    }
    times[b] = now() - start;
  }
  return times;
}

/**
 * Parse with every result kept alive until the whole corpus is parsed, as a crawler's cache
 * keeps them: the collector pays for what each parse leaves behind.
 */
function parseKept(parse: (i: number) => unknown): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  const kept: unknown[] = [];
  for (let b = 0; b < BUCKETS.length; b++) {
    const ids = byBucket[b] ?? [];
    const start = now();
    for (const i of ids) kept.push(parse(i));
    times[b] = now() - start;
  }
  sink += kept.length;
  return times;
}

const parseHeedKept = (): Float64Array =>
  parseKept((i) => parseRobots((corpus[i] as CorpusFile).bytes));
const parseRobotsParserKept = (): Float64Array =>
  parseKept((i) => robotsParser((corpus[i] as CorpusFile).robotsUrl, texts[i] as string));

function decodeAll(): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const ids = byBucket[b] ?? [];
    const start = now();
    for (const i of ids) sink += decoder.decode((corpus[i] as CorpusFile).bytes).length;
    times[b] = now() - start;
  }
  return times;
}

interface ParseResults {
  heed: ReturnType<typeof summarise>;
  heedString: ReturnType<typeof summarise>;
  rp: ReturnType<typeof summarise>;
  decode: ReturnType<typeof summarise>;
  heedKept: ReturnType<typeof summarise>;
  rpKept: ReturnType<typeof summarise>;
  heedAllRules: ReturnType<typeof summarise>;
  runs: number;
}

function benchParse(): ParseResults {
  const runs = race(
    [
      parseHeedBytes,
      parseRobotsParser,
      parseHeedString,
      decodeAll,
      parseHeedKept,
      parseRobotsParserKept,
      parseHeedAllRules,
    ],
    {
      warmup: 2,
      minRuns: 3,
      maxRuns: QUICK ? 3 : 9,
      budgetMs: QUICK ? 3_000 : 20_000,
    },
  );
  return {
    heed: summarise(runs[0] ?? []),
    rp: summarise(runs[1] ?? []),
    heedString: summarise(runs[2] ?? []),
    decode: summarise(runs[3] ?? []),
    heedKept: summarise(runs[4] ?? []),
    rpKept: summarise(runs[5] ?? []),
    heedAllRules: summarise(runs[6] ?? []),
    runs: runs[0]?.length ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Retained heap

interface Retained {
  /** Bytes kept by every file of the corpus parsed, input included. */
  parsed: number;
  /** The same after each file's queries were asked of it. */
  queried: number;
}

/**
 * What one parse of the whole corpus keeps alive: each parse is given input made inside the
 * measured window (a copy of the bytes for heed, the decoded text for robots-parser), so a
 * parser that keeps its input pays for it and one that does not, does not.
 */
function retained<T>(parse: (i: number) => T, ask: (parsed: T, q: Query) => unknown): Retained {
  const before = liveBytes();
  const kept = corpus.map((_, i) => parse(i));
  const parsed = liveBytes() - before;
  corpus.forEach((f, i) => {
    for (const q of f.queries) if (ask(kept[i] as T, q) === true) sink++;
  });
  const queried = liveBytes() - before;
  sink += kept.length;
  return { parsed, queried };
}

function benchRetained(): { heed: Retained; rp: Retained } {
  const heed = retained(
    (i) => parseRobots((corpus[i] as CorpusFile).bytes.slice()),
    (p, q) => p.isAllowed(q.url, q.agent),
  );
  const rp = retained(
    (i) =>
      robotsParser(
        (corpus[i] as CorpusFile).robotsUrl,
        decoder.decode((corpus[i] as CorpusFile).bytes),
      ),
    (r, q) => r.isAllowed(q.url, q.agent),
  );
  return { heed, rp };
}

// ---------------------------------------------------------------------------------------------
// Query throughput

interface QuerySet {
  /** Per bucket: file index, URL and agent of each query. */
  readonly file: Int32Array[];
  readonly url: string[][];
  readonly agent: string[][];
}

function querySet(): QuerySet {
  const file: Int32Array[] = [];
  const url: string[][] = [];
  const agent: string[][] = [];
  for (const ids of byBucket) {
    const f: number[] = [];
    const u: string[] = [];
    const a: string[] = [];
    for (const i of ids) {
      for (const q of (corpus[i] as CorpusFile).queries) {
        f.push(i);
        u.push(q.url);
        a.push(q.agent);
      }
    }
    file.push(Int32Array.from(f));
    url.push(u);
    agent.push(a);
  }
  return { file, url, agent };
}

function queryHeed(policies: readonly RobotsPolicy[]): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const file = queries.file[b] as Int32Array;
    const url = queries.url[b] as string[];
    const agent = queries.agent[b] as string[];
    const start = now();
    for (let k = 0; k < file.length; k++) {
      if (
        (policies[file[k] as number] as RobotsPolicy).isAllowed(
          url[k] as string,
          agent[k] as string,
        )
      )
        sink++;
    }
    times[b] = now() - start;
  }
  return times;
}

type Robot = ReturnType<typeof robotsParser>;

function queryRobotsParser(robots: readonly Robot[]): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const file = queries.file[b] as Int32Array;
    const url = queries.url[b] as string[];
    const agent = queries.agent[b] as string[];
    const start = now();
    for (let k = 0; k < file.length; k++) {
      if ((robots[file[k] as number] as Robot).isAllowed(url[k] as string, agent[k] as string))
        sink++;
    }
    times[b] = now() - start;
  }
  return times;
}

interface QueryResults {
  heed: ReturnType<typeof summarise>;
  rp: ReturnType<typeof summarise>;
  runs: number;
}

function benchQueries(policies: readonly RobotsPolicy[], robots: readonly Robot[]): QueryResults {
  const runs = race([() => queryHeed(policies), () => queryRobotsParser(robots)], {
    warmup: 1,
    minRuns: 3,
    maxRuns: QUICK ? 3 : 7,
    budgetMs: QUICK ? 5_000 : 30_000,
  });
  return {
    heed: summarise(runs[0] ?? []),
    rp: summarise(runs[1] ?? []),
    runs: runs[0]?.length ?? 0,
  };
}

/**
 * heed on freshly parsed policies (parse not timed): each policy's first query per robot
 * selects its groups and orders their rules. Each run drops its policies before the next.
 */
function benchColdQueries(): ReturnType<typeof summarise> {
  const cold: Float64Array[] = [];
  // The first run warms the query code up and is not counted.
  for (let r = 0; r <= (QUICK ? 1 : 3); r++) {
    const times = queryHeed(corpus.map((f) => parseRobots(f.bytes)));
    if (r > 0) cold.push(times);
  }
  return summarise(cold);
}

/** Warm queries and agreement, on policies that are dropped when this returns. */
function warmStage(): { q: QueryResults; agree: Agreement } {
  const policies = corpus.map((f) => parseRobots(f.bytes));
  const robots = corpus.map((f, i) => robotsParser(f.robotsUrl, texts[i] as string));
  return { q: benchQueries(policies, robots), agree: agreement(policies, robots) };
}

// ---------------------------------------------------------------------------------------------
// End to end: what a crawler pays per fetched file

/** heed: parse the bytes, then ask the file's queries. */
function endToEndHeed(): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const ids = byBucket[b] ?? [];
    const start = now();
    for (const i of ids) {
      const f = corpus[i] as CorpusFile;
      const policy = parseRobots(f.bytes);
      for (const q of f.queries) if (policy.isAllowed(q.url, q.agent)) sink++;
    }
    times[b] = now() - start;
  }
  return times;
}

/** robots-parser: decode the bytes, parse the text, then ask the file's queries. */
function endToEndRobotsParser(): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  for (let b = 0; b < BUCKETS.length; b++) {
    const ids = byBucket[b] ?? [];
    const start = now();
    for (const i of ids) {
      const f = corpus[i] as CorpusFile;
      const robot = robotsParser(f.robotsUrl, decoder.decode(f.bytes));
      for (const q of f.queries) if (robot.isAllowed(q.url, q.agent)) sink++;
    }
    times[b] = now() - start;
  }
  return times;
}

function benchEndToEnd(): {
  heed: ReturnType<typeof summarise>;
  rp: ReturnType<typeof summarise>;
  runs: number;
} {
  const runs = race([endToEndHeed, endToEndRobotsParser], {
    warmup: 1,
    minRuns: 3,
    maxRuns: QUICK ? 3 : 5,
    budgetMs: QUICK ? 5_000 : 20_000,
  });
  return {
    heed: summarise(runs[0] ?? []),
    rp: summarise(runs[1] ?? []),
    runs: runs[0]?.length ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Agreement

interface Agreement {
  total: number;
  agree: number;
  /** robots-parser answered undefined (URL not on its origin or unreadable). */
  undecided: number;
  byKind: Map<string, { n: number; agree: number }>;
  byReason: Map<string, number>;
  byTrait: Map<string, number>;
}

function agreement(policies: readonly RobotsPolicy[], robots: readonly Robot[]): Agreement {
  const result: Agreement = {
    total: 0,
    agree: 0,
    undecided: 0,
    byKind: new Map(),
    byReason: new Map(),
    byTrait: new Map(),
  };
  corpus.forEach((f, i) => {
    const policy = policies[i] as RobotsPolicy;
    const robot = robots[i] as Robot;
    const kind = result.byKind.get(f.kind) ?? { n: 0, agree: 0 };
    result.byKind.set(f.kind, kind);
    for (const q of f.queries) {
      const decision = policy.check(q.url, q.agent);
      const theirs = robot.isAllowed(q.url, q.agent);
      result.total++;
      kind.n++;
      if (theirs === undefined) result.undecided++;
      if (theirs === decision.allowed) {
        result.agree++;
        kind.agree++;
      } else {
        result.byReason.set(decision.reason, (result.byReason.get(decision.reason) ?? 0) + 1);
        for (const t of f.traits) result.byTrait.set(t, (result.byTrait.get(t) ?? 0) + 1);
      }
    }
  });
  return result;
}

// ---------------------------------------------------------------------------------------------
// Adversarial patterns

interface AdversarialResult {
  name: string;
  heedUs: number;
  heedIterations: number;
  heedAllowed: boolean;
  rpUs: number;
  rpIterations: number;
  rpAllowed: boolean | undefined;
}

/** µs per call, at most `maxIterations` calls and about `budgetMs` (checked every call). */
function perCall(fn: () => boolean | undefined, maxIterations: number, budgetMs: number) {
  let answer = fn(); // warm-up, and the answer shown
  let iterations = 0;
  const start = now();
  let elapsed = 0;
  while (iterations < maxIterations && elapsed < budgetMs) {
    answer = fn();
    iterations++;
    elapsed = now() - start;
  }
  return { us: (elapsed * 1000) / Math.max(iterations, 1), iterations, answer };
}

function benchAdversarial(): AdversarialResult[] {
  return adversarialCases().map((c) => {
    const policy = parseRobots(c.robotsTxt);
    const robot = robotsParser("https://adversary.example/robots.txt", c.robotsTxt);
    const heed = perCall(() => policy.isAllowed(c.url, "Googlebot"), 20_000, QUICK ? 100 : 400);
    const rp = perCall(() => robot.isAllowed(c.url, "Googlebot"), 5_000, QUICK ? 300 : 1_500);
    return {
      name: c.name,
      heedUs: heed.us,
      heedIterations: heed.iterations,
      heedAllowed: heed.answer === true,
      rpUs: rp.us,
      rpIterations: rp.iterations,
      rpAllowed: rp.answer,
    };
  });
}

function ratio(a: number, b: number): string {
  return `${fmt(a / b, 2)}x`;
}

interface Measured {
  /** ms per corpus. */
  parseHeed: number;
  parseRp: number;
  /** ms per run of every query. */
  queryHeed: number;
  queryRp: number;
  e2eHeed: number;
  e2eRp: number;
  parseHeedKept: number;
  parseRpKept: number;
  heldHeed: Retained;
  heldRp: Retained;
  bytes: number;
  lines: number;
  files: number;
  queries: number;
  agreement: number;
  /** Google's C++ parser on the same files, ms per corpus, when it is built (real files only). */
  parseGoogle?: number;
  /** heed's parse, results dropped, in the rounds Google's was timed in. */
  parseHeedBesideGoogle?: number;
  /** The same files read as REGP (real files only). */
  regp?: RegpMeasured;
}

const mbps = (bytes: number, ms: number): number => bytes / 1e6 / (ms / 1000);

/** Parse, queries, end to end and agreement on the corpus in use(); prints their tables. */
function measure(google = false): Measured {
  // Parse.
  const parse = benchParse();
  const pair = google ? benchGooglePair() : undefined;
  const rpWithDecode = parse.rp.total + parse.decode.total;
  const costs = (ms: number): string[] => [
    fmt(ms, 1),
    fmt(mbps(totalBytes, ms)),
    fmt((ms * 1000) / totalLines, 3),
    fmt((ms * 1000) / corpus.length, 2),
  ];
  printTable(
    `parse throughput (whole corpus, median of ${parse.runs} runs after 2 warm-up runs)`,
    ["parser", "ms/corpus", "MB/s", "µs/line", "µs/file"],
    [
      ["heed parseRobots(bytes)", ...costs(parse.heed.total)],
      ["robots-parser (string)", ...costs(parse.rp.total)],
      ["  TextDecoder (for rp)", ...costs(parse.decode.total)],
      ["  robots-parser + decode", ...costs(rpWithDecode)],
      ["heed parseRobots(string)", ...costs(parse.heedString.total)],
      ["heed, every group's rules read", ...costs(parse.heedAllRules.total)],
      ["heed, every result kept", ...costs(parse.heedKept.total)],
      ["robots-parser, every result kept", ...costs(parse.rpKept.total)],
      ...(pair === undefined
        ? []
        : [
            ["heed parseRobots(bytes), beside Google*", ...costs(pair.heed)],
            ["Google's C++ ParseRobotsTxt (g++ -O2)*", ...costs(pair.google)],
          ]),
    ],
  );
  if (pair !== undefined) {
    console.log(
      `* results dropped, the two alone in alternating rounds (median of ${pair.runs}); Google's ` +
        "in a child process, each round once to warm its caches and once timed by its own " +
        `${CLOCK === "cpu" ? "CPU" : "wall"} clock around the parse loop only`,
    );
  }
  const held = benchRetained();
  const perByte = (n: number): string => fmt(n / totalBytes, 2);
  printTable(
    `heap kept by one parse of the whole corpus (${kib(totalBytes)} of files; input made inside the window)`,
    ["library", "after parse", "bytes/file byte", "after its queries", "bytes/file byte"],
    [
      [
        "heed",
        kib(held.heed.parsed),
        perByte(held.heed.parsed),
        kib(held.heed.queried),
        perByte(held.heed.queried),
      ],
      [
        "robots-parser",
        kib(held.rp.parsed),
        perByte(held.rp.parsed),
        kib(held.rp.queried),
        perByte(held.rp.queried),
      ],
    ],
  );
  if (!heapMeasured) console.log("(heap not measured: run with node --expose-gc)");
  printTable(
    "parse MB/s by file size",
    ["bucket", "heed", "robots-parser", "heed/rp"],
    BUCKETS.map((b, i) => {
      const bytes = bucketBytes[i] ?? 0;
      const h = mbps(bytes, parse.heed.perBucket[i] ?? 0);
      const r = mbps(bytes, parse.rp.perBucket[i] ?? 0);
      return [b.label, fmt(h), fmt(r), ratio(h, r)];
    }),
  );
  const limitBuckets = BUCKETS.length - 1;
  const smallBytes = bucketBytes.slice(0, limitBuckets).reduce((a, b) => a + b, 0);
  const smallHeed = parse.heed.perBucket.slice(0, limitBuckets).reduce((a, b) => a + b, 0);
  const smallRp = parse.rp.perBucket.slice(0, limitBuckets).reduce((a, b) => a + b, 0);
  console.log(
    `files <= 500 KiB only (heed reads whole files here): heed ${fmt(mbps(smallBytes, smallHeed))} MB/s, ` +
      `robots-parser ${fmt(mbps(smallBytes, smallRp))} MB/s, ${ratio(smallRp, smallHeed)}`,
  );

  // Queries.
  // Stages that build policies afresh run first, while the heap holds no parsed corpus; the
  // warm stage's policies are dropped before the adversarial cases. End to end runs before
  // the fresh-policies stage, which holds every policy of the corpus at once: after it, V8
  // allocates new policies straight into the old generation (allocation-site pretenuring),
  // which made the end-to-end loop that follows 1.6 times slower in this process (and not
  // with --no-allocation-site-pretenuring), a state no single crawl of fresh files is in.
  const e2e = benchEndToEnd();
  const heedCold = benchColdQueries();
  const { q, agree } = warmStage();
  const qps = (n: number, ms: number): number => n / (ms / 1000);
  printTable(
    `queries (${fmtInt(totalQueries)} per run, median of ${q.runs} runs after 1 warm-up run)`,
    ["library", "ms/run", "queries/s", "µs/query"],
    [
      [
        "heed isAllowed",
        fmt(q.heed.total),
        fmtInt(qps(totalQueries, q.heed.total)),
        fmt((q.heed.total * 1000) / totalQueries, 2),
      ],
      [
        "robots-parser isAllowed",
        fmt(q.rp.total),
        fmtInt(qps(totalQueries, q.rp.total)),
        fmt((q.rp.total * 1000) / totalQueries, 2),
      ],
      [
        "heed, on fresh policies*",
        fmt(heedCold.total),
        fmtInt(qps(totalQueries, heedCold.total)),
        fmt((heedCold.total * 1000) / totalQueries, 2),
      ],
    ],
  );
  console.log(
    "* parse excluded; each policy's first query per robot selects its groups and orders its rules",
  );
  printTable(
    "queries/s by file size",
    ["bucket", "heed", "robots-parser", "heed/rp"],
    BUCKETS.map((b, i) => {
      const n = queries.file[i]?.length ?? 0;
      const h = qps(n, q.heed.perBucket[i] ?? 0);
      const r = qps(n, q.rp.perBucket[i] ?? 0);
      return [b.label, fmtInt(h), fmtInt(r), ratio(h, r)];
    }),
  );

  // End to end.
  printTable(
    `end to end: parse each file, then its queries (median of ${e2e.runs} runs; rp time includes decoding)`,
    ["bucket", "heed ms", "rp ms", "heed/rp"],
    [
      ...BUCKETS.map((b, i) => [
        b.label,
        fmt(e2e.heed.perBucket[i] ?? 0),
        fmt(e2e.rp.perBucket[i] ?? 0),
        ratio(e2e.rp.perBucket[i] ?? 0, e2e.heed.perBucket[i] ?? 0),
      ]),
      ["all", fmt(e2e.heed.total), fmt(e2e.rp.total), ratio(e2e.rp.total, e2e.heed.total)],
    ],
  );

  // Agreement.
  printTable(
    `agreement heed vs robots-parser: ${fmt((100 * agree.agree) / agree.total, 2)}% of ${fmtInt(agree.total)} queries` +
      ` (${fmtInt(agree.total - agree.agree)} differ, ${agree.undecided} undecided by robots-parser)`,
    ["kind", "queries", "agree %"],
    [...agree.byKind].map(([kind, s]) => [kind, String(s.n), fmt((100 * s.agree) / s.n, 1)]),
  );
  console.log(
    `differences by heed's reason: ${[...agree.byReason].map(([k, n]) => `${k} ${n}`).join(", ")}`,
  );
  console.log(
    `differences by file trait: ${[...agree.byTrait].map(([k, n]) => `${k} ${n}`).join(", ") || "none"}`,
  );

  return {
    parseHeed: parse.heed.total,
    parseRp: parse.rp.total,
    queryHeed: q.heed.total,
    queryRp: q.rp.total,
    e2eHeed: e2e.heed.total,
    e2eRp: e2e.rp.total,
    parseHeedKept: parse.heedKept.total,
    parseRpKept: parse.rpKept.total,
    heldHeed: held.heed,
    heldRp: held.rp,
    ...(pair === undefined ? {} : { parseGoogle: pair.google, parseHeedBesideGoogle: pair.heed }),
    bytes: totalBytes,
    lines: totalLines,
    files: corpus.length,
    queries: totalQueries,
    agreement: agree.agree / agree.total,
  };
}

// ---------------------------------------------------------------------------------------------
// The real files read as REGP (`--dialect regp`), beside the classic reading and robots-parser

const REGP = { dialect: "regp" } as const;

interface RegpMeasured {
  /** ms per corpus, every result kept: REGP, the classic reading and robots-parser, same runs. */
  parseKept: number;
  parseClassicKept: number;
  parseRpKept: number;
  held: Retained;
  /** ms per run of every query on parsed files: REGP, classic, robots-parser, same runs. */
  query: number;
  queryClassic: number;
  queryRp: number;
  /** ms per run of every query on fresh REGP policies, parse not timed. */
  fresh: number;
}

/**
 * REGP's parse, heap and queries on the corpus in use(), each raced with the classic reading
 * and robots-parser (which reads no REGP: the peer for scale); prints their table.
 */
function measureRegp(): RegpMeasured {
  const parse = race(
    [
      () => parseKept((i) => parseRobots((corpus[i] as CorpusFile).bytes, REGP)),
      parseHeedKept,
      parseRobotsParserKept,
    ],
    { warmup: 1, minRuns: 3, maxRuns: QUICK ? 3 : 7, budgetMs: QUICK ? 3_000 : 15_000 },
  ).map((runs) => summarise(runs).total);
  const held = retained(
    (i) => parseRobots((corpus[i] as CorpusFile).bytes.slice(), REGP),
    (p, q) => p.isAllowed(q.url, q.agent),
  );
  // Each run on policies parsed for it: REGP compiles its scopes at a policy's first question.
  const fresh: Float64Array[] = [];
  for (let r = 0; r <= (QUICK ? 1 : 3); r++) {
    const times = queryHeed(corpus.map((f) => parseRobots(f.bytes, REGP)));
    if (r > 0) fresh.push(times);
  }
  const regp = corpus.map((f) => parseRobots(f.bytes, REGP));
  const classic = corpus.map((f) => parseRobots(f.bytes));
  const robots = corpus.map((f, i) => robotsParser(f.robotsUrl, texts[i] as string));
  const query = race(
    [() => queryHeed(regp), () => queryHeed(classic), () => queryRobotsParser(robots)],
    { warmup: 1, minRuns: 3, maxRuns: QUICK ? 3 : 7, budgetMs: QUICK ? 5_000 : 20_000 },
  ).map((runs) => summarise(runs).total);
  const m: RegpMeasured = {
    parseKept: parse[0] as number,
    parseClassicKept: parse[1] as number,
    parseRpKept: parse[2] as number,
    held,
    query: query[0] as number,
    queryClassic: query[1] as number,
    queryRp: query[2] as number,
    fresh: summarise(fresh).total,
  };
  const speed = (ms: number): string => `${fmt(mbps(totalBytes, ms))} MB/s`;
  const kq = (ms: number): string => `${fmtInt(totalQueries / ms)} k/s`;
  printTable(
    "the same files read as REGP (--dialect regp; robots-parser reads them classic, for scale)",
    ["measure", "heed REGP", "heed classic", "robots-parser"],
    [
      [
        "parse, every result kept",
        speed(m.parseKept),
        speed(m.parseClassicKept),
        speed(m.parseRpKept),
      ],
      ["heap kept by one parse", kib(held.parsed), "", ""],
      ["  the same after queries", kib(held.queried), "", ""],
      ["queries on parsed files", kq(m.query), kq(m.queryClassic), kq(m.queryRp)],
      [
        "queries on fresh policies*",
        `${kq(m.fresh)}, ${fmt((m.fresh * 1000) / totalQueries, 2)} µs`,
        "",
        "",
      ],
    ],
  );
  console.log("* parse excluded; each policy's first question compiles its REGP scopes");
  return m;
}

// ---------------------------------------------------------------------------------------------
// heed check --batch, and robots-parser doing the same job, each in a child process

const HEED_BIN = fileURLToPath(new URL("../src/cli/bin.js", import.meta.url));
const RP_BATCH = fileURLToPath(new URL("./rp-batch.js", import.meta.url));

interface Run {
  /** Wall time, ms. */
  wall: number;
  /** CPU time (user + system, all threads), ms. */
  cpu: number;
  /** Peak resident memory, MB; NaN when /usr/bin/time is not there to tell. */
  rssMb: number;
  ok: boolean;
}

/** Runs `node args…` with stdout to /dev/null: wall and CPU time, peak RSS (GNU time). */
function timed(args: readonly string[]): Run {
  const viaTime =
    spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, "--version"]).status === 0;
  const start = wallNow();
  const r = viaTime
    ? spawnSync("/usr/bin/time", ["-f", "%U %S %M", process.execPath, ...args], {
        stdio: ["ignore", "ignore", "pipe"],
        maxBuffer: 1 << 24,
        timeout: 600_000,
      })
    : spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], timeout: 600_000 });
  const wall = wallNow() - start;
  const lines = r.stderr.toString("utf8").trim().split("\n");
  const [user, system, kb] = viaTime
    ? (lines[lines.length - 1] ?? "").split(" ").map(Number)
    : [Number.NaN, Number.NaN, Number.NaN];
  // Exit 1 (something disallowed) and 2 (some query unanswerable) are answers, not failures.
  return {
    wall,
    cpu: ((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000,
    rssMb: (kb ?? Number.NaN) / 1024,
    ok: r.status !== null && r.status <= 2,
  };
}

function best(runs: readonly Run[]): Run {
  const wall = median(runs.map((r) => r.wall));
  const cpu = median(runs.map((r) => r.cpu));
  return { wall, cpu, rssMb: Math.max(...runs.map((r) => r.rssMb)), ok: runs.every((r) => r.ok) };
}

/** The corpus written to a temporary directory, and a batch file of all its queries. */
function writeBatch(dir: string): string {
  const lines: string[] = [];
  corpus.forEach((f, i) => {
    const file = join(dir, `${i}.txt`);
    writeFileSync(file, f.bytes);
    for (const q of f.queries) lines.push(`${file}\t${q.agent}\t${q.url}`);
  });
  const batch = join(dir, "batch.tsv");
  writeFileSync(batch, `${lines.join("\n")}\n`);
  return batch;
}

/** heed's wall time over robots-parser's, run by run: each heed run against the robots-parser run beside it. */
interface Ratios {
  median: number;
  min: number;
  max: number;
}

interface BatchResults {
  /** `--json`: the contract's fields (allowed, agent, url, dialect, line, rule). */
  json: Run;
  /** Worker threads `json` ran with (the default for the batch's size on this machine). */
  workers: number;
  /** `--json --jobs 0`: the same on one thread, as robots-parser runs. */
  oneThread: Run;
  /** `--json --fields all`: every field, as --queries writes. */
  all: Run;
  /** With --plan: every answer carries its access plan, as before --plan existed. */
  plan: Run;
  text: Run;
  rp: Run;
  /** `json` and `oneThread` against robots-parser, pair by pair. */
  jsonRatio: Ratios;
  oneThreadRatio: Ratios;
  /** Rounds run: heed and robots-parser alternate within each. */
  rounds: number;
}

// Rounds of the batch bench. Each round runs heed --json, robots-parser, heed --jobs 0 and
// robots-parser again, one after the other, so that a burst of load on a shared machine falls
// on both sides; the ratio is the median of the rounds' pairs, its spread printed beside it.
const BATCH_ROUNDS = 7;
const BATCH_ROUNDS_QUICK = 3;
// The other forms (--fields all, --plan, text) are shown for scale, not held to an aim: run
// in the first rounds only.
const BATCH_VARIANT_ROUNDS = 3;

function ratios(heed: readonly Run[], rp: readonly Run[]): Ratios {
  const each = heed.map((run, i) => run.wall / (rp[i] as Run).wall);
  return { median: median(each), min: Math.min(...each), max: Math.max(...each) };
}

function benchBatch(): BatchResults {
  const dir = mkdtempSync(join(tmpdir(), "heed-bench-batch-"));
  try {
    const batch = writeBatch(dir);
    const rounds = QUICK ? BATCH_ROUNDS_QUICK : BATCH_ROUNDS;
    const workers = defaultWorkers(statSync(batch).size);
    const json: Run[] = [];
    const oneThread: Run[] = [];
    const all: Run[] = [];
    const plan: Run[] = [];
    const text: Run[] = [];
    const rp: Run[] = [];
    const rpAfterOne: Run[] = [];
    timed([HEED_BIN, "check", "--batch", batch, "--json"]); // warms the file cache
    for (let r = 0; r < rounds; r++) {
      json.push(timed([HEED_BIN, "check", "--batch", batch, "--json"]));
      rp.push(timed([RP_BATCH, batch]));
      // The same as the default when it starts no worker; run all the same, for one table.
      oneThread.push(timed([HEED_BIN, "check", "--batch", batch, "--json", "--jobs", "0"]));
      rpAfterOne.push(timed([RP_BATCH, batch]));
      if (r < BATCH_VARIANT_ROUNDS) {
        all.push(timed([HEED_BIN, "check", "--batch", batch, "--json", "--fields", "all"]));
        plan.push(timed([HEED_BIN, "check", "--batch", batch, "--json", "--plan"]));
        text.push(timed([HEED_BIN, "check", "--batch", batch]));
      }
    }
    const results: BatchResults = {
      json: best(json),
      workers,
      oneThread: best(oneThread),
      all: best(all),
      plan: best(plan),
      text: best(text),
      rp: best([...rp, ...rpAfterOne]),
      jsonRatio: ratios(json, rp),
      oneThreadRatio: ratios(oneThread, rpAfterOne),
      rounds,
    };
    const spread = (runs: readonly Run[]): string => {
      const walls = runs.map((run) => run.wall / 1000);
      return `${fmt(Math.min(...walls), 2)}-${fmt(Math.max(...walls), 2)}`;
    };
    const cells = (runs: readonly Run[], ratio?: Ratios): string[] => [
      ...runCells(best(runs)),
      spread(runs),
      ratio === undefined ? "" : ratioCell(ratio),
    ];
    printTable(
      `check --batch, ${fmtInt(totalQueries)} queries over ${corpus.length} files (child processes, output to /dev/null, median of ${rounds} alternating rounds; the other forms, of ${Math.min(rounds, BATCH_VARIANT_ROUNDS)})`,
      [
        "program",
        "wall s",
        "CPU s",
        "queries/s (wall)",
        "peak RSS MB",
        "wall s, spread",
        "/ rp's wall",
      ],
      [
        [`heed check --batch --json (${threads(workers)})`, ...cells(json, results.jsonRatio)],
        [
          "heed check --batch --json --jobs 0 (one thread)",
          ...cells(oneThread, results.oneThreadRatio),
        ],
        ["heed check --batch --json --fields all", ...cells(all)],
        ["heed check --batch --json --plan", ...cells(plan)],
        ["heed check --batch (text)", ...cells(text)],
        ["robots-parser, same job, JSON", ...cells([...rp, ...rpAfterOne])],
      ],
    );
    console.log(
      "Both read every line, parse each robots.txt once, answer each query and write one JSON line a query\n" +
        "to /dev/null. heed streams the batch 1 MiB at a time, drops a file's policy after its run of lines\n" +
        "and writes allowed, agent, url, dialect, line, rule (--fields all: also reason, delay, next, basis,\n" +
        "token, group, robots, input). robots-parser (bench/rp-batch.ts) reads the batch whole, keeps every\n" +
        "parsed file, finds the origin with new URL() once a file, and writes allowed, agent, url, robots,\n" +
        "1 MiB a write: it cannot say which line decided. Wall time counts process start-up for both.\n" +
        "robots-parser runs on one thread. heed's default starts worker threads for a batch file of\n" +
        "1 MiB or more on four cores or more (docs/check-batch.md); the --jobs 0 row is one thread.\n" +
        "Each round runs heed --json, robots-parser, heed --jobs 0, robots-parser: '/ rp's wall' is the\n" +
        "median of each heed run over the robots-parser run after it, with the lowest and highest.",
    );
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A median ratio with its spread: `0.47x (0.41-0.55x)`. */
function ratioCell(r: Ratios): string {
  return `${fmt(r.median, 2)}x (${fmt(r.min, 2)}-${fmt(r.max, 2)}x)`;
}

/** The threads a heed batch ran on, as a table says it. */
function threads(workers: number): string {
  return workers === 0 ? "one thread" : `main thread and ${workers} worker threads`;
}

function runCells(run: Run): string[] {
  return [
    `${fmt(run.wall / 1000, 2)}${run.ok ? "" : " (failed)"}`,
    fmt(run.cpu / 1000, 2),
    fmtInt(totalQueries / (run.wall / 1000)),
    fmt(run.rssMb, 0),
  ];
}

interface MillionResult {
  files: number;
  run: Run;
  tenth: Run;
}

/**
 * `heed check --batch` over `files` robots.txt files, one query each: hard links (1,000 to a
 * directory) to the web corpus's files, so that the disk holds the corpus once. Run at a tenth
 * of the size too: constant memory shows as the same peak RSS.
 */
function benchMillion(files: number): MillionResult {
  const dir = mkdtempSync(join(tmpdir(), "heed-bench-million-"));
  try {
    const sources: string[] = [];
    mkdirSync(join(dir, "src"));
    corpus.forEach((f, i) => {
      const file = join(dir, "src", `${i}.txt`);
      writeFileSync(file, f.bytes);
      sources.push(file);
    });
    const write = (count: number, name: string): string => {
      const batch = join(dir, name);
      const fd = openSync(batch, "w");
      let chunk = "";
      for (let i = 0; i < count; i++) {
        const sub = join(dir, String(Math.floor(i / 1000)));
        if (i % 1000 === 0 && count === files) mkdirSync(sub);
        const file = join(sub, `${i % 1000}.txt`);
        const k = i % corpus.length;
        if (count === files) linkSync(sources[k] as string, file);
        const q = (corpus[k] as CorpusFile).queries[i % 50];
        chunk += `${file}\t${q?.agent ?? "bot"}\t${q?.url ?? "/"}\n`;
        if (chunk.length > 1 << 20) {
          writeSync(fd, chunk);
          chunk = "";
        }
      }
      writeSync(fd, chunk);
      closeSync(fd);
      return batch;
    };
    const big = write(files, "all.tsv");
    const small = write(Math.max(1, Math.floor(files / 10)), "tenth.tsv");
    const tenth = timed([HEED_BIN, "check", "--batch", small, "--json"]);
    const run = timed([HEED_BIN, "check", "--batch", big, "--json"]);
    printTable(
      `check --batch --json over ${fmtInt(files)} files, one query each (hard links to the web corpus)`,
      ["files", "wall s", "CPU s", "files/s (wall)", "files/s (CPU)", "peak RSS MB"],
      [tenth, run].map((r, i) => {
        const n = i === 0 ? Math.max(1, Math.floor(files / 10)) : files;
        return [
          fmtInt(n),
          fmt(r.wall / 1000, 1),
          fmt(r.cpu / 1000, 1),
          fmtInt(n / (r.wall / 1000)),
          fmtInt(n / (r.cpu / 1000)),
          fmt(r.rssMb, 0),
        ];
      }),
    );
    return { files, run, tenth };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Summary of the kept-alive measures (issue 29's table)

const MEASURES = [
  "parse, every result kept",
  "parse, results dropped",
  "heap kept by one parse",
  "  the same after queries",
  "queries on parsed files",
  "parse as REGP, every result kept",
  "REGP queries on parsed files",
  "check --batch --json, wall",
  "  the same, one thread (--jobs 0)",
];

/** One row a measure: name, corpus, heed, robots-parser, ratio, aim, "ok" when met. */
function realRows(label: string, m: Measured, b: BatchResults): string[][] {
  const speed = (ms: number): string => `${fmt(mbps(m.bytes, ms))} MB/s`;
  const heap = (n: number): string => `${fmt(n / 1e6, 1)} MB (${fmt(n / m.bytes, 2)}/B)`;
  const kq = (ms: number): string => `${fmtInt(m.queries / ms)} k/s`;
  const secs = (ms: number): string => `${fmt(ms / 1000, 2)} s`;
  const ok = (yes: boolean): string => (yes ? "ok" : "");
  // Google's row compares the heed parse timed beside it (benchGooglePair).
  const besideGoogle = m.parseHeedBesideGoogle ?? m.parseHeed;
  /**
   * heed's figure against robots-parser's. `faster`: a time, the aim robots-parser's at least
   * `aim` times heed's; else a size or a wall time, the aim heed's at most `aim` times theirs.
   */
  const row = (
    at: number,
    cell: (v: number) => string,
    heed: number,
    rp: number,
    aim: number,
    faster: boolean,
  ) => {
    const r = faster ? rp / heed : heed / rp;
    return [
      MEASURES[at] as string,
      label,
      cell(heed),
      cell(rp),
      `${fmt(r, 2)}x`,
      `${faster ? ">=" : "<="} ${aim}x`,
      ok(faster ? r >= aim : r <= aim),
    ];
  };
  /** A batch row: the ratio is the median of the rounds' pairs, with their spread. */
  const batchRow = (at: number, heed: number, r: Ratios) => [
    MEASURES[at] as string,
    label,
    `${secs(heed)} (median of ${b.rounds})`,
    secs(b.rp.wall),
    ratioCell(r),
    "<= 0.5x",
    ok(r.median <= 0.5),
  ];
  return [
    row(0, speed, m.parseHeedKept, m.parseRpKept, 3, true),
    m.parseGoogle === undefined
      ? [
          ...row(1, speed, m.parseHeed, m.parseRp, 1, true).slice(0, 5),
          ">= Google's C++ (not built here)",
          "",
        ]
      : [
          ...row(1, speed, m.parseHeed, m.parseRp, 1, true).slice(0, 5),
          `>= Google's C++, ${speed(m.parseGoogle)} against ${speed(besideGoogle)}: ` +
            `${fmt(m.parseGoogle / besideGoogle, 2)}x`,
          ok(m.parseGoogle / besideGoogle >= 1),
        ],
    row(2, heap, m.heldHeed.parsed, m.heldRp.parsed, 1, false),
    row(3, heap, m.heldHeed.queried, m.heldRp.queried, 1, false),
    row(4, kq, m.queryHeed, m.queryRp, 5, true),
    ...(m.regp === undefined ? [] : regpRows(label, m.regp)),
    // Which it is, in the corpus column: the default starts threads on four cores or more.
    batchRow(7, b.json.wall, b.jsonRatio).map((cell, i) =>
      i === 1 ? `${cell}, ${threads(b.workers)}` : cell,
    ),
    batchRow(8, b.oneThread.wall, b.oneThreadRatio),
  ];
}

/**
 * The REGP rows of the summary: heed reading REGP against robots-parser reading the files
 * classic, for scale (no REGP reader to race; no aim), the classic reading's figure beside.
 */
function regpRows(label: string, r: RegpMeasured): string[][] {
  const speed = (ms: number): string => `${fmt(mbps(totalBytes, ms))} MB/s`;
  const kq = (ms: number): string => `${fmtInt(totalQueries / ms)} k/s`;
  const row = (
    at: number,
    cell: (ms: number) => string,
    ms: number,
    classic: number,
    rp: number,
  ) => [
    MEASURES[at] as string,
    label,
    `${cell(ms)} (classic ${cell(classic)})`,
    cell(rp),
    `${fmt(rp / ms, 2)}x`,
    NO_AIM,
    NO_AIM,
  ];
  return [
    row(5, speed, r.parseKept, r.parseClassicKept, r.parseRpKept),
    row(6, kq, r.query, r.queryClassic, r.queryRp),
  ];
}

// The aim and verdict cells of a row held to no aim.
const NO_AIM = "-";

/** The verdict cell of a summary row: its aim met or not, or none. */
function verdict(cell: string | undefined): string {
  return cell === NO_AIM ? NO_AIM : cell === "ok" ? "met" : "NOT met";
}

// ---------------------------------------------------------------------------------------------
// Google's C++ parser (google/robotstxt), built by `npm run bench:build-google`

const GOOGLE_DRIVER = join(REAL_DIR, "google", "parse-driver");
const GOOGLE_FILES = join(REAL_DIR, "robotfiles");
// Runs of the driver a round: the first warms the caches (heed's rows have warm-up runs of
// their own before the first round), the second is the one timed.
const GOOGLE_RUNS_A_ROUND = 2;

/** One run of the driver: each of its runs' ms by the bench's clock, or why it failed. */
function runGoogle(runs: number): number[] | string {
  const run = spawnSync(GOOGLE_DRIVER, [GOOGLE_FILES, String(runs)], {
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status !== 0) return run.error?.message ?? `exit ${run.status}`;
  const out = JSON.parse(run.stdout) as { ms: number[]; cpuMs: number[] };
  return CLOCK === "cpu" ? out.cpuMs : out.ms;
}

/**
 * One round of Google's ParseRobotsTxt over bench/real/robotfiles/, results dropped: a race
 * contender beside heed's parse (benchGooglePair), so that both are timed in the same rounds,
 * alternating, and the same median is taken; one driver run of its own, minutes away from
 * heed's rows, met a different load (26-44 ms a corpus between runs). Its time is the timed
 * run's parse loop alone, by its own clock: no process start, no file reading. The corpus's
 * total is in the first bucket.
 */
function parseGoogle(): Float64Array {
  const times = new Float64Array(BUCKETS.length);
  const ms = runGoogle(GOOGLE_RUNS_A_ROUND);
  if (typeof ms === "string") throw new Error(`Google's C++ parser failed: ${ms}`);
  times[0] = ms[GOOGLE_RUNS_A_ROUND - 1] ?? Number.NaN;
  return times;
}

// Rounds of heed's parse and Google's, alternating, for the Google row.
const GOOGLE_PAIR_ROUNDS = 11;
const GOOGLE_PAIR_ROUNDS_QUICK = 3;

/**
 * heed's parse with results dropped and Google's, the two alone in alternating rounds, median
 * ms per corpus of each. Beside the other parse rows, heed's was billed for the collector's
 * work on their garbage (the CPU clock counts every thread of the process: robots-parser's
 * rows and the kept rows leave much), which Google's parser, in a child process, never meets.
 */
function benchGooglePair(): { heed: number; google: number; runs: number } {
  const rounds = QUICK ? GOOGLE_PAIR_ROUNDS_QUICK : GOOGLE_PAIR_ROUNDS;
  const runs = race([parseHeedBytes, parseGoogle], {
    warmup: 2,
    minRuns: rounds,
    maxRuns: rounds,
    budgetMs: Number.POSITIVE_INFINITY,
  });
  return {
    heed: summarise(runs[0] ?? []).total,
    google: summarise(runs[1] ?? []).total,
    runs: runs[0]?.length ?? 0,
  };
}

/** Can Google's parser be measured here? Says why not when it cannot. */
function googleBuilt(): boolean {
  if (!existsSync(GOOGLE_DRIVER)) {
    console.log(
      "\nGoogle's C++ parser not built: `npm run bench:build-google -- SOURCE` builds it " +
        "(scripts/build-google-bench.mjs says what it needs)",
    );
    return false;
  }
  const trial = runGoogle(1);
  if (typeof trial === "string") {
    console.log(`\nGoogle's C++ parser failed (${trial}): left out`);
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Main

function main(): void {
  const started = wallNow();
  const startLoad = loadavg()
    .map((l) => fmt(l, 2))
    .join(" ");
  console.log(
    `heed robots.txt benchmark  (node ${process.version}, ${QUICK ? "quick" : "full"} run; ` +
      `in-process loops timed by ${CLOCK === "cpu" ? "CPU time, --clock wall for wall time" : "wall time"}; ` +
      "child processes by wall and CPU time)",
  );

  let t = now();
  const realFiles = loadRealCorpus();
  let real: { m: Measured; batch: BatchResults } | undefined;
  if (realFiles === undefined) {
    console.log(
      "\nno real files in bench/real/: `npm run bench:fetch-corpus -- SOURCE` fills it " +
        "(scripts/fetch-bench-corpus.mjs says from where); measuring generated corpora only",
    );
  } else {
    use(realFiles, now() - t);
    printCorpus(`real files (bench/real/, anubhavp28/robotstxt-parser-benchmark)`);
    real = { m: measure(googleBuilt()), batch: benchBatch() };
    real.m.regp = measureRegp();
    if (REAL_ONLY) {
      printTable(
        "summary: real files; heed / robots-parser 3.0.1, same run",
        ["measure", "corpus", "heed", "robots-parser", "ratio", "aim", ""],
        realRows("real", real.m, real.batch).map((r) => [...r.slice(0, 6), verdict(r[6])]),
      );
      return;
    }
  }

  t = now();
  use(buildWebCorpus(), now() - t);
  printCorpus("web-shaped corpus (issue 17's statistics)");
  printTable(
    "web-shaped corpus against the measured web",
    ["statistic", "this corpus", "measured web"],
    Object.entries(corpusShape(corpus)).map(([k, v]) => [k, v, WEB_MEASURED[k] ?? ""]),
  );
  const web = measure();
  const batch = benchBatch();
  const millionFiles = Number(option("--million-files", QUICK ? "100000" : "1000000"));
  const million = benchMillion(millionFiles);

  t = now();
  use(buildCorpus(), now() - t);
  printCorpus("large files corpus (bench/corpus.ts)");
  const large = measure();

  // Adversarial.
  const adversarial = benchAdversarial();
  printTable(
    "adversarial patterns (one Disallow line unless noted; µs per isAllowed)",
    ["case", "heed µs", "rp µs", "rp/heed", "answers h/rp"],
    adversarial.map((a) => [
      a.name,
      fmt(a.heedUs, 2),
      `${fmt(a.rpUs, 1)}${a.rpIterations < 5_000 ? ` (${a.rpIterations} runs)` : ""}`,
      ratio(a.rpUs, a.heedUs),
      `${a.heedAllowed ? "allow" : "deny"}/${a.rpAllowed === undefined ? "n/a" : a.rpAllowed ? "allow" : "deny"}`,
    ]),
  );

  // Summary: issue 17's table.
  const met = (ok: boolean): string => (ok ? "met" : "NOT met");
  const row = (
    measureName: string,
    heed: string,
    rp: string,
    r: number,
    aim: string,
    ok: boolean,
  ): string[] => [measureName, heed, rp, `${fmt(r, 2)}x`, aim, met(ok)];
  const perLine = (ms: number, m: Measured): string =>
    `${fmt(mbps(m.bytes, ms))} MB/s, ${fmt((ms * 1000) / m.lines, 2)} µs/line, ${fmt((ms * 1000) / m.files, 1)} µs/file`;
  const kqps = (n: number, ms: number): string => `${fmtInt(n / ms)} k/s`;
  printTable(
    "summary: heed / robots-parser 3.0.1, same run (issue 17's aims)",
    ["measure", "heed", "robots-parser", "ratio", "aim", ""],
    [
      row(
        "parse, web-shaped corpus",
        perLine(web.parseHeed, web),
        perLine(web.parseRp, web),
        web.parseRp / web.parseHeed,
        ">= 3x",
        web.parseRp / web.parseHeed >= 3,
      ),
      row(
        "queries on parsed files",
        kqps(web.queries, web.queryHeed),
        kqps(web.queries, web.queryRp),
        web.queryRp / web.queryHeed,
        ">= 5x",
        web.queryRp / web.queryHeed >= 5,
      ),
      row(
        "parse + that file's queries",
        `${fmt(web.e2eHeed)} ms`,
        `${fmt(web.e2eRp)} ms`,
        web.e2eRp / web.e2eHeed,
        ">= 3x",
        web.e2eRp / web.e2eHeed >= 3,
      ),
      row(
        "check --batch --json, wall",
        `${fmt(batch.json.wall / 1000, 2)} s (text ${fmt(batch.text.wall / 1000, 2)} s; CPU ${fmt(batch.json.cpu / 1000, 2)} s), ${fmt(batch.json.rssMb, 0)} MB`,
        `${fmt(batch.rp.wall / 1000, 2)} s (CPU ${fmt(batch.rp.cpu / 1000, 2)} s), ${fmt(batch.rp.rssMb, 0)} MB`,
        batch.jsonRatio.median,
        "<= 0.5x rp's wall",
        batch.jsonRatio.median <= 0.5,
      ),
      row(
        "large files: parse",
        perLine(large.parseHeed, large),
        perLine(large.parseRp, large),
        large.parseRp / large.parseHeed,
        ">= 3x",
        large.parseRp / large.parseHeed >= 3,
      ),
      row(
        "large files: queries",
        kqps(large.queries, large.queryHeed),
        kqps(large.queries, large.queryRp),
        large.queryRp / large.queryHeed,
        ">= 5x",
        large.queryRp / large.queryHeed >= 5,
      ),
      row(
        "large files: parse + queries",
        `${fmt(large.e2eHeed)} ms`,
        `${fmt(large.e2eRp)} ms`,
        large.e2eRp / large.e2eHeed,
        ">= 3x",
        large.e2eRp / large.e2eHeed >= 3,
      ),
    ],
  );
  printTable(
    `summary: ${real === undefined ? "generated web-shaped files only (no bench/real/)" : "real files, then the generated web-shaped corpus"}; heed / robots-parser 3.0.1, same run`,
    ["measure", "corpus", "heed", "robots-parser", "ratio", "aim", ""],
    [
      ...(real === undefined ? [] : [{ label: "real", m: real.m, b: real.batch }]),
      { label: "web-shaped", m: web, b: batch },
    ]
      .flatMap(({ label, m, b }) => realRows(label, m, b))
      .sort((x, y) => MEASURES.indexOf(x[0] as string) - MEASURES.indexOf(y[0] as string))
      .map((r) => [...r.slice(0, 6), verdict(r[6])]),
  );
  const constant = million.run.rssMb <= million.tenth.rssMb * 1.5 + 16;
  console.log(
    `batch over ${fmtInt(million.files)} files: ${fmtInt(million.files / (million.run.wall / 1000))} files/s ` +
      `(${fmtInt(million.files / (million.run.cpu / 1000))} per CPU second), ` +
      `peak ${fmt(million.run.rssMb, 0)} MB (${fmt(million.tenth.rssMb, 0)} MB at a tenth of the files): ` +
      `constant memory ${met(constant && million.run.ok)}`,
  );
  console.log(
    `agreement with robots-parser: web-shaped ${fmt(100 * web.agreement, 2)}%, large files ${fmt(100 * large.agreement, 2)}%`,
  );
  const load = loadavg()
    .map((l) => fmt(l, 2))
    .join(" ");
  console.log(
    `\ndone in ${fmt((wallNow() - started) / 1000, 1)} s; load average ${load} (started at ${startLoad}; ` +
      `other work on the machine skews absolute figures more than ratios) (checksum ${sink % 1000})`,
  );
}

main();
