// `heed ui` from the command line: it prints its address and serves the page there, warns
// when it listens beyond this machine, refuses a bad port, and stops cleanly on SIGTERM. With
// --open and no opener that works (none on PATH, or one that fails), it says so on stderr with
// the address to open by hand, and serves on.
import assert from "node:assert/strict";
import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import { until } from "../helpers/until.js";

/**
 * `heed ui --open` with PATH holding only `dir` (node itself is started by its full path), so
 * that the opener is whatever `dir` holds; the page must still be served. Returns stderr once
 * `ready` holds, then stops the process.
 */
async function openWith(dir: string, ready: (err: string) => boolean): Promise<string> {
  const { child, done } = spawnCli(["ui", "--port", "0", "--open"], {
    env: { PATH: dir },
    timeoutMs: 30_000,
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  try {
    await until(() => /heed ui: http:\/\/\S+\n/.test(out), "heed ui to print its address", 20_000);
    await until(() => ready(err), "heed ui's note on stderr", 20_000);
    const url = /heed ui: (http:\/\/\S+)\n/.exec(out)?.[1] ?? "";
    // Still serving after the opener failed.
    assert.equal((await fetch(url)).status, 200);
    return err.replaceAll(url, "<url>");
  } finally {
    child.kill("SIGTERM");
    assert.equal((await done).code, 0);
  }
}

async function started(args: string[]) {
  const run = spawnCli(["ui", "--port", "0", ...args], { timeoutMs: 30_000 });
  let out = "";
  let err = "";
  run.child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  run.child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  await until(() => /heed ui: http:\/\/\S+\n/.test(out), "heed ui to print its address", 20_000);
  const url = /heed ui: (http:\/\/\S+)\n/.exec(out)?.[1] ?? "";
  return { run, url, err: () => err };
}

describe("heed ui (command)", () => {
  it("listens on 127.0.0.1 by default, serves the page, and stops on SIGTERM with 0", async () => {
    const { run, url, err } = await started([]);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    assert.match(await page.text(), /<title>heed ui<\/title>/);
    const info = (await (await fetch(`${url}api/info`)).json()) as { crawl: boolean };
    assert.equal(info.crawl, false);
    assert.equal((await fetch(`${url}api/crawl`)).status, 404);
    run.child.kill("SIGTERM");
    const done = await run.done;
    assert.equal(done.code, 0);
    assert.equal(err(), "");
  });

  it("warns when told to listen on every address", async () => {
    const { run, url, err } = await started(["--host", "0.0.0.0"]);
    assert.match(url, /^http:\/\/0\.0\.0\.0:\d+\/$/);
    assert.match(err(), /^heed ui: warning: listening on 0\.0\.0\.0, not only this machine/);
    run.child.kill("SIGTERM");
    assert.equal((await run.done).code, 0);
  });

  it("refuses a bad --agent or --ip with exit 2", async () => {
    const agent = await runCli(["ui", "--port", "0", "--agent", "a.b"]);
    assert.equal(agent.code, 2);
    assert.match(agent.stderr, /--agent: expected a name token/);
    const ip = await runCli(["ui", "--port", "0", "--ip", "300.1.1.1"]);
    assert.equal(ip.code, 2);
    assert.match(ip.stderr, /--ip: expected an IPv4 or IPv6 address, got "300\.1\.1\.1"/);
  });

  it("refuses a bad port with exit 2", async () => {
    for (const port of ["70000", "-1", "eighty"]) {
      const result = await runCli(["ui", "--port", port]);
      assert.equal(result.code, 2, port);
      assert.match(result.stderr, /--port: expected 0 to 65535/);
    }
  });

  it("--open with no opener on PATH: a note with the address, and the page served", async () => {
    const temp = await tempDir("heed-ui-open-");
    try {
      const err = await openWith(temp.dir, (e) => e.includes("\n"));
      assert.equal(
        err,
        "heed ui: could not open a browser (xdg-open not found); open <url> by hand\n",
      );
    } finally {
      await temp.cleanup();
    }
  });

  it("--open with an opener that fails (no desktop): a note with its status", async () => {
    const temp = await tempDir("heed-ui-open-");
    try {
      // As xdg-open does with no display to open in: a message of its own, then status 3.
      await writeFile(
        join(temp.dir, "xdg-open"),
        `#!/bin/sh\necho "$1" > "${temp.dir}/asked"\necho "xdg-open: no method available" >&2\nexit 3\n`,
      );
      await chmod(join(temp.dir, "xdg-open"), 0o755);
      const err = await openWith(temp.dir, (e) => e.includes("\n"));
      assert.equal(
        err,
        "heed ui: could not open a browser (xdg-open ended with status 3); open <url> by hand\n",
      );
      assert.match(
        await readFile(join(temp.dir, "asked"), "utf8"),
        /^http:\/\/127\.0\.0\.1:\d+\/\n$/,
      );
    } finally {
      await temp.cleanup();
    }
  });

  it("--open with an opener that works: no note", async () => {
    const temp = await tempDir("heed-ui-open-");
    try {
      await writeFile(
        join(temp.dir, "xdg-open"),
        // Shell built-ins only: PATH holds nothing else.
        `#!/bin/sh\necho "$1" > "${temp.dir}/asked"\nexit 0\n`,
      );
      await chmod(join(temp.dir, "xdg-open"), 0o755);
      let asked = "";
      const err = await openWith(temp.dir, () => {
        void readFile(join(temp.dir, "asked"), "utf8").then(
          (text) => (asked = text),
          () => undefined,
        );
        return asked.endsWith("\n");
      });
      assert.match(asked, /^http:\/\/127\.0\.0\.1:\d+\/\n$/);
      assert.equal(err, "");
    } finally {
      await temp.cleanup();
    }
  });

  it("names every option in --help", async () => {
    const result = await runCli(["ui", "--help"]);
    assert.equal(result.code, 0);
    for (const option of ["--port", "--host", "--store", "--agent", "--ip", "--open"])
      assert.match(result.stdout, new RegExp(option));
  });
});
