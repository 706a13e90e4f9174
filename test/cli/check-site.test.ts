// `heed check` given a site's address, a robots.txt that is an HTML page, and a 401/403
// answer: the cases a first try met (docs/fetching.md), run as a child process on a real server.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type TestServer, text } from "../helpers/http-server.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";

const ROBOTS = "User-agent: *\nDisallow: /private/\n";
const HOME = "<!DOCTYPE html>\n<html><body><h1>Welcome</h1></body></html>\n";

describe("heed check on a site", () => {
  let site: TestServer;
  let htmlSite: TestServer;
  let closedSite: TestServer;
  before(async () => {
    site = await startServer({
      "/": text(HOME, 200, { "content-type": "text/html" }),
      "/robots.txt": text(ROBOTS),
    });
    htmlSite = await startServer({
      "/robots.txt": text(HOME, 200, { "content-type": "text/html" }),
    });
    closedSite = await startServer({
      "/robots.txt": text("no", 403),
      "/auth/robots.txt": text("no", 401),
    });
  });
  after(async () => {
    await site.close();
    await htmlSite.close();
    await closedSite.close();
  });

  it("a URL whose path is not /robots.txt reads that origin's /robots.txt, and says so", async () => {
    const r = await runCli([
      "check",
      `${site.origin}/`,
      "--agent",
      "mybot",
      "--url",
      `${site.origin}/private/x`,
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^disallowed .*line 2: Disallow: \/private\//);
    assert.match(r.stderr, new RegExp(`reading ${site.origin}/robots\\.txt`));
    assert.ok(!site.requests.includes("/"), "the home page is not fetched");
  });

  it("a page URL of the site reads the site's robots.txt too", async () => {
    const r = await runCli([
      "check",
      `${site.origin}/blog/post?x=1`,
      "--agent",
      "mybot",
      "--url",
      "/public/y",
      "--json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(jsonLines(r.stdout)[0]?.allowed, true);
  });

  it("a robots.txt that is an HTML page is read, with a warning on stderr and in --json", async () => {
    const text_ = await runCli([
      "check",
      `${htmlSite.origin}/robots.txt`,
      "--agent",
      "mybot",
      "--url",
      "/x",
    ]);
    assert.equal(text_.code, 0);
    assert.match(text_.stderr, /warning: .*HTML page/);
    const json = await runCli([
      "check",
      `${htmlSite.origin}/robots.txt`,
      "--agent",
      "mybot",
      "--url",
      "/x",
      "--json",
    ]);
    const line = jsonLines(json.stdout)[0];
    assert.equal(line?.allowed, true);
    assert.ok(Array.isArray(line?.warnings));
    assert.match(String((line?.warnings as string[])[0]), /HTML page/);
  });

  it("a plain robots.txt carries no warnings", async () => {
    const r = await runCli([
      "check",
      `${site.origin}/robots.txt`,
      "--agent",
      "mybot",
      "--url",
      "/x",
      "--json",
    ]);
    assert.equal(jsonLines(r.stdout)[0]?.warnings, undefined);
    assert.equal(r.stderr, "");
  });

  for (const [path, status] of [
    ["/robots.txt", 403],
    ["/auth/robots.txt", 401],
  ] as const) {
    it(`${status}: the message names heed's rule and says RFC 9309 alone would allow`, async () => {
      const args = ["check", `${closedSite.origin}${path}`, "--agent", "a", "--url", "/x"];
      const r = await runCli(args);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /^disallowed /);
      assert.match(r.stdout, /heed's rule/);
      assert.match(r.stdout, /RFC 9309 .* would allow/);
      assert.doesNotMatch(r.stdout, /seeds\//);
      const json = jsonLines((await runCli([...args, "--json"])).stdout)[0];
      assert.equal(json?.reason, "fetch-status");
      assert.equal(json?.status, status);
      assert.equal(json?.allowed, false);
    });
  }
});
