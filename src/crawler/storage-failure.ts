/**
 * The crawl's own storage failing under it: the disk the store is on is full or went
 * read-only, or it cannot be read. No site is to blame and going on would only fail again on
 * every page, so the run ends, the crawl resumable from what the store holds (SQLite rolls back
 * the transaction that failed). Redis's refusals are the store's own (store/redis/refusals.ts).
 */

/** SQLite's extended codes (better-sqlite3's `code`) and the system's for a failing disk. */
const STORAGE_CODES: readonly RegExp[] = [
  /^SQLITE_FULL$/,
  /^SQLITE_READONLY/,
  /^SQLITE_IOERR/,
  /^SQLITE_CANTOPEN/,
  /^E(NOSPC|DQUOT|ROFS|IO)$/,
];

/** Whether the error says the crawl's storage failed (a full or read-only disk …). */
export function isStorageFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && STORAGE_CODES.some((pattern) => pattern.test(code));
}
