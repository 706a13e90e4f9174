/**
 * What a RUP robot keeps in its crawl store: its registration with each site (the key
 * included: it is the robot's own secret), the last sequence number taken in, the reports
 * received and the URLs reported deleted. Behind one interface, as the crawl store is (DESIGN
 * §2): the SQLite file (migration 3 of store/sqlite/schema.ts), opened beside the store's own
 * connection (SQLite's WAL lets both write), or Redis (./robot-state-redis.ts).
 */
import Database from "better-sqlite3";
import { migrate } from "../../store/sqlite/schema.js";

export interface SiteRegistration {
  readonly origin: string;
  readonly urlBase: string;
  readonly cgiUrl: string;
  readonly email: string;
  readonly key: string;
  readonly latency: string | null;
  readonly maxQuerySpanMs: number | null;
  readonly spanUnit: string;
  readonly lastSeq: number;
  readonly lastReportAt: number;
  readonly registeredAt: number;
}

export interface ReceivedReport {
  readonly origin: string;
  readonly seq: number;
  readonly receivedAt: number;
  /** `applied`, `duplicate`, `recovered`, `recrawl`. */
  readonly outcome: string;
  readonly detail: string | null;
}

interface SiteRow {
  origin: string;
  url_base: string;
  cgi_url: string;
  email: string;
  key: string;
  latency: string | null;
  max_query_span_ms: number | null;
  span_unit: string;
  last_seq: number;
  last_report_at: number;
  registered_at: number;
}

const fromRow = (r: SiteRow): SiteRegistration => ({
  origin: r.origin,
  urlBase: r.url_base,
  cgiUrl: r.cgi_url,
  email: r.email,
  key: r.key,
  latency: r.latency,
  maxQuerySpanMs: r.max_query_span_ms,
  spanUnit: r.span_unit,
  lastSeq: r.last_seq,
  lastReportAt: r.last_report_at,
  registeredAt: r.registered_at,
});

export interface RobotState {
  site(origin: string): Promise<SiteRegistration | null>;
  sites(): Promise<SiteRegistration[]>;
  /** Adds or replaces the registration with `r.origin`. */
  save(r: SiteRegistration): Promise<void>;
  remove(origin: string): Promise<void>;
  /**
   * Records a report taken in and the URLs it marked gone; unless a duplicate, moves the
   * site's sequence number on (never back) and its last report time, all at once.
   */
  took(report: ReceivedReport, gone: readonly { url: string; at: number }[]): Promise<void>;
  /** URLs reported New or Change after a Delete are back: no longer gone. */
  back(urls: readonly string[]): Promise<void>;
  reports(origin: string): Promise<ReceivedReport[]>;
  gone(origin: string): Promise<string[]>;
  close(): Promise<void>;
}

export class SqliteRobotState implements RobotState {
  private constructor(private readonly db: Database.Database) {}

  /** Opens (creating if need be) the crawl store file at `path` and brings its schema up. */
  static open(path: string): SqliteRobotState {
    const db = new Database(path, { timeout: 10_000 });
    try {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      migrate(db);
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteRobotState(db);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  async site(origin: string): Promise<SiteRegistration | null> {
    const row = this.db
      .prepare<[string], SiteRow>("SELECT * FROM rup_sites WHERE origin = ?")
      .get(origin);
    return row === undefined ? null : fromRow(row);
  }

  async sites(): Promise<SiteRegistration[]> {
    return this.db
      .prepare<[], SiteRow>("SELECT * FROM rup_sites ORDER BY origin")
      .all()
      .map(fromRow);
  }

  async save(r: SiteRegistration): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO rup_sites (origin, url_base, cgi_url, email, key, latency, max_query_span_ms, span_unit, last_seq, last_report_at, registered_at)
         VALUES (@origin, @urlBase, @cgiUrl, @email, @key, @latency, @maxQuerySpanMs, @spanUnit, @lastSeq, @lastReportAt, @registeredAt)
         ON CONFLICT (origin) DO UPDATE SET url_base = excluded.url_base, cgi_url = excluded.cgi_url, email = excluded.email,
           key = excluded.key, latency = excluded.latency, max_query_span_ms = excluded.max_query_span_ms, span_unit = excluded.span_unit,
           last_seq = excluded.last_seq, last_report_at = excluded.last_report_at, registered_at = excluded.registered_at`,
      )
      .run(r);
  }

  async remove(origin: string): Promise<void> {
    this.db.prepare("DELETE FROM rup_sites WHERE origin = ?").run(origin);
  }

  /** Records a report taken in and moves the site's sequence number on, in one transaction. */
  async took(report: ReceivedReport, gone: readonly { url: string; at: number }[]): Promise<void> {
    this.db.transaction(() => {
      this.db
        .prepare(
          "INSERT INTO rup_reports (origin, seq, received_at, outcome, detail) VALUES (?, ?, ?, ?, ?)",
        )
        .run(report.origin, report.seq, report.receivedAt, report.outcome, report.detail);
      const put = this.db.prepare(
        "INSERT INTO rup_gone (url, origin, at, seq) VALUES (?, ?, ?, ?) ON CONFLICT (url) DO UPDATE SET at = excluded.at, seq = excluded.seq",
      );
      for (const g of gone) put.run(g.url, report.origin, g.at, report.seq);
      if (report.outcome !== "duplicate") {
        this.db
          .prepare(
            "UPDATE rup_sites SET last_seq = max(last_seq, ?), last_report_at = ? WHERE origin = ?",
          )
          .run(report.seq, report.receivedAt, report.origin);
      }
    })();
  }

  /** URLs reported New or Change after a Delete are back: no longer gone. */
  async back(urls: readonly string[]): Promise<void> {
    const del = this.db.prepare("DELETE FROM rup_gone WHERE url = ?");
    this.db.transaction(() => {
      for (const u of urls) del.run(u);
    })();
  }

  async reports(origin: string): Promise<ReceivedReport[]> {
    return this.db
      .prepare<
        [string],
        { origin: string; seq: number; received_at: number; outcome: string; detail: string | null }
      >(
        "SELECT origin, seq, received_at, outcome, detail FROM rup_reports WHERE origin = ? ORDER BY id",
      )
      .all(origin)
      .map((r) => ({
        origin: r.origin,
        seq: r.seq,
        receivedAt: r.received_at,
        outcome: r.outcome,
        detail: r.detail,
      }));
  }

  async gone(origin: string): Promise<string[]> {
    return this.db
      .prepare<[string], { url: string }>("SELECT url FROM rup_gone WHERE origin = ? ORDER BY url")
      .all(origin)
      .map((r) => r.url);
  }
}
