// What `npm pack` ships: the licence package.json names, and no source maps (they point at
// src/, which the package does not include).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { it } from "node:test";
import { promisify } from "node:util";

const root = new URL("../../", import.meta.url).pathname;

it(
  "npm pack ships LICENSE (MIT, as package.json says) and no .map files",
  { timeout: 120_000 },
  async () => {
    const { stdout } = await promisify(execFile)(
      "npm",
      ["pack", "--dry-run", "--json", "--ignore-scripts"],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
    );
    const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
    const paths = (pack?.files ?? []).map((f) => f.path);
    assert.ok(
      paths.some((p) => p.startsWith("dist/src/")),
      "the build ships",
    );
    assert.deepEqual(
      paths.filter((p) => p.endsWith(".map")),
      [],
    );
    assert.ok(paths.includes("LICENSE"), paths.slice(0, 5).join(" "));
    const manifest = JSON.parse(await readFile(`${root}package.json`, "utf8")) as {
      license: string;
    };
    assert.equal(manifest.license, "MIT");
    assert.match(await readFile(`${root}LICENSE`, "utf8"), /^MIT License\n/);
  },
);
