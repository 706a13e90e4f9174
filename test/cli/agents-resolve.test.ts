// `heed agents resolve` as users run it: the built CLI on a file and on a real HTTP server.
// Truth: seeds/000 §4 (with DESIGN §5's corrected user2 host); exit codes per its --help.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type TestServer, text } from "../helpers/http-server.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

const ROBOTS = [
  "User-agent: *",
  "Disallow: /private/",
  "Mobile-agent-server: /             atp://www.fict.org:8001",
  "Mobile-agent-server: /home/        none",
  "Mobile-agent-server: /home/user1/  atp://user1.fict.org:854",
  "Mobile-agent-server: /home/user2/  atp://user2.fict.org:831",
  "",
].join("\n");

describe("heed agents resolve", { timeout: 60_000 }, () => {
  let dir: string;
  let file: string;
  let server: TestServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-agents-resolve-"));
    file = join(dir, "robots.txt");
    await writeFile(file, ROBOTS);
    server = await startServer({ "/robots.txt": text(ROBOTS) });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("prints the host per URL as JSON, null for none; exit 1 when one has none", async () => {
    const run = await runCli([
      "agents",
      "resolve",
      file,
      "--url",
      "http://www.fict.org/home/user2/index.html",
      "--url",
      "http://www.fict.org/home/user3/",
      "--json",
    ]);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(jsonLines(run.stdout), [
      {
        url: "http://www.fict.org/home/user2/index.html",
        host: "atp://user2.fict.org:831",
        line: 6,
      },
      { url: "http://www.fict.org/home/user3/", host: null, line: 4 },
    ]);
  });

  it("fetches robots.txt from a URL and reads paths against its origin; exit 0", async () => {
    const run = await runCli([
      "agents",
      "resolve",
      `${server.origin}/robots.txt`,
      "--url",
      "/home/user1/a.html",
      "--url",
      `${server.origin}/services/`,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      `/home/user1/a.html atp://user1.fict.org:854\n${server.origin}/services/ atp://www.fict.org:8001\n`,
    );
  });

  it("bad input exits 2 with a message: no --url, a missing file, a bad URL", async () => {
    const none = await runCli(["agents", "resolve", file]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--url/);
    const missing = await runCli(["agents", "resolve", join(dir, "nope.txt"), "--url", "/"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.txt: no such file/);
    const bad = await runCli(["agents", "resolve", file, "--url", "http://[x", "--json"]);
    assert.equal(bad.code, 2);
    assert.equal(jsonLines(bad.stdout)[0]?.host, null);
    assert.match(String(jsonLines(bad.stdout)[0]?.error), /not a valid URL/);
  });
});
