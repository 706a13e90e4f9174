/**
 * The crawl report: what a crawl log says, per origin and overall. Pure: records in, a typed
 * {@link CrawlReport} out, no clock and no I/O. Records are added one at a time and every
 * aggregate is bounded (see the limits below), so a log of millions of records is read in
 * the memory of its origins' tables, never of its records.
 *
 * Which records are requests: a record is an HTTP exchange tried when it has a status, or
 * when its outcome is `error` (a network error: tried, no answer). The crawler also logs
 * what it decided without asking the site (`disallowed`, `canonical-host`): those count as
 * records, never as requests.
 */
import { DISCOVERIES } from "../store/crawl-log.js";
import type { CrawlRecord, Discovery } from "../store/types.js";

/** Most distinct error messages counted per origin; the errors beyond count as untracked. */
export const MAX_ERROR_MESSAGES = 100;
/** Error messages listed per origin, most frequent first. */
export const TOP_ERROR_MESSAGES = 5;
/** Broken links listed per part (overall, each origin); the ones beyond are counted, not named. */
export const MAX_BROKEN_LINKS = 1000;
/** Pages named as linking to one broken URL; the ones beyond are counted. */
export const MAX_LINKING_PAGES = 10;
/** Outcomes of what the crawler reads about a site, not of a page anyone links to. */
const SITE_FILE_OUTCOMES: ReadonlySet<string> = new Set(["robots", "sitemap", "tdmrep"]);
/** Buckets a report's timeline may span while reading; past it, buckets are made wider. */
export const MAX_COLLECT_BUCKETS = 1000;
/** Buckets the finished timeline has at most: a chart's worth. */
export const MAX_CHART_BUCKETS = 120;

/**
 * Widths of the timeline's buckets, in ms, each a whole multiple of the one before, so that
 * buckets aligned on the epoch merge into wider ones exactly; past a day, days double.
 */
const LADDER_MS: readonly number[] = [
  100, 200, 1_000, 2_000, 10_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000, 7_200_000,
  21_600_000, 43_200_000, 86_400_000,
];

function ladderMs(step: number): number {
  const last = LADDER_MS.length - 1;
  if (step <= last) return LADDER_MS[step] ?? 86_400_000;
  return 86_400_000 * 2 ** (step - last);
}

export type StatusClass = "1xx" | "2xx" | "3xx" | "4xx" | "5xx" | "other" | "none";
export const STATUS_CLASSES: readonly StatusClass[] = [
  "1xx",
  "2xx",
  "3xx",
  "4xx",
  "5xx",
  "other",
  "none",
];

/** How a request was found; `unknown` when its record does not say (an older crawl). */
export type ViaKey = Discovery | "unknown";
export const VIA_KEYS: readonly ViaKey[] = [...DISCOVERIES, "unknown"];

export interface Count<K> {
  readonly key: K;
  readonly count: number;
}

export interface ErrorReport {
  /** Records with the outcome `error`: network errors, 5xx and 429 answers. */
  readonly count: number;
  /** The most frequent messages (the records' detail), most first. */
  readonly top: readonly { readonly message: string; readonly count: number }[];
  /** Errors whose message was not counted, past {@link MAX_ERROR_MESSAGES} distinct ones. */
  readonly untracked: number;
}

/**
 * The gaps kept between an origin's requests, against those its rules required. A request's
 * gap is the one the log shows over every process's requests: from the latest end of the
 * origin's requests before it in the log (`at + ms`) to its start, 0 when they overlapped; or
 * the one its record gives (`gapMs`, one process's view) when that is smaller. An origin's
 * first request has no gap unless its record gives one.
 */
export interface GapReport {
  /** Gaps measured. */
  readonly count: number;
  /** Of them, given by the records; the rest come from the log's times. */
  readonly fromRecords: number;
  readonly minMs: number | null;
  /** To the nearest ms. */
  readonly medianMs: number | null;
  readonly maxMs: number | null;
  /** The least and most any request required (`requiredGapMs`), null when none said. */
  readonly requiredMinMs: number | null;
  readonly requiredMaxMs: number | null;
  /** Gaps that can be compared: their request said what it required. */
  readonly compared: number;
  /** Gaps shorter than required: 0 for a polite crawler. */
  readonly belowRequired: number;
  /** The largest shortfall (required − kept), null when none fell short. */
  readonly worstShortfallMs: number | null;
}

/** A URL that answered 4xx or 5xx, and the pages whose links (or redirects) led to it. */
export interface BrokenLink {
  readonly url: string;
  /** Its last answer's status. */
  readonly status: number;
  /** The pages that led to it, first seen first; empty for a seed or a sitemap entry. */
  readonly linkedFrom: readonly string[];
  /** How it came into the crawl (its first record's `via`), null when not recorded. */
  readonly via: Discovery | null;
  /** Pages past {@link MAX_LINKING_PAGES} that led to it too. */
  readonly moreLinkedFrom: number;
}

/** The pages that led to a broken URL, for a table cell. */
export function linkedFrom(link: BrokenLink): string {
  const named =
    link.linkedFrom.length > 0
      ? link.linkedFrom.join(" ")
      : link.via === "seed" || link.via === "sitemap"
        ? `(a ${link.via})`
        : "(no page recorded)";
  return link.moreLinkedFrom > 0 ? `${named} (+${link.moreLinkedFrom} more)` : named;
}

export interface ReportPart {
  /** Records in the log. */
  readonly records: number;
  /** Of them, HTTP exchanges tried (see the file's comment). */
  readonly requests: number;
  /** Bytes received, as the records count them. */
  readonly bytes: number;
  /** Requests by status class; `none` when no answer came. */
  readonly byStatusClass: Readonly<Record<StatusClass, number>>;
  /** Requests by exact status, in order, the ones with no answer (null) last. */
  readonly byStatus: readonly Count<number | null>[];
  /** Records by outcome, most first (ties by name). */
  readonly byOutcome: readonly Count<string>[];
  /** Requests by how their URL was found. */
  readonly byVia: Readonly<Record<ViaKey, number>>;
  /** Requests whose page names a canonical URL other than its own. */
  readonly canonicalElsewhere: number;
  readonly errors: ErrorReport;
  /**
   * URLs robots.txt refused (outcome `disallowed`), by the deciding line (the records' detail),
   * bounded as the errors are.
   */
  readonly refusals: ErrorReport;
  /**
   * Pages answered `402 Payment Required` (outcome `payment-required`), by the price asked (the
   * records' detail, from `crawler-price`): shown, never paid.
   */
  readonly payments: ErrorReport;
  /** Licenses the site named (outcome `license`: robots.txt `License:`, `Link rel="license"`). */
  readonly licenses: ErrorReport;
  /** URLs that answered 4xx or 5xx (robots.txt and sitemaps aside), by URL. */
  readonly brokenLinks: readonly BrokenLink[];
  /** Broken URLs past {@link MAX_BROKEN_LINKS}, counted and not listed. */
  readonly brokenUntracked: number;
  readonly gaps: GapReport;
  /** Time waited on delays, rates and time windows, over the records that say (`waitedMs`). */
  readonly waitedMs: number;
  readonly waitedRecords: number;
  /**
   * Usage preferences (docs/usage-preferences.md): pages fetched and not kept because they
   * refuse the crawl's purpose, and records by each category's recorded value.
   */
  readonly usage: {
    readonly notKept: number;
    readonly byCategory: Readonly<Record<string, { allowed: number; disallowed: number }>>;
  };
  /** When the first request started and the last one ended (ms since the epoch). */
  readonly firstAt: number | null;
  readonly lastAt: number | null;
  /** Requests started in each bucket of the report's {@link Timeline}. */
  readonly timeline: readonly number[];
}

export interface OriginReport extends ReportPart {
  readonly origin: string;
}

/** The buckets of every part's `timeline`: `buckets` buckets of `bucketMs` from `startAt`. */
export interface Timeline {
  readonly startAt: number;
  readonly bucketMs: number;
  readonly buckets: number;
}

export interface CrawlReport {
  readonly overall: ReportPart;
  /** Per origin, most requests first (ties by name). */
  readonly origins: readonly OriginReport[];
  readonly timeline: Timeline;
}

/** Builds a report from records added one at a time, in the order of the log. */
export interface ReportBuilder {
  add(record: CrawlRecord): void;
  /** The report of every record added so far; adding more afterwards is allowed. */
  finish(): CrawlReport;
}

/** Is this record an HTTP exchange tried (see the file's comment)? */
export function isRequest(record: CrawlRecord): boolean {
  // A page an agent indexed at the site (heed crawl --agents) was filed without a request.
  if (record.outcome.startsWith("indexed-by-agent")) return false;
  return record.status !== null || record.outcome === "error";
}

export function statusClass(status: number | null): StatusClass {
  if (status === null) return "none";
  if (status >= 100 && status < 600) return `${Math.floor(status / 100)}xx` as StatusClass;
  return "other";
}

/** The report of a list of records. */
export function summarize(records: Iterable<CrawlRecord>): CrawlReport {
  const builder = reportBuilder();
  for (const record of records) builder.add(record);
  return builder.finish();
}

/** The report of a log read in batches (a store's `scan`). */
export async function summarizeBatches(
  batches: AsyncIterable<readonly CrawlRecord[]>,
): Promise<CrawlReport> {
  const builder = reportBuilder();
  for await (const batch of batches) for (const record of batch) builder.add(record);
  return builder.finish();
}

/** The outcome of a page answered 402 Payment Required (settle.ts): its price shown, never paid. */
export const PAYMENT_REQUIRED = "payment-required";
/** The outcome of a record of a license a site names (robots.txt `License:`, a Link header). */
export const LICENSE = "license";

/** Records counted by their detail, the most frequent kept, bounded as the errors are. */
class TopMessages {
  count = 0;
  private readonly counts = new Map<string, number>();
  private untracked = 0;

  add(detail: string | null | undefined): void {
    this.count++;
    const message = detail ?? "(no detail)";
    if (this.counts.has(message) || this.counts.size < MAX_ERROR_MESSAGES)
      bump(this.counts, message);
    else this.untracked++;
  }

  report(): ErrorReport {
    return {
      count: this.count,
      top: [...this.counts]
        .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
        .slice(0, TOP_ERROR_MESSAGES)
        .map(([message, count]) => ({ message, count })),
      untracked: this.untracked,
    };
  }
}

/** The running sums of one part: one origin, or all. */
class Tally {
  records = 0;
  requests = 0;
  bytes = 0;
  readonly statuses = new Map<number | null, number>();
  readonly outcomes = new Map<string, number>();
  readonly vias = new Map<ViaKey, number>();
  canonicalElsewhere = 0;
  errors = 0;
  readonly messages = new Map<string, number>();
  untracked = 0;
  readonly refusals = new TopMessages();
  readonly payments = new TopMessages();
  readonly licenses = new TopMessages();
  readonly broken = new Map<
    string,
    { status: number; from: Set<string>; more: number; via: Discovery | null }
  >();
  brokenUntracked = 0;
  usageNotKept = 0;
  /** `category value` → records. */
  readonly usageValues = new Map<string, number>();
  /** Gap (rounded ms) → how many: exact medians in the memory of the distinct gaps. */
  readonly gapCounts = new Map<number, number>();
  gaps = 0;
  gapsFromRecords = 0;
  gapMin = Infinity;
  gapMax = -Infinity;
  requiredMin = Infinity;
  requiredMax = -Infinity;
  compared = 0;
  below = 0;
  worstShortfall = 0;
  waitedMs = 0;
  waitedRecords = 0;
  firstAt = Infinity;
  lastAt = -Infinity;
  /** Bucket index → requests started in it, at the builder's current width. */
  buckets = new Map<number, number>();
  /** The end of this origin's previous request in the log, for gaps the records do not give. */
  previousEnd: number | null = null;

  add(record: CrawlRecord, gap: number | null, bucket: number): void {
    this.records++;
    bump(this.outcomes, record.outcome);
    if (record.waitedMs !== undefined && record.waitedMs !== null) {
      this.waitedMs += record.waitedMs;
      this.waitedRecords++;
    }
    if (record.outcome === "error") {
      this.errors++;
      const message = record.detail ?? "(no detail)";
      if (this.messages.has(message) || this.messages.size < MAX_ERROR_MESSAGES)
        bump(this.messages, message);
      else this.untracked++;
    }
    if (record.outcome === "disallowed") this.refusals.add(record.detail);
    if (record.outcome === PAYMENT_REQUIRED) this.payments.add(record.detail);
    if (record.outcome === LICENSE) this.licenses.add(record.detail);
    if (record.outcome === "fetched-usage-refused") this.usageNotKept++;
    if (record.usage !== undefined && record.usage !== null) this.addUsage(record.usage);
    if (!isRequest(record)) return;
    this.addBroken(record);
    this.requests++;
    this.bytes += record.bytes;
    bump(this.statuses, record.status);
    bump(this.vias, record.via ?? "unknown");
    const canonical = record.canonical ?? null;
    if (canonical !== null && canonical !== record.url) this.canonicalElsewhere++;
    this.firstAt = Math.min(this.firstAt, record.at);
    this.lastAt = Math.max(this.lastAt, record.at + record.ms);
    bump(this.buckets, bucket);
    const required = record.requiredGapMs ?? null;
    if (required !== null) {
      this.requiredMin = Math.min(this.requiredMin, required);
      this.requiredMax = Math.max(this.requiredMax, required);
    }
    if (gap !== null) {
      this.gaps++;
      if (record.gapMs !== undefined && record.gapMs !== null) this.gapsFromRecords++;
      bump(this.gapCounts, Math.round(gap));
      this.gapMin = Math.min(this.gapMin, gap);
      this.gapMax = Math.max(this.gapMax, gap);
      if (required !== null) {
        this.compared++;
        if (gap < required) {
          this.below++;
          this.worstShortfall = Math.max(this.worstShortfall, required - gap);
        }
      }
    }
  }

  /** A page answer of 4xx or 5xx, with the page that led to it. */
  private addBroken(record: CrawlRecord): void {
    const { status } = record;
    if (status === null || SITE_FILE_OUTCOMES.has(record.outcome)) return;
    // Answered after all (a 503 tried again): not broken.
    if (status < 400) {
      this.broken.delete(record.url);
      return;
    }
    let entry = this.broken.get(record.url);
    if (entry === undefined) {
      if (this.broken.size >= MAX_BROKEN_LINKS) {
        this.brokenUntracked++;
        return;
      }
      entry = { status, from: new Set(), more: 0, via: record.via ?? null };
      this.broken.set(record.url, entry);
    }
    entry.status = status;
    const referrer = record.referrer ?? null;
    if (referrer === null || entry.from.has(referrer)) return;
    if (entry.from.size < MAX_LINKING_PAGES) entry.from.add(referrer);
    else entry.more++;
  }

  /** Buckets `factor` times wider: index i goes to floor(i / factor). */
  widen(factor: number): void {
    const wider = new Map<number, number>();
    for (const [index, n] of this.buckets) bump(wider, Math.floor(index / factor), n);
    this.buckets = wider;
  }

  /** A record's usage preferences, as the crawler wrote them (usage-verdict.ts). */
  private addUsage(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    if (json === null || typeof json !== "object") return;
    for (const [category, answer] of Object.entries(json as Record<string, unknown>)) {
      const value = (answer as { value?: unknown } | null)?.value;
      if (value === "allowed" || value === "disallowed")
        bump(this.usageValues, `${category} ${value}`);
    }
  }

  private usageByCategory(): Record<string, { allowed: number; disallowed: number }> {
    const out: Record<string, { allowed: number; disallowed: number }> = {};
    for (const [key, count] of [...this.usageValues].sort((a, b) => compareText(a[0], b[0]))) {
      const [category = "", value] = key.split(" ");
      const entry = (out[category] ??= { allowed: 0, disallowed: 0 });
      if (value === "allowed") entry.allowed += count;
      else entry.disallowed += count;
    }
    return out;
  }

  part(timeline: Timeline, firstIndex: number, factor: number): ReportPart {
    const dense = new Array<number>(timeline.buckets).fill(0);
    for (const [index, n] of this.buckets) {
      const at = Math.floor(index / factor) - firstIndex;
      dense[at] = (dense[at] ?? 0) + n;
    }
    const byStatusClass = Object.fromEntries(STATUS_CLASSES.map((c) => [c, 0])) as Record<
      StatusClass,
      number
    >;
    for (const [status, n] of this.statuses) byStatusClass[statusClass(status)] += n;
    const byVia = Object.fromEntries(VIA_KEYS.map((v) => [v, this.vias.get(v) ?? 0])) as Record<
      ViaKey,
      number
    >;
    const top = [...this.messages]
      .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
      .slice(0, TOP_ERROR_MESSAGES)
      .map(([message, count]) => ({ message, count }));
    const measured = this.gaps > 0;
    return {
      records: this.records,
      requests: this.requests,
      bytes: this.bytes,
      byStatusClass,
      byStatus: [...this.statuses]
        .sort((a, b) => (a[0] ?? Infinity) - (b[0] ?? Infinity))
        .map(([key, count]) => ({ key, count })),
      byOutcome: [...this.outcomes]
        .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
        .map(([key, count]) => ({ key, count })),
      byVia,
      canonicalElsewhere: this.canonicalElsewhere,
      errors: { count: this.errors, top, untracked: this.untracked },
      refusals: this.refusals.report(),
      payments: this.payments.report(),
      licenses: this.licenses.report(),
      brokenLinks: [...this.broken]
        .sort((a, b) => compareText(a[0], b[0]))
        .map(([url, e]) => ({
          url,
          status: e.status,
          linkedFrom: [...e.from],
          via: e.via,
          moreLinkedFrom: e.more,
        })),
      brokenUntracked: this.brokenUntracked,
      usage: { notKept: this.usageNotKept, byCategory: this.usageByCategory() },
      gaps: {
        count: this.gaps,
        fromRecords: this.gapsFromRecords,
        minMs: measured ? this.gapMin : null,
        medianMs: median(this.gapCounts, this.gaps),
        maxMs: measured ? this.gapMax : null,
        requiredMinMs: Number.isFinite(this.requiredMin) ? this.requiredMin : null,
        requiredMaxMs: Number.isFinite(this.requiredMax) ? this.requiredMax : null,
        compared: this.compared,
        belowRequired: this.below,
        worstShortfallMs: this.below > 0 ? this.worstShortfall : null,
      },
      waitedMs: this.waitedMs,
      waitedRecords: this.waitedRecords,
      firstAt: Number.isFinite(this.firstAt) ? this.firstAt : null,
      lastAt: Number.isFinite(this.lastAt) ? this.lastAt : null,
      timeline: dense,
    };
  }
}

export function reportBuilder(): ReportBuilder {
  const overall = new Tally();
  const origins = new Map<string, Tally>();
  /** The width of the buckets being filled: a step of the ladder. */
  let step = 0;
  let lowest = Infinity;
  let highest = -Infinity;

  /** Makes the buckets wider until every bucket index seen spans at most MAX_COLLECT_BUCKETS. */
  const fit = () => {
    while (highest - lowest + 1 > MAX_COLLECT_BUCKETS) {
      const factor = ladderMs(step + 1) / ladderMs(step);
      step++;
      lowest = Math.floor(lowest / factor);
      highest = Math.floor(highest / factor);
      overall.widen(factor);
      for (const tally of origins.values()) tally.widen(factor);
    }
  };

  return {
    add(record) {
      let tally = origins.get(record.origin);
      if (tally === undefined) {
        tally = new Tally();
        origins.set(record.origin, tally);
      }
      let gap: number | null = null;
      let bucket = 0;
      if (isRequest(record)) {
        // The log holds every process's requests (robots.txt and sitemaps too): the gap the site
        // saw is from the latest end before this request, whichever process made it. A record's
        // own gap (one process's view) counts only when it is smaller.
        const given = record.gapMs ?? null;
        const seen = tally.previousEnd === null ? null : Math.max(0, record.at - tally.previousEnd);
        gap = given === null ? seen : seen === null ? given : Math.min(given, seen);
        tally.previousEnd = Math.max(tally.previousEnd ?? -Infinity, record.at + record.ms);
        bucket = Math.floor(record.at / ladderMs(step));
        if (bucket < lowest || bucket > highest) {
          lowest = Math.min(lowest, bucket);
          highest = Math.max(highest, bucket);
          fit();
          bucket = Math.floor(record.at / ladderMs(step));
        }
      }
      overall.add(record, gap, bucket);
      tally.add(record, gap, bucket);
    },

    finish() {
      // The chart's width: the narrowest of the ladder that fits in MAX_CHART_BUCKETS.
      let chartStep = step;
      const span = (s: number) =>
        Number.isFinite(lowest)
          ? Math.floor((highest * ladderMs(step)) / ladderMs(s)) -
            Math.floor((lowest * ladderMs(step)) / ladderMs(s)) +
            1
          : 0;
      while (span(chartStep) > MAX_CHART_BUCKETS) chartStep++;
      const bucketMs = ladderMs(chartStep);
      const factor = bucketMs / ladderMs(step);
      const firstIndex = Number.isFinite(lowest) ? Math.floor(lowest / factor) : 0;
      const timeline: Timeline = {
        startAt: firstIndex * bucketMs,
        bucketMs,
        buckets: span(chartStep),
      };
      const parts = [...origins].map(([origin, tally]) => ({
        origin,
        ...tally.part(timeline, firstIndex, factor),
      }));
      parts.sort((a, b) => b.requests - a.requests || compareText(a.origin, b.origin));
      return { overall: overall.part(timeline, firstIndex, factor), origins: parts, timeline };
    },
  };
}

function bump<K>(map: Map<K, number>, key: K, n = 1): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/** The median of values held as value → count (the lower middle for an even count). */
function median(counts: ReadonlyMap<number, number>, total: number): number | null {
  if (total === 0) return null;
  const middle = Math.floor((total - 1) / 2);
  let seen = 0;
  for (const [value, n] of [...counts].sort((a, b) => a[0] - b[0])) {
    seen += n;
    if (seen > middle) return value;
  }
  return null;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB"] as const;

/** 1536 → "1.5 KiB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** 950 → "950 ms", 12_300 → "12.3 s", 125_000 → "2 min 5 s", 7_200_000 → "2 h". */
export function formatDuration(ms: number): string {
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  if (Math.abs(ms) < 60_000) return `${(ms / 1000).toFixed(1).replace(/\.0$/, "")} s`;
  const pair = (big: number, unit: string, small: number, smallUnit: string) =>
    small === 0 ? `${big} ${unit}` : `${big} ${unit} ${small} ${smallUnit}`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return pair(Math.floor(seconds / 60), "min", seconds % 60, "s");
  const minutes = Math.round(seconds / 60);
  if (minutes < 24 * 60) return pair(Math.floor(minutes / 60), "h", minutes % 60, "min");
  const hours = Math.round(minutes / 60);
  return pair(Math.floor(hours / 24), "d", hours % 24, "h");
}

/** A moment as `2026-03-05 12:00:03.120 UTC`. */
export function formatMoment(at: number): string {
  return `${new Date(at).toISOString().replace("T", " ").replace("Z", "")} UTC`;
}
