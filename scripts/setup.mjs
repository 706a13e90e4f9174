#!/usr/bin/env node
// Brings a fresh clone to a state where `npm test` and `npm run demo` work:
//  1. system packages (Debian): redis-server, which the Redis store's tests start; chromium,
//     in which the HTML crawl report's test opens the page (playwright-core drives it and
//     downloads no browser of its own); and python3, make and g++, with which npm builds
//     better-sqlite3; iproute2, whose `ip` the SSRF tests create a network namespace with;
//     installed with apt-get when missing and this process is root, otherwise
//     named in a message (the tests that need them then fail saying how to get them);
//  2. the pinned dependencies (`npm ci`) unless node_modules already matches package-lock.json.
// Plain JavaScript with no dependencies, so it runs before anything is installed.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants, existsSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const say = (text) => process.stderr.write(`heed setup: ${text}\n`);

/** Whether an executable of that name is on PATH. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // Not in this directory: look in the next.
    }
  }
  return false;
}

// program → the Debian package that provides it
const SYSTEM_PACKAGES = [
  ["redis-server", "redis-server", "the Redis store's tests"],
  ["chromium", "chromium", "the HTML crawl report's test in a real browser"],
  ["python3", "python3", "building better-sqlite3"],
  ["make", "make", "building better-sqlite3"],
  ["g++", "g++", "building better-sqlite3"],
  ["ip", "iproute2", "the SSRF tests, which run hostile hosts in a network namespace"],
];

function installSystemPackages() {
  if (process.platform !== "linux") return;
  const missing = SYSTEM_PACKAGES.filter(([program]) => !onPath(program));
  if (missing.length === 0) return;
  const packages = missing.map(([, pkg]) => pkg);
  const why = missing.map(([program, , use]) => `${program} (${use})`).join(", ");
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !onPath("apt-get")) {
    say(`missing ${why}.`);
    say(
      `install ${isRoot ? "them" : "them as root"}: apt-get install -y ${packages.join(" ")}` +
        " — until then the tests that need them fail.",
    );
    return;
  }
  say(`missing ${why}: installing with apt-get: ${packages.join(" ")}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  try {
    execFileSync("apt-get", ["update", "-q"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-q", "--no-install-recommends", ...packages], {
      stdio: "inherit",
      env,
    });
  } catch (error) {
    say(`apt-get could not install ${packages.join(" ")}: ${error.message}`);
    say("the tests that need them will fail until they are installed.");
  }
}

function installDependencies() {
  const stamp = join(root, "node_modules", ".heed-setup");
  const lock = readFileSync(join(root, "package-lock.json"));
  const wanted = createHash("sha256").update(lock).digest("hex");
  const current = existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : "";
  if (current === wanted && !process.argv.includes("--force")) return;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const env = { ...process.env };
  // better-sqlite3 is built by node-gyp against the running Node's own headers: there may be
  // no network to download them from.
  const prefix = dirname(dirname(process.execPath));
  if (!env.npm_config_nodedir && existsSync(join(prefix, "include", "node", "node.h"))) {
    env.npm_config_nodedir = prefix;
  }
  say("installing the pinned dependencies (npm ci)");
  execFileSync(npm, ["ci", "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit", env });
  writeFileSync(stamp, `${wanted}\n`);
}

installSystemPackages();
installDependencies();
