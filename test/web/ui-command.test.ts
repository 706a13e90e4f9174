// `heed ui` from the command line: it prints its address and serves the page there, warns
// when it listens beyond this machine, refuses a bad port, and stops cleanly on SIGTERM.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import { until } from "../helpers/until.js";

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

  it("refuses a bad port with exit 2", async () => {
    for (const port of ["70000", "-1", "eighty"]) {
      const result = await runCli(["ui", "--port", port]);
      assert.equal(result.code, 2, port);
      assert.match(result.stderr, /--port: expected 0 to 65535/);
    }
  });

  it("names every option in --help", async () => {
    const result = await runCli(["ui", "--help"]);
    assert.equal(result.code, 0);
    for (const option of ["--port", "--host", "--store", "--open"])
      assert.match(result.stdout, new RegExp(option));
  });
});
