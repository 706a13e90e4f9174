/**
 * The real files read as REGP (`--dialect regp`), this build against a reference build in one
 * process, in alternating rounds: parse with every result kept, the heap one parse of the
 * corpus keeps, the first queries of fresh policies (REGP compiles its scopes at the first
 * question) and queries on policies already asked.
 *
 *   node --expose-gc dist/bench/regp.bench.js [REFERENCE_DIST] [--rounds N]
 *
 * Without REFERENCE_DIST only this build is measured. Exits 2 without bench/real/.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import * as current from "../src/protocol/robots/index.js";
import type { CorpusFile } from "./corpus.js";
import { liveBytes } from "./live-bytes.js";
import { loadRealCorpus } from "./real-corpus.js";

type Robots = typeof current;
type Policy = ReturnType<Robots["parseRobots"]>;

// Rounds of each measure for each build; the median is printed with the lowest and highest.
const DEFAULT_ROUNDS = 7;
const MAX_ROUNDS = 51;
const REGP = { dialect: "regp" } as const;

let sink = 0;

interface Round {
  /** ms to parse every file, results kept. */
  parse: number;
  /** Bytes the parsed corpus keeps (input copied inside the window). */
  heap: number;
  /** The same after every file was asked its queries (REGP's scopes compiled). */
  asked: number;
  /** Queries a second on fresh policies, the first question included. */
  first: number;
  /** Queries a second on policies already asked. */
  warm: number;
}

function round(robots: Robots, corpus: readonly CorpusFile[], queries: number): Round {
  const start = performance.now();
  let policies: Policy[] = corpus.map((f) => robots.parseRobots(f.bytes, REGP));
  const parse = performance.now() - start;
  sink += policies.length;
  policies = [];
  const before = liveBytes();
  policies = corpus.map((f) => robots.parseRobots(f.bytes.slice(), REGP));
  const heap = liveBytes() - before;
  const ask = (): number => {
    const t = performance.now();
    corpus.forEach((f, i) => {
      const policy = policies[i] as Policy;
      for (const q of f.queries) if (policy.isAllowed(q.url, q.agent)) sink++;
    });
    return performance.now() - t;
  };
  const first = queries / (ask() / 1000);
  const warm = queries / (ask() / 1000);
  const asked = liveBytes() - before;
  return { parse, heap, asked, first, warm };
}

/** The rows printed: label, the figure of a round, decimals, unit. */
const ROWS: readonly [string, (r: Round) => number, number, string][] = [
  ["parse as REGP, kept", (r) => r.parse, 1, "ms"],
  ["heap kept by a parse", (r) => r.heap / 1e6, 1, "MB"],
  ["the same, asked", (r) => r.asked / 1e6, 1, "MB"],
  ["first queries", (r) => r.first / 1000, 0, "k/s"],
  ["queries, warm", (r) => r.warm / 1000, 0, "k/s"],
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function cell(values: readonly number[], digits: number): string {
  const f = (n: number) => n.toFixed(digits);
  return `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;
}

async function main(): Promise<number> {
  const corpus = loadRealCorpus();
  if (corpus === undefined) {
    console.error("no bench/real/: `npm run bench:fetch-corpus -- SOURCE` fills it");
    return 2;
  }
  const args = process.argv.slice(2);
  const at = args.indexOf("--rounds");
  const rounds = Math.min(
    MAX_ROUNDS,
    Math.max(1, at < 0 ? DEFAULT_ROUNDS : Number(args[at + 1]) || DEFAULT_ROUNDS),
  );
  const refDist = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--rounds");
  const builds: [string, Robots][] = [["this build", current]];
  if (refDist !== undefined) {
    const entry = join(resolve(refDist), "src", "protocol", "robots", "index.js");
    if (!existsSync(entry)) {
      console.error(`${entry}: not found; build the reference first`);
      return 2;
    }
    builds.unshift(["reference", (await import(pathToFileURL(entry).href)) as Robots]);
  }
  const bytes = corpus.reduce((n, f) => n + f.bytes.length, 0);
  const queries = corpus.reduce((n, f) => n + f.queries.length, 0);
  const results = builds.map(() => [] as Round[]);
  // One round of each build first, not counted: both are compiled before anything is timed.
  for (const [, robots] of builds) round(robots, corpus, queries);
  for (let r = 0; r < rounds; r++) {
    // Alternating which build goes first, so neither always runs on the other's garbage.
    const order = r % 2 === 0 ? builds.keys() : [...builds.keys()].reverse();
    for (const b of order) {
      (results[b] as Round[]).push(round((builds[b] as [string, Robots])[1], corpus, queries));
    }
  }
  console.log(
    `real files read as REGP: ${corpus.length} files, ${(bytes / 1e6).toFixed(2)} MB, ${queries} queries; median of ${rounds} alternating rounds (lowest–highest)`,
  );
  builds.forEach(([name], b) => {
    const rs = results[b] as Round[];
    console.log(`\n${name}`);
    for (const [label, of, digits, unit] of ROWS) {
      console.log(`  ${label.padEnd(22)}${cell(rs.map(of), digits)} ${unit}`);
    }
  });
  if (sink === -1) console.log("");
  return 0;
}

process.exitCode = await main();
