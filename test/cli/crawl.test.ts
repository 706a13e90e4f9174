// `heed crawl` as users run it: the built CLI in a child process against real sites on
// 127.0.0.1, a store in a temporary directory. The summary's shape, --quiet, exit status 2 on
// bad options (with nothing asked of any site), and --max-pages, --max-depth and --scope read
// from the sites' request logs.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { VERSION } from "../../src/cli/version.js";
import { pageRequests, tempDir } from "../helpers/crawl-harness.js";
import { runCli } from "../helpers/run-cli.js";
import { pagePath, type Site, startSite } from "../helpers/synthetic-site.js";

// At most three crawls at once, and time limits that only guard against a hang: on a busy
// 2-core machine fourteen CLI processes started together each took longer than their limits.
const SUITE = { concurrency: 3, timeout: 300_000 };
const HANG_GUARD_MS = 90_000;

describe("heed crawl", SUITE, () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let stores = 0;
  /** A fresh store for each run. */
  const store = () => join(temp.dir, `crawl-${++stores}.db`);
  before(async () => {
    temp = await tempDir("heed-cli-crawl-");
  });
  after(async () => {
    await temp.cleanup();
  });

  /** Runs `heed crawl` against a fresh site of `pages` pages, then closes the site. */
  async function crawlSite(
    args: readonly string[],
    options: { pages?: number; robots?: string } = {},
  ) {
    const site = await startSite({ pages: options.pages ?? 12, robots: options.robots ?? "" });
    try {
      const result = await runCli(["crawl", `${site.origin}/`, "--store", store(), ...args], {
        timeoutMs: HANG_GUARD_MS,
      });
      return { result, log: site.log };
    } finally {
      await site.close();
    }
  }

  it("--sort-query: one page for two orders of the same query parameters", async () => {
    const links = ["/list?b=2&a=1", "/list?a=1&b=2"];
    const fetched = async (args: readonly string[]) => {
      const site = await startSite({ pages: 1, extraLinks: links });
      try {
        const result = await runCli(
          [
            "crawl",
            `${site.origin}/`,
            "--agent",
            "HeedTest",
            "--store",
            store(),
            "--quiet",
            ...args,
          ],
          {
            timeoutMs: HANG_GUARD_MS,
          },
        );
        assert.equal(result.code, 0, result.stderr);
        return site.log.map((r) => r.path).filter((p) => p.startsWith("/list"));
      } finally {
        await site.close();
      }
    };
    assert.deepEqual((await fetched([])).sort(), [...links].sort());
    assert.deepEqual(await fetched(["--sort-query"]), ["/list?a=1&b=2"]);
  });

  it("--json: one JSON summary on stdout, nothing on stderr; User-Agent NAME/<version> (+<url>)", async () => {
    const { result, log } = await crawlSite(["--agent", "HeedTest", "--json"]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    const lines = result.stdout.trim().split("\n");
    assert.equal(lines.length, 1);
    const summary = JSON.parse(lines[0] ?? "") as Record<string, unknown>;
    assert.deepEqual(Object.keys(summary).sort(), [
      "done",
      "elapsedMs",
      "failed",
      "fetched",
      "pagesPerSecond",
      "queued",
      "retried",
      "revisitsDue",
      "skipped",
      "stoppedBy",
    ]);
    for (const key of ["done", "elapsedMs", "failed", "fetched", "queued", "retried", "skipped"])
      assert.ok(Number.isInteger(summary[key]) && (summary[key] as number) >= 0, key);
    assert.equal(typeof summary.pagesPerSecond, "number");
    assert.equal(summary.stoppedBy, "finished");
    assert.equal(summary.fetched, 12);
    assert.equal(summary.done, 12);
    assert.equal(summary.queued, 0);
    assert.equal(pageRequests(log).length, 12);
    const userAgent = `HeedTest/${VERSION} (+https://www.npmjs.com/package/heed)`;
    for (const r of log) assert.equal(r.userAgent, userAgent, r.path);
  });

  it("without --json: a one-line report on stderr; --quiet: nothing at all", async () => {
    const plain = await crawlSite(["--agent", "HeedTest"]);
    assert.equal(plain.result.code, 0, plain.result.stderr);
    assert.equal(plain.result.stdout, "");
    // Off a terminal a progress line comes every 5 s: none, or a few on a slow machine.
    assert.match(
      plain.result.stderr,
      /^(?:heed crawl: fetched \d+ · [^\n]*\n)*heed crawl: 12 fetched, 0 skipped, 0 failed, 0 still queued \(finished\) in [\d.]+ s\n$/,
    );

    const quiet = await crawlSite(["--agent", "HeedTest", "--quiet"]);
    assert.equal(quiet.result.code, 0, quiet.result.stderr);
    assert.equal(quiet.result.stdout, "");
    assert.equal(quiet.result.stderr, "");
    assert.equal(pageRequests(quiet.log).length, 12, "--quiet is quiet, not idle");
  });

  const BAD: Record<string, readonly string[]> = {
    "an --agent that is not a name token": ["--agent", "heed*bot"],
    "a bad --ip": ["--agent", "HeedTest", "--ip", "300.1.2.3"],
    "a --max-pages of 0": ["--agent", "HeedTest", "--max-pages", "0"],
    "a --max-depth that is not a number": ["--agent", "HeedTest", "--max-depth", "two"],
    "an unknown --scope": ["--agent", "HeedTest", "--scope", "planet"],
  };
  for (const [what, args] of Object.entries(BAD)) {
    it(`exit 2 on ${what}, and no request to the site`, async () => {
      const { result, log } = await crawlSite(args);
      assert.equal(result.code, 2, `${result.stdout}${result.stderr}`);
      assert.notEqual(result.stderr, "");
      assert.deepEqual(log, []);
    });
  }

  it("exit 2 on a seed that is not an http(s) URL, and no request to the other seeds", async () => {
    const site = await startSite({ pages: 3 });
    try {
      for (const seed of ["ftp://127.0.0.1/", "not a url"]) {
        const result = await runCli(
          ["crawl", `${site.origin}/`, seed, "--agent", "HeedTest", "--store", store()],
          { timeoutMs: HANG_GUARD_MS },
        );
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /not an http\(s\) URL/);
      }
      assert.deepEqual(site.log, []);
    } finally {
      await site.close();
    }
  });

  it("--max-pages 5: five pages requested, then it stops", async () => {
    const { result, log } = await crawlSite(["--agent", "HeedTest", "--max-pages", "5", "--json"], {
      pages: 30,
    });
    assert.equal(result.code, 0, result.stderr);
    const summary = JSON.parse(result.stdout) as { stoppedBy: string; fetched: number };
    assert.equal(summary.stoppedBy, "max-pages");
    assert.equal(summary.fetched, 5);
    assert.equal(pageRequests(log).length, 5);
  });

  it("--max-depth 1: the seed and the pages it links to, no further; --max-depth 0: the seed", async () => {
    const one = await crawlSite(["--agent", "HeedTest", "--max-depth", "1"], { pages: 30 });
    assert.equal(one.result.code, 0, one.result.stderr);
    // The seed (page 0) links to pages 1-5; those link to 6-30, one step too far.
    const expected = [0, 1, 2, 3, 4, 5].map(pagePath);
    assert.deepEqual(
      pageRequests(one.log)
        .map((r) => r.path)
        .sort(),
      expected.sort(),
    );

    const zero = await crawlSite(["--agent", "HeedTest", "--max-depth", "0"], { pages: 30 });
    assert.equal(zero.result.code, 0, zero.result.stderr);
    assert.deepEqual(
      pageRequests(zero.log).map((r) => r.path),
      ["/"],
    );
  });

  describe(
    "--scope, with a second site on another port of 127.0.0.1",
    { concurrency: false },
    () => {
      let other: Site;
      let first: Site;
      before(async () => {
        other = await startSite({ pages: 3 });
        first = await startSite({ pages: 4, extraLinks: [`${other.origin}/`] });
      });
      after(async () => {
        await first.close();
        await other.close();
      });

      it("host (the default): no request to the other site", async () => {
        const result = await runCli(
          ["crawl", `${first.origin}/`, "--agent", "HeedTest", "--store", store()],
          { timeoutMs: HANG_GUARD_MS },
        );
        assert.equal(result.code, 0, result.stderr);
        assert.equal(pageRequests(first.log).length, 4);
        assert.deepEqual(other.log, []);
      });

      it("domain: the same host name on another port is followed, robots.txt first", async () => {
        other.log.length = 0;
        const result = await runCli(
          [
            "crawl",
            `${first.origin}/`,
            "--agent",
            "HeedTest",
            "--scope",
            "domain",
            "--store",
            store(),
          ],
          { timeoutMs: HANG_GUARD_MS },
        );
        assert.equal(result.code, 0, result.stderr);
        assert.equal(other.log[0]?.path, "/robots.txt");
        assert.deepEqual(
          pageRequests(other.log)
            .map((r) => r.path)
            .sort(),
          [0, 1, 2].map(pagePath).sort(),
        );
      });
    },
  );
});
