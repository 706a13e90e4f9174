/** What both back ends check of the records page handlers push (ItemLog, ./types.ts). */
import { StoreError } from "./errors.js";

/**
 * Longest record kept, in UTF-16 code units: 1 Mi, a page's worth of extracted data. A record
 * larger than that is a page kept whole, which belongs in WARC files (`heed crawl --out`).
 */
export const MAX_ITEM_CHARS = 1024 * 1024;

/** Throws `HEED_STORE_BAD_ARGUMENT` unless every item is text within {@link MAX_ITEM_CHARS}. */
export function checkItems(items: readonly string[]): void {
  if (!Array.isArray(items))
    throw new StoreError("HEED_STORE_BAD_ARGUMENT", "items: expected an array of JSON texts");
  items.forEach((item, i) => {
    if (typeof item !== "string")
      throw new StoreError(
        "HEED_STORE_BAD_ARGUMENT",
        `items[${i}]: expected JSON text, got ${typeof item}`,
      );
    if (item.length > MAX_ITEM_CHARS)
      throw new StoreError(
        "HEED_STORE_BAD_ARGUMENT",
        `items[${i}]: ${item.length} characters, over the limit of ${MAX_ITEM_CHARS}`,
      );
  });
}
