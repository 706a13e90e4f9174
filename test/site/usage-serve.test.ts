// `heed serve --usage`: the Content-Usage header per path and /.well-known/tdmrep.json, from one
// description, over real HTTP; and `heed usage build` writing robots.txt lines and tdmrep.json.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseRobots } from "../../src/protocol/robots/index.js";
import { readUsageDescription } from "../../src/protocol/usage/description.js";
import {
  readContentUsage,
  readTdmRepJson,
  tdmAnswer,
  usageFor,
} from "../../src/protocol/usage/index.js";
import { type SiteServer, startSiteServer } from "../../src/site/site-server.js";
import { runCli } from "../helpers/run-cli.js";

const DESCRIPTION = JSON.stringify({
  default: { search: "y", "train-ai": "n", "ai-input": "n" },
  paths: [
    { path: "/open-data/", "train-ai": "y", "ai-input": "y" },
    { path: "/books/", "tdm-policy": "https://example.com/tdm-policy.json" },
  ],
});

describe("heed serve --usage", () => {
  let dir: string;
  let server: SiteServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-usage-serve-"));
    await mkdir(join(dir, "open-data"));
    await writeFile(join(dir, "index.html"), "<p>home</p>");
    await writeFile(join(dir, "open-data", "set.csv"), "a,b\n");
    const read = readUsageDescription(DESCRIPTION);
    assert.ok(read.ok);
    server = await startSiteServer({ root: dir, usage: read.description });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("a Content-Usage header per path, read back by heed's reader", async () => {
    const home = await fetch(new URL("/index.html", server.url));
    assert.equal(home.status, 200);
    assert.equal(home.headers.get("content-usage"), "train-ai=n, search=y");
    const open = await fetch(new URL("/open-data/set.csv", server.url));
    assert.equal(open.headers.get("content-usage"), "train-ai=y, search=y");
    const read = readContentUsage(open.headers.get("content-usage") ?? "", {
      form: "content-usage",
      place: "header",
      line: null,
      name: "content-usage",
      text: "",
    });
    assert.equal(read.statement.preferences["train-ai"], "allowed");
    await home.text();
    await open.text();
  });

  it("/.well-known/tdmrep.json, most specific rule first", async () => {
    const answer = await fetch(new URL("/.well-known/tdmrep.json", server.url));
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-type") ?? "", /application\/json/);
    const file = readTdmRepJson(await answer.text());
    assert.equal(file.diagnostics.length, 0);
    assert.equal(tdmAnswer({ file, url: "/open-data/x" }).reservation, 0);
    const books = tdmAnswer({ file, url: "/books/a" });
    assert.equal(books.reservation, 1);
    assert.equal(books.policy, "https://example.com/tdm-policy.json");
    assert.equal(tdmAnswer({ file, url: "/other" }).reservation, 1);
    const post = await fetch(new URL("/.well-known/tdmrep.json", server.url), { method: "POST" });
    assert.equal(post.status, 405);
    await post.text();
  });
});

describe("heed usage build", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "heed-usage-build-"));
    await writeFile(join(dir, "usage.json"), DESCRIPTION);
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("prints a User-agent: * group whose lines say what the description says", async () => {
    const r = await runCli(["usage", "build", join(dir, "usage.json")]);
    assert.equal(r.code, 0);
    const policy = parseRobots(r.stdout);
    const at = (url: string) => usageFor({ url, agent: "bot", robots: policy }).categories;
    assert.equal(at("/x")["train-ai"].value, "disallowed");
    assert.equal(at("/x").search.value, "allowed");
    assert.equal(at("/open-data/a")["ai-input"].value, "allowed");
  });

  it("--robots writes into an existing file's * group, replacing earlier usage lines; --tdmrep writes the file", async () => {
    const robots = join(dir, "robots.txt");
    await writeFile(
      robots,
      "User-agent: a\nDisallow: /x\n\nUser-agent: *\nContent-Usage: train-ai=y\nDisallow: /private/\n",
    );
    const r = await runCli([
      "usage",
      "build",
      join(dir, "usage.json"),
      "--robots",
      robots,
      "--tdmrep",
      join(dir, "tdmrep.json"),
    ]);
    assert.equal(r.code, 0);
    const text = await readFile(robots, "utf8");
    assert.doesNotMatch(text, /train-ai=y\nDisallow/);
    const policy = parseRobots(text);
    assert.equal(policy.check("/x", "a").allowed, false);
    assert.equal(policy.check("/private/p", "bot").allowed, false);
    assert.equal(
      usageFor({ url: "/p", agent: "bot", robots: policy }).categories["train-ai"].value,
      "disallowed",
    );
    // Run twice: the same file.
    await runCli(["usage", "build", join(dir, "usage.json"), "--robots", robots]);
    assert.equal(await readFile(robots, "utf8"), text);
    const tdm = readTdmRepJson(await readFile(join(dir, "tdmrep.json")));
    assert.equal(tdm.rules.length, 3);
  });

  it("a robots.txt that starts with a byte order mark: the lines go into its * group", async () => {
    const robots = join(dir, "bom-robots.txt");
    await writeFile(robots, "\uFEFFUser-agent: *\nDisallow: /private/\n");
    const r = await runCli(["usage", "build", join(dir, "usage.json"), "--robots", robots]);
    assert.equal(r.code, 0);
    const text = await readFile(robots, "utf8");
    assert.equal(text.match(/User-agent: \*/g)?.length, 1, text);
    // Koster 1996 reads the first * record only: the lines must be in it.
    const policy = parseRobots(text, { dialect: "koster1996" });
    assert.equal(
      usageFor({ url: "/p", agent: "bot", robots: policy }).categories["train-ai"].value,
      "disallowed",
    );
  });

  it("a file that cannot be written: exit 2, the other left as it was, no temporary left", async () => {
    const sub = join(dir, "partial");
    await mkdir(sub, { recursive: true });
    const robots = join(sub, "robots.txt");
    await writeFile(robots, "User-agent: *\nDisallow: /x\n");
    const r = await runCli([
      "usage",
      "build",
      join(dir, "usage.json"),
      "--robots",
      robots,
      "--tdmrep",
      join(sub, "no-such-folder", "tdmrep.json"),
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot write .*tdmrep\.json/);
    assert.equal(await readFile(robots, "utf8"), "User-agent: *\nDisallow: /x\n");
    assert.deepEqual(await readdir(sub), ["robots.txt"]);
  });

  // The second rename fails (a directory stands at the tdmrep.json path; root ignores read-only
  // directories): the robots.txt the first rename replaced is put back.
  it("the second file cannot replace its target: the first is put back, nothing left behind", async () => {
    const sub = join(dir, "second-fails");
    await mkdir(join(sub, "tdmrep.json"), { recursive: true });
    const robots = join(sub, "robots.txt");
    const before = "User-agent: *\nDisallow: /x\n";
    await writeFile(robots, before);
    const args = ["usage", "build", join(dir, "usage.json"), "--robots", robots];
    const r = await runCli([...args, "--tdmrep", join(sub, "tdmrep.json")]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot write .*tdmrep\.json/);
    assert.doesNotMatch(r.stderr, /put back/);
    assert.equal(await readFile(robots, "utf8"), before);
    assert.deepEqual((await readdir(sub)).sort(), ["robots.txt", "tdmrep.json"]);
    assert.deepEqual(await readdir(join(sub, "tdmrep.json")), []);
    // A robots.txt that was not there is not there after.
    await rm(robots);
    const none = await runCli([...args, "--tdmrep", join(sub, "tdmrep.json")]);
    assert.equal(none.code, 2);
    assert.deepEqual(await readdir(sub), ["tdmrep.json"]);
    // With the way clear, both are written, and no kept copy stays.
    await rm(join(sub, "tdmrep.json"), { recursive: true });
    await writeFile(robots, before);
    const ok = await runCli([...args, "--tdmrep", join(sub, "tdmrep.json")]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.notEqual(await readFile(robots, "utf8"), before);
    assert.deepEqual((await readdir(sub)).sort(), ["robots.txt", "tdmrep.json"]);
  });

  it("the first target is a directory: nothing written, nothing left behind", async () => {
    const sub = join(dir, "first-fails");
    await mkdir(join(sub, "robots.txt"), { recursive: true });
    const r = await runCli([
      "usage",
      "build",
      join(dir, "usage.json"),
      "--robots",
      join(sub, "robots.txt"),
      "--tdmrep",
      join(sub, "tdmrep.json"),
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot (read|write) .*robots\.txt/);
    assert.deepEqual(await readdir(sub), ["robots.txt"]);
  });

  it("a bad description: exit 2 naming the field", async () => {
    await writeFile(join(dir, "bad.json"), '{"default":{"train-ai":"maybe"}}');
    const r = await runCli(["usage", "build", join(dir, "bad.json")]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /default\.train-ai: expected "y" or "n"/);
  });
});
