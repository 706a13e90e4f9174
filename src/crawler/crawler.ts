/**
 * The polite crawler's coordinator: it builds one run's stages and puts them in order. The
 * frontier hands out sites due (schedule), each visit reads the site's robots.txt first
 * (robots), feeds its sitemaps once (sitemaps), takes the site's reservation and leases a URL
 * (lease), checks the URL against the site's rules and fetches it (fetch), files the answer
 * (settle), keeps the page or not (keep) and queues what it leads to (discover). Each stage is a
 * file of ./stages/ owning its own state; this file owns the run's start and its summary.
 */
import { setMaxListeners } from "node:events";
import { STORE_LOST_MESSAGE, StoreError } from "../store/errors.js";
import type { CrawlStore } from "../store/types.js";
import { LINK_PRIORITY, SEED_PRIORITY } from "./discovery.js";
import { FETCHED_OUTCOMES, newUrl, requeueFetched } from "./frontier-entry.js";
import { ProcessWatch } from "./process-watch.js";
import { SiteGate } from "./site-gate.js";
import { DiscoverStage } from "./stages/discover.js";
import { FetchStage } from "./stages/fetch.js";
import { LeaseStage } from "./stages/lease.js";
import { RobotsStage } from "./stages/robots.js";
import { CrawlRun } from "./stages/run.js";
import { Schedule } from "./stages/schedule.js";
import { SettleStage } from "./stages/settle.js";
import { SitemapStage } from "./stages/sitemaps.js";
import { originOf } from "./url-normal.js";
import { TdmRepFiles, tdmRepReader } from "./usage-site-files.js";
import { readsTdmRep } from "./usage-verdict.js";
import { decide } from "./verdict.js";

export { MAX_REDIRECT_HOPS } from "./stages/settle.js";

export type {
  CrawlerOptions,
  CrawlEvent,
  CrawlSummary,
  EnqueueRequest,
  EnqueueResult,
  FetchedPage,
  PageHooks,
} from "./crawl-options.js";
import type { CrawlerOptions, CrawlSummary } from "./crawl-options.js";

export async function crawl(options: CrawlerOptions): Promise<CrawlSummary> {
  // Stopped by the caller, or from within: the store lost the crawl.
  const inner = new AbortController();
  const signal =
    options.signal === undefined ? inner.signal : AbortSignal.any([options.signal, inner.signal]);
  // Each wait for a site's reservation listens for the stop while it lasts: as many listeners
  // as waits in flight, which the crawl's concurrency bounds, not a leak to warn of.
  setMaxListeners(0, signal);
  const now = options.now ?? options.store.now;
  const { store } = options;
  let lostStore: StoreError | null = null;
  const watch = new ProcessWatch({
    store,
    now,
    ...(options.heartbeatTtlMs === undefined ? {} : { ttlMs: options.heartbeatTtlMs }),
    onLost: () => {
      lostStore = new StoreError("HEED_STORE_LOST", STORE_LOST_MESSAGE);
      inner.abort();
    },
  });
  const run = new CrawlRun(options, signal, watch.id);
  const emit = run.emit;
  const gate = new SiteGate({
    store,
    owner: run.owner,
    perHost: options.perHost,
    ...(options.perHostOf === undefined ? {} : { perHostOf: (o: string) => run.perHostOf(o) }),
    now,
    ...(options.ip === undefined ? {} : { ip: options.ip }),
    signal,
    onWait: (origin, until, why) => emit({ type: "waiting", origin, until, why }),
  });
  const robots = new RobotsStage(run, gate);
  const sitemaps = new SitemapStage(run, gate, robots);
  const discover = new DiscoverStage(run, robots, sitemaps);
  // A crawl for AI training or input reads each site's tdmrep.json once, under its reservation.
  const tdmrep = readsTdmRep(options.usage)
    ? new TdmRepFiles(tdmRepReader(run, gate, robots))
    : null;
  const settle = new SettleStage(run, discover, tdmrep);
  const fetch = new FetchStage(run, gate, robots, sitemaps, discover, settle);
  const schedule = new Schedule(run, robots, watch, () => sitemaps.takeUpFreed());
  const lease = new LeaseStage(run, gate, robots, sitemaps, fetch, tdmrep, (origin) =>
    schedule.reserved(origin),
  );

  // Leases of processes that died (a crash, or a restart of this one) come back at once; those
  // whose time ran out too.
  await watch.start();
  const earlierSeeds = await watch.identify(options.seeds);
  const differ = options.seeds.filter((seed) => !earlierSeeds.includes(seed));
  if (differ.length > 0 && earlierSeeds.length > 0)
    emit({
      type: "notice",
      message:
        `the store holds a crawl started from ${earlierSeeds.slice(0, 3).join(" ")}` +
        `${earlierSeeds.length > 3 ? " …" : ""}; ${differ.join(" ")} joins it (a crawl of another site belongs in another store)`,
    });
  await store.frontier.recover(now());
  await store.frontier.add(
    options.seeds.flatMap((seed) => {
      const url = run.normal(seed);
      return url === null ? [] : [newUrl(url, 0, SEED_PRIORITY, null, { via: "seed" })];
    }),
  );
  if (options.recrawl === true) await requeueFetched(store);
  const revisitsDue = options.revisit === true ? await requeueDue(store, now()) : 0;
  const before = await store.frontier.counts();
  // The budgets count this run's pages, unless asked to count the whole crawl (--total).
  const again = options.recrawl === true || options.revisit === true || options.queued === true;
  const total = options.total === true && !again;
  run.done = total ? before.done : 0;
  if (options.maxPerHost !== undefined && total && before.done > 0)
    await countFetchedPerSite(store, run.perSite);
  // A revisit run reads each seed's site for sitemaps before anything else, even when none of
  // its pages is due: a newer `<lastmod>` is how a site says a page changed.
  if (options.revisit === true) {
    for (const origin of new Set(options.seeds.flatMap((s) => run.normal(s) ?? []).map(originOf))) {
      if (signal.aborted) break;
      const view = await robots.sites.view(origin);
      await sitemaps.feedOnce(origin, view, decide(view, `${origin}/`, run.robot(now())));
    }
  }

  const stoppedBy = await schedule.drive(lease);
  await watch.stop().catch(() => {});
  if (lostStore !== null) throw lostStore;
  const counts = await store.frontier.counts();
  const elapsedMs = now() - run.started;
  return {
    ...run.tally,
    queued: counts.queued,
    done: counts.done,
    elapsedMs,
    pagesPerSecond: elapsedMs > 0 ? (run.tally.fetched * 1000) / elapsedMs : 0,
    revisitsDue,
    stoppedBy,
  };
}

/** Queues again the pages whose revisit moment has come; returns how many. */
async function requeueDue(store: CrawlStore, now: number): Promise<number> {
  let queued = 0;
  for await (const urls of store.pages.due(now, 1000)) {
    queued += await store.frontier.revisit(
      urls.map((url) => newUrl(url, 0, LINK_PRIORITY, null, { via: "revisit" })),
    );
  }
  return queued;
}

/** Pages fetched of each site in earlier runs of this crawl, from the crawl log. */
async function countFetchedPerSite(store: CrawlStore, into: Map<string, number>): Promise<void> {
  for await (const records of store.log.scan(5000)) {
    for (const r of records)
      if (FETCHED_OUTCOMES.has(r.outcome)) into.set(r.origin, (into.get(r.origin) ?? 0) + 1);
  }
}
