// The README's library examples are examples/check-a-url.ts and examples/crawl-titles.ts,
// which the build type-checks (test/examples runs the crawler one against a local site).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { it } from "node:test";
import { promisify } from "node:util";

const root = new URL("../../", import.meta.url);

it("README shows examples/check-a-url.ts verbatim", async () => {
  const readme = await readFile(new URL("README.md", root), "utf8");
  const example = await readFile(new URL("examples/check-a-url.ts", root), "utf8");
  assert.ok(
    readme.includes(example.trimEnd()),
    "README example differs from examples/check-a-url.ts",
  );
});

it("README shows examples/crawl-titles.ts verbatim", async () => {
  const readme = await readFile(new URL("README.md", root), "utf8");
  const example = await readFile(new URL("examples/crawl-titles.ts", root), "utf8");
  assert.ok(
    readme.includes(example.trimEnd()),
    "README example differs from examples/crawl-titles.ts",
  );
});

it("the example runs and prints what its comments say", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [
    new URL("dist/examples/check-a-url.js", root).pathname,
  ]);
  assert.deepEqual(stdout.trim().split("\n"), [
    "true rule 4 Allow: /private/press/",
    "false",
    "2",
    "[ 'https://example.com/sitemap.xml' ]",
  ]);
});
