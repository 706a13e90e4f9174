/**
 * The cost of reading /data.txt safely: heed's restricted YAML reader (failsafe schema, a walk
 * refusing anchors, aliases and tags, typed entries, every path resolved on the site) against
 * the `yaml` package's own `parse` with its defaults (core schema, aliases resolved, plain
 * objects out, no checks), on one catalog of 10,000 entries as `heed datasets build` writes it;
 * and the draft form of the same size through heed's robots.txt reader.
 *
 *   node dist/bench/datatxt.bench.js            # after npx tsc -p .
 *   node dist/bench/datatxt.bench.js --quick    # fewer runs
 *
 * Every loop is bounded by a run count. Times are medians of timed runs after warm-up runs;
 * the contenders alternate, so that load on the machine falls on both.
 */
import { performance } from "node:perf_hooks";
import { parse } from "yaml";
import { readDataTxt, writeDataTxt } from "../src/protocol/datasets/index.js";

const QUICK = process.argv.includes("--quick");
const ENTRIES = 10_000;
const RUNS = QUICK ? 3 : 9;
const WARM_UP = QUICK ? 1 : 2;
const URL_ = "https://data.example/data.txt";

const catalog = writeDataTxt(
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
const draft = `User-agent: *\nLicense: CC-BY-4.0\n${Array.from({ length: ENTRIES }, (_, i) => `Allow: /tables/${i}.csv`).join("\n")}\n`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
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
