/**
 * The SQLite store's time: SQLite's own `'now'`, the clock of the machine holding the file,
 * which every process sharing the file reads alike. Taken through the same sampled clock as
 * Redis's (../clock.ts), so that one code path serves both stores.
 */
import type Database from "better-sqlite3";

export function sqliteTime(db: Database.Database): () => Promise<number> {
  // julianday('now') is kept by SQLite in whole ms; 2440587.5 is the Unix epoch's Julian day.
  const read = db
    .prepare("SELECT ROUND((julianday('now') - 2440587.5) * 86400000.0)")
    .pluck() as Database.Statement<[], number>;
  return async () => Math.round(read.get() ?? 0);
}
