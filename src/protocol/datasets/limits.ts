/**
 * Limits on what a /data.txt may cost to read (seeds/002 §6: "robots are therefore encouraged
 * to place limits on the resources spent on processing"). Each is a named constant with its
 * reason, so that callers, tests and `heed lint` refer to the same number.
 */

/**
 * Bytes of a /data.txt read. A catalog of MAX_ENTRIES entries, each with a description, a
 * licence and a few typed columns as `heed datasets build` writes them, is about 2.5 MiB; three
 * times that leaves room for longer descriptions, and keeps the YAML parse under a few seconds.
 * The YAML form is refused whole above it (a cut YAML document means something else); the draft
 * form keeps its whole lines within it, as robots.txt does.
 */
export const MAX_DATA_TXT_BYTES = 8 * 1024 * 1024;

/**
 * Deepest nesting of YAML collections. A catalog needs three levels (the list of entries, an
 * entry, its `columns` or `path` list); anything deeper is not a catalog, and a bound keeps
 * the walk over the document shallow whatever the input.
 */
export const MAX_YAML_DEPTH = 6;

/** Entries one file may hold; more than any catalog seen, small enough to list on a terminal. */
export const MAX_ENTRIES = 10_000;

/** Files one entry's `path` list may name; a dataset split into more parts is better a folder with a manifest. */
export const MAX_FILES_PER_ENTRY = 1_000;

/** Columns one entry may describe; wide tables of a few hundred columns exist, thousands are a mistake. */
export const MAX_COLUMNS = 1_000;

/**
 * Values (scalars, items, keys; counted by yaml-scan.ts before parsing) one entry may hold. An
 * entry at every other limit (MAX_FILES_PER_ENTRY files, MAX_COLUMNS columns, its fields) has
 * about 4,000; an entry above this is left out whole, unparsed.
 */
export const MAX_ENTRY_VALUES = 4_096;

/**
 * Values read from one YAML file. The parser's time and memory follow the number of values, not
 * the bytes: 8 MiB can hold four million. A catalog of MAX_ENTRIES entries as `heed datasets
 * build` writes them (three columns each) has about 210,000; entries past this many values are
 * not read, which keeps any file within MAX_DATA_TXT_BYTES to about the cost of that catalog.
 */
export const MAX_YAML_VALUES = 250_000;

/**
 * Values of a YAML file that is not a plain top-level list (a flow list, a mapping, several
 * documents), which is parsed whole rather than entry by entry; above it the file is refused.
 */
export const MAX_UNSPLIT_VALUES = 65_536;

/**
 * Lines of a draft-form file read. A draft file of MAX_ENTRIES datasets, each in a record of its
 * own with a User-agent line, an Allow line, a few annotations and a blank line, has about
 * 60,000; the tokenizer's cost follows the lines, and a file of a million short lines fits in
 * MAX_DATA_TXT_BYTES.
 */
export const MAX_DRAFT_LINES = 100_000;
