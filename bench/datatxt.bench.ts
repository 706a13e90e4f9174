/**
 * The cost of reading /data.txt safely: heed's restricted YAML reader (failsafe schema, a walk
 * refusing anchors, aliases and tags, typed entries, every path resolved on the site) against
 * the `yaml` package's own `parse` with its defaults (core schema, aliases resolved, plain
 * objects out, no checks), on one catalog of 10,000 entries as `heed datasets build` writes it;
 * and the draft form of the same size through heed's robots.txt reader.
 *
 * Then files hostile to a reader but within MAX_DATA_TXT_BYTES (one flow list of four million
 * items, 800,000 one-line entries, entries packed with values up to the limits, the mapping
 * form with a huge list, the draft form of 800,000 lines), each read in a child process of its
 * own, so that its peak memory (maxRSS, the whole process) is its own; their time is printed as
 * a ratio to the catalog of 10,000 entries read the same way, the cost of a real catalog.
 *
 *   node dist/bench/datatxt.bench.js            # after npx tsc -p .
 *   node dist/bench/datatxt.bench.js --quick    # fewer runs
 *
 * Every loop is bounded by a run count. Times are medians of timed runs after warm-up runs;
 * the contenders alternate, so that load on the machine falls on both.
 */
import { fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { MAX_DATA_TXT_BYTES, readDataTxt, writeDataTxt } from "../src/protocol/datasets/index.js";
import { fmt, printTable } from "./report.js";

const QUICK = process.argv.includes("--quick");
const REFERENCE = "catalog of 10,000 entries (reference)";
const ENTRIES = 10_000;
const RUNS = QUICK ? 3 : 9;
const WARM_UP = QUICK ? 1 : 2;
const URL_ = "https://data.example/data.txt";

const CHILD = process.argv[2] === "--child";
const buildCatalog = (): string =>
  writeDataTxt(
    Array.from({ length: ENTRIES }, (_, i) => ({
      path: `tables/${i}.csv`,
      name: `table ${i}`,
      description: "One row per district, counted in the census of that year",
      license: "CC-BY-4.0",
      rows: 1000 + i,
      cols: 3,
      columns: [
        { name: "district", type: "string" },
        { name: "population", type: "int" },
        { name: "area", type: "float" },
      ],
    })),
  );
// A child builds only the file it reads, so that its memory is that file's.
const catalog = CHILD && process.argv[3] !== REFERENCE ? "" : buildCatalog();
const draft = `User-agent: *\nLicense: CC-BY-4.0\n${Array.from({ length: ENTRIES }, (_, i) => `Allow: /tables/${i}.csv`).join("\n")}\n`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Hostile files just within the byte limit, built in the child that reads them. */
const LIMIT = MAX_DATA_TXT_BYTES - 64;
const HOSTILE: Record<string, () => string> = {
  [REFERENCE]: () => catalog,
  "one flow list: - path: [a,a,…]": () => `- path: [${"a,".repeat((LIMIT - 12) / 2)}a]\n`,
  "800,000 entries: - path: a": () => "- path: a\n".repeat(Math.floor(LIMIT / 10)),
  "entries of 4,000 values each": () => {
    const one = `- path: [${"a,".repeat(4_000)}a]\n`;
    return one.repeat(Math.floor(LIMIT / one.length));
  },
  "mapping form: path: [a,a,…]": () => `path: [${"a,".repeat((LIMIT - 10) / 2)}a]\n`,
  "nested flow: - [[[…]]]": () => `- ${"[".repeat(LIMIT / 2 - 4)}${"]".repeat(LIMIT / 2 - 4)}\n`,
  "draft form, 800,000 lines": () =>
    `User-agent: *\n${"Allow: /a\n".repeat(Math.floor(LIMIT / 10) - 2)}`,
};

if (CHILD) {
  const name = process.argv[3] ?? "";
  // The reader is given bytes, as from the network; the text built to make them is the
  // bench's, not the reader's, and is let go before reading.
  const bytes = new TextEncoder().encode((HOSTILE[name] as () => string)());
  const start = performance.now();
  const read = readDataTxt(bytes, { url: URL_ });
  const ms = performance.now() - start;
  process.send?.({
    ms,
    bytes: bytes.byteLength,
    entries: read.entries.length,
    findings: [
      ...new Set(read.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)),
    ].join(","),
    maxRss: process.resourceUsage().maxRSS * 1024,
  });
  process.exit(0);
}

interface ChildReport {
  readonly ms: number;
  readonly bytes: number;
  readonly entries: number;
  readonly findings: string;
  readonly maxRss: number;
}

function inChild(name: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--child", name], { stdio: "inherit" });
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.once("message", (m) => resolve(m as ChildReport));
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${name}: the child exited ${code}`));
    });
  });
}

const contenders: Record<string, () => number> = {
  "heed readDataTxt (YAML form)": () => readDataTxt(catalog, { url: URL_ }).entries.length,
  "yaml parse (defaults, unchecked)": () => (parse(catalog) as unknown[]).length,
  "heed readDataTxt (draft form)": () => readDataTxt(draft, { url: URL_ }).entries.length,
};
const times = new Map<string, number[]>(Object.keys(contenders).map((k) => [k, []]));
for (let run = 0; run < WARM_UP + RUNS; run++) {
  for (const [name, read] of Object.entries(contenders)) {
    const start = performance.now();
    const n = read();
    const ms = performance.now() - start;
    if (n !== ENTRIES) throw new Error(`${name} read ${n} entries, not ${ENTRIES}`);
    if (run >= WARM_UP) times.get(name)?.push(ms);
  }
}
const yamlMs = median(times.get("yaml parse (defaults, unchecked)") ?? []);
console.log(
  `data.txt of ${ENTRIES} entries: YAML ${(Buffer.byteLength(catalog) / 1024).toFixed(0)} KiB, draft ${(Buffer.byteLength(draft) / 1024).toFixed(0)} KiB; medians of ${RUNS} runs`,
);
for (const [name, values] of times) {
  const ms = median(values);
  console.log(
    `${name.padEnd(36)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / yamlMs).toFixed(2)}x yaml parse`,
  );
}

const hostileRuns = QUICK ? 1 : 3;
const reports = new Map<string, ChildReport[]>();
for (let run = 0; run < hostileRuns; run++) {
  for (const name of Object.keys(HOSTILE)) {
    const list = reports.get(name) ?? [];
    list.push(await inChild(name));
    reports.set(name, list);
  }
}
const reference = median((reports.get(REFERENCE) ?? []).map((r) => r.ms));
printTable(
  `Hostile /data.txt within ${MAX_DATA_TXT_BYTES} bytes, each read in its own process (medians of ${hostileRuns})`,
  ["file", "MiB", "entries", "errors", "ms", "x catalog", "peak RSS MiB"],
  [...reports].map(([name, list]) => {
    const ms = median(list.map((r) => r.ms));
    const last = list[list.length - 1] as ChildReport;
    return [
      name,
      fmt(last.bytes / 1024 / 1024, 1),
      String(last.entries),
      last.findings === "" ? "-" : last.findings,
      fmt(ms, 0),
      fmt(ms / reference, 2),
      fmt(Math.max(...list.map((r) => r.maxRss)) / 1024 / 1024, 0),
    ];
  }),
);
