/**
 * Start-up cost of the commands a person types, and of each `heed check --batch` run a script
 * starts: `heed --version`, `--help`, `crawl --help`, `check` of a three-line robots.txt (a file,
 * and a URL on 127.0.0.1 served by this process), `check --batch` of one line, `lint` of the
 * file. Each runs two ways in the same run:
 *
 *   modules  tsc's output, one ES module a file (node dist/src/cli/process-main.js)
 *   bundle   what `heed` runs after npm run build (dist/src/cli/bin.js, scripts/build-cli.mjs)
 *
 * against `node -e 0` (the floor: starting Node itself), printed as ratios to that floor; the
 * aim is 2.0× or less for the bundle, which holds when a command loads only its own code.
 *
 *   node dist/bench/startup.bench.js            # after npm run build
 *   node dist/bench/startup.bench.js --quick    # fewer runs
 *
 * Every loop is bounded by a run count. Times are medians of wall times after warm-up runs;
 * the contenders alternate, so that load on the machine falls on all of them.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { fmt, median, printTable } from "./report.js";

const QUICK = process.argv.includes("--quick");
const RUNS = QUICK ? 5 : 15;
const WARM_UP = 2;
const AIM = 2.0;
const BUNDLE = fileURLToPath(new URL("../src/cli/bin.js", import.meta.url));
const MODULES = fileURLToPath(new URL("../src/cli/process-main.js", import.meta.url));
// tsc alone writes a bin.js that imports process-main.js; the bundle imports its chunks.
const BUNDLED = readFileSync(BUNDLE, "utf8").includes("cli-chunks/");

const dir = mkdtempSync(join(tmpdir(), "heed-startup-"));
const robots = join(dir, "robots.txt");
writeFileSync(robots, "User-agent: *\nDisallow: /private/\nAllow: /\n");
const batch = join(dir, "one.tsv");
writeFileSync(batch, `${robots}\tbot\thttp://example.com/private/x\n`);
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/plain" });
  response.end(readFileSync(robots));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const commands: readonly { name: string; args: readonly string[] }[] = [
  { name: "heed --version", args: ["--version"] },
  { name: "heed --help", args: ["--help"] },
  { name: "heed crawl --help", args: ["crawl", "--help"] },
  {
    name: "heed check FILE --agent --url",
    args: ["check", robots, "--agent", "bot", "--url", "http://example.com/private/x"],
  },
  {
    name: "heed check URL --agent --url",
    args: ["check", `${site}/robots.txt`, "--agent", "bot", "--url", "/private/x"],
  },
  { name: "heed check --batch (1 line) --json", args: ["check", "--batch", batch, "--json"] },
  { name: "heed lint FILE", args: ["lint", robots] },
];

interface Contender {
  readonly args: readonly string[];
  readonly times: number[];
}

const floor: Contender = { args: ["-e", "0"], times: [] };
const rows = commands.map((c) => ({
  name: c.name,
  modules: { args: [MODULES, ...c.args], times: [] } as Contender,
  bundle: { args: [BUNDLE, ...c.args], times: [] } as Contender,
}));
const contenders = [floor, ...rows.flatMap((r) => (BUNDLED ? [r.modules, r.bundle] : [r.modules]))];

/** One run's wall time; the server answers meanwhile, so the child is not waited on in sync. */
function once(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: "ignore", timeout: 30_000 });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const took = performance.now() - started;
      // 0 and 1 are answers (check exits 1 for a disallowed URL); anything else is broken.
      if (code === 0 || code === 1) resolve(took);
      else reject(new Error(`node ${args.join(" ")} exited with ${String(code ?? signal)}`));
    });
  });
}

try {
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    for (const c of contenders) {
      const took = await once(c.args);
      if (run >= WARM_UP) c.times.push(took);
    }
  }
} finally {
  server.close();
  server.closeAllConnections();
  rmSync(dir, { recursive: true, force: true });
}

const nodeMs = median(floor.times);
const bundleMs = (r: (typeof rows)[number]): number =>
  BUNDLED ? median(r.bundle.times) : Number.NaN;
printTable(
  `start-up, wall time, median of ${RUNS} runs; node -e 0: ${fmt(nodeMs)} ms (aim: bundle ${fmt(AIM)}× node -e 0 or less)`,
  ["command", "modules ms", "× node", "bundle ms", "× node", "bundle/modules", "aim met"],
  rows.map((r) => {
    const modules = median(r.modules.times);
    const bundle = bundleMs(r);
    return [
      r.name,
      fmt(modules),
      fmt(modules / nodeMs, 2),
      fmt(bundle),
      fmt(bundle / nodeMs, 2),
      fmt(bundle / modules, 2),
      BUNDLED ? (bundle / nodeMs <= AIM ? "yes" : "no") : "n/a",
    ];
  }),
);
if (!BUNDLED) console.log("dist/src/cli/bin.js is not the bundle: run npm run build first");
