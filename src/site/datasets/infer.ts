/**
 * The shape of a table file, for a /data.txt entry: `rows` counted over the whole file,
 * `cols` and `columns` (name → type) from its header and a sample of its rows. CSV is read as
 * RFC 4180 (quoted fields may hold commas, quotes and line breaks); TSV as the IANA
 * text/tab-separated-values type (no quoting: a tab or a line break ends a field); JSON lines
 * as one object a line, the columns being the keys in order of first appearance.
 */
import { createReadStream } from "node:fs";
import { MAX_COLUMNS } from "../../protocol/datasets/index.js";
import type { ColumnSpec } from "../../protocol/datasets/index.js";

/** Rows whose values decide the column types, by default; the count itself reads every row. */
export const DEFAULT_SAMPLE_ROWS = 1_000;
/** Characters of one field kept for typing; longer values are typed by their start. */
export const MAX_FIELD_CHARS = 64 * 1024;
/** Characters of one JSON line parsed in the sample; a longer line is counted, not parsed. */
export const MAX_JSON_LINE_CHARS = 1024 * 1024;

export type TableKind = "csv" | "tsv" | "jsonl";

export interface TableShape {
  readonly rows: number;
  readonly cols: number;
  readonly columns: readonly ColumnSpec[];
  /** What could not be read, for a person. */
  readonly notes: readonly string[];
}

export function tableKind(fileName: string): TableKind | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".tsv") || lower.endsWith(".tab")) return "tsv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  return null;
}

export async function inferTable(
  path: string,
  kind: TableKind,
  sampleRows = DEFAULT_SAMPLE_ROWS,
): Promise<TableShape> {
  return kind === "jsonl"
    ? inferJsonLines(path, sampleRows)
    : inferDelimited(path, kind, sampleRows);
}

// -------------------------------------------------------------------------------------------
// Types of values

type ValueType = "int" | "float" | "boolean" | "date" | "datetime" | "string" | "array" | "object";

const INT = /^[-+]?\d+$/;
const FLOAT = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const BOOLEAN = /^(?:true|false)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

function typeOfText(text: string): ValueType | null {
  const t = text.trim();
  if (t === "") return null;
  if (INT.test(t)) return "int";
  if (FLOAT.test(t)) return "float";
  if (BOOLEAN.test(t)) return "boolean";
  if (DATE.test(t)) return "date";
  if (DATETIME.test(t)) return "datetime";
  return "string";
}

function typeOfJson(value: unknown): ValueType | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") {
    const t = typeOfText(value);
    return t === "date" || t === "datetime" ? t : t === null ? null : "string";
  }
  return Array.isArray(value) ? "array" : "object";
}

/** The type that holds both: int and float make float, date and datetime datetime, else string. */
function widen(a: ValueType | null, b: ValueType | null): ValueType | null {
  if (a === null) return b;
  if (b === null || a === b) return a;
  const pair = new Set([a, b]);
  if (pair.has("int") && pair.has("float")) return "float";
  if (pair.has("date") && pair.has("datetime")) return "datetime";
  return "string";
}

// -------------------------------------------------------------------------------------------
// CSV and TSV

async function inferDelimited(
  path: string,
  kind: "csv" | "tsv",
  sampleRows: number,
): Promise<TableShape> {
  const notes: string[] = [];
  const reader = kind === "csv" ? new CsvRecords() : new TsvRecords();
  let header: string[] | null = null;
  let types: (ValueType | null)[] = [];
  let rows = 0;
  const take = (record: string[], blank: boolean) => {
    if (blank) return;
    if (header === null) {
      header = record.slice(0, MAX_COLUMNS);
      if (record.length > MAX_COLUMNS)
        notes.push(`more than ${MAX_COLUMNS} columns; the rest are not described`);
      types = header.map(() => null);
      return;
    }
    rows++;
    if (rows <= sampleRows) {
      for (let i = 0; i < types.length; i++)
        types[i] = widen(types[i] ?? null, typeOfText(record[i] ?? ""));
    }
  };
  const stream = createReadStream(path, { encoding: "utf8" });
  for await (const chunk of stream) reader.push(chunk as string, take, rows < sampleRows);
  reader.end(take);
  const names: string[] = header ?? [];
  if (names.length === 0) notes.push("no header row");
  const columns = names.map((name, i) => ({
    name: name.trim() === "" ? `column${i + 1}` : name.trim(),
    type: types[i] ?? "string",
  }));
  return { rows, cols: columns.length, columns, notes };
}

/** One record; `blank` when its line had no characters at all. */
type Take = (record: string[], blank: boolean) => void;

/** RFC 4180 records, chunk by chunk; fields are kept only while `collect` is true (the sample). */
class CsvRecords {
  private field = "";
  private record: string[] = [];
  private quoted = false;
  /** A quote inside a quoted field: either the end of the quoting or the first of a pair. */
  private quoteSeen = false;
  private fieldStarted = false;
  private lastWasCr = false;
  /** Any character (a quote, a comma) was seen in the current record. */
  private recordChars = false;

  push(text: string, take: Take, collect: boolean): void {
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (c !== "\n" && c !== "\r") this.recordChars = true;
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (c === '"') {
            this.add(c, collect);
            continue;
          }
          this.quoted = false; // the closing quote; c is read below as outside quotes
        } else if (c === '"') {
          this.quoteSeen = true;
          continue;
        } else {
          this.add(c, collect);
          continue;
        }
      }
      if (c === "\n" && this.lastWasCr) {
        this.lastWasCr = false;
        continue;
      }
      this.lastWasCr = c === "\r";
      if (c === ",") this.endField();
      else if (c === "\n" || c === "\r") {
        this.endField();
        take(this.record, !this.recordChars);
        this.record = [];
        this.fieldStarted = false;
        this.recordChars = false;
      } else if (c === '"' && !this.fieldStarted) {
        this.quoted = true;
        this.fieldStarted = true;
      } else {
        this.fieldStarted = true;
        this.add(c, collect);
      }
    }
  }

  end(take: Take): void {
    if (this.quoteSeen) this.quoted = false;
    if (this.recordChars) {
      this.endField();
      take(this.record, false);
    }
  }

  private add(c: string, collect: boolean): void {
    if (collect && this.field.length < MAX_FIELD_CHARS) this.field += c;
  }

  private endField(): void {
    this.record.push(this.field);
    this.field = "";
    this.fieldStarted = false;
  }
}

/** Tab-separated lines; the header and the sample are split, the rest only counted. */
class TsvRecords {
  private line = "";
  private hasChars = false;
  private lastWasCr = false;

  push(text: string, take: Take, collect: boolean): void {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 && this.lastWasCr) {
        this.lastWasCr = false;
        start = i + 1;
        continue;
      }
      this.lastWasCr = c === 13;
      if (c !== 10 && c !== 13) continue;
      if (i > start) this.hasChars = true;
      if (collect) this.keep(text.slice(start, i));
      take(collect ? this.line.split("\t") : [], !this.hasChars);
      this.line = "";
      this.hasChars = false;
      start = i + 1;
    }
    if (start < text.length) {
      this.hasChars = true;
      if (collect) this.keep(text.slice(start));
    }
  }

  end(take: Take): void {
    if (this.hasChars) take(this.line.split("\t"), false);
  }

  private keep(text: string): void {
    if (this.line.length < MAX_FIELD_CHARS * 4) this.line += text;
  }
}

// -------------------------------------------------------------------------------------------
// JSON lines

async function inferJsonLines(path: string, sampleRows: number): Promise<TableShape> {
  const notes: string[] = [];
  const types = new Map<string, ValueType | null>();
  let rows = 0;
  let bad = 0;
  let pending = "";
  const line = (text: string) => {
    if (text.trim() === "") return;
    rows++;
    if (rows > sampleRows) return;
    if (text.length > MAX_JSON_LINE_CHARS) {
      notes.push(`line ${rows} is longer than ${MAX_JSON_LINE_CHARS} characters; not sampled`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      bad++;
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      bad++;
      return;
    }
    for (const [key, v] of Object.entries(value)) {
      if (!types.has(key) && types.size >= MAX_COLUMNS) continue;
      types.set(key, widen(types.get(key) ?? null, typeOfJson(v)));
    }
  };
  for await (const chunk of createReadStream(path, { encoding: "utf8" })) {
    const text = pending + (chunk as string);
    const parts = text.split(/\r?\n/);
    pending = parts.pop() ?? "";
    // A line longer than the sample limit is only counted: keep a bounded tail.
    if (pending.length > MAX_JSON_LINE_CHARS + 1)
      pending = pending.slice(0, MAX_JSON_LINE_CHARS + 1);
    for (const part of parts) line(part);
  }
  line(pending);
  if (bad > 0) notes.push(`${bad} sampled line${bad === 1 ? " is" : "s are"} not a JSON object`);
  const columns = [...types].map(([name, type]) => ({ name, type: type ?? "string" }));
  return { rows, cols: columns.length, columns, notes };
}
