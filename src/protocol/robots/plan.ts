/**
 * How a robot should fetch one URL of a site: the gap to keep, the rate windows, the windows
 * in time, what to send and where to go instead. Every dialect fills what it can; REGP
 * (seeds/003 §3.2.6-3.2.15) fills it all.
 */
import type { ChangeFreq } from "../sitemap/types.js";

/** A value and the line it came from. */
export interface FromLine<T> {
  readonly value: T;
  readonly line: number;
}

export interface RateWindow {
  /** `agent`: every robot with this name token (Request-rate); `ip`: this IP (Ip-rate). */
  readonly scope: "agent" | "ip";
  /** At most this many requests … */
  readonly requests: number;
  /** … per this many seconds, counted from the first visit (seeds/003 §3.2.7). */
  readonly seconds: number;
  readonly line: number;
}

export interface TimeRule {
  /** `visit`: may come only inside; `forbidden`: may not come inside. */
  readonly kind: "visit" | "forbidden";
  /** The value as written. */
  readonly text: string;
  readonly line: number;
}

/** Change-always … Change-never: the frequencies of the Sitemap protocol's `<changefreq>` (seeds/003 §3.2.15). */
export type ChangeFrequency = ChangeFreq;

export interface AccessPlan {
  /** The minimum gap before the next request, in seconds: the largest of the delays and of the gaps the rates imply. */
  readonly delaySeconds: number;
  /** Crawl-delay: binds every robot with this name token, on every machine. */
  readonly crawlDelay: FromLine<number> | null;
  /** Ip-delay (REGP): binds this IP. */
  readonly ipDelay: FromLine<number> | null;
  readonly rates: readonly RateWindow[];
  readonly times: readonly TimeRule[];
  /** The Cookie header to send on every request to the site. */
  readonly cookie: FromLine<string> | null;
  /** Mirror-site: crawl this host instead. */
  readonly mirror: FromLine<string> | null;
  /** Host: the canonical host of the site. */
  readonly host: FromLine<string> | null;
  readonly sitemaps: readonly FromLine<string>[];
  /** Language, Encoding, Charset the site requires (the robot must support one of each list). */
  readonly requires: {
    readonly language: FromLine<readonly string[]> | null;
    readonly encoding: FromLine<readonly string[]> | null;
    readonly charset: FromLine<readonly string[]> | null;
  };
  /** Index-page: the site wants this URL indexed and revisited. */
  readonly indexPage: FromLine<string> | null;
  /** Change-*: how often the page at this URL changes. */
  readonly change: FromLine<ChangeFrequency> | null;
}

export const EMPTY_PLAN: AccessPlan = {
  delaySeconds: 0,
  crawlDelay: null,
  ipDelay: null,
  rates: [],
  times: [],
  cookie: null,
  mirror: null,
  host: null,
  sitemaps: [],
  requires: { language: null, encoding: null, charset: null },
  indexPage: null,
  change: null,
};
