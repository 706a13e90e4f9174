#!/usr/bin/env node
/**
 * Fills bench/real/ with the real robots.txt files and crawled URLs of
 * anubhavp28/robotstxt-parser-benchmark (its robotfiles/ and links/), which `npm run bench`
 * measures when they are there. The files are not ours to redistribute: bench/real/ is in
 * .gitignore and is never committed.
 *
 *   npm run bench:fetch-corpus -- SOURCE
 *
 * SOURCE is a checkout of that repository, or a bare git directory of it. Without one:
 *
 *   git clone https://github.com/anubhavp28/robotstxt-parser-benchmark /tmp/rpb
 *   npm run bench:fetch-corpus -- /tmp/rpb
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const TARGET = join(dirname(fileURLToPath(import.meta.url)), "..", "bench", "real");
const FOLDERS = ["robotfiles", "links"];
const UPSTREAM = "https://github.com/anubhavp28/robotstxt-parser-benchmark";

function usage(message) {
  console.error(
    `${message}\n\nusage: npm run bench:fetch-corpus -- SOURCE\n` +
      `  SOURCE: a checkout or a bare git directory of ${UPSTREAM}\n` +
      `  e.g.  git clone ${UPSTREAM} /tmp/rpb && npm run bench:fetch-corpus -- /tmp/rpb`,
  );
  process.exit(2);
}

const source = process.argv[2];
if (source === undefined) usage("no SOURCE given");
if (!existsSync(source)) usage(`${source}: no such file or directory`);

// Only the corpus folders are replaced: bench/real/ also holds Google's build
// (`npm run bench:build-google`), which a new copy of the corpus must not delete.
for (const f of FOLDERS) rmSync(join(TARGET, f), { recursive: true, force: true });
mkdirSync(TARGET, { recursive: true });
if (FOLDERS.every((f) => existsSync(join(source, f)))) {
  for (const f of FOLDERS) cpSync(join(source, f), join(TARGET, f), { recursive: true });
} else if (existsSync(join(source, "HEAD")) && existsSync(join(source, "objects"))) {
  // A bare git directory: its newest tree, written out by git archive | tar.
  const archive = spawnSync("git", ["--git-dir", source, "archive", "HEAD", ...FOLDERS], {
    maxBuffer: 1 << 30,
  });
  if (archive.status !== 0) usage(`git archive failed: ${archive.stderr.toString().trim()}`);
  const untar = spawnSync("tar", ["-x", "-C", TARGET], { input: archive.stdout });
  if (untar.status !== 0) usage(`tar failed: ${untar.stderr.toString().trim()}`);
} else {
  usage(`${source}: neither a checkout with ${FOLDERS.join("/ and ")}/ nor a bare git directory`);
}
const counts = FOLDERS.map((f) => `${readdirSync(join(TARGET, f)).length} in ${f}/`).join(", ");
console.log(`bench/real/: ${counts}`);
