/**
 * Writing the YAML form of /data.txt: plain values in, text out, through the `yaml` package's
 * own stringifier (quoting is its business, not ours), with aliases off so that the output is
 * always something heed's restricted reader accepts.
 */
import { stringify } from "yaml";
import type { ColumnSpec } from "./types.js";

/** One dataset to write; only `path` is required. */
export interface DatasetSpec {
  readonly path: string | readonly string[];
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly license?: string;
  readonly type?: string;
  readonly rows?: number;
  readonly cols?: number;
  readonly columns?: readonly ColumnSpec[];
}

export interface WriteOptions {
  /** A comment written at the top, one `#` line per line of it. */
  readonly comment?: string;
}

export function writeDataTxt(datasets: readonly DatasetSpec[], options: WriteOptions = {}): string {
  const list = datasets.map((d) => fieldsOf(d));
  const body =
    list.length === 0 ? "[]\n" : stringify(list, { aliasDuplicateObjects: false, lineWidth: 0 });
  return head(options) + body;
}

/**
 * One dataset written as a mapping, the form of a dataset folder's own data.txt as R pins
 * writes it: `path` (always a list) and the dataset's fields at the top level.
 */
export function writeDatasetMapping(dataset: DatasetSpec, options: WriteOptions = {}): string {
  const fields = fieldsOf({
    ...dataset,
    path: typeof dataset.path === "string" ? [dataset.path] : dataset.path,
  });
  return head(options) + stringify(fields, { aliasDuplicateObjects: false, lineWidth: 0 });
}

function fieldsOf(d: DatasetSpec): Map<string, unknown> {
  // A Map keeps the field order and lets a column be named anything, `__proto__` included.
  const entry = new Map<string, unknown>();
  entry.set("path", typeof d.path === "string" ? d.path : [...d.path]);
  for (const key of ["name", "title", "description", "license", "type"] as const) {
    const value = d[key];
    if (value !== undefined) entry.set(key, value);
  }
  if (d.rows !== undefined) entry.set("rows", d.rows);
  if (d.cols !== undefined) entry.set("cols", d.cols);
  if (d.columns !== undefined)
    entry.set("columns", new Map(d.columns.map((c) => [c.name, c.type])));
  return entry;
}

function head(options: WriteOptions): string {
  return options.comment === undefined
    ? ""
    : options.comment
        .split(/\r\n|\r|\n/)
        .map((l) => `# ${l}`.trimEnd())
        .join("\n") + "\n";
}
