/**
 * What both back ends share about the crawl log: the ways a URL comes into a crawl, the check of
 * a record before it is written, and the one shape every record is read back in (each optional
 * field present, null when the crawler did not say).
 */
import { StoreError, checkCount } from "./errors.js";
import type { CrawlRecord, Discovery } from "./types.js";

/** Every {@link Discovery}, in the order reports list them. */
export const DISCOVERIES: readonly Discovery[] = [
  "seed",
  "link",
  "sitemap",
  "srcloc",
  "redirect",
  "revisit",
  "mirror",
];

const DISCOVERY_SET: ReadonlySet<string> = new Set(DISCOVERIES);

export function isDiscovery(value: unknown): value is Discovery {
  return typeof value === "string" && DISCOVERY_SET.has(value);
}

/** A record as read back: every field present, null where the crawler gave nothing. */
export type StoredRecord = {
  readonly [K in keyof CrawlRecord]-?: Exclude<CrawlRecord[K], undefined>;
};

/** The optional fields, as the back ends name them. */
export const OPTIONAL_FIELDS = [
  "canonical",
  "via",
  "requiredGapMs",
  "gapMs",
  "waitedMs",
  "usage",
  "referrer",
] as const;

/** Checks what a back end cannot store faithfully, before anything is written. */
export function checkRecord(record: CrawlRecord): void {
  const bad = (field: string, expected: string, got: unknown): never => {
    throw new StoreError(
      "HEED_STORE_BAD_ARGUMENT",
      `${field} of a crawl record for ${String(record.url)}: expected ${expected}, got ${JSON.stringify(got) ?? String(got)}`,
    );
  };
  if (typeof record.url !== "string" || record.url === "")
    bad("url", "a non-empty string", record.url);
  if (typeof record.origin !== "string") bad("origin", "a string", record.origin);
  for (const field of ["at", "ms", "bytes"] as const) {
    if (typeof record[field] !== "number" || !Number.isFinite(record[field]))
      bad(field, "a finite number", record[field]);
  }
  if (record.status !== null && !Number.isInteger(record.status))
    bad("status", "a whole number or null", record.status);
  if (record.via !== undefined && record.via !== null && !isDiscovery(record.via))
    bad("via", DISCOVERIES.join(", "), record.via);
  for (const field of ["requiredGapMs", "gapMs", "waitedMs"] as const) {
    const value = record[field];
    if (value !== undefined && value !== null && !Number.isFinite(value))
      bad(field, "a finite number or null", value);
  }
  for (const field of ["usage", "referrer"] as const) {
    const value = record[field];
    if (value !== undefined && value !== null && typeof value !== "string")
      bad(field, "a string or null", value);
  }
}

/** The record in its stored shape: the optional fields that are absent become null. */
export function storedRecord(record: CrawlRecord): StoredRecord {
  return {
    url: record.url,
    origin: record.origin,
    at: record.at,
    ms: record.ms,
    status: record.status,
    bytes: record.bytes,
    outcome: record.outcome,
    detail: record.detail,
    canonical: record.canonical ?? null,
    via: record.via ?? null,
    requiredGapMs: record.requiredGapMs ?? null,
    gapMs: record.gapMs ?? null,
    waitedMs: record.waitedMs ?? null,
    usage: record.usage ?? null,
    referrer: record.referrer ?? null,
  };
}

/** A `via` read back from a back end: a Discovery, null, or a corrupt store. */
export function viaOut(value: string | null | undefined, url: string): Discovery | null {
  if (value === null || value === undefined) return null;
  if (!isDiscovery(value))
    throw new StoreError("HEED_STORE_CORRUPT", `crawl record for ${url}: via ${value}`);
  return value;
}

/** Checks `scan`'s batch size: a whole number, at least 1. */
export function checkBatch(batch: number): void {
  checkCount("batch", batch);
  if (batch === 0)
    throw new StoreError("HEED_STORE_BAD_ARGUMENT", "batch: expected a whole number >= 1, got 0");
}
