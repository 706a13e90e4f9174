/**
 * How a URL came into the crawl, and what its sitemap said of it, carried in the frontier's
 * `meta` (seeds/003 §3.2.12): `type` data (fetch, do not follow links) or list (follow every
 * link), `srcloc`, the original page a snapshot stands for, and `changefreq`.
 */
import type { ChangeFreq, PageType } from "../protocol/sitemap/types.js";
import type { Discovery } from "../store/types.js";

export interface UrlMeta {
  readonly via: Discovery;
  readonly type?: PageType;
  readonly srcloc?: string;
  /** The sitemap's `<changefreq>`: how often to come back (see `revisit.ts`). */
  readonly changefreq?: ChangeFreq;
  /** Redirect hops from the URL first queued (a redirect target's). */
  readonly hops?: number;
  /** The label a page handler gave the URL when it queued it (the library's `ctx.enqueue`). */
  readonly label?: string;
}

export function writeMeta(meta: UrlMeta): string {
  return JSON.stringify(meta);
}

/** The meta of a queued URL; a URL queued without one is a seed (depth 0) or a link. */
export function readMeta(meta: string | null, depth: number): UrlMeta {
  if (meta !== null) {
    try {
      const parsed = JSON.parse(meta) as Partial<UrlMeta>;
      if (typeof parsed.via === "string") return parsed as UrlMeta;
    } catch {
      // an unreadable meta is treated as none
    }
  }
  return { via: depth === 0 ? "seed" : "link" };
}

/**
 * Frontier priorities: seeds first, then the site's Index-page paths, what sitemaps list (by
 * their priority, see `revisit.ts`), then links.
 */
export const SEED_PRIORITY = 100;
export const LINK_PRIORITY = 0;
