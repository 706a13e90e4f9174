/**
 * Whether a fetched page is kept (handed to the page handler, archived, logged `fetched`) or
 * only fetched (its links still followed as allowed, logged `fetched-noindex`): the one place
 * the crawl decides, page by page, what it may keep. Today: `noindex` in the page's robots
 * meta or its X-Robots-Tag header.
 */

export interface KeepSignals {
  /** X-Robots-Tag for this robot (or all robots) said noindex or none. */
  readonly headerNoindex: boolean;
  /** `<meta name=robots>` (or one naming the robot) said noindex or none; false when not HTML. */
  readonly metaNoindex: boolean;
}

export type KeepDecision = { readonly keep: true } | { readonly keep: false; readonly why: string };

export function keepPage(signals: KeepSignals): KeepDecision {
  if (signals.headerNoindex) return { keep: false, why: "X-Robots-Tag: noindex" };
  if (signals.metaNoindex) return { keep: false, why: "meta robots: noindex" };
  return { keep: true };
}
