/**
 * What a crawl on a store restored older than its last write must show (store/write-counter.ts):
 * no page asked twice of any site, and exit 3 with the words that say what happened.
 */
import assert from "node:assert/strict";
import type { CliResult } from "./run-cli.js";
import { isPage, type Site } from "./synthetic-site.js";

/** Pages a site was asked for more than once, with how often, over every site. */
export function pagesTwice(sites: readonly Site[]): string[] {
  const seen = new Map<string, number>();
  for (const site of sites) {
    for (const path of site.paths().filter(isPage)) {
      const url = `${site.origin}${path}`;
      seen.set(url, (seen.get(url) ?? 0) + 1);
    }
  }
  return [...seen].filter(([, n]) => n > 1).map(([url, n]) => `${url} ×${n}`);
}

/** The crawl stopped at the store that went back, before any page was asked again. */
export function assertStoppedAtWentBack(done: CliResult, sites: readonly Site[]): void {
  assert.deepEqual(pagesTwice(sites), [], "no page fetched twice");
  assert.equal(done.code, 3, done.stderr);
  assert.match(done.stderr, /the store went back to an older state: its write count is \d+/);
  assert.match(done.stderr, /run again with --accept-restored-store/);
  assert.doesNotMatch(done.stderr, /\n\s+at /, "no stack trace");
}
