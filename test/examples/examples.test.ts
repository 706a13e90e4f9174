// The examples in examples/ as a crawler author runs them (`node dist/examples/….js`), against
// local sites that log every request: what they print, what they keep, and what the site saw.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, it } from "node:test";
import { openStore } from "heed";
import { tempDir } from "../helpers/crawl-harness.js";
import { isPage, startSite } from "../helpers/synthetic-site.js";
import { redisForFile } from "../helpers/redis-server.js";

const run = promisify(execFile);
const example = (name: string) =>
  fileURLToPath(new URL(`../../examples/${name}.js`, import.meta.url));

async function items(spec: string): Promise<Record<string, unknown>[]> {
  const store = await openStore(spec);
  try {
    const out: Record<string, unknown>[] = [];
    for await (const batch of store.items.scan(100))
      out.push(...batch.map((t) => JSON.parse(t) as Record<string, unknown>));
    return out;
  } finally {
    await store.close();
  }
}

describe("examples/crawl-titles.ts", { timeout: 60_000 }, () => {
  it("keeps each allowed page's title and links; the disallowed page is never asked", async () => {
    const temp = await tempDir();
    const site = await startSite({
      pages: 10,
      links: 3,
      robots: "User-agent: *\nDisallow: /page/4.html\n",
    });
    try {
      const db = join(temp.dir, "titles.db");
      const { stdout } = await run(
        process.execPath,
        [example("crawl-titles"), `${site.origin}/`, db],
        {
          timeout: 50_000,
        },
      );
      assert.match(stdout, /^9 pages fetched, 9 records kept$/m);
      assert.ok(!site.paths().includes("/page/4.html"));
      const kept = await items(db);
      const home = kept.find((r) => r["url"] === `${site.origin}/`);
      assert.deepEqual(home, {
        url: `${site.origin}/`,
        title: "page 0",
        links: ["/page/1.html", "/page/2.html", "/page/3.html"],
        allowedBy: "no-matching-rule",
      });
      // heed export --items writes the same records, one a line.
      const cli = fileURLToPath(new URL("../../src/cli/bin.js", import.meta.url));
      const exported = await run(process.execPath, [cli, "export", "--store", db, "--items"]);
      assert.deepEqual(
        exported.stdout
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as unknown),
        kept,
      );
    } finally {
      await site.close();
      await temp.cleanup();
    }
  });
});

const redis = redisForFile();

describe("examples/shared-redis.ts", { timeout: 120_000 }, () => {
  it("two processes, one crawl: each page fetched once and kept once", async () => {
    const url = await redis.url();
    const site = await startSite({
      pages: 12,
      links: 3,
      robots: "User-agent: *\nCrawl-delay: 0.1\n",
    });
    try {
      const spec = `${url}#heed-example-test:${process.pid}:`;
      const { stdout } = await run(
        process.execPath,
        [example("shared-redis"), `${site.origin}/`, spec],
        {
          timeout: 100_000,
        },
      );
      const pages = site.paths().filter(isPage);
      assert.equal(new Set(pages).size, pages.length, `a page fetched twice: ${pages.join(" ")}`);
      assert.equal(pages.length, 12);
      assert.match(stdout, /^both done: 12 pages kept$/m);
      const byProcess = [...stdout.matchAll(/^process \d+: (\d+) pages$/gm)].map((m) =>
        Number(m[1]),
      );
      assert.equal(byProcess.length, 2);
      assert.equal(
        byProcess.reduce((a, b) => a + b, 0),
        12,
      );
      assert.equal(new Set((await items(spec)).map((r) => r["url"])).size, 12);
    } finally {
      await site.close();
    }
  });
});
