import type { PaceRule } from "./types.js";
/** Stable codes of the errors a store throws; the message is for a person, the code for code. */
export type StoreErrorCode =
  /** A method was called with a value it cannot take (a negative limit, a NaN moment). */
  | "HEED_STORE_BAD_ARGUMENT"
  /** The SQLite file was written by a newer heed, with a schema this one does not know. */
  | "HEED_STORE_SCHEMA_TOO_NEW"
  /** The Redis prefix holds a crawl in a key layout of an older heed, which this one cannot read. */
  | "HEED_STORE_OLDER_LAYOUT"
  /** The back end could not be reached or opened. */
  | "HEED_STORE_UNAVAILABLE"
  /** The store no longer holds the crawl it held (a Redis restarted without its data). */
  | "HEED_STORE_LOST"
  /**
   * The store went back to an older state than this process saw (a Redis restored from an older
   * snapshot, a failover to a replica that was behind, an older copy of the SQLite file).
   */
  | "HEED_STORE_WENT_BACK"
  /** The back end answered something a store of this version never writes. */
  | "HEED_STORE_CORRUPT";

/** What a crawl says when its store no longer holds it. */
export const STORE_LOST_MESSAGE =
  "the store no longer holds this crawl (its identity key is gone): it lost its data, " +
  "such as a Redis restarted without persistence. Nothing queued can be trusted: " +
  "start the crawl again";

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreError";
    this.code = code;
  }
}

/** A moment or count argument: a finite number, "expected X, got Y" otherwise. */
export function checkNumber(name: string, value: number): void {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new StoreError(
      "HEED_STORE_BAD_ARGUMENT",
      `${name}: expected a finite number, got ${String(value)}`,
    );
  }
}

/** A count (`limit`, `offset`): a whole number, zero or more. */
export function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new StoreError(
      "HEED_STORE_BAD_ARGUMENT",
      `${name}: expected a whole number >= 0, got ${String(value)}`,
    );
  }
}

/** Checks the numbers of URLs about to be added, before anything is written. */
export function checkNewUrls(
  urls: readonly {
    url: string;
    origin: string;
    depth: number;
    priority: number;
    notBefore: number;
  }[],
): void {
  for (const entry of urls) {
    if (typeof entry.url !== "string" || entry.url === "") {
      throw new StoreError(
        "HEED_STORE_BAD_ARGUMENT",
        `url: expected a non-empty string, got ${JSON.stringify(entry.url)}`,
      );
    }
    if (typeof entry.origin !== "string" || entry.origin === "") {
      throw new StoreError(
        "HEED_STORE_BAD_ARGUMENT",
        `origin of ${entry.url}: expected a non-empty string, got ${JSON.stringify(entry.origin)}`,
      );
    }
    checkNumber(`depth of ${entry.url}`, entry.depth);
    checkNumber(`priority of ${entry.url}`, entry.priority);
    checkNumber(`notBefore of ${entry.url}`, entry.notBefore);
  }
}

/** A reservation's rule: numbers that are numbers, at least one request in flight. */
export function checkRule(rule: PaceRule): void {
  checkNumber("gapMs", rule.gapMs);
  if (!Number.isSafeInteger(rule.inFlight) || rule.inFlight < 1) {
    throw new StoreError("HEED_STORE_BAD_ARGUMENT", `inFlight: expected a whole number >= 1`);
  }
  if (rule.rate !== null) {
    if (!Number.isSafeInteger(rule.rate.requests) || rule.rate.requests < 1) {
      throw new StoreError(
        "HEED_STORE_BAD_ARGUMENT",
        `rate.requests: expected a whole number >= 1`,
      );
    }
    checkNumber("rate.windowMs", rule.rate.windowMs);
  }
}
