#!/usr/bin/env node
/**
 * Builds Google's robots.txt parser (google/robotstxt) and bench/google/parse-driver.cc into
 * bench/real/google/ (ignored, never committed), for the parse row of `npm run bench`. Never
 * part of `npm test` or CI.
 *
 *   npm run bench:build-google -- SOURCE
 *
 * SOURCE is a checkout of google/robotstxt or a bare git directory of it. Needs g++ and
 * Debian's libabsl-dev (`apt-get install -y g++ libabsl-dev`). Without SOURCE, a copy already
 * in bench/real/google/src/ is built again.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TARGET = join(ROOT, "bench", "real", "google");
const SRC = join(TARGET, "src");
const UPSTREAM = "https://github.com/google/robotstxt";
// The Abseil libraries robots.cc links against, as Debian's libabsl-dev names them.
const ABSL = [
  "absl_strings",
  "absl_str_format_internal",
  "absl_throw_delegate",
  "absl_raw_logging_internal",
  "absl_int128",
];

function fail(message) {
  console.error(
    `${message}\n\nusage: npm run bench:build-google -- SOURCE\n` +
      `  SOURCE: a checkout or a bare git directory of ${UPSTREAM}\n` +
      `  needs g++ and libabsl-dev (apt-get install -y g++ libabsl-dev)`,
  );
  process.exit(2);
}

const source = process.argv[2];
if (source !== undefined) {
  if (!existsSync(source)) fail(`${source}: no such file or directory`);
  rmSync(SRC, { recursive: true, force: true });
  mkdirSync(SRC, { recursive: true });
  if (existsSync(join(source, "robots.cc"))) {
    cpSync(source, SRC, { recursive: true });
  } else if (existsSync(join(source, "HEAD")) && existsSync(join(source, "objects"))) {
    const archive = spawnSync("git", ["--git-dir", source, "archive", "HEAD"], {
      maxBuffer: 1 << 28,
    });
    if (archive.status !== 0) fail(`git archive failed: ${archive.stderr.toString().trim()}`);
    const untar = spawnSync("tar", ["-x", "-C", SRC], { input: archive.stdout });
    if (untar.status !== 0) fail(`tar failed: ${untar.stderr.toString().trim()}`);
  } else {
    fail(`${source}: neither a checkout with robots.cc nor a bare git directory`);
  }
}
if (!existsSync(join(SRC, "robots.cc")))
  fail("no google/robotstxt source in bench/real/google/src/");

const out = join(TARGET, "parse-driver");
const args = [
  "-O2",
  "-std=c++17",
  `-I${SRC}`,
  join(ROOT, "bench", "google", "parse-driver.cc"),
  join(SRC, "robots.cc"),
  "-o",
  out,
  ...ABSL.map((lib) => `-l${lib}`),
];
const built = spawnSync("g++", args, { stdio: "inherit" });
if (built.error !== undefined) fail(`g++ could not run: ${built.error.message}`);
if (built.status !== 0) fail(`g++ failed (exit ${built.status})`);
console.log(`built ${out}`);
