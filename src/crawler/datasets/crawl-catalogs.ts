/**
 * `heed crawl --datasets`: once the crawl is done, each host it visited is asked for its
 * /data.txt (discover.ts) and the catalog is kept in the crawl store. After the crawl, not
 * during it, so that a host never sees two request streams at once; and paced from where the
 * crawl left the host (its last request, its cached robots.txt rules), so that the first
 * request keeps the gap too.
 */
import type { HttpClient } from "../../net/http-client.js";
import { parseRobots } from "../../protocol/robots/index.js";
import type { CrawlStore, StoredCatalog } from "../../store/types.js";
import { datasetJson } from "./catalog-json.js";
import { discoverDatasets, type SiteCatalog } from "./discover.js";
import { SitePacer } from "./site-pacer.js";

/** Hosts whose catalogs one crawl reads; a crawl over more hosts keeps the first ones. */
export const MAX_CATALOG_HOSTS = 1_000;

export interface CatalogRunOptions {
  readonly store: CrawlStore;
  readonly client: HttpClient;
  /** The robot's name token. */
  readonly agent: string;
  /** The hosts, as origins (`https://example.com`), in the order to ask them. */
  readonly origins: Iterable<string>;
  readonly now?: () => number;
  /** Default {@link MAX_CATALOG_HOSTS}. */
  readonly maxHosts?: number;
  readonly onCatalog?: (catalog: StoredCatalog) => void;
}

export interface CatalogRun {
  readonly stored: readonly StoredCatalog[];
  /** Hosts left out by the host limit. */
  readonly skipped: number;
}

export async function storeCatalogs(options: CatalogRunOptions): Promise<CatalogRun> {
  const now = options.now ?? Date.now;
  const maxHosts = options.maxHosts ?? MAX_CATALOG_HOSTS;
  const stored: StoredCatalog[] = [];
  let skipped = 0;
  for (const origin of new Set(options.origins)) {
    if (stored.length >= maxHosts) {
      skipped++;
      continue;
    }
    const pacer = await pacerFor(origin, options.store, options.agent, now);
    const { catalog } = await discoverDatasets(origin, {
      client: options.client,
      agent: options.agent,
      pacer,
      now,
    });
    const record = toStored(catalog, now());
    await options.store.datasets.put(record);
    // The host's last request, for a crawl resumed after this.
    const host = await options.store.hosts.get(origin);
    await options.store.hosts.put({
      origin,
      lastRequestAt: now(),
      windows: host?.windows ?? [],
    });
    stored.push(record);
    options.onCatalog?.(record);
  }
  return { stored, skipped };
}

/** A pacer that starts from the crawl's last request to the host, under its cached rules. */
async function pacerFor(
  origin: string,
  store: CrawlStore,
  agent: string,
  now: () => number,
): Promise<SitePacer> {
  const pacer = new SitePacer({ now });
  const cached = await store.robots.get(origin);
  const body = cached?.action === "parse" ? cached.body : null;
  if (body !== null) {
    const plan = parseRobots(body, { origin }).check(`${origin}/`, { agent, at: now() }).plan;
    if (plan !== undefined) pacer.setPlan(plan);
  }
  const host = await store.hosts.get(origin);
  // The crawl keeps the site's next moment (its last exchange's end plus the delay) in the
  // store's reservation: the first request waits for it.
  const next = await store.frontier.nextAt(origin);
  const last = Math.max(host?.lastRequestAt ?? 0, next > 0 ? next - pacer.delayMs : 0);
  if (last > 0) pacer.startAfter(last);
  return pacer;
}

export function toStored(catalog: SiteCatalog, at: number): StoredCatalog {
  const datasets = catalog.datasets.map((d) => datasetJson(catalog, d));
  return {
    origin: catalog.site,
    agent: catalog.agent,
    at,
    outcome: catalog.dataTxt.outcome,
    status: catalog.dataTxt.status,
    form: catalog.dataTxt.form,
    datasets: catalog.datasets.length,
    fetchable: catalog.datasets.filter((d) => d.fetchable).length,
    guesses: catalog.datasets.filter((d) => d.guess).length,
    body: JSON.stringify({
      robots: catalog.robots,
      dataTxt: catalog.dataTxt,
      datasets,
      notes: catalog.notes,
    }),
  };
}
