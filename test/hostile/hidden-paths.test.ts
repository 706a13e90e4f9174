// issue 14 §3, §4: one hidden-path rule for `heed serve` and the agent host. Dot segments,
// heed's state (an SQLite database by content, its -wal/-shm/-journal, lock files), on the
// requested path and on its real path; a --state reaching the directory through a symlink; a
// symlinked directory served with RUP, whose watcher must not log heed's own writes.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { runSandboxed } from "../../src/site/agent-host/sandbox/spawn.js";
import type { SandboxJob } from "../../src/site/agent-host/sandbox/job.js";
import { DEFAULT_HOST_LIMITS } from "../../src/site/agent-host/host.js";
import { hiddenName, hiddenRelativePath } from "../../src/site/hidden-paths.js";
import { startSiteServer } from "../../src/site/site-server.js";

/** The names the rule hides, and names it must not (a table: the rule is by name first). */
const NAMES: readonly [string, boolean][] = [
  [".env", true],
  [".git", true],
  ["heed-rup.db-wal", true],
  ["rup.db-shm", true],
  ["state.sqlite-journal", true],
  ["heed-crawl.db.lock", true],
  ["index.html", false],
  ["journal.html", false],
  ["walrus.txt", false],
  ["a.db", false], // hidden by content only, when it is a database
];

async function makeSite(): Promise<{ base: string; root: string }> {
  const base = await mkdtemp(join(tmpdir(), "heed-hidden-"));
  const root = join(base, "www");
  await mkdir(join(root, ".git"), { recursive: true });
  await mkdir(join(root, "docs"), { recursive: true });
  await writeFile(join(root, "index.html"), "home");
  await writeFile(join(root, "docs", "a.html"), "a page");
  await writeFile(join(root, ".env"), "PASS=hunter2");
  await writeFile(join(root, ".git", "config"), "url = https://token@example.com/x");
  await writeFile(join(root, "x.lock"), "123");
  // A database with another name than heed's defaults: hidden by its content.
  const db = new Database(join(root, "keys.bin"));
  db.exec("CREATE TABLE t (secret TEXT); INSERT INTO t VALUES ('hash-of-a-key')");
  db.close();
  // Links with harmless names to hidden things.
  await symlink(join(root, ".env"), join(root, "docs", "notes.txt"));
  await symlink(join(root, ".git"), join(root, "docs", "repo"));
  await symlink(join(root, "keys.bin"), join(root, "docs", "keys.txt"));
  return { base, root };
}

async function get(base: string, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(new URL(path, base));
  return { status: res.status, body: await res.text() };
}

describe("the hidden-path rule", { timeout: 60_000 }, () => {
  let site: { base: string; root: string };
  before(async () => {
    site = await makeSite();
  });
  after(() => rm(site.base, { recursive: true, force: true }));

  it("names: dot segments, journals, lock files", () => {
    for (const [name, hiddenIt] of NAMES) assert.equal(hiddenName(name) !== null, hiddenIt, name);
    assert.notEqual(hiddenRelativePath("docs/.git/config"), null);
    assert.equal(hiddenRelativePath("docs/a.html"), null);
  });

  it("heed serve refuses them, by path and through links", async () => {
    const server = await startSiteServer({ root: site.root });
    try {
      assert.equal((await get(server.url, "/index.html")).status, 200);
      assert.equal((await get(server.url, "/docs/a.html")).status, 200);
      for (const path of [
        "/.env",
        "/.git/config",
        "/x.lock",
        "/keys.bin",
        "/docs/repo/config",
        "/docs/keys.txt",
        "/docs/notes.txt",
      ]) {
        const r = await get(server.url, path);
        assert.equal(r.status, 404, path);
        assert.doesNotMatch(r.body, /hunter2|token|hash-of-a-key/, path);
      }
    } finally {
      await server.close();
    }
  });

  it("an agent can neither read nor list them", async () => {
    const root = await realpath(site.root);
    const job: SandboxJob = {
      code: `
        const out = {};
        for (const p of ["/.env", "/.git/config", "/x.lock", "/keys.bin", "/docs/notes.txt",
                         "/docs/keys.txt", "/docs/repo/config", "docs/%2eenv"]) {
          try { out[p] = heed.read(p).text; } catch (e) { out[p] = "refused: " + e.message; }
        }
        heed.emit({ out, root: heed.list("/").map((e) => e.name), docs: heed.list("/docs/").map((e) => e.name) });`,
      state: null,
      info: {
        id: "h1",
        site: "http://www.fict.org",
        path: "/",
        robot: "HeedBot",
        host: "atp://127.0.0.1:1",
      },
      root,
      robotsText: "",
      moveTargets: [],
      limits: { ...DEFAULT_HOST_LIMITS, timeMs: 20_000 },
    };
    const outcome = await runSandboxed(job).done;
    assert.equal(outcome.error, null, JSON.stringify(outcome.error));
    const record = JSON.parse(outcome.records[0] ?? "{}") as {
      out: Record<string, string>;
      root: string[];
      docs: string[];
    };
    for (const [path, text] of Object.entries(record.out)) {
      assert.match(text, /^refused: .*(hidden|not-found|bad-path)/, `${path}: ${text}`);
    }
    assert.deepEqual(record.root, ["docs", "index.html"]);
    assert.deepEqual(record.docs, ["a.html"]);
  });

  it("serve --rup: --state through a symlink is not served, the watcher ignores it; a symlinked DIR starts", async () => {
    const base = await mkdtemp(join(tmpdir(), "heed-hidden-rup-"));
    try {
      const real = join(base, "real");
      await mkdir(real);
      await writeFile(join(real, "index.html"), "home");
      await symlink(real, join(base, "link"));
      await symlink(real, join(base, "state-dir"));
      // DIR is a symlink, and the state file reaches DIR through another one.
      const server = await startSiteServer({
        root: join(base, "link"),
        rup: {
          statePath: join(base, "state-dir", "rup.db"),
          transport: null,
          from: "rup@site.test",
          tickMs: 0,
          scanIntervalMs: 0,
        },
      });
      try {
        assert.equal((await get(server.url, "/index.html")).status, 200);
        assert.equal((await get(server.url, "/rupinfo.txt")).status, 200);
        // Writes to the state: registrations land in the WAL.
        for (let i = 0; i < 5; i++) {
          const res = await fetch(new URL("/cgi-bin/rup", server.url), {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: `Action=Register&RobotEmail=bot${i}%40robots.example`,
          });
          assert.equal(res.status, 200, await res.text());
        }
        for (const path of ["/rup.db", "/rup.db-wal", "/rup.db-shm"])
          assert.equal((await get(server.url, path)).status, 404, path);
        // A real change is seen by the watcher; heed's own writes are not.
        await writeFile(join(real, "new.html"), "news");
        const rup = server.rup;
        assert.ok(rup);
        const deadline = Date.now() + 15_000;
        let changes: string[] = [];
        while (Date.now() < deadline) {
          await rup.log.idle();
          changes = rup.state.changesSince(0).map((c) => `${c.kind} ${c.path}`);
          if (changes.length > 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await new Promise((r) => setTimeout(r, 500));
        await rup.log.idle();
        changes = rup.state.changesSince(0).map((c) => `${c.kind} ${c.path}`);
        assert.deepEqual(changes, ["New /new.html"]);
      } finally {
        await server.close();
      }
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
