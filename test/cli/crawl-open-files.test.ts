// More sites than the process may open files: a crawl of 600 sites under `ulimit -n 256`,
// each site keeping its connections open, finishes with every page fetched. The sockets are
// bounded by the crawl (--max-sockets, sized from the limit), and when the limit is reached all
// the same (a cap set above it), "too many open files" is named, the sites wait and are asked
// again: no robots.txt is read as "no answer", no site is set aside.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../helpers/crawl-harness.js";
import { startManySites, type ManySites } from "../helpers/many-sites.js";
import { type CliResult, runCli } from "../helpers/run-cli.js";

const SITES = 600;
const OPEN_FILES = 256;

/** The built heed, run by a shell that first lowers its open-files limit. */
function crawlUnderLimit(args: readonly string[], timeoutMs: number): Promise<CliResult> {
  return runCli(args, { timeoutMs, shellFirst: `ulimit -n ${OPEN_FILES}` });
}

/**
 * Each site's robots.txt, / and /a were asked, each once: no robots.txt was read as "no
 * answer" and asked again later, no site was left out.
 */
function assertEverySiteCrawledOnce(sites: ManySites): void {
  const asked = new Map<string, string[]>();
  for (const { origin, path } of sites.log) {
    const paths = asked.get(origin) ?? [];
    paths.push(path);
    asked.set(origin, paths);
  }
  const odd = sites.origins.filter(
    (origin) => (asked.get(origin) ?? []).sort().join(" ") !== "/ /a /robots.txt",
  );
  assert.deepEqual(
    odd.slice(0, 3).map((origin) => [origin, asked.get(origin)]),
    [],
    `${odd.length} sites not asked robots.txt, / and /a once each`,
  );
}

describe(`heed crawl of ${SITES} sites under ulimit -n ${OPEN_FILES}`, { timeout: 600_000 }, () => {
  for (const { name, extra, shortage } of [
    { name: "the default socket cap keeps it under the limit", extra: [], shortage: false },
    {
      name: "a cap above the limit: the shortage is named, paused and retried",
      extra: ["--max-sockets", "5000"],
      shortage: true,
    },
  ]) {
    it(name, async () => {
      const temp = await tempDir("heed-cli-fds-");
      const sites = await startManySites({ count: SITES });
      try {
        const result = await crawlUnderLimit(
          [
            "crawl",
            ...sites.origins.map((origin) => `${origin}/`),
            "--agent",
            "heedtest",
            "--no-sitemaps",
            "--concurrency",
            "32",
            "--max-pages",
            String(SITES * 2),
            "--json",
            "--store",
            join(temp.dir, "fds.db"),
            ...extra,
          ],
          280_000,
        );
        assert.equal(result.code, 0, result.stderr.slice(-2000));
        const summary = JSON.parse(result.stdout) as { fetched: number; failed: number };
        assert.equal(summary.fetched, SITES * 2, result.stderr.slice(-2000));
        assert.equal(summary.failed, 0);
        assertEverySiteCrawledOnce(sites);
        // Before: 134 of these sites waited with "robots.txt no answer: the site is closed for now".
        assert.doesNotMatch(result.stderr, /no answer/);
        const named = result.stderr.match(/too many open files: the sites asked wait/g) ?? [];
        if (shortage) assert.equal(named.length, 1, result.stderr.slice(-2000));
        else assert.equal(named.length, 0, result.stderr.slice(-2000));
      } finally {
        await sites.close();
        await temp.cleanup();
      }
    });
  }
});
