/**
 * Where heed's time goes: runs one loop under the V8 sampling profiler (the one behind
 * `node --cpu-prof`) and prints the functions with the most self time, and the most total time.
 *
 *   node dist/bench/profile.js parse        # parseRobots(bytes) over the corpus
 *   node dist/bench/profile.js query        # isAllowed over the corpus queries, policies warm
 *   node dist/bench/profile.js select       # first query per robot on fresh policies
 *   node dist/bench/profile.js adversarial  # the adversarial cases
 *   add --seconds=N (default 5), --top=N (default 25), --save=FILE.cpuprofile,
 *   --corpus=web for the web-shaped corpus (bench/web-corpus.ts) instead of the large files,
 *   --corpus=real for the real files (bench/real/, `npm run bench:fetch-corpus`)
 *
 * Lines are of the compiled JavaScript in dist/, which tsc keeps close to the TypeScript.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseRobots, type RobotsPolicy } from "../src/protocol/robots/index.js";
import { adversarialCases, buildCorpus, type CorpusFile } from "./corpus.js";
import { loadRealCorpus } from "./real-corpus.js";
import { buildWebCorpus } from "./web-corpus.js";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
  /** Samples per source line (1-based) of this node's function. */
  positionTicks?: { line: number; ticks: number }[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const mode = args.find((a) => !a.startsWith("--")) ?? "parse";
const option = (name: string, fallback: string): string =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const seconds = Number(option("seconds", "5"));
const top = Number(option("top", "25"));
const save = option("save", "");

let sink = 0;

function loopFor(ms: number, body: () => void): number {
  const end = performance.now() + ms;
  let rounds = 0;
  while (performance.now() < end) {
    body();
    rounds++;
  }
  return rounds;
}

function chosenCorpus(name: string): CorpusFile[] {
  if (name === "web") return buildWebCorpus();
  if (name !== "real") return buildCorpus();
  const real = loadRealCorpus();
  if (real === undefined) throw new Error("bench/real/ is empty: run npm run bench:fetch-corpus");
  return real;
}

function workload(): () => void {
  const corpus = chosenCorpus(option("corpus", "large"));
  switch (mode) {
    case "parse":
      return () => {
        for (const f of corpus) sink += parseRobots(f.bytes).groups.length;
      };
    case "query": {
      const policies = corpus.map((f) => parseRobots(f.bytes));
      return () => {
        corpus.forEach((f, i) => {
          const policy = policies[i] as RobotsPolicy;
          for (const q of f.queries) if (policy.isAllowed(q.url, q.agent)) sink++;
        });
      };
    }
    case "select": {
      // Parsing is outside the profile's interest here, but it must happen per round.
      return () => {
        for (const f of corpus) {
          const policy = parseRobots(f.bytes);
          for (const q of f.queries) if (policy.isAllowed(q.url, q.agent)) sink++;
        }
      };
    }
    case "adversarial": {
      const cases = adversarialCases().map((c) => ({
        policy: parseRobots(c.robotsTxt),
        url: c.url,
      }));
      return () => {
        for (const c of cases) if (c.policy.isAllowed(c.url, "Googlebot")) sink++;
      };
    }
    default:
      throw new Error(`unknown mode ${mode}: parse, query, select or adversarial`);
  }
}

function shortUrl(url: string): string {
  if (url === "") return "(native)";
  const i = url.indexOf("/dist/");
  if (i >= 0) return url.slice(i + 6);
  const n = url.indexOf("node_modules/");
  return n >= 0 ? url.slice(n + 13) : url.replace(/^.*\//, "");
}

function keyOf(frame: CallFrame): string {
  const name = frame.functionName || "(anonymous)";
  return frame.url === "" ? name : `${name}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

function summarise(profile: Profile): void {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) byId.set(node.id, node);
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const byFile = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (node === undefined) return;
    all += dt;
    const key = keyOf(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const file =
      node.callFrame.url === "" ? node.callFrame.functionName : shortUrl(node.callFrame.url);
    byFile.set(file, (byFile.get(file) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const frame = byId.get(n)?.callFrame;
      if (frame === undefined) break;
      const k = keyOf(frame);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  });
  const show = (title: string, map: Map<string, number>, count: number): void => {
    console.log(`\n${title}`);
    const rows = [...map].sort((a, b) => b[1] - a[1]).slice(0, count);
    for (const [key, us] of rows) {
      console.log(
        `${((100 * us) / all).toFixed(1).padStart(6)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`,
      );
    }
  };
  show(`self time, top ${top} (of ${(all / 1000).toFixed(0)} ms sampled)`, self, top);
  show("self time by file", byFile, 15);
  show(`total time (self + callees), top ${top}`, total, top);
  hotLines(profile, all);
}

/** Source lines of heed with the most samples, with their text. */
function hotLines(profile: Profile, all: number): void {
  const ticks = new Map<string, { url: string; line: number; fn: string; ticks: number }>();
  let totalTicks = 0;
  for (const node of profile.nodes) {
    for (const t of node.positionTicks ?? []) totalTicks += t.ticks;
    if (!node.callFrame.url.includes("/src/")) continue;
    for (const t of node.positionTicks ?? []) {
      const key = `${node.callFrame.url}:${t.line}`;
      const entry = ticks.get(key) ?? {
        url: node.callFrame.url,
        line: t.line,
        fn: node.callFrame.functionName,
        ticks: 0,
      };
      entry.ticks += t.ticks;
      ticks.set(key, entry);
    }
  }
  if (totalTicks === 0) return;
  const sources = new Map<string, string[]>();
  const lineOf = (url: string, line: number): string => {
    let lines = sources.get(url);
    if (lines === undefined) {
      try {
        lines = readFileSync(fileURLToPath(url), "utf8").split("\n");
      } catch {
        lines = [];
      }
      sources.set(url, lines);
    }
    return (lines[line - 1] ?? "").trim().slice(0, 90);
  };
  console.log(`\nhot lines in src/ (share of all samples; ${(all / 1000).toFixed(0)} ms)`);
  const rows = [...ticks.values()].sort((a, b) => b.ticks - a.ticks).slice(0, top);
  for (const r of rows) {
    const where = `${shortUrl(r.url)}:${r.line}`;
    console.log(
      `${((100 * r.ticks) / totalTicks).toFixed(1).padStart(6)}%  ${where.padEnd(44)} ${r.fn.padEnd(16)} ${lineOf(r.url, r.line)}`,
    );
  }
}

async function main(): Promise<void> {
  const body = workload();
  loopFor(1000, body); // warm-up: let the optimising compiler settle first
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  const rounds = loopFor(seconds * 1000, body);
  const { profile } = (await session.post("Profiler.stop")) as { profile: Profile };
  session.disconnect();
  console.log(`mode ${mode}: ${rounds} rounds in ${seconds} s (checksum ${sink % 1000})`);
  if (save !== "") writeFileSync(save, JSON.stringify(profile));
  summarise(profile);
}

await main();
