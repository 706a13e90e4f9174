/**
 * Holds this build's robots.txt reading to a reference build over the real files (bench/real/):
 * every decision of every query, in all three dialects, the sitemaps and extension lines, and
 * every lint finding, must be the same. For changes to how a parsed file is kept (issue 29),
 * which must change no answer.
 *
 *   node dist/bench/compare-readings.js REFERENCE_DIST
 *
 * REFERENCE_DIST is the dist/ of an older build (for example: `git archive BASE src
 * tsconfig.json package.json | tar -x -C /tmp/ref`, link node_modules, `npx tsc -p
 * /tmp/ref/tsconfig.json`, then pass /tmp/ref/dist). Exits 1 when a reading differs, naming
 * the first few; 0 with a count when none does; 2 without bench/real/ or the reference.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as current from "../src/protocol/robots/index.js";
import { loadRealCorpus } from "./real-corpus.js";
import { regpFiles } from "./regp-files.js";

type Robots = typeof current;
const DIALECTS = ["rfc9309", "koster1996", "regp"] as const;
// Differences printed before giving up on a file: enough to see the pattern.
const SHOWN = 10;
// Written REGP files asked what the real ones cannot ask (IP groups, windows, requirements).
const WRITTEN_REGP_FILES = 2000;
// Real files read as REGP are also asked by robots with an address, a moment and what they
// support: their first queries, each by every such robot.
const ROBOT_QUERIES = 12;
const ROBOTS: readonly current.Robot[] = [
  { agent: "Googlebot", ip: "10.0.0.5", at: Date.UTC(2024, 0, 1, 23, 30) },
  { agent: "bingbot", ip: "2001:db8::7", languages: ["en"], encodings: ["gzip"] },
  { agent: "GPTBot", charsets: ["utf-8"], at: Date.UTC(2024, 5, 3, 12) },
];

async function main(): Promise<number> {
  const refDist = process.argv[2];
  const corpus = loadRealCorpus();
  if (refDist === undefined || corpus === undefined) {
    console.error(
      corpus === undefined
        ? "no bench/real/: `npm run bench:fetch-corpus -- SOURCE` fills it"
        : "usage: node dist/bench/compare-readings.js REFERENCE_DIST",
    );
    return 2;
  }
  const entry = join(resolve(refDist), "src", "protocol", "robots", "index.js");
  if (!existsSync(entry)) {
    console.error(`${entry}: not found; build the reference first`);
    return 2;
  }
  const reference = (await import(pathToFileURL(entry).href)) as Robots;
  let readings = 0;
  let answers = 0;
  const differ: string[] = [];
  /** Reads a file with both builds; notes where the readings first differ. */
  const compare = (name: string, read: (robots: Robots) => string[]): void => {
    readings++;
    const mine = read(current);
    const theirs = read(reference);
    answers += mine.length;
    const at = mine.findIndex((m, i) => m !== theirs[i]);
    if (at >= 0 && differ.length < SHOWN) {
      differ.push(`${name}, reading ${at}:\n  now ${mine[at]}\n  was ${theirs[at]}`);
    } else if (at >= 0) differ.push(name);
  };
  for (const file of corpus) {
    for (const dialect of DIALECTS) {
      compare(`${file.name} (${dialect})`, (robots) => {
        const policy = robots.parseRobots(file.bytes, { dialect, origin: file.origin });
        const out = file.queries.map((q) => JSON.stringify(policy.check(q.url, q.agent)));
        // isAllowed on a policy of its own, asked first: its own way to the answer.
        const asked = robots.parseRobots(file.bytes, { dialect, origin: file.origin });
        out.push(file.queries.map((q) => (asked.isAllowed(q.url, q.agent) ? 1 : 0)).join(""));
        out.push(JSON.stringify([policy.sitemaps, policy.extensions]));
        out.push(JSON.stringify(policy.diagnostics));
        out.push(JSON.stringify(robots.lintRobots(file.bytes, { dialect }).findings));
        if (dialect === "regp") {
          for (const q of file.queries.slice(0, ROBOT_QUERIES)) {
            for (const robot of ROBOTS) out.push(JSON.stringify(policy.check(q.url, robot)));
          }
        }
        return out;
      });
    }
  }
  for (const file of regpFiles(WRITTEN_REGP_FILES)) {
    compare(`${file.name}\n${file.text}`, (robots) => {
      const policy = robots.parseRobots(file.text);
      // Asked on a policy of its own first, then again warm, as a crawler asks.
      const asked = robots.parseRobots(file.text);
      const out: string[] = file.robots.flatMap((robot) =>
        file.paths.map((path) => (asked.isAllowed(path, robot) ? "1" : "0")),
      );
      for (const robot of file.robots) {
        for (const path of file.paths) out.push(JSON.stringify(policy.check(path, robot)));
      }
      out.push(
        file.robots
          .map((r) => file.paths.map((p) => (asked.isAllowed(p, r) ? 1 : 0)).join(""))
          .join(),
      );
      out.push(JSON.stringify([policy.sitemaps, policy.extensions, policy.lastModified]));
      out.push(JSON.stringify(policy.diagnostics));
      out.push(JSON.stringify(robots.lintRobots(file.text).findings));
      return out;
    });
  }
  if (differ.length > 0) {
    console.log(
      `${differ.length} of ${readings} readings differ:\n${differ.slice(0, SHOWN).join("\n")}`,
    );
    return 1;
  }
  console.log(`${readings} readings (${answers} answers, diagnostics and lint reports): 0 differ`);
  return 0;
}

process.exitCode = await main();
