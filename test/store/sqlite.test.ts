// The SQLite back end: the shared contract on real files, then what only a file shows: a crawl
// killed with SIGKILL mid-way and reopened, schema versions, and the journal mode.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { openStore, StoreError } from "../../src/store/index.js";
import { openSqliteStore } from "../../src/store/sqlite/index.js";
import { MIGRATIONS, migrate } from "../../src/store/sqlite/schema.js";
import {
  CRASH_BATCH,
  CRASH_ORIGINS,
  CRASH_T0,
  crashBatch,
  type CrashLine,
} from "./sqlite-crash.child.js";
import { readyLeavesOutFullSites } from "./ready-full.suite.js";
import { storeContract, type StoreHarness } from "./store.suite.js";

const dir = mkdtempSync(join(tmpdir(), "heed-sqlite-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);

const harness: StoreHarness = {
  async fresh() {
    const path = freshPath();
    return { open: () => openSqliteStore(path) };
  },
};
storeContract("sqlite", harness);
readyLeavesOutFullSites("sqlite", harness);

describe("sqlite: a crawl killed with SIGKILL mid-way, then reopened", () => {
  it("loses nothing committed, puts the in-flight URLs back, and keeps done URLs done", async (t) => {
    const path = freshPath();
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL("./sqlite-crash.child.js", import.meta.url)), "--crash-child", path],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    let batches = 0;
    const done = new Set<string>();
    const inFlight = new Set<string>();
    const nextAt = new Map<string, number>();
    let killedByTest = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    // Kill at an odd moment: after a number of lines that is not a multiple of a loop's length.
    let lines = 0;
    for await (const text of createInterface({ input: child.stdout })) {
      const line = JSON.parse(text) as CrashLine;
      lines += 1;
      if ("added" in line) batches = line.added + 1;
      if ("leased" in line) nextAt.set(line.origin, line.nextAt);
      if ("done" in line) done.add(line.done);
      if ("inFlight" in line) inFlight.add(line.inFlight);
      if (lines === 1237) killedByTest = child.kill("SIGKILL");
    }
    clearTimeout(timer);
    assert.equal(await exited, "SIGKILL");
    assert.ok(killedByTest, "the child was killed by the test, not by the timer");
    assert.ok(done.size > 100 && inFlight.size > 10 && batches > 10);

    const raw = new Database(path);
    assert.equal(raw.pragma("integrity_check", { simple: true }), "ok");
    assert.equal(raw.pragma("journal_mode", { simple: true }), "wal");
    raw.close();

    const store = await openSqliteStore(path);
    try {
      const { frontier } = store;
      const counts = await frontier.counts();
      const total = counts.queued + counts.leased + counts.done + counts.skipped + counts.failed;
      // Every batch reported is there; at most the one being written when killed is more, whole.
      assert.ok(total >= batches * CRASH_BATCH && total <= (batches + 1) * CRASH_BATCH, `${total}`);
      assert.equal(total % CRASH_BATCH, 0);
      assert.ok(counts.done >= done.size && counts.done <= done.size + 1);
      assert.ok(counts.leased >= inFlight.size);
      // The politeness state came through the crash.
      for (const [origin, at] of nextAt) assert.ok((await frontier.nextAt(origin)) >= at, origin);

      assert.equal(await frontier.recover(CRASH_T0 + 1e9), counts.leased);
      const now = CRASH_T0 + 1e9 + 1;
      const fetched: string[] = [];
      for (let round = 0; round < 1000; round++) {
        const ready = await frontier.readyOrigins(now, 100, new Set());
        if (ready.length === 0) break;
        for (const origin of ready) {
          const lease = await frontier.lease(origin, now, 60_000, now);
          if (lease === null) continue;
          fetched.push(lease.entry.url);
          await frontier.settle(lease, { kind: "done", status: 200, at: now });
        }
      }
      const again = new Set(fetched);
      t.diagnostic(
        `killed after ${batches} batches: ${done.size} done, ${inFlight.size} in flight; ${fetched.length} fetched after the restart`,
      );
      assert.equal(again.size, fetched.length, "nothing fetched twice after the restart");
      assert.equal(fetched.length, counts.queued + counts.leased, "every queued URL came back");
      for (const url of done) assert.ok(!again.has(url), `done before the crash: ${url}`);
      for (const url of inFlight) assert.ok(again.has(url), `in flight at the crash: ${url}`);
      // Everything added is accounted for, and is one of the URLs the crawl added.
      const added = new Set(
        Array.from({ length: total / CRASH_BATCH }, (_, b) =>
          crashBatch(b).map((u) => u.url),
        ).flat(),
      );
      for (const url of again) assert.ok(added.has(url), url);
      assert.deepEqual(await frontier.counts(), {
        queued: 0,
        leased: 0,
        done: total,
        skipped: 0,
        failed: 0,
        origins: 0,
      });
      assert.equal(CRASH_ORIGINS.length, 10);
    } finally {
      await store.close();
    }
  });
});

describe("sqlite: the file", () => {
  it("records its schema version and opens again without migrating twice", async () => {
    const path = freshPath();
    await (await openSqliteStore(path)).close();
    await (await openSqliteStore(path)).close();
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
  });

  it("opens a file of schema version 1: its crawl log reads as it was, the new fields null", async () => {
    const path = freshPath();
    const old = new Database(path);
    assert.equal(migrate(old, MIGRATIONS.slice(0, 1)), 1);
    old
      .prepare(
        `INSERT INTO crawl_log (url, origin, at, ms, status, bytes, outcome, detail)
         VALUES ('https://a.test/', 'https://a.test', 5, 6, 200, 7, 'fetched', 'line 1: Allow: /')`,
      )
      .run();
    old.close();
    const store = await openSqliteStore(path);
    try {
      const record = {
        url: "https://a.test/",
        origin: "https://a.test",
        at: 5,
        ms: 6,
        status: 200,
        bytes: 7,
        outcome: "fetched",
        detail: "line 1: Allow: /",
        canonical: null,
        via: null,
        requiredGapMs: null,
        gapMs: null,
        waitedMs: null,
        usage: null,
        referrer: null,
      };
      assert.deepEqual(await store.log.list(10, 0), [record]);
      const next = { ...record, url: "https://a.test/b", via: "link" as const, gapMs: 1000 };
      await store.log.append(next);
      assert.deepEqual(await store.log.list(10, 0), [record, next]);
    } finally {
      await store.close();
    }
    const raw = new Database(path, { readonly: true });
    const versions = raw.prepare("SELECT version FROM schema_version ORDER BY version").pluck();
    assert.deepEqual(
      versions.all(),
      MIGRATIONS.map((m) => m.version).sort((a, b) => a - b),
    );
    raw.close();
  });

  it("opens a file of schema version 11: its ready sites stay ready, in order, and can be claimed", async () => {
    const path = freshPath();
    const old = new Database(path);
    assert.equal(
      migrate(
        old,
        MIGRATIONS.filter((m) => m.version <= 11),
      ),
      11,
    );
    // Two sites with a queued URL each: b due at 5, a at 9 (its next request moment).
    old.exec(`INSERT INTO origins (id, origin, next_at, min_not_before) VALUES
      (1, 'https://a.test', 9, 0), (2, 'https://b.test', 0, 5), (3, 'https://c.test', 0, NULL)`);
    old.close();
    const store = await openSqliteStore(path);
    try {
      assert.deepEqual(await store.frontier.readyOrigins(10, 5, new Set()), [
        "https://b.test",
        "https://a.test",
      ]);
      const claimed = await store.frontier.claimReady(10, 1, new Set());
      assert.deepEqual(claimed, { origins: ["https://b.test"], nextAt: 10 });
      assert.deepEqual(await store.frontier.readyOrigins(10, 5, new Set()), ["https://a.test"]);
    } finally {
      await store.close();
    }
  });

  it("refuses a file of a newer schema with HEED_STORE_SCHEMA_TOO_NEW", async () => {
    const path = freshPath();
    await (await openSqliteStore(path)).close();
    const raw = new Database(path);
    raw.prepare("INSERT INTO schema_version (version, name) VALUES (999, 'from the future')").run();
    raw.close();
    await assert.rejects(
      openSqliteStore(path),
      (error: unknown) => error instanceof StoreError && error.code === "HEED_STORE_SCHEMA_TOO_NEW",
    );
  });

  it("fails with HEED_STORE_UNAVAILABLE where no file can be made", async () => {
    await assert.rejects(
      openSqliteStore(join(dir, "no-such-dir", "x.db")),
      (error: unknown) => error instanceof StoreError && error.code === "HEED_STORE_UNAVAILABLE",
    );
  });

  it("openStore: anything but redis:// is an SQLite file path", async () => {
    const path = freshPath();
    const store = await openStore(path);
    await store.frontier.add([
      {
        url: "https://a.test/",
        origin: "https://a.test",
        depth: 0,
        priority: 0,
        notBefore: 0,
        referrer: null,
        meta: null,
      },
    ]);
    await store.close();
    const raw = new Database(path, { readonly: true });
    assert.equal(raw.prepare("SELECT count(*) FROM urls").pluck().get(), 1);
    raw.close();
  });
});
