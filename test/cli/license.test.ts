// heed check and heed lint show a robots.txt's RSL License: line; check also shows a
// Link: <…>; rel="license" header of a robots.txt fetched over HTTP.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../helpers/run-cli.js";
import { startServer } from "../helpers/http-server.js";

describe("License: lines from the CLI", () => {
  it("check notes it beside the answers; lint reports it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "heed-license-"));
    try {
      await writeFile(
        join(dir, "robots.txt"),
        "User-agent: *\nAllow: /\nLicense: https://a.example/l.xml\n",
      );
      const check = await runCli(["check", "robots.txt", "--agent", "bot", "--url", "/"], {
        cwd: dir,
      });
      assert.equal(check.code, 0);
      assert.equal(check.stdout, "allowed / (bot, rfc9309: line 2: Allow: /)\n");
      assert.match(
        check.stderr,
        /robots\.txt line 3 names a license \(RSL\): https:\/\/a\.example\/l\.xml/,
      );
      const lint = await runCli(["lint", "robots.txt"], { cwd: dir });
      assert.match(
        lint.stdout,
        /robots\.txt:3: info: License: https:\/\/a\.example\/l\.xml.*\[rsl-license\]/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("check and lint show a Link rel=license header of the robots.txt answer", async () => {
    const server = await startServer({
      "/robots.txt": (_req, res) => {
        res.writeHead(200, {
          "content-type": "text/plain",
          link: '</terms.xml>; rel="license", <https://b.example/style.css>; rel=stylesheet',
        });
        res.end("User-agent: *\nAllow: /\n");
      },
    });
    try {
      const url = `${server.origin}/robots.txt`;
      const check = await runCli(["check", url, "--agent", "bot", "--url", "/"]);
      assert.equal(check.code, 0);
      // Relative to the URL that answered (RFC 8288 §3.2); the stylesheet link is no license.
      assert.match(
        check.stderr,
        new RegExp(`Link rel="license" names a license: ${server.origin}/terms\\.xml\n`),
      );
      assert.doesNotMatch(check.stderr, /style\.css/);
      const lint = await runCli(["lint", url]);
      assert.equal(lint.code, 0, lint.stderr);
      assert.match(
        lint.stdout,
        new RegExp(
          `: info: the robots.txt answer's Link rel="license" names .*: ${server.origin}/terms\\.xml \\[rsl-license-link\\]`,
        ),
      );
      assert.match(lint.stdout, /1 note/);
    } finally {
      await server.close();
    }
  });
});
