// heed export --items: the records a crawl's page handlers pushed, as JSON lines, in order
// (the library's ctx.push; docs/crawler.md). Their shape is the author's: CSV is refused.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { openStore } from "../../src/store/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";

describe("heed export --items", { timeout: 60_000 }, () => {
  it("writes each record as it was pushed, one a line; --format csv: exit 2, nothing read", async () => {
    const temp = await tempDir("heed-export-items-");
    try {
      const path = join(temp.dir, "crawl.db");
      const store = await openStore(path);
      await store.items.append(['{"a":1}', '{"b":"two\\nlines"}', "[1,2]"]);
      await store.close();
      const out = await runCli(["export", "--store", path, "--items"]);
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, '{"a":1}\n{"b":"two\\nlines"}\n[1,2]\n');
      const csv = await runCli(["export", "--store", path, "--items", "--format", "csv"]);
      assert.equal(csv.code, 2);
      assert.match(csv.stderr, /--items: .*--format jsonl/);
      assert.equal(csv.stdout, "");
    } finally {
      await temp.cleanup();
    }
  });
});
