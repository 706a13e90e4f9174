#!/usr/bin/env node
// Brings a fresh clone to a state where `npm test` and `npm run demo` work: installs the
// pinned dependencies (`npm ci`) unless node_modules already matches package-lock.json.
// Plain JavaScript with no dependencies, so it runs before anything is installed.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, "node_modules", ".heed-setup");
const lock = readFileSync(join(root, "package-lock.json"));
const wanted = createHash("sha256").update(lock).digest("hex");

const current = existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : "";
if (current !== wanted || process.argv.includes("--force")) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  process.stderr.write("heed setup: installing the pinned dependencies (npm ci)\n");
  execFileSync(npm, ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  writeFileSync(stamp, `${wanted}\n`);
}
