/**
 * `heed report [--store PATH] [--json] [--html FILE]`: what a crawl's log says, per host and
 * overall, as text tables (default), one JSON object (`--json`), and an HTML page with a chart
 * of requests over time (`--html FILE`). The log is read in batches: a log of millions of
 * records is reported in the memory of its hosts' tables.
 * Exit 0: reported; 2: no store there, or it cannot be read.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Writable } from "node:stream";
import {
  STATUS_CLASSES,
  VIA_KEYS,
  formatBytes,
  formatDuration,
  formatMoment,
  linkedFrom,
  summarizeBatches,
  type CrawlReport,
  type ErrorReport,
  type ReportPart,
} from "../../crawler/report.js";
import { reportHtml } from "../../crawler/report-html.js";
import { openStore } from "../../store/open.js";
import { shown } from "../../store/shown-spec.js";
import type { CrawlStore, StoredCatalog } from "../../store/index.js";
import { catalogJson, catalogText } from "../crawl-datasets.js";
import { CliError, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { printable } from "../printable.js";

export interface ReportCommandOptions {
  readonly store: string;
  readonly json?: boolean;
  readonly html?: string;
}

/** Records read from the store at a time. */
export const SCAN_BATCH = 5000;

export async function runReport(
  options: ReportCommandOptions,
  io: Io,
  now: () => number = Date.now,
): Promise<number> {
  const store = await openExistingStore(options.store, io);
  let report: CrawlReport;
  let catalogs: readonly StoredCatalog[];
  try {
    report = await summarizeBatches(store.log.scan(SCAN_BATCH));
    catalogs = await store.datasets.list();
  } catch (error) {
    throw new CliError(
      `cannot read the crawl log of ${shown(options.store)}: ${message(error)}`,
      2,
      {
        cause: error,
      },
    );
  } finally {
    await store.close();
  }
  const source = shown(options.store);
  if (options.html !== undefined) {
    const file = resolve(io.cwd, options.html);
    try {
      await writeFile(file, reportHtml(report, { source, generatedAt: now() }));
    } catch (error) {
      throw new CliError(`--html: cannot write ${options.html}: ${message(error)}`, 2, {
        cause: error,
      });
    }
  }
  const out = new LineSink(io.stdout);
  // Dataset catalogs (heed crawl --datasets), only when the crawl kept some.
  const datasets = catalogs.length === 0 ? {} : { datasets: catalogs.map(catalogJson) };
  if (options.json === true)
    await out.line(JSON.stringify({ store: source, ...report, ...datasets }));
  else
    for (const line of [...reportText(report, source), ...catalogText(catalogs)])
      // URLs, titles and reasons come from sites: control characters shown, not sent.
      if (!(await out.line(printable(line)))) break;
  await out.flush();
  out.check("standard output");
  if (options.html !== undefined && options.json !== true)
    io.stderr.write(`heed report: wrote ${options.html}\n`);
  return EXIT_OK;
}

/**
 * Opens a store that must exist already: an SQLite file that is not there is an error (exit
 * 2), not a new empty store. `redis://` stores are opened as they are.
 */
export async function openExistingStore(spec: string, io: Io): Promise<CrawlStore> {
  const redis = /^rediss?:\/\//i.test(spec);
  const path = redis ? spec : resolve(io.cwd, spec);
  if (!redis && !existsSync(path)) {
    throw new CliError(`no crawl store at ${spec} (crawl first with heed crawl, or give --store)`);
  }
  try {
    return await openStore(path);
  } catch (error) {
    throw new CliError(`cannot open the store ${shown(spec)}: ${message(error)}`, 2, {
      cause: error,
    });
  }
}

/**
 * Lines to a stream, with back-pressure, that notices when the stream breaks: a reader that
 * goes away (`heed export … | head`, EPIPE) ends the output quietly; any other failure is
 * reported by {@link check}. Without it, a broken pipe would be an unhandled error event.
 */
export class LineSink {
  private readonly writer: LineWriter;
  private failure: (Error & { code?: string }) | null = null;
  private readonly broken: Promise<void>;

  constructor(out: Writable) {
    this.writer = new LineWriter(out);
    this.broken = new Promise((resolve) =>
      out.on("error", (error: Error) => {
        this.failure ??= error;
        resolve();
      }),
    );
  }

  /** Writes a line; false once the stream is broken, when writing more is pointless. */
  async line(text: string): Promise<boolean> {
    if (this.failure !== null) return false;
    await Promise.race([this.writer.line(text), this.broken]);
    return this.failure === null;
  }

  async flush(): Promise<void> {
    if (this.failure === null) await Promise.race([this.writer.flush(), this.broken]);
  }

  /** Throws a CliError (exit 2) if the stream failed other than by its reader going away. */
  check(name: string): void {
    const failure = this.failure;
    if (failure === null || failure.code === "EPIPE") return;
    throw new CliError(`cannot write ${name}: ${failure.message}`, 2, { cause: failure });
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The report as text: a heading, then one table per aspect, hosts down, the total last. */
export function reportText(report: CrawlReport, source: string): string[] {
  const { overall, origins } = report;
  const lines = [`heed report: ${source}`];
  if (overall.records === 0) {
    lines.push("the crawl log is empty");
    return lines;
  }
  const span =
    overall.firstAt === null || overall.lastAt === null
      ? ""
      : `, ${formatMoment(overall.firstAt)} to ${formatMoment(overall.lastAt)} (${formatDuration(overall.lastAt - overall.firstAt)})`;
  lines.push(
    `${origins.length} ${origins.length === 1 ? "host" : "hosts"}, ${overall.records} records, ${overall.requests} requests, ${formatBytes(overall.bytes)} received${span}`,
  );
  const hosts = (row: (p: ReportPart) => (string | number)[]) => [
    ...origins.map((o) => [o.origin, ...row(o)]),
    ["all hosts", ...row(overall)],
  ];
  const classes = STATUS_CLASSES.filter((c) => overall.byStatusClass[c] > 0 || c === "2xx");
  lines.push(
    "",
    ...textTable(
      [
        "host",
        "requests",
        ...classes.map((c) => (c === "none" ? "no answer" : c)),
        "errors",
        "received",
        "waited",
      ],
      hosts((p) => [
        p.requests,
        ...classes.map((c) => p.byStatusClass[c]),
        p.errors.count,
        formatBytes(p.bytes),
        formatDuration(p.waitedMs),
      ]),
    ),
  );
  const ms = (v: number | null) => (v === null ? "-" : `${Math.round(v)} ms`);
  lines.push(
    "",
    ...textTable(
      ["gaps kept", "gaps", "min", "median", "max", "required", "below required"],
      hosts((p) => {
        const g = p.gaps;
        const required =
          g.requiredMinMs === null
            ? "not stated"
            : g.requiredMinMs === g.requiredMaxMs
              ? ms(g.requiredMinMs)
              : `${ms(g.requiredMinMs)}-${ms(g.requiredMaxMs)}`;
        return [g.count, ms(g.minMs), ms(g.medianMs), ms(g.maxMs), required, g.belowRequired];
      }),
    ),
  );
  const vias = VIA_KEYS.filter((v) => overall.byVia[v] > 0);
  if (vias.length > 0) {
    lines.push(
      "",
      ...textTable(
        ["found by", ...vias.map((v) => (v === "unknown" ? "not recorded" : v))],
        hosts((p) => vias.map((v) => p.byVia[v])),
      ),
    );
  }
  const outcomes = overall.byOutcome.map((o) => o.key);
  lines.push(
    "",
    ...textTable(
      ["outcomes", ...outcomes],
      hosts((p) => outcomes.map((k) => p.byOutcome.find((o) => o.key === k)?.count ?? 0)),
    ),
  );
  const statuses = overall.byStatus.map((s) => s.key);
  if (statuses.length > 0) {
    lines.push(
      "",
      ...textTable(
        ["statuses", ...statuses.map((s) => (s === null ? "no answer" : String(s)))],
        hosts((p) => statuses.map((k) => p.byStatus.find((s) => s.key === k)?.count ?? 0)),
      ),
    );
  }
  lines.push(
    ...countedDetails(origins, overall, (p) => p.refusals, {
      title: "refused by robots.txt",
      column: "line",
      others: "(other lines)",
    }),
    // 402 Payment Required with a crawler-price: the price is shown, heed never pays.
    ...countedDetails(origins, overall, (p) => p.payments, {
      title: "payment asked (not paid)",
      column: "price",
      others: "(other prices)",
    }),
    // RSL License: lines and Link rel="license": shown; heed agrees to nothing.
    ...countedDetails(origins, overall, (p) => p.licenses, {
      title: "licenses named",
      column: "where and what",
      others: "(others)",
    }),
  );
  if (overall.brokenLinks.length > 0) {
    const rows = overall.brokenLinks.map((b) => [b.url, b.status, linkedFrom(b)]);
    lines.push("", ...textTable(["broken links", "status", "linked from"], rows, [2]));
    if (overall.brokenUntracked > 0)
      lines.push(`(${overall.brokenUntracked} more broken URLs, not listed)`);
  }
  const usage = Object.entries(overall.usage.byCategory);
  if (usage.length > 0 || overall.usage.notKept > 0) {
    // docs/usage-preferences.md: what pages said they may be used for.
    const rows: (string | number)[][] = usage.map(([category, c]) => [
      category,
      c.allowed,
      c.disallowed,
    ]);
    lines.push("", ...textTable(["usage preferences", "allowed", "disallowed"], rows, []));
    lines.push(`not kept for the crawl's purpose: ${overall.usage.notKept}`);
  }
  if (overall.errors.count > 0) {
    const rows: (string | number)[][] = [];
    for (const o of origins) {
      for (const { message, count } of o.errors.top) rows.push([o.origin, count, message]);
      if (o.errors.untracked > 0) rows.push([o.origin, o.errors.untracked, "(other messages)"]);
    }
    rows.push(["all hosts", overall.errors.count, ""]);
    lines.push("", ...textTable(["errors", "count", "message"], rows, [2]));
  }
  return lines;
}

/** Columns padded to their widest cell; the first and the `text` ones left-aligned. */
/**
 * A table of records counted by their detail, per host then overall (refusals by line, prices
 * asked, licenses named); none when there are no such records.
 */
function countedDetails(
  origins: readonly (ReportPart & { readonly origin: string })[],
  overall: ReportPart,
  of: (part: ReportPart) => ErrorReport,
  table: { readonly title: string; readonly column: string; readonly others: string },
): string[] {
  if (of(overall).count === 0) return [];
  const rows: (string | number)[][] = [];
  for (const o of origins) {
    const counted = of(o);
    for (const { message, count } of counted.top) rows.push([o.origin, count, message]);
    if (counted.untracked > 0) rows.push([o.origin, counted.untracked, table.others]);
  }
  rows.push(["all hosts", of(overall).count, ""]);
  return ["", ...textTable([table.title, "count", table.column], rows, [2])];
}

function textTable(
  head: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  text: readonly number[] = [],
): string[] {
  const cells = [head, ...rows].map((row) => row.map(String));
  const widths = head.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? "").length)));
  return cells.map((row) =>
    row
      .map((cell, i) =>
        i === 0 || text.includes(i) ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}
