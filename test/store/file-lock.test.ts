// Sitemap updates from several processes at once: the lock file beside the sitemap makes them
// one after another, so no entry is lost to a later rename; a dead owner's lock is taken over.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { LOCKED_CODE, withFileLock } from "../../src/store/file-lock.js";

const WRITER = fileURLToPath(new URL("../../src/site/sitemap-writer.js", import.meta.url));

function updater(path: string, name: string, count: number): Promise<number | null> {
  const script = `
    const { updateSitemap } = await import(${JSON.stringify(WRITER)});
    for (let i = 0; i < ${count}; i++)
      await updateSitemap(${JSON.stringify(path)}, { loc: "https://a.test/${name}/" + i });
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe("updates of one sitemap from several processes", { timeout: 60_000 }, () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-lock-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("three processes, 30 updates each: all 90 entries are there", async () => {
    const path = join(dir, "sitemap.xml");
    const codes = await Promise.all(["a", "b", "c"].map((n) => updater(path, n, 30)));
    assert.deepEqual(codes, [0, 0, 0]);
    const xml = await readFile(path, "utf8");
    assert.equal(xml.match(/<loc>/g)?.length, 90);
    for (const n of ["a", "b", "c"]) assert.ok(xml.includes(`https://a.test/${n}/29`));
  });

  it("a lock left by a process that died is taken over", async () => {
    const path = join(dir, "dead.xml");
    // A pid far above Linux's pid_max: no such process.
    await writeFile(`${path}.lock`, "99999999");
    assert.equal(await withFileLock(path, async () => "ran", { timeoutMs: 1000 }), "ran");
  });

  it("a live lock makes a second writer wait, then give up with a clear error", async () => {
    const path = join(dir, "busy.xml");
    await writeFile(`${path}.lock`, String(process.pid));
    await assert.rejects(
      withFileLock(path, async () => "ran", { timeoutMs: 100 }),
      (error: NodeJS.ErrnoException) =>
        error.code === LOCKED_CODE && error.message.includes("locked by another process"),
    );
    await rm(`${path}.lock`);
    assert.equal(await withFileLock(path, async () => "ran", { timeoutMs: 100 }), "ran");
  });
});
