/**
 * `heed crawl --datasets`: once the crawl is done, each host it visited is asked for its
 * /data.txt (discover.ts) and the catalog is kept in the crawl store. After the crawl, not
 * during it; every request takes the site's reservation in the store as pages do, so the first
 * one keeps the gap from the crawl's last page, under the cached robots.txt rules.
 */
import type { HttpClient } from "../../net/http-client.js";
import type { CrawlStore, StoredCatalog } from "../../store/types.js";
import { datasetJson } from "./catalog-json.js";
import { discoverDatasets, type SiteCatalog } from "./discover.js";
import { keptPlan, openSiteGate } from "../site-gate.js";
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
  /** The IP address the crawler sends from (Ip-delay, Ip-rate). */
  readonly ip?: string;
}

export interface CatalogRun {
  readonly stored: readonly StoredCatalog[];
  /** Hosts left out by the host limit. */
  readonly skipped: number;
}

export async function storeCatalogs(options: CatalogRunOptions): Promise<CatalogRun> {
  const now = options.now ?? options.store.now;
  const maxHosts = options.maxHosts ?? MAX_CATALOG_HOSTS;
  const stored: StoredCatalog[] = [];
  let skipped = 0;
  // The crawl's own door to each site (DESIGN §2): the first request waits for the site's next
  // moment as the crawl's pages left it, in this process or in any other sharing the store.
  const { gate, close } = await openSiteGate({
    store: options.store,
    now,
    ...(options.ip === undefined ? {} : { ip: options.ip }),
  });
  try {
    for (const origin of new Set(options.origins)) {
      if (stored.length >= maxHosts) {
        skipped++;
        continue;
      }
      const pacer = await SitePacer.open(origin, { gate, now });
      const plan = await keptPlan(options.store, origin, options.agent, now());
      if (plan !== null) pacer.setPlan(plan);
      try {
        const { catalog } = await discoverDatasets(origin, {
          client: options.client,
          agent: options.agent,
          pacer,
          now,
        });
        const record = toStored(catalog, now());
        await options.store.datasets.put(record);
        stored.push(record);
        options.onCatalog?.(record);
      } finally {
        await pacer.close();
      }
    }
  } finally {
    await close();
  }
  return { stored, skipped };
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
