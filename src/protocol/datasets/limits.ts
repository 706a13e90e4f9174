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
