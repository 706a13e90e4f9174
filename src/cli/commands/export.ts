/**
 * `heed export [--store PATH] --format jsonl|csv [--out FILE]`: every record of a crawl's log,
 * or with `--items` every record the crawl's page handlers pushed (JSON lines only),
 * one a line, in the order of the log: JSON lines, or CSV (RFC 4180: a header, CRLF line ends,
 * fields quoted when they hold a comma, a quote, a line break or edge spaces; a null is an
 * empty field, an empty text is `""`). Streams: a log of millions of records is written in
 * the memory of one batch. Exit 0: written; 2: no store there, it cannot be read, or bad options.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { resolve } from "node:path";
import type { Writable } from "node:stream";
import { storedRecord } from "../../store/crawl-log.js";
import type { CrawlRecord } from "../../store/index.js";
import { EXPORT_FORMATS, type ExportFormat } from "../choices.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { shown } from "../../store/shown-spec.js";
import { LineSink, SCAN_BATCH, openExistingStore } from "./report.js";

export { EXPORT_FORMATS, type ExportFormat };

/** The fields of an exported record, in order: JSON keys and CSV columns alike. */
export const EXPORT_FIELDS = [
  "url",
  "origin",
  "at",
  "ms",
  "status",
  "bytes",
  "outcome",
  "detail",
  "canonical",
  "via",
  "requiredGapMs",
  "gapMs",
  "waitedMs",
  "usage",
  "referrer",
] as const;

export interface ExportCommandOptions {
  readonly store: string;
  readonly format?: string;
  readonly out?: string;
  /** The records page handlers pushed (the library's `ctx.push`) instead of the crawl log. */
  readonly items?: boolean;
  /** Only records whose usage preferences say this: `train-ai=disallowed` (repeatable, all must hold). */
  readonly usage?: readonly string[];
}

export async function runExport(options: ExportCommandOptions, io: Io): Promise<number> {
  const format = options.format;
  if (!EXPORT_FORMATS.includes(format as ExportFormat)) {
    throw new CliError(
      `--format: expected one of ${EXPORT_FORMATS.join(", ")}, got ${format === undefined ? "nothing" : `"${format}"`}`,
    );
  }
  if (options.items === true && format !== "jsonl")
    throw new CliError(
      `--items: records are JSON of any shape, written as JSON lines: --format jsonl, not "${format}"`,
    );
  if (options.items === true && (options.usage ?? []).length > 0)
    throw new CliError(
      "--usage filters the crawl log; items pushed by page handlers carry no preferences",
    );
  const wanted = usageFilters(options.usage ?? []);
  const store = await openExistingStore(options.store, io);
  let file: WriteStream | null = null;
  try {
    if (options.out !== undefined) file = await openOut(resolve(io.cwd, options.out), options.out);
    const out = new LineSink(file ?? io.stdout);
    // The sink ends each line with LF; a CR before it makes CSV's CRLF (RFC 4180 §2.1).
    const [line, end] = format === "csv" ? [csvLine, "\r"] : [jsonLine, ""];
    let open = format === "csv" ? await out.line(`${csvRow(EXPORT_FIELDS)}${end}`) : true;
    // Items are stored as the JSON text written: each is its own line as it is.
    const batches: AsyncIterator<readonly string[]> =
      options.items === true
        ? store.items.scan(SCAN_BATCH)[Symbol.asyncIterator]()
        : lines(store.log.scan(SCAN_BATCH), wanted, (record) => `${line(record)}${end}`);
    while (open) {
      let next: IteratorResult<readonly string[]>;
      try {
        next = await batches.next();
      } catch (error) {
        throw new CliError(
          `cannot read the ${options.items === true ? "items" : "crawl log"} of ${shown(options.store)}: ${(error as Error).message}`,
          2,
          { cause: error },
        );
      }
      if (next.done === true) break;
      for (const text of next.value) {
        open = await out.line(text);
        if (!open) break;
      }
    }
    if (!open) await batches.return?.();
    await out.flush();
    out.check(options.out ?? "standard output");
    if (file !== null) await close(file);
    file = null;
  } finally {
    file?.destroy();
    await store.close();
  }
  return EXIT_OK;
}

/** Each batch of records as lines, those the `--usage` filters leave. */
async function* lines(
  batches: AsyncIterable<readonly CrawlRecord[]>,
  wanted: readonly UsageFilter[],
  line: (record: CrawlRecord) => string,
): AsyncGenerator<readonly string[]> {
  for await (const batch of batches)
    yield (wanted.length === 0 ? batch : batch.filter((r) => matchesUsage(r, wanted))).map(line);
}

interface UsageFilter {
  readonly category: string;
  readonly value: "allowed" | "disallowed" | "unknown";
}

/** `--usage train-ai=disallowed` (also `=n`, `=y`, `=unknown`); docs/usage-preferences.md. */
function usageFilters(given: readonly string[]): UsageFilter[] {
  return given.map((text) => {
    const match =
      /^\s*(search|train-ai|ai-train|ai-input)\s*=\s*(allowed|disallowed|unknown|y|n)\s*$/i.exec(
        text,
      );
    if (match === null)
      throw new CliError(
        `--usage: expected CATEGORY=VALUE such as train-ai=disallowed (categories search, train-ai, ai-input; values allowed, disallowed, unknown), got "${text}"`,
      );
    const category =
      (match[1] ?? "").toLowerCase() === "ai-train" ? "train-ai" : (match[1] ?? "").toLowerCase();
    const said = (match[2] ?? "").toLowerCase();
    const value =
      said === "y" ? "allowed" : said === "n" ? "disallowed" : (said as UsageFilter["value"]);
    return { category, value };
  });
}

function matchesUsage(record: CrawlRecord, wanted: readonly UsageFilter[]): boolean {
  let usage: Record<string, { value?: unknown } | undefined> = {};
  if (record.usage !== undefined && record.usage !== null) {
    try {
      usage = JSON.parse(record.usage) as typeof usage;
    } catch {
      usage = {};
    }
  }
  return wanted.every((w) => (usage[w.category]?.value ?? "unknown") === w.value);
}

function jsonLine(record: CrawlRecord): string {
  return JSON.stringify(storedRecord(record));
}

function csvLine(record: CrawlRecord): string {
  const stored = storedRecord(record);
  return csvRow(EXPORT_FIELDS.map((field) => stored[field]));
}

/** One CSV row, without its line end. */
export function csvRow(values: readonly (string | number | null)[]): string {
  return values.map(csvField).join(",");
}

/** RFC 4180 §2: quote a field holding a comma, a quote or a line break; double its quotes. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  if (text === "" || /[",\r\n]|^\s|\s$/.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

async function openOut(path: string, given: string): Promise<WriteStream> {
  const stream = createWriteStream(path);
  await new Promise<void>((ok, fail) => {
    stream.once("open", () => ok());
    stream.once("error", (error) =>
      fail(new CliError(`--out: cannot write ${given}: ${error.message}`, 2, { cause: error })),
    );
  });
  return stream;
}

function close(stream: Writable): Promise<void> {
  return new Promise((ok, fail) => {
    stream.once("error", fail);
    stream.end(() => ok());
  });
}
