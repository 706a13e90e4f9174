// `heed crawl` off a terminal (cron, CI, a log file), as the built CLI runs there: a progress
// line every few seconds (text, or JSON with --progress json) where it used to print nothing
// for the whole run; a resumed run says it is resuming, with the count the store really holds;
// and --agent "My Bot" is refused with a message rather than crawled as "My".
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";
import { type Site, startSite } from "../helpers/synthetic-site.js";

describe("heed crawl off a terminal", { timeout: 120_000 }, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let n = 0;
  before(async () => {
    temp = await tempDir("heed-crawl-off-tty-");
  });
  after(() => temp.cleanup());

  const crawl = (site: Site, ...more: string[]) =>
    runCli(
      ["crawl", `${site.origin}/`, "--agent", "x", "--store", join(temp.dir, `c${n}.db`), ...more],
      { timeoutMs: 90_000 },
    );

  it("a progress line every 5 s, then the summary", async () => {
    // Crawl-delay 1 s over 7 pages: the crawl takes at least 6 s, whatever the machine's speed.
    const site = await startSite({ pages: 7, links: 3, robots: "User-agent: *\nCrawl-delay: 1\n" });
    n++;
    try {
      const result = await crawl(site);
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stderr.split("\n").filter((l) => /^heed crawl: fetched \d+ · /.test(l));
      assert.ok(lines.length >= 1, result.stderr);
      assert.match(
        lines[0] ?? "",
        /^heed crawl: fetched [1-6] · queued \d+ · skipped 0 · errors 0/,
      );
    } finally {
      await site.close();
    }
  });

  it("--progress json: a JSON object a line", async () => {
    const site = await startSite({ pages: 3, links: 2 });
    n++;
    try {
      const result = await crawl(site, "--progress", "json");
      assert.equal(result.code, 0, result.stderr);
      const objects = result.stderr
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.ok(objects.length >= 1, result.stderr);
      assert.deepEqual(Object.keys(objects.at(-1) ?? {}), [
        "progress",
        "elapsedS",
        "fetched",
        "queued",
        "skipped",
        "errors",
        "waiting",
        "pagesPerSecond",
      ]);
      assert.equal(objects.at(-1)?.["fetched"], 3);
      const bad = await crawl(site, "--progress", "bar");
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--progress: expected auto, lines or json, got "bar"/);
    } finally {
      await site.close();
    }
  });

  it("a resumed run says so, with the URLs the store holds queued", async () => {
    const site = await startSite({ pages: 12, links: 4 });
    n++;
    try {
      const first = await crawl(site, "--max-pages", "3", "--json", "--quiet");
      assert.equal(first.code, 0, first.stderr);
      const { queued } = JSON.parse(first.stdout) as { queued: number };
      assert.ok(queued > 0, first.stdout);
      assert.doesNotMatch(first.stderr, /resuming/);
      const second = await crawl(site);
      assert.equal(second.code, 0, second.stderr);
      assert.match(
        second.stderr,
        new RegExp(`^heed crawl: resuming the crawl in \\S+: ${queued} queued, 3 settled`, "m"),
      );
    } finally {
      await site.close();
    }
  });

  it('--agent "My Bot" is refused, naming what robots.txt would read', async () => {
    for (const args of [
      ["crawl", "http://127.0.0.1:9/", "--agent", "My Bot"],
      ["datasets", "http://127.0.0.1:9/", "--agent", "My Bot"],
    ]) {
      const result = await runCli(args);
      assert.equal(result.code, 2, args.join(" "));
      assert.match(
        result.stderr,
        /--agent: expected one name token .*got "My Bot" \(robots\.txt would read it as "My"\); write it as one word, such as "My-Bot"/,
      );
    }
  });
});
