/**
 * A page's path through the SQLite file: the settle with the page's links, validators and log
 * line in one write transaction (one commit a page, not four). The lease with its reservation is
 * the separate steps in turn: each is a local call, and a lease found empty gives the
 * reservation back at once, as the separate calls would.
 */
import type Database from "better-sqlite3";
import type { SqliteWriteCount } from "./write-count.js";
import { checkRecord } from "../crawl-log.js";
import { checkNewUrls, checkNumber } from "../errors.js";
import type {
  CrawlRecord,
  Frontier,
  Lease,
  NewUrl,
  Outcome,
  PageStore,
  PageSteps,
  PageValidators,
  Reservations,
  SettleWrites,
} from "../types.js";

export function sqlitePageSteps(
  db: Database.Database,
  parts: {
    readonly frontier: Frontier & {
      readonly addNow: (urls: readonly NewUrl[]) => number;
      readonly settleNow: (lease: Lease, outcome: Outcome) => void;
    };
    readonly reservations: Reservations;
    readonly pages: PageStore & { readonly putNow: (page: PageValidators) => void };
    readonly appendNow: (record: CrawlRecord) => void;
    readonly writes: SqliteWriteCount;
  },
): PageSteps {
  const { frontier, reservations, pages } = parts;
  const { counter, countNow } = parts.writes;
  const settleAll = db.transaction((lease: Lease, outcome: Outcome, writes: SettleWrites) => {
    if (writes.links !== undefined) frontier.addNow(writes.links);
    if (writes.page !== undefined) pages.putNow(writes.page);
    frontier.settleNow(lease, outcome);
    if (writes.record !== undefined) parts.appendNow(writes.record);
    return countNow();
  });
  return {
    async leaseReserved(origin, owner, now, rule, leaseMs) {
      const got = await reservations.take(origin, owner, now, rule);
      if (!got.granted) return got;
      const lease = await frontier.lease(origin, now, leaseMs, null, owner);
      if (lease === null) {
        await reservations.release(origin, got.id, now, 0, false);
        return { granted: true, id: got.id, lease: null };
      }
      // The frontier's lease counted the write: a file that went back stopped the crawl there.
      return { granted: true, id: got.id, lease, validators: await pages.get(lease.entry.url) };
    },
    async settle(lease, outcome, writes) {
      checkNumber("outcome time", "at" in outcome ? outcome.at : outcome.notBefore);
      if (writes.links !== undefined) checkNewUrls(writes.links);
      if (writes.record !== undefined) checkRecord(writes.record);
      counter.wrote(settleAll.immediate(lease, outcome, writes));
    },
  };
}
