/**
 * Start-up cost of the commands a person types first: `heed --help`, and `heed check` on a
 * three-line robots.txt file, against `node -e 0` (the floor: starting Node itself) in the same
 * run. Printed as ratios to that floor; the aim is 3× or less, which holds when each command's
 * code is loaded only when that command runs.
 *
 *   node dist/bench/startup.bench.js            # after npx tsc -p .
 *   node dist/bench/startup.bench.js --quick    # fewer runs
 *
 * Every loop is bounded by a run count. Times are medians of wall times after warm-up runs;
 * the contenders alternate, so that load on the machine falls on all of them.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { fmt, median, printTable } from "./report.js";

const QUICK = process.argv.includes("--quick");
const RUNS = QUICK ? 5 : 15;
const WARM_UP = 2;
const BIN = fileURLToPath(new URL("../src/cli/bin.js", import.meta.url));

const dir = mkdtempSync(join(tmpdir(), "heed-startup-"));
const robots = join(dir, "robots.txt");
writeFileSync(robots, "User-agent: *\nDisallow: /private/\nAllow: /\n");

const contenders: readonly { name: string; args: readonly string[] }[] = [
  { name: "node -e 0", args: ["-e", "0"] },
  { name: "heed --help", args: [BIN, "--help"] },
  {
    name: "heed check FILE --agent --url",
    args: [BIN, "check", robots, "--agent", "bot", "--url", "http://example.com/private/x"],
  },
];

function once(args: readonly string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { stdio: "ignore", timeout: 30_000 });
  const took = performance.now() - started;
  if (run.error !== undefined) throw run.error;
  return took;
}

const times = contenders.map(() => [] as number[]);
try {
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    contenders.forEach((c, i) => {
      const took = once(c.args);
      if (run >= WARM_UP) times[i]?.push(took);
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const floor = median(times[0] ?? []);
printTable(
  `start-up, wall time, median of ${RUNS} runs (aim: 3.0× node -e 0 or less)`,
  ["command", "ms", "× node -e 0"],
  contenders.map((c, i) => {
    const ms = median(times[i] ?? []);
    return [c.name, fmt(ms), fmt(ms / floor, 2)];
  }),
);
