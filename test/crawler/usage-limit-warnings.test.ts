// Usage preferences left unread for a limit say so wherever they are shown: an X-Robots-Tag or
// robots meta value over 8 KiB is read in part, with a warning naming the header or the meta
// element and the limit (usageFor, heed check, the crawl log's `usage` field); a robots.txt
// Content-Usage line the line reader cut at 16 KiB is not read, and its warning says the line
// is over 16 KiB rather than giving the length left after the cut.
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { MAX_LINE_LENGTH, parseRobots } from "../../src/protocol/robots/index.js";
import { MAX_PREFERENCE_LENGTH, usageFor } from "../../src/protocol/usage/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { jsonLines, runCli } from "../helpers/run-cli.js";
import { type Site, startSite } from "../helpers/synthetic-site.js";

// `noai` past the limit is not seen; the value is a list of robots values, padded.
const LONG_TAG = `noindex, ${"nofollow, ".repeat(900)}noai`;
const LONG_NOAI_FIRST = `noai, ${"nofollow, ".repeat(900)}`;

describe("usage limits: noai values and cut robots.txt lines (library)", () => {
  it("an X-Robots-Tag over 8 KiB: what fits is read, and a warning names the header and the limit", () => {
    assert.ok(LONG_TAG.length > MAX_PREFERENCE_LENGTH);
    const late = usageFor({
      url: "http://a.example/",
      agent: "bot",
      robots: null,
      response: { headers: { "x-robots-tag": LONG_TAG } },
    });
    // Nothing stated in the part read, but the answer says a part was not read.
    assert.equal(late.categories["train-ai"].value, "unknown");
    const [warning, ...more] = late.diagnostics.filter((d) => d.limit !== undefined);
    assert.equal(more.length, 0);
    assert.equal(warning?.limit, MAX_PREFERENCE_LENGTH);
    assert.equal(warning?.source?.name, "x-robots-tag");
    assert.equal(warning?.source?.place, "header");
    assert.equal(
      warning?.message,
      `the value is ${LONG_TAG.length} characters; only the first ${MAX_PREFERENCE_LENGTH} are read for noai and noimageai`,
    );
    const early = usageFor({
      url: "http://a.example/",
      agent: "bot",
      robots: null,
      response: { headers: { "x-robots-tag": LONG_NOAI_FIRST } },
    });
    assert.equal(early.categories["train-ai"].value, "disallowed");
    assert.equal(early.diagnostics.filter((d) => d.limit !== undefined).length, 1);
    // At the limit: read whole, no warning.
    const at = `noai, ${"x".repeat(MAX_PREFERENCE_LENGTH - 6)}`;
    assert.equal(at.length, MAX_PREFERENCE_LENGTH);
    const whole = usageFor({
      url: "http://a.example/",
      agent: "bot",
      robots: null,
      response: { headers: { "x-robots-tag": at } },
    });
    assert.equal(whole.diagnostics.length, 0);
  });

  it("a robots meta content over 8 KiB warns as `meta robots`; a later element is still read", () => {
    const a = usageFor({
      url: "http://a.example/",
      agent: "bot",
      robots: null,
      response: {
        contentType: "text/html",
        meta: [
          { name: "robots", content: LONG_TAG },
          { name: "bot", content: "noai" },
        ],
      },
    });
    assert.equal(a.categories["train-ai"].value, "disallowed");
    const warning = a.diagnostics.find((d) => d.limit !== undefined);
    assert.equal(warning?.source?.place, "meta");
    assert.equal(warning?.source?.name, "robots");
  });

  it("a Content-Usage line cut at 16 KiB: not read, and the warning says it is over 16 KiB", () => {
    // What is left after the cut, `train-ai=y`, parses: it must not be read as the statement.
    const line = `Content-Usage: /${"a".repeat(MAX_LINE_LENGTH - 40)} train-ai=y${" ".repeat(100)}, train-ai=n`;
    const policy = parseRobots(`User-agent: *\n${line}\nContent-Usage: /x search=n\n`);
    // A URL the rule's path matches: the rule would apply, were it read.
    const url = `http://a.example/${"a".repeat(MAX_LINE_LENGTH - 40)}/page`;
    const a = usageFor({ url, agent: "bot", robots: policy });
    assert.equal(a.categories["train-ai"].value, "unknown");
    const warning = a.diagnostics.find((d) => d.limit !== undefined);
    assert.equal(warning?.limit, MAX_LINE_LENGTH);
    assert.equal(
      warning?.message,
      `the line is over ${MAX_LINE_LENGTH} characters and was cut there, so its statement is not read and every preference is unknown`,
    );
    // The rest of the file is read.
    const x = usageFor({ url: "http://a.example/x", agent: "bot", robots: policy });
    assert.equal(x.categories.search.value, "disallowed");
  });
});

function page(res: ServerResponse, body: string, headers: Record<string, string> = {}): true {
  res.writeHead(200, { "content-type": "text/html", ...headers }).end(`<html>${body}</html>`);
  return true;
}

describe("usage limits: heed check and the crawl log", { timeout: 90_000 }, () => {
  let site: Site;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    temp = await tempDir("heed-usage-limits-");
    site = await startSite({
      pages: 1,
      robots: "User-agent: *\nAllow: /\n",
      route: (req, res) => {
        if (req.url === "/")
          return page(res, '<a href="/tag.html">t</a> <a href="/meta.html">m</a>');
        if (req.url === "/tag.html") return page(res, "<p>t</p>", { "x-robots-tag": LONG_TAG });
        if (req.url === "/meta.html")
          return page(res, `<head><meta name="robots" content="${LONG_NOAI_FIRST}"></head>`);
        return false;
      },
    });
  });
  after(async () => {
    await site.close();
    await temp.cleanup();
  });

  it("heed check --header X-Robots-Tag over 8 KiB warns, in text and JSON", async () => {
    const robots = join(temp.dir, "robots.txt");
    await writeFile(robots, "User-agent: *\nAllow: /\n");
    const args = [
      "check",
      robots,
      "--agent",
      "bot",
      "--url",
      "/",
      "--header",
      `X-Robots-Tag: ${LONG_TAG}`,
    ];
    const text = await runCli(args);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      new RegExp(
        `usage warning: header x-robots-tag: the value is ${LONG_TAG.length} characters; only the first ${MAX_PREFERENCE_LENGTH} are read for noai and noimageai`,
      ),
    );
    const json = await runCli([...args, "--json"]);
    const [answer] = jsonLines(json.stdout);
    assert.ok(
      (answer?.warnings as string[]).some((w) => w.startsWith("header x-robots-tag: the value is")),
      json.stdout,
    );
  });

  it("the crawl log's usage field carries the limit warnings", async () => {
    const store = join(temp.dir, "crawl.db");
    const crawl = await runCli(
      ["crawl", `${site.origin}/`, "--agent", "UsageBot", "--store", store, "--quiet"],
      { timeoutMs: 60_000 },
    );
    assert.equal(crawl.code, 0, crawl.stderr);
    const exported = await runCli(["export", "--store", store, "--format", "jsonl"]);
    const log = new Map(
      jsonLines(exported.stdout).map((r) => [new URL(String(r.url)).pathname, r]),
    );
    const tag = JSON.parse(String(log.get("/tag.html")?.usage)) as { warnings?: string[] };
    assert.deepEqual(tag.warnings, [
      `header x-robots-tag: the value is ${LONG_TAG.length} characters; only the first ${MAX_PREFERENCE_LENGTH} are read for noai and noimageai`,
    ]);
    const meta = JSON.parse(String(log.get("/meta.html")?.usage)) as {
      "train-ai": { value: string };
      warnings?: string[];
    };
    assert.equal(meta["train-ai"].value, "disallowed");
    assert.match(meta.warnings?.[0] ?? "", /^meta robots: the value is \d+ characters/);
    // A page with nothing over a limit has no warnings field.
    assert.equal(log.get("/")?.usage ?? null, null);
  });
});
