/**
 * What a /data.txt says, as plain data. seeds/002 names the file and its access method; what
 * it holds comes in two forms (see docs/data-txt.md): the YAML catalog deployed in practice,
 * and the draft's robots.txt grammar (seeds/002 §3.2-3.3).
 */
import type { Diagnostic } from "../robots/diagnostic.js";

export type { Diagnostic, Severity } from "../robots/diagnostic.js";

/** Which form a file was read as. `empty`: nothing but blanks and comments. */
export type DataTxtForm = "yaml" | "draft" | "empty";

/** One column of a table: its name and the type the catalog gives it (free text, e.g. `int`). */
export interface ColumnSpec {
  readonly name: string;
  readonly type: string;
}

/** One dataset the file names. */
export interface DatasetEntry {
  /** As written: one path, or a list of the files the dataset is made of. */
  readonly path: string | readonly string[];
  /** Each path resolved to an absolute URL on the site (paths that cannot be are left out, with a diagnostic). */
  readonly urls: readonly string[];
  readonly name: string | null;
  readonly title: string | null;
  readonly description: string | null;
  readonly license: string | null;
  /** The data's type as the catalog gives it (`csv`, `text/csv`, `table` …). */
  readonly type: string | null;
  readonly rows: number | null;
  readonly cols: number | null;
  /** Column name → type, in file order; null when not given. */
  readonly columns: readonly ColumnSpec[] | null;
  /** Other scalar fields, kept as written (keys lower-cased in the draft form). */
  readonly extra: Readonly<Record<string, string>>;
  /** 1-based line where the entry (YAML) or its Allow line (draft) is. */
  readonly line: number;
  /**
   * The path names a folder (it ends in `/`) or a file named `data.txt`: a per-folder manifest
   * describing the files in it, followed one level by robots.
   */
  readonly manifest: boolean;
  /** Draft form: the User-agent values of the record that offers it; null in the YAML form (offered to every robot). */
  readonly agents: readonly string[] | null;
  /** Draft form: index of its record in {@link DataTxt.records}; null in the YAML form. */
  readonly record: number | null;
}

/** A path rule of a draft-form record (seeds/002 §3.2.2). */
export interface DraftRule {
  readonly allow: boolean;
  readonly path: string;
  readonly line: number;
}

/** A record of the draft form: its User-agent lines, its rules, and the fields that annotate it. */
export interface DraftRecord {
  readonly agents: readonly { readonly value: string; readonly line: number }[];
  /** Allow and Disallow lines in file order; the first that matches decides (seeds/002 §3.2.2). */
  readonly rules: readonly DraftRule[];
  /** Other fields of the record (`Name`, `Description`, `License` …), keys lower-cased, first value kept. */
  readonly annotations: Readonly<Record<string, string>>;
}

/** A /data.txt, read. Content never throws: what could not be read is in `diagnostics`. */
export interface DataTxt {
  readonly form: DataTxtForm;
  /** Why this form was chosen, for a person (`heed lint` and `heed datasets` say it). */
  readonly formReason: string;
  readonly entries: readonly DatasetEntry[];
  /** Draft form only; empty for the YAML form. */
  readonly records: readonly DraftRecord[];
  readonly diagnostics: readonly Diagnostic[];
  /** The URL the file was read for (its paths resolve against it), or null. */
  readonly url: string | null;
  /**
   * YAML form only: `mapping` when the file is one dataset written as a mapping (the form of a
   * dataset folder's own data.txt), `list` for a list of entries.
   */
  readonly shape?: "list" | "mapping";
}
