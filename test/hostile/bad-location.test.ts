// issue 14 §1: a server answering `302 Location: http://[::1` (not a URL) once made `heed`
// crash with an internal error (exit 70). Each fetching command now gives its failure status
// and one line naming the bad Location. On 127.0.0.1, so it runs on any machine.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Route, startServer, type TestServer } from "../helpers/http-server.js";
import { runCli } from "../helpers/run-cli.js";

const EXIT_INTERNAL = 70;

describe("a redirect to a Location that is not a URL", () => {
  let server: TestServer;
  before(async () => {
    const bad: Route = (_req, res) => {
      res.writeHead(302, { location: "http://[::1" });
      res.end();
    };
    server = await startServer({ "/robots.txt": bad, "/sitemap.xml": bad, "/data.txt": bad });
  });
  after(() => server.close());

  const commands = (o: string): ReadonlyArray<readonly string[]> => [
    ["check", `${o}/robots.txt`, "--agent", "bot", "--url", "/x"],
    ["lint", `${o}/robots.txt`],
    ["agents", "resolve", `${o}/robots.txt`, "--url", "/x"],
    ["sitemap", `${o}/sitemap.xml`],
    ["datasets", `${o}/`],
  ];

  it("is a clean error in check, lint, agents resolve, sitemap and datasets", async () => {
    for (const args of commands(server.origin)) {
      const run = await runCli(args, { timeoutMs: 60_000 });
      const said = `heed ${args.join(" ")} exited ${run.code}:\n${run.stderr}`;
      assert.notEqual(run.code, EXIT_INTERNAL, said);
      assert.ok(run.code === 1 || run.code === 2, said);
      assert.match(run.stderr, /"http:\/\/\[::1": not a URL/, said);
      assert.doesNotMatch(run.stderr, /^\s+at /m, said);
      // datasets reports each file on a line of its own; the others stop at the one error.
      if (args[0] !== "datasets") assert.equal(run.stderr.trim().split("\n").length, 1, said);
    }
  });
});
