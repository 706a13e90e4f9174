// Reading a site's tree for the modification log: URL paths, limits, and what a comparison
// with the snapshot yields.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ModificationLog } from "../../../src/site/rup/modification-log.js";
import { diffSnapshots, scanTree, urlPathOf } from "../../../src/site/rup/scan.js";
import { SiteState } from "../../../src/site/rup/state.js";

describe("urlPathOf", () => {
  const CASES: readonly [rel: string, url: string | null][] = [
    ["index.html", "/index.html"],
    ["docs/a b,c.html", "/docs/a%20b%2Cc.html"],
    ["café/menu.html", "/caf%C3%A9/menu.html"],
    [".git/config", null],
    ["docs/.draft.html", null],
    ["../outside.html", null],
  ];
  for (const [rel, url] of CASES) {
    it(`${rel} → ${String(url)}`, () => {
      assert.equal(urlPathOf("/site", join("/site", rel)), url);
    });
  }
});

describe("diffSnapshots", () => {
  const before = new Map([
    ["/same", { size: 1, mtimeMs: 1 }],
    ["/grown", { size: 1, mtimeMs: 1 }],
    ["/touched", { size: 1, mtimeMs: 1 }],
    ["/gone", { size: 1, mtimeMs: 1 }],
    ["/other/gone", { size: 1, mtimeMs: 1 }],
  ]);
  const after = new Map([
    ["/same", { size: 1, mtimeMs: 1 }],
    ["/grown", { size: 2, mtimeMs: 1 }],
    ["/touched", { size: 1, mtimeMs: 2 }],
    ["/new", { size: 1, mtimeMs: 1 }],
  ]);
  it("New, Change (size or time), Delete", () => {
    const out = diffSnapshots(before, after, "/", 9).map((c) => `${c.kind} ${c.path}`);
    assert.deepEqual(out.sort(), [
      "Change /grown",
      "Change /touched",
      "Delete /gone",
      "Delete /other/gone",
      "New /new",
    ]);
  });
  it("deletions only under the prefix scanned", () => {
    const out = diffSnapshots(before, new Map(), "/other/", 9).map((c) => `${c.kind} ${c.path}`);
    assert.deepEqual(out, ["Delete /other/gone"]);
  });
});

describe("scanTree and the log's limits", () => {
  let dir: string;
  let tmp: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-scan-"));
    tmp = await mkdtemp(join(tmpdir(), "heed-scan-state-"));
    await mkdir(join(dir, "a", "b", "c", "d"), { recursive: true });
    for (const f of ["1.html", "2.html", "a/3.html", "a/b/4.html", "a/b/c/d/5.html", ".hidden"])
      await writeFile(join(dir, f), f);
    await symlink(join(dir, "1.html"), join(dir, "link.html"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(tmp, { recursive: true, force: true });
  });

  it("lists regular, published files; no hidden files, no symbolic links", async () => {
    const scan = await scanTree(dir, dir);
    assert.equal(scan.cut, null);
    assert.deepEqual([...scan.files.keys()].sort(), [
      "/1.html",
      "/2.html",
      "/a/3.html",
      "/a/b/4.html",
      "/a/b/c/d/5.html",
    ]);
  });

  it("limit: maxDepth (MAX_DEPTH) stops the scan and says where", async () => {
    const scan = await scanTree(dir, dir, { maxDepth: 2 });
    assert.match(scan.cut ?? "", /deeper than 2 directories/);
  });

  it("limit: maxFiles (MAX_FILES) stops the scan", async () => {
    const scan = await scanTree(dir, dir, { maxFiles: 2 });
    assert.match(scan.cut ?? "", /more than 2 files/);
  });

  it("a scan cut short logs news, never deletions of what it did not reach", async () => {
    const state = SiteState.open(join(tmp, "state.db"));
    const warnings: string[] = [];
    let log = new ModificationLog({ root: dir, state, now: () => 1 });
    await log.start();
    await log.stop();
    await writeFile(join(dir, "6.html"), "6");
    log = new ModificationLog({
      root: dir,
      state,
      now: () => 2,
      maxFiles: 1,
      warn: (m) => warnings.push(m),
    });
    await log.start();
    await log.stop();
    const kinds = state.changesSince(0).map((c) => c.kind);
    assert.ok(!kinds.includes("Delete"), JSON.stringify(state.changesSince(0)));
    assert.ok(warnings.some((w) => /scan stopped: more than 1 files/.test(w)));
    state.close();
  });
});
