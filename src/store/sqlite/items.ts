/** The records page handlers pushed, in the SQLite file (migration 8, table `items`). */
import type Database from "better-sqlite3";
import { checkBatch } from "../crawl-log.js";
import { checkItems } from "../items.js";
import type { ItemLog } from "../types.js";

export function sqliteItemLog(db: Database.Database): ItemLog {
  const insert = db.prepare<[string]>("INSERT INTO items (body) VALUES (?)");
  const appendAll = db.transaction((items: readonly string[]) => {
    for (const item of items) insert.run(item);
  });
  // scan: by the key, so that each batch costs the same wherever it starts.
  const after = db.prepare<[number, number], { id: number; body: string }>(
    "SELECT id, body FROM items WHERE id > ? ORDER BY id LIMIT ?",
  );
  const count = db.prepare<[], number>("SELECT count(*) FROM items").pluck();
  return {
    async append(items) {
      checkItems(items);
      if (items.length > 0) appendAll(items);
    },
    async *scan(batch) {
      checkBatch(batch);
      let last = 0;
      for (;;) {
        const rows = after.all(last, batch);
        if (rows.length === 0) return;
        last = rows[rows.length - 1]?.id ?? last;
        yield rows.map((row) => row.body);
        if (rows.length < batch) return;
      }
    },
    async count() {
      return count.get() ?? 0;
    },
  };
}
