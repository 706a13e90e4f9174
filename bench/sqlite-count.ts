/**
 * Loaded into a `heed crawl` process by the fleet bench (`node --import …/sqlite-count.js`):
 * counts what the process asks of SQLite and writes it to stderr as it exits, as
 * `SQLITE statements N transactions T alone A`.
 *
 * - statements: every statement run (`run`, `get`, `all`, `iterate`), inside a transaction or
 *   not, the transaction's own BEGIN and COMMIT aside;
 * - transactions: the outermost `db.transaction(…)` calls (a nested one is a savepoint of its
 *   outer one, not a commit of its own);
 * - alone: statements run outside any transaction, each its own commit.
 *
 * Transactions plus the statements alone are SQLite's round trips: each ends in a commit, the
 * moment another process can see it and the WAL is written.
 */
import { writeSync } from "node:fs";
import Database from "better-sqlite3";

const counts = { statements: 0, transactions: 0, alone: 0 };
let depth = 0;
const OWN = /^\s*(?:BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

type Method = (this: Database.Statement, ...args: unknown[]) => unknown;
const probe = new Database(":memory:");
const statementProto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, Method>;
probe.close();
for (const name of ["run", "get", "all", "iterate"]) {
  const original = statementProto[name];
  if (original === undefined) continue;
  statementProto[name] = function (this: Database.Statement, ...args: unknown[]): unknown {
    if (!OWN.test(this.source)) {
      counts.statements++;
      if (depth === 0) counts.alone++;
    }
    return original.apply(this, args);
  };
}

type Transaction = (...args: unknown[]) => unknown;
const databaseProto = Database.prototype as unknown as {
  transaction(fn: Transaction): Transaction & Record<string, Transaction>;
};
const transaction = databaseProto.transaction;
databaseProto.transaction = function (this: unknown, fn: Transaction) {
  const made = transaction.call(this, fn);
  const counted = (run: Transaction): Transaction =>
    function (this: unknown, ...args: unknown[]): unknown {
      if (depth === 0) counts.transactions++;
      depth++;
      try {
        return run.apply(this, args);
      } finally {
        depth--;
      }
    };
  const outer = counted(made) as Transaction & Record<string, Transaction>;
  for (const kind of ["deferred", "immediate", "exclusive"]) {
    const variant = made[kind];
    if (variant !== undefined) outer[kind] = counted(variant);
  }
  return outer;
};

process.on("exit", () => {
  writeSync(
    2,
    `SQLITE statements ${counts.statements} transactions ${counts.transactions} alone ${counts.alone}\n`,
  );
});
