/**
 * The crawl view's source: a crawl store read as the crawl runs. Each `refresh` reads the log
 * records appended since the last one into one running report (so a long crawl is read once,
 * not once per tick), then the frontier's counts and, for each host, what paces it (its
 * reservation under its robots.txt copy's rules, ../crawler/read-site-pace.ts), and makes a
 * {@link CrawlSnapshot}. Read-only: it calls only the store's reading methods.
 */
import { existsSync } from "node:fs";
import { shown } from "../store/shown-spec.js";
import { SitePaceReader } from "../crawler/read-site-pace.js";
import { reportHtml } from "../crawler/report-html.js";
import { isRequest, reportBuilder, type ReportBuilder } from "../crawler/report.js";
import type { SitePace } from "../crawler/site-pace.js";
import type { DialectChoice } from "../protocol/robots/index.js";
import { isRedisSpec, openStore } from "../store/open.js";
import type { CrawlRecord, CrawlStore } from "../store/index.js";
import type { CrawlSnapshot, HostRow, SkippedRow } from "./crawl-snapshot.js";

/** Log records read per store call. */
export const FEED_BATCH = 2000;
/** Batches read per refresh at most: a huge log is caught up over several ticks. */
export const FEED_BATCHES_PER_REFRESH = 25;
/** Skipped records kept for the page, latest first. */
export const MAX_SKIPPED_SHOWN = 200;
/** Hosts whose state is read from the store per refresh; the table shows the busiest. */
export const MAX_HOSTS_SHOWN = 200;

/** Outcomes that are a page fetched; any other record of a URL is shown as not fetched. */
const FETCHED = new Set(["fetched", "not-modified", "redirect"]);

export interface CrawlFeedOptions {
  /** An SQLite path or a redis:// URL. */
  readonly store: string;
  /**
   * The crawl's robot name token (`heed crawl --agent`), whose rules in each stored robots.txt
   * pace its site; default `*`: the rules for any robot.
   */
  readonly agent?: string;
  /** The crawl's `--ip` (Ip-delay, Ip-rate bind one address). */
  readonly ip?: string;
  readonly dialect?: DialectChoice;
  readonly now?: () => number;
}

export class CrawlFeed {
  private store: CrawlStore | null = null;
  private pace: SitePaceReader | null = null;
  private builder: ReportBuilder = reportBuilder();
  private offset = 0;
  private readonly skipped: SkippedRow[] = [];
  private skippedTotal = 0;
  private readonly lastOf = new Map<string, SkippedRow>();
  private readonly now: () => number;
  private readonly spec: string;
  private readonly options: CrawlFeedOptions;
  private closed = false;

  constructor(options: CrawlFeedOptions) {
    this.options = options;
    this.spec = options.store;
    this.now = options.now ?? Date.now;
  }

  async refresh(): Promise<CrawlSnapshot> {
    const at = this.now();
    const source = shown(this.spec);
    const redis = isRedisSpec(this.spec);
    if (this.store === null) {
      if (!redis && !existsSync(this.spec)) return blank("no-store", source, at, null);
      try {
        if (this.closed) return blank("unreadable", source, at, "closed");
        this.store = await openStore(this.spec);
        this.pace = new SitePaceReader(this.store, this.paceOptions());
      } catch (error) {
        return blank("unreadable", source, at, message(error));
      }
    }
    const store = this.store;
    const paceReader = this.pace ?? new SitePaceReader(store, this.paceOptions());
    try {
      await this.readNew(store);
      const counts = await store.frontier.counts();
      const report = this.builder.finish();
      const origins = [...report.origins]
        .sort((a, b) => b.records - a.records)
        .slice(0, MAX_HOSTS_SHOWN);
      const hosts: HostRow[] = [];
      for (const o of origins) {
        const [nextAtRaw, robots] = await Promise.all([
          store.frontier.nextAt(o.origin),
          store.robots.get(o.origin),
        ]);
        const pace = await paceReader.read(o.origin, at, robots);
        const nextAt = nextAtRaw > 0 ? nextAtRaw : null;
        hosts.push({
          origin: o.origin,
          requests: o.requests,
          records: o.records,
          errors: o.errors.count,
          bytes: o.bytes,
          lastAt: o.lastAt,
          nextAt,
          waiting: waitingWhy(pace, robots?.action ?? null, robots?.status ?? null, at),
          robots:
            robots === null
              ? null
              : { status: robots.status, action: robots.action, expiresAt: robots.expiresAt },
          gaps: {
            count: o.gaps.count,
            minMs: o.gaps.minMs,
            medianMs: o.gaps.medianMs,
            requiredMinMs: o.gaps.requiredMinMs,
            requiredMaxMs: o.gaps.requiredMaxMs,
            compared: o.gaps.compared,
            belowRequired: o.gaps.belowRequired,
          },
          waitedMs: o.waitedMs,
          pace,
          windows: pace.rates.flatMap((r) =>
            r.windowStart === null
              ? []
              : [{ scope: r.scope, start: r.windowStart, count: r.inWindow }],
          ),
          last: this.lastOf.get(o.origin) ?? null,
        });
      }
      const active = counts.queued + counts.leased;
      const state =
        active > 0
          ? "running"
          : report.overall.records === 0 && counts.done === 0
            ? "empty"
            : "finished";
      const html = reportHtml(report, { source });
      return {
        state,
        source,
        at,
        message: null,
        counts: {
          queued: counts.queued,
          leased: counts.leased,
          done: counts.done,
          skipped: counts.skipped,
          failed: counts.failed,
        },
        records: report.overall.records,
        requests: report.overall.requests,
        hosts,
        errors: { count: report.overall.errors.count, top: report.overall.errors.top },
        skipped: [...this.skipped].reverse(),
        skippedTotal: this.skippedTotal,
        report: {
          style: between(html, "<style>", "</style>"),
          body: between(html, "<main>", "</main>"),
        },
      };
    } catch (error) {
      return blank("unreadable", source, at, message(error));
    }
  }

  private paceOptions() {
    const { agent, ip, dialect } = this.options;
    return {
      agent: agent ?? "*",
      ...(ip === undefined ? {} : { ip }),
      ...(dialect === undefined ? {} : { dialect }),
    };
  }

  private async readNew(store: CrawlStore): Promise<void> {
    if (this.offset === 0) {
      // Catching up with a log that may be long: one scan, whose cost does not grow with the
      // position as `list`'s offset may. It yields records in the order appended, so what it
      // gives is a prefix of the log and `offset` stays exact.
      for await (const records of store.log.scan(FEED_BATCH)) {
        for (const record of records) this.take(record);
        this.offset += records.length;
      }
      return;
    }
    for (let i = 0; i < FEED_BATCHES_PER_REFRESH; i++) {
      const records = await store.log.list(FEED_BATCH, this.offset);
      for (const record of records) this.take(record);
      this.offset += records.length;
      if (records.length < FEED_BATCH) return;
    }
  }

  private take(record: CrawlRecord): void {
    this.builder.add(record);
    const row: SkippedRow = {
      url: record.url,
      at: record.at,
      status: record.status,
      outcome: record.outcome,
      detail: record.detail,
    };
    this.lastOf.set(record.origin, row);
    if (FETCHED.has(record.outcome) || (isRequest(record) && record.outcome !== "error")) return;
    if (record.outcome.startsWith("indexed-by-agent")) return;
    this.skippedTotal++;
    this.skipped.push(row);
    if (this.skipped.length > MAX_SKIPPED_SHOWN) this.skipped.shift();
  }

  async close(): Promise<void> {
    this.closed = true;
    const store = this.store;
    this.store = null;
    this.pace = null;
    await store?.close();
  }
}

function waitingWhy(
  pace: SitePace,
  action: string | null,
  status: number | null,
  now: number,
): string | null {
  if (action === "unreachable") {
    return `robots.txt unreachable (${status === null ? "no answer" : status}): the site is closed for now`;
  }
  if (action === "disallow-all") return `robots.txt answered ${status}: the site is closed`;
  if (pace.closed !== null) {
    const line = pace.closed.line === null ? "" : ` (robots.txt line ${pace.closed.line})`;
    return `outside the site's time window${line}`;
  }
  if (pace.allowedAt === null || pace.allowedAt <= now) return null;
  const rate = pace.rates.find((r) => r.fullUntil !== null);
  switch (pace.why) {
    case "rate":
      return rate === undefined
        ? "the site's request rate is reached"
        : `the site's ${rate.scope === "ip" ? "Ip-rate" : "Request-rate"} of ${rate.requests}/${rate.seconds} s is reached (line ${rate.line})`;
    case "gap": {
      const delay = pace.crawlDelay ?? pace.ipDelay;
      const seconds = Number((pace.gapMs / 1000).toFixed(3));
      return delay === null
        ? `keeping the site's gap of ${seconds} s between requests`
        : `keeping the site's delay of ${seconds} s (line ${delay.line})`;
    }
    default:
      return "waiting for the moment the crawl set (a time window, a retry, or a gap another process keeps)";
  }
}

function blank(
  state: CrawlSnapshot["state"],
  source: string,
  at: number,
  text: string | null,
): CrawlSnapshot {
  return {
    state,
    source,
    at,
    message: text,
    counts: null,
    records: 0,
    requests: 0,
    hosts: [],
    errors: { count: 0, top: [] },
    skipped: [],
    skippedTotal: 0,
    report: { style: "", body: "" },
  };
}

function between(text: string, open: string, close: string): string {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start === -1 || end < start ? "" : text.slice(start + open.length, end);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
