// Dataset catalogs in the SQLite file: the shared contract, and migration 5 on files made
// before it, including one that already has a later migration (6) of another feature.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import { openSqliteStore } from "../../src/store/sqlite/index.js";
import { MIGRATIONS, migrate } from "../../src/store/sqlite/schema.js";
import { datasetCatalogsContract } from "./datasets.suite.js";

const dir = mkdtempSync(join(tmpdir(), "heed-datasets-sqlite-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);

datasetCatalogsContract("sqlite", {
  async fresh() {
    const path = freshPath();
    return { open: () => openSqliteStore(path) };
  },
});

describe("sqlite: migration 5", () => {
  it("is applied to a file that already has every other migration, 6 included", async () => {
    const path = freshPath();
    const old = new Database(path);
    migrate(
      old,
      MIGRATIONS.filter((m) => m.version !== 5),
    );
    const before = old.prepare("SELECT version FROM schema_version ORDER BY version").pluck().all();
    assert.ok(!before.includes(5) && before.includes(6), JSON.stringify(before));
    old.close();
    const store = await openSqliteStore(path);
    try {
      await store.datasets.put({
        origin: "https://a.example",
        agent: "bot",
        at: 1,
        outcome: "missing",
        status: 404,
        form: null,
        datasets: 0,
        fetchable: 0,
        guesses: 0,
        body: "{}",
      });
      assert.equal((await store.datasets.list()).length, 1);
    } finally {
      await store.close();
    }
    const raw = new Database(path, { readonly: true });
    const after = raw.prepare("SELECT version FROM schema_version ORDER BY version").pluck().all();
    raw.close();
    assert.ok(after.includes(5));
  });
});
