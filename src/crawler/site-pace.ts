/**
 * What paces a site at a moment, as plain data (the crawl view draws it): the site's
 * reservation in the store (./site-gate.ts) under the rules its stored robots.txt copy gives
 * (./robots-copy.ts). Read by ./read-site-pace.ts. Types only, so the page's bundle can share them.
 */

/** A Request-rate or Ip-rate line, and the window it counts at the moment read. */
export interface RatePace {
  readonly scope: "agent" | "ip";
  /** As written: at most `requests` per `seconds`. */
  readonly requests: number;
  readonly seconds: number;
  readonly line: number;
  /** The window the reservation keeps for it, in ms, and the whole requests it lets in. */
  readonly windowMs: number;
  readonly allows: number;
  /** Requests counted in the window at the moment read, and when the earliest of them was. */
  readonly inWindow: number;
  readonly windowStart: number | null;
  /** When the full window lets the next request start; null while it has room. */
  readonly fullUntil: number | null;
}

export interface SitePace {
  /** The earliest moment the site's reservation lets a request start; null when it holds nothing yet. */
  readonly allowedAt: number | null;
  /**
   * What sets `allowedAt`: the gap since the last exchange ended (Crawl-delay, Ip-delay, a rate
   * spread evenly), a full rate window, or a moment the crawl set (a time window, robots.txt
   * back-off); null with `allowedAt`.
   */
  readonly why: "gap" | "rate" | "set" | null;
  /** When the last exchange with the site ended; null when none has. */
  readonly endedAt: number | null;
  readonly inFlight: number;
  /** The least gap the reservation keeps between an exchange's end and the next start, in ms. */
  readonly gapMs: number;
  /** Whether the rules were read from a robots.txt copy the store holds. */
  readonly rulesKept: boolean;
  readonly crawlDelay: { readonly seconds: number; readonly line: number } | null;
  readonly ipDelay: { readonly seconds: number; readonly line: number } | null;
  readonly rates: readonly RatePace[];
  /** Visit-time and Time-forbidden lines, as written (key and value). */
  readonly times: readonly {
    readonly kind: "visit" | "forbidden";
    readonly text: string;
    readonly line: number;
  }[];
  /**
   * When a time window keeps the site closed at the moment read (Visit-time, Time-forbidden):
   * the line that closes it and when it opens again (null: never); null while it is open.
   */
  readonly closed: { readonly until: number | null; readonly line: number | null } | null;
}
