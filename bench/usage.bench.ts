/**
 * What usage preference lines cost a robots.txt parse: the web-shaped corpus (bench/web-corpus.ts)
 * parsed as it is, with Cloudflare-style lines added to every `User-agent: *` group
 * (`Content-Signal: search=yes, ai-train=no` and `Content-Usage: train-ai=n`), and, as the
 * control, with two lines of another extension key of the same lengths. The three are run
 * interleaved in one process and compared as ratios. Then what asking for the preferences
 * adds to a query.
 *
 *   npm run build && node dist/bench/usage.bench.js [--runs N]
 *
 * Every loop is bounded by its run count; the whole run takes well under a minute.
 */
import { performance } from "node:perf_hooks";
import { parseRobots, type RobotsPolicy } from "../src/protocol/robots/index.js";
import { usageFor } from "../src/protocol/usage/index.js";
import type { CorpusFile } from "./corpus.js";
import { fmt, median, option, printTable } from "./report.js";
import { buildWebCorpus } from "./web-corpus.js";

const RUNS = Math.max(3, Number(option("--runs", "9")));
const cpu = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
let sink = 0;

const USAGE_LINES = ["Content-Signal: search=yes, ai-train=no", "Content-Usage: train-ai=n"];
// Same lengths, a key heed keeps as an extension and does not read further.
const CONTROL_LINES = ["Content-Sigxxx: search=yes, ai-train=no", "Content-Usaxx: train-ai=n"];

function withLines(file: CorpusFile, lines: readonly string[]): string {
  const text = new TextDecoder().decode(file.bytes);
  return text.replace(
    /^([ \t]*user-agent[ \t]*:[ \t]*\*[^\r\n]*)(\r?\n)/gim,
    (_m, agent: string, end: string) => [agent, ...lines].join(end) + end,
  );
}

function parseAll(texts: readonly string[]): number {
  const start = cpu();
  for (const text of texts) sink += parseRobots(text).groups.length;
  return cpu() - start;
}

const corpus = buildWebCorpus();
const plain = corpus.map((f) => new TextDecoder().decode(f.bytes));
const usage = corpus.map((f) => withLines(f, USAGE_LINES));
const control = corpus.map((f) => withLines(f, CONTROL_LINES));
const mb = (texts: readonly string[]) => texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
const changed = usage.filter((t, i) => t !== plain[i]).length;

// Warm-up, then interleaved timed runs so that a noisy neighbour hits all three alike.
for (let i = 0; i < 2; i++) {
  parseAll(plain);
  parseAll(usage);
  parseAll(control);
}
const times = { plain: [] as number[], usage: [] as number[], control: [] as number[] };
for (let i = 0; i < RUNS; i++) {
  times.plain.push(parseAll(plain));
  times.usage.push(parseAll(usage));
  times.control.push(parseAll(control));
}
const base = median(times.plain);
printTable(
  `Parsing ${corpus.length} web-shaped files (${changed} with a User-agent: * group), median of ${RUNS} runs, CPU time`,
  ["corpus", "MB", "ms", "MB/s", "vs without"],
  (["plain", "usage", "control"] as const).map((name) => {
    const texts = name === "plain" ? plain : name === "usage" ? usage : control;
    const ms = median(times[name]);
    return [
      name === "plain"
        ? "without usage lines"
        : name === "usage"
          ? "with Content-Signal + Content-Usage"
          : "with two other extension lines (control)",
      fmt(mb(texts), 2),
      fmt(ms, 0),
      fmt(mb(texts) / (ms / 1000), 1),
      `${fmt(ms / base, 3)}×`,
    ];
  }),
);

// Queries: check alone, and check plus the preferences, on the files with usage lines.
const policies: RobotsPolicy[] = usage.slice(0, 500).map((t) => parseRobots(t));
const PATHS = ["/", "/index.html", "/blog/post-1", "/wp-admin/x", "/search?q=a", "/images/a.jpg"];
const queryTimes = { check: [] as number[], usage: [] as number[] };
for (let i = 0; i < RUNS + 2; i++) {
  let start = cpu();
  for (const p of policies)
    for (const path of PATHS) sink += p.check(path, "ExampleBot").allowed ? 1 : 0;
  const check = cpu() - start;
  start = cpu();
  for (const p of policies)
    for (const path of PATHS) {
      const allowed = p.check(path, "ExampleBot").allowed;
      sink += usageFor({ url: path, agent: "ExampleBot", robots: p, crawlable: allowed }).statements
        .length;
    }
  const both = cpu() - start;
  if (i >= 2) {
    queryTimes.check.push(check);
    queryTimes.usage.push(both);
  }
}
const n = policies.length * PATHS.length;
printTable(
  `Queries: ${n} per run over ${policies.length} files, median of ${RUNS} runs`,
  ["query", "µs/query", "vs check"],
  [
    ["check()", fmt((median(queryTimes.check) * 1000) / n, 2), "1.000×"],
    [
      "check() + usageFor()",
      fmt((median(queryTimes.usage) * 1000) / n, 2),
      `${fmt(median(queryTimes.usage) / median(queryTimes.check), 3)}×`,
    ],
  ],
);
console.log(`\n(sink ${sink}; wall ${fmt(performance.now() / 1000, 1)} s)`);
