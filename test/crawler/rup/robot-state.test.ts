// The robot's RUP tables in the crawl store (migration 3), reached by a file that a heed
// without them made: numbered migrations are reserved per feature, so a file may hold 6 and
// lack 3.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { it } from "node:test";
import { SqliteRobotState } from "../../../src/crawler/rup/robot-state.js";
import { MIGRATIONS, migrate } from "../../../src/store/sqlite/schema.js";

it("a store migrated past 3 without it gets migration 3 when opened", async () => {
  const tmp = await mkdtemp(join(tmpdir(), "heed-robot-state-"));
  try {
    const path = join(tmp, "crawl.db");
    const old = new Database(path);
    migrate(
      old,
      MIGRATIONS.filter((m) => m.version !== 3),
    );
    old.close();
    const state = SqliteRobotState.open(path);
    assert.deepEqual(await state.sites(), []);
    await state.close();
    const raw = new Database(path, { readonly: true });
    const versions = raw
      .prepare("SELECT version FROM schema_version ORDER BY version")
      .pluck()
      .all();
    raw.close();
    assert.deepEqual(
      versions,
      MIGRATIONS.map((m) => m.version).sort((a, b) => a - b),
    );
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
});
