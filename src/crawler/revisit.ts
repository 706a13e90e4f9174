/**
 * When to fetch a page again, and how early to fetch it the first time, from what the site
 * says: sitemaps.org `<changefreq>`, `<lastmod>` and `<priority>`, and REGP's guidance lines,
 * Index-page ("pages hoped to be indexed … crawlers visit and fetch them frequently",
 * seeds/003 §3.2.14) and Change-* (§3.2.15). Pure: moments are arguments.
 */
import type { AccessPlan } from "../protocol/robots/plan.js";
import type { ChangeFreq } from "../protocol/sitemap/types.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * How long after a fetch each change frequency brings the page back. `always` ("changes each
 * time it is accessed") is held to a floor, so that a word in a sitemap cannot make a polite
 * robot poll; `never` brings nothing back (sitemaps.org: archived pages).
 */
export const REVISIT_AFTER_MS: Readonly<Record<ChangeFreq, number | null>> = {
  always: 15 * MINUTE,
  hourly: 60 * MINUTE,
  daily: DAY,
  weekly: 7 * DAY,
  monthly: 30 * DAY,
  yearly: 365 * DAY,
  never: null,
};

/** Index-page asks for frequent visits without saying how frequent: hourly. */
export const INDEX_PAGE_REVISIT_MS = 60 * MINUTE;

/** Frontier priorities of pages the site points robots to (seeds stay first at 100). */
export const INDEX_PAGE_PRIORITY = 50;

export interface RevisitGuidance {
  /** The page's `<changefreq>` in a sitemap, if it was listed with one. */
  readonly changefreq?: ChangeFreq | null;
  /** The robots.txt plan for the page's URL (Index-page and Change-* that match it). */
  readonly plan: AccessPlan;
}

export interface Revisit {
  readonly afterMs: number;
  /** What set it, for the crawl log: `Change-daily (line 12)`, `sitemap changefreq hourly`. */
  readonly basis: string;
}

/**
 * The revisit interval of a page, or null when nothing asks for one. Where several sources
 * speak, the shortest interval wins: each is the site asking for visits at least that often.
 */
export function revisitOf(guidance: RevisitGuidance): Revisit | null {
  const candidates: Revisit[] = [];
  const { plan, changefreq } = guidance;
  if (plan.change !== null) {
    const afterMs = REVISIT_AFTER_MS[plan.change.value];
    if (afterMs !== null)
      candidates.push({ afterMs, basis: `Change-${plan.change.value} (line ${plan.change.line})` });
  }
  if (plan.indexPage !== null)
    candidates.push({
      afterMs: INDEX_PAGE_REVISIT_MS,
      basis: `Index-page ${plan.indexPage.value} (line ${plan.indexPage.line})`,
    });
  if (changefreq !== undefined && changefreq !== null) {
    const afterMs = REVISIT_AFTER_MS[changefreq];
    if (afterMs !== null) candidates.push({ afterMs, basis: `sitemap changefreq ${changefreq}` });
  }
  return candidates.reduce<Revisit | null>(
    (best, c) => (best === null || c.afterMs < best.afterMs ? c : best),
    null,
  );
}

/**
 * The frontier priority of a sitemap entry: sitemaps.org `<priority>` (default 0.5) sets the
 * band, 10 to 20, above every followed link; within it, a more recent `<lastmod>` comes first
 * (the fraction below 1 falls from 0.99 for today to about half for a month old).
 */
export function sitemapEntryPriority(
  priority: number | null,
  lastmodMs: number | null,
  now: number,
): number {
  const band = 10 + Math.round((priority ?? 0.5) * 10);
  if (lastmodMs === null) return band;
  const ageDays = Math.max(0, now - lastmodMs) / DAY;
  return band + 0.99 / (1 + ageDays / 30);
}

/**
 * Whether a page fetched at `fetchedAt` is older than what its sitemap says (`<lastmod>`): then
 * a revisit fetches it now rather than at its interval.
 */
export function changedSince(lastmodMs: number | null, fetchedAt: number): boolean {
  return lastmodMs !== null && lastmodMs > fetchedAt;
}
