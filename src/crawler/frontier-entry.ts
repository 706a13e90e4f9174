import type { CrawlStore, NewUrl } from "../store/types.js";
import { LINK_PRIORITY, type UrlMeta, writeMeta } from "./discovery.js";
import { originOf } from "./url-normal.js";

export function newUrl(
  url: string,
  depth: number,
  priority: number,
  referrer: string | null,
  meta: UrlMeta | null = null,
): NewUrl {
  const text = meta === null ? null : writeMeta(meta);
  return { url, origin: originOf(url), depth, priority, notBefore: 0, referrer, meta: text };
}

/** Outcomes in the crawl log of a page that was fetched (and so may be fetched again). */
export const FETCHED_OUTCOMES: ReadonlySet<string> = new Set([
  "fetched",
  "fetched-noindex",
  "fetched-usage-refused",
  "not-modified",
  "indexed-by-agent",
  "indexed-by-agent-noindex",
]);

/** Queues again, page by page, every URL the crawl log says was fetched (a re-crawl). */
export async function requeueFetched(store: CrawlStore): Promise<void> {
  for await (const records of store.log.scan(1000)) {
    const urls = records
      .filter((r) => FETCHED_OUTCOMES.has(r.outcome))
      .map((r) => newUrl(r.url, 0, LINK_PRIORITY, null, { via: "revisit" }));
    if (urls.length > 0) await store.frontier.revisit(urls);
  }
}
