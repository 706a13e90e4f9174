/**
 * What the crawl view shows, as plain JSON: the server makes it from the crawl store
 * (crawl-feed.ts), the page draws it. Types only, so the page's bundle can share them.
 */
import type { SitePace } from "../crawler/site-pace.js";

export type CrawlState =
  /** No store at the path yet (the crawl has not started). */
  | "no-store"
  /** The store cannot be read; `message` says why. */
  | "unreadable"
  /** The store is there and nothing is logged or queued yet. */
  | "empty"
  /** URLs are queued or leased. */
  | "running"
  /** Nothing queued or leased, and something was done. */
  | "finished";

export interface HostRow {
  readonly origin: string;
  readonly requests: number;
  readonly records: number;
  readonly errors: number;
  readonly bytes: number;
  /** The last record's moment. */
  readonly lastAt: number | null;
  /** When the host's next request is due, as the store has it; null when never set. */
  readonly nextAt: number | null;
  /** Whether the host is waiting at the snapshot's moment, and why, for a person. */
  readonly waiting: string | null;
  /** The robots.txt the crawl holds for the host: its status and what it meant. */
  readonly robots: {
    readonly status: number | null;
    readonly action: string;
    readonly expiresAt: number;
  } | null;
  /** Gaps kept between requests against those the rules required, in ms. */
  readonly gaps: {
    readonly count: number;
    readonly minMs: number | null;
    readonly medianMs: number | null;
    readonly requiredMinMs: number | null;
    readonly requiredMaxMs: number | null;
    readonly compared: number;
    readonly belowRequired: number;
  };
  readonly waitedMs: number;
  /**
   * What paces the host at the snapshot's moment: its reservation in the store (the next
   * allowed moment, the last exchange's end, requests in flight) under the rules of the
   * robots.txt copy the store holds (Crawl-delay, Ip-delay, Request-rate, Ip-rate, Visit-time).
   */
  readonly pace: SitePace;
  /**
   * Rate windows running for the host (REGP Request-rate, Ip-rate): when the earliest request
   * the window counts was, and how many it counts (`pace.rates` says more).
   */
  readonly windows: readonly {
    readonly scope: string;
    readonly start: number;
    readonly count: number;
  }[];
  /** The last record of the host: what happened last, and why. */
  readonly last: SkippedRow | null;
}

export interface SkippedRow {
  readonly url: string;
  readonly at: number;
  readonly status: number | null;
  readonly outcome: string;
  readonly detail: string | null;
}

export interface CrawlSnapshot {
  readonly state: CrawlState;
  /** The store, as shown to people (a Redis URL without its password). */
  readonly source: string;
  /** When the snapshot was made (ms since the epoch). */
  readonly at: number;
  readonly message: string | null;
  readonly counts: {
    readonly queued: number;
    readonly leased: number;
    readonly done: number;
    readonly skipped: number;
    readonly failed: number;
  } | null;
  readonly records: number;
  readonly requests: number;
  readonly hosts: readonly HostRow[];
  readonly errors: {
    readonly count: number;
    readonly top: readonly { readonly message: string; readonly count: number }[];
  };
  /** Records of URLs the crawl did not fetch (refused, out of scope, failed), latest first. */
  readonly skipped: readonly SkippedRow[];
  readonly skippedTotal: number;
  /** The charts and tables of `heed report --html`: its style and its main part. */
  readonly report: { readonly style: string; readonly body: string };
}
