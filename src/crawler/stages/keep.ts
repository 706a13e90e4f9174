/**
 * Whether a fetched page is kept (handed to the page handler, archived, logged `fetched`) or
 * only fetched (its links still followed as allowed, logged `fetched-noindex`): the one place
 * the crawl decides, page by page, what it may keep: `noindex` in the page's robots meta or its
 * X-Robots-Tag header, and usage preferences that refuse what the crawl collects for
 * (usage-verdict.ts, docs/usage-preferences.md).
 */

export interface KeepSignals {
  /** X-Robots-Tag for this robot (or all robots) said noindex or none. */
  readonly headerNoindex: boolean;
  /** `<meta name=robots>` (or one naming the robot) said noindex or none; false when not HTML. */
  readonly metaNoindex: boolean;
  /** Why the page's usage preferences refuse one of the crawl's purposes; null or absent: none. */
  readonly usageRefused?: string | null;
}

/** How a page fetched and not kept is logged. */
export type NotKeptOutcome = "fetched-noindex" | "fetched-usage-refused";

export type KeepDecision =
  | { readonly keep: true }
  | { readonly keep: false; readonly why: string; readonly outcome: NotKeptOutcome };

export function keepPage(signals: KeepSignals): KeepDecision {
  if (signals.headerNoindex)
    return { keep: false, why: "X-Robots-Tag: noindex", outcome: "fetched-noindex" };
  if (signals.metaNoindex)
    return { keep: false, why: "meta robots: noindex", outcome: "fetched-noindex" };
  if (signals.usageRefused !== undefined && signals.usageRefused !== null)
    return { keep: false, why: signals.usageRefused, outcome: "fetched-usage-refused" };
  return { keep: true };
}
