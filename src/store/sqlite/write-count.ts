/**
 * The SQLite store's write count (../write-counter.ts): one row, incremented with each lease and
 * each settle, in their own transaction. An older copy of the file put back in its place holds the
 * count it had then: lower than what a process saw since.
 */
import type Database from "better-sqlite3";
import { WriteCounter } from "../write-counter.js";

export interface SqliteWriteCount {
  readonly counter: WriteCounter;
  /** Counts one write, in the caller's transaction when in one; returns the new count. */
  readonly countNow: () => number;
}

export function sqliteWriteCount(db: Database.Database): SqliteWriteCount {
  const bump = db
    .prepare("UPDATE write_count SET n = n + 1 WHERE one = 1 RETURNING n")
    .pluck() as Database.Statement<[], number>;
  const read = db.prepare("SELECT n FROM write_count WHERE one = 1").pluck() as Database.Statement<
    [],
    number
  >;
  return {
    // One count for the whole file: one part.
    counter: new WriteCounter(async () => new Map([["", read.get() ?? 0]])),
    countNow: () => bump.get() ?? 0,
  };
}
