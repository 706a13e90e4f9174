// What a person sees of `heed crawl` off a terminal (cron, CI, a log file): waits as log lines, a
// site given up after --site-wait and the summary at the end; the address guard named for a
// queued loopback URL; the reason a seed was skipped; Ctrl-C exiting 130; a finished crawl run
// again pointing at --revisit and --recrawl.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { newUrl } from "../../src/crawler/frontier-entry.js";
import { sleep } from "../../src/crawler/sleep.js";
import { openStore } from "../../src/store/index.js";
import { tempDir } from "../helpers/crawl-harness.js";
import { runCli, spawnCli } from "../helpers/run-cli.js";
import { startSite } from "../helpers/synthetic-site.js";

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address !== null ? address.port : 1;
}

describe("heed crawl, as a person sees it", { concurrency: true, timeout: 90_000 }, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let stores = 0;
  const store = () => join(temp.dir, `crawl-${++stores}.db`);
  before(async () => {
    temp = await tempDir("heed-cli-seen-");
  });
  after(async () => {
    await temp.cleanup();
  });

  it("its only site unreachable: waiting lines, given up after --site-wait, then the summary", async () => {
    const port = await closedPort();
    const result = await runCli(
      [
        "crawl",
        `http://127.0.0.1:${port}/`,
        "--agent",
        "heedtest",
        "--store",
        store(),
        "--site-wait",
        "2",
      ],
      { timeoutMs: 60_000 },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /waiting for http:\/\/127\.0\.0\.1:\d+ until/);
    assert.match(result.stderr, /giving up on http:\/\/127\.0\.0\.1:\d+ in this run/);
    assert.match(result.stderr, /0 fetched.*1 still queued \(sites-unreachable\)/);
  });

  it("--queued with a loopback URL and no --allow-private names the address guard", async () => {
    const path = store();
    const s = await openStore(path);
    await s.frontier.add([newUrl("http://127.0.0.1:9/page.html", 0, 0, null)]);
    await s.close();
    const result = await runCli(["crawl", "--queued", "--agent", "heedtest", "--store", path], {
      timeoutMs: 30_000,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /private or loopback address.*--allow-private/);
  });

  it("a seed robots.txt refuses: the reason, with the line, is said", async () => {
    const site = await startSite({ pages: 3, robots: "User-agent: *\nDisallow: /\n" });
    try {
      const result = await runCli(
        ["crawl", `${site.origin}/`, "--agent", "heedtest", "--store", store()],
        { timeoutMs: 30_000 },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /skipped http:\/\/127\.0\.0\.1:\d+\/: .*line 2: Disallow: \//);
    } finally {
      await site.close();
    }
  });

  it("Ctrl-C exits 130; a finished crawl run again hints --revisit and --recrawl", async () => {
    const site = await startSite({ pages: 30, robots: "User-agent: *\nCrawl-delay: 0.3\n" });
    try {
      const path = store();
      const args = ["crawl", `${site.origin}/`, "--agent", "heedtest", "--store", path];
      const run = spawnCli(args, { timeoutMs: 60_000 });
      // The signal goes once the crawl is under way: sent while a loaded machine still starts
      // the process, it would find no handler yet and end it by the signal itself.
      for (let i = 0; i < 600 && site.log.length < 3; i++) await sleep(50);
      assert.ok(site.log.length >= 3, "the crawl never started");
      run.child.kill("SIGINT");
      const stopped = await run.done;
      assert.equal(stopped.code, 130, stopped.stderr);
      assert.match(stopped.stderr, /\(aborted\)/);
      const small = await startSite({ pages: 2 });
      try {
        const other = store();
        const argsSmall = ["crawl", `${small.origin}/`, "--agent", "heedtest", "--store", other];
        assert.equal((await runCli(argsSmall, { timeoutMs: 30_000 })).code, 0);
        const again = await runCli(argsSmall, { timeoutMs: 30_000 });
        assert.equal(again.code, 0);
        assert.match(again.stderr, /0 fetched/);
        assert.match(again.stderr, /--revisit .*--recrawl/);
      } finally {
        await small.close();
      }
    } finally {
      await site.close();
    }
  });

  it("links robots.txt refuses are in the crawl log with the line, and heed report lists them", async () => {
    const privateLinks = [1, 2, 3, 4, 5].map((i) => `/private/${i}.html`);
    const site = await startSite({
      pages: 3,
      extraLinks: privateLinks,
      robots: "User-agent: *\nDisallow: /private/\n",
    });
    try {
      const path = store();
      const crawled = await runCli(
        ["crawl", `${site.origin}/`, "--agent", "heedtest", "--store", path, "--quiet"],
        { timeoutMs: 30_000 },
      );
      assert.equal(crawled.code, 0, crawled.stderr);
      assert.ok(!site.paths().some((p) => p.startsWith("/private/")));
      const report = await runCli(["report", "--store", path], { timeoutMs: 30_000 });
      assert.equal(report.code, 0, report.stderr);
      assert.match(report.stdout, /refused by robots\.txt/);
      assert.match(report.stdout, /all hosts\s+5/);
      assert.match(report.stdout, /line 2: Disallow: \/private\//);
    } finally {
      await site.close();
    }
  });
});
