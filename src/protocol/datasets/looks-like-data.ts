/**
 * Whether a URL found on a site looks like a dataset, for the fallback of seeds/002 §3.1 ("the
 * visitor should assume the Web site might contain datasets which require to be discovered by
 * other methods"): by the media type the site declares for it (a link's `type`, a sitemap's
 * REGP `<type>data</type>`) or else by the extension of its path. Only a guess, and named so.
 */

/** File extensions of tabular and scientific data formats, compressed or not. */
const DATA_EXTENSIONS: ReadonlySet<string> = new Set([
  "csv",
  "tsv",
  "tab",
  "json",
  "jsonl",
  "ndjson",
  "geojson",
  "parquet",
  "arrow",
  "feather",
  "avro",
  "orc",
  "xlsx",
  "xls",
  "ods",
  "sqlite",
  "nc",
  "h5",
  "hdf5",
  "dta",
  "sav",
  "rds",
]);

/** Compression suffixes that may follow a data extension (`x.csv.gz`). */
const COMPRESSION: ReadonlySet<string> = new Set(["gz", "bz2", "xz", "zst", "zip"]);

/** Media types of the same formats. */
const DATA_TYPES: ReadonlySet<string> = new Set([
  "text/csv",
  "text/tab-separated-values",
  "application/json",
  "application/x-ndjson",
  "application/jsonl",
  "application/geo+json",
  "application/vnd.apache.parquet",
  "application/vnd.apache.arrow.file",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/x-sqlite3",
  "application/x-netcdf",
  "application/x-hdf5",
]);

export type DataHint = { readonly data: true; readonly why: string } | { readonly data: false };

/** `mediaType`: a declared type (`type` attribute, sitemap type), if any. */
export function looksLikeData(url: string, mediaType: string | null = null): DataHint {
  if (mediaType !== null) {
    const type = mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
    if (type === "data") return { data: true, why: "the sitemap marks it <type>data</type>" };
    if (DATA_TYPES.has(type)) return { data: true, why: `declared as ${type}` };
  }
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return { data: false };
  }
  const name = path.slice(path.lastIndexOf("/") + 1);
  const parts = name.split(".");
  if (parts.length < 2) return { data: false };
  let ext = parts[parts.length - 1] as string;
  if (COMPRESSION.has(ext) && parts.length >= 3) ext = parts[parts.length - 2] as string;
  return DATA_EXTENSIONS.has(ext)
    ? { data: true, why: `its name ends in .${ext}` }
    : { data: false };
}
