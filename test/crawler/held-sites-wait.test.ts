// A process whose every site is held by another process (a robots.txt of theirs in flight)
// waits without asking the store over and over (crawler/site-gate.ts, the in-flight wait backs
// off to once a second). Here the other process is a second handle on the same store: each
// site the crawl claims, it takes the site's reservation at once, before the crawl's own
// robots.txt request, and holds it a few seconds; the crawl's store calls are counted meanwhile.
// The old wait asked every 50 ms: hundreds of calls in the hold. The bound below grows with the
// hold as measured, so a slow machine (fewer, later wake-ups) only makes it easier to meet.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { openStore } from "../../src/store/index.js";
import type { CrawlStore, PaceRule } from "../../src/store/types.js";
import { pageRequests, runCrawl, tempDir } from "../helpers/crawl-harness.js";
import { redisForFile } from "../helpers/redis-server.js";
import { startSite, type Site } from "../helpers/synthetic-site.js";

const SITES = 4;
const PAGES = 3;
/** How long the other process holds each site: long enough for many 50 ms asks. */
const HOLD_MS = 4_000;
/** A robots.txt request: one in flight, no gap. */
const ROBOTS_RULE: PaceRule = { gapMs: 0, rate: null, inFlight: 1 };
/**
 * Store calls a waiting site may make in a hold of `ms`: the backoff's steps up to once a
 * second, then one a second; and what the process itself asks meanwhile (the schedule's look
 * for ready sites, once a second at most; the heartbeat's 4 calls every 2 s), with room for
 * the visits' steps before and after the hold.
 */
function mostCalls(ms: number): number {
  const seconds = Math.ceil(ms / 1000);
  return SITES * (6 + seconds) + seconds + 2 * (seconds + 1) + 20;
}

/**
 * Counts the calls the crawl makes to its store that go to the store (those answering a
 * promise: what the process keeps in memory, such as the write count's highest, aside), with
 * `frontier` in place of the store's own.
 */
function counted(
  store: CrawlStore,
  frontier: CrawlStore["frontier"],
  count: () => void,
): CrawlStore {
  const wrap = <T extends object>(part: T): T =>
    new Proxy(part, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (result instanceof Promise) count();
          return result;
        };
      },
    });
  return new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = key === "frontier" ? frontier : Reflect.get(target, key, receiver);
      return typeof value === "object" && value !== null ? wrap(value) : value;
    },
  });
}

const redis = redisForFile();
let prefixes = 0;

describe("a process whose every site another process holds", { timeout: 120_000 }, () => {
  const temp = tempDir("heed-held-");
  after(async () => (await temp).cleanup());

  const places: readonly [string, () => Promise<string>][] = [
    ["sqlite", async () => join((await temp).dir, `held-${++prefixes}.db`)],
    ["redis", async () => `${await redis.url()}#${encodeURIComponent(`heed-held:${++prefixes}:`)}`],
  ];
  for (const [name, place] of places) {
    it(`${name}: waits for them asking the store a few times a site, then crawls them`, async (t) => {
      const sites: Site[] = [];
      for (let i = 0; i < SITES; i++) sites.push(await startSite({ pages: PAGES, links: 2 }));
      const where = await place();
      const other = await openStore(where);
      const holds = new Map<string, string>();
      let heldFrom = 0;
      let heldUntil = 0;
      let during = 0;
      let releasing: Promise<void> | null = null;
      const letGo = async () => {
        for (const [origin, id] of holds)
          await other.reservations.release(origin, id, await other.now(), 0, false);
        heldUntil = Date.now();
      };
      const holdClaimed = (store: CrawlStore): CrawlStore => {
        const frontier: CrawlStore["frontier"] = Object.create(store.frontier) as never;
        const claimReady: CrawlStore["frontier"]["claimReady"] = async (now, limit, exclude) => {
          const got = await store.frontier.claimReady(now, limit, exclude);
          for (const origin of got.origins) {
            if (holds.has(origin) || heldUntil > 0) continue;
            const taken = await other.reservations.take(origin, "other", now, ROBOTS_RULE);
            assert.ok(taken.granted, `the other process takes ${origin}`);
            holds.set(origin, taken.id);
            if (heldFrom === 0) {
              heldFrom = Date.now();
              releasing = new Promise((resolve) => setTimeout(resolve, HOLD_MS)).then(letGo);
            }
          }
          return got;
        };
        frontier.claimReady = claimReady;
        return counted(store, frontier, () => {
          if (heldFrom > 0 && heldUntil === 0) during += 1;
        });
      };
      try {
        const run = await runCrawl(
          sites.map((site) => `${site.origin}/`),
          { storePath: where, wrapStore: holdClaimed, limitMs: 90_000 },
        );
        await releasing;
        assert.equal(holds.size, SITES, "every site was held");
        for (const site of sites) {
          assert.equal(pageRequests(site.log).length, PAGES, `${site.origin}: every page`);
          assert.deepEqual(
            site.paths().filter((path) => path === "/robots.txt"),
            ["/robots.txt"],
          );
        }
        assert.equal(run.summary.fetched, SITES * PAGES);
        const held = heldUntil - heldFrom;
        t.diagnostic(`${during} store calls in ${held} ms of holding`);
        assert.ok(
          during <= mostCalls(held),
          `${during} store calls in ${held} ms of holding, at most ${mostCalls(held)}`,
        );
      } finally {
        await other.close();
        for (const site of sites) await site.close();
      }
    });
  }
});
