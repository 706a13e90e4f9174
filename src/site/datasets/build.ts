/**
 * The site side of /data.txt: a YAML-form catalog for a folder of data files (docs/data-txt.md).
 * Files that look like data (by extension, as the robot side guesses) are listed with their
 * type; CSV, TSV and JSON-lines files also with `rows`, `cols` and `columns`. With manifests,
 * each sub-folder of the top folder gets its own data.txt describing the files under it, and
 * the top file lists the folders (`path: census/`), which robots follow one level.
 */
import { readdir } from "node:fs/promises";
import { join, posix, sep } from "node:path";
import { type DatasetSpec, looksLikeData } from "../../protocol/datasets/index.js";
import { DEFAULT_SAMPLE_ROWS, inferTable, tableKind } from "./infer.js";

/** Files looked at in one folder tree; a bigger tree is a data lake, not a folder to list. */
export const MAX_FILES_SCANNED = 100_000;

/** Files that belong to heed or the server, never datasets. */
const OWN_FILES = new Set(["data.txt", "robots.txt", "SHA256SUMS", "heed-downloads.json"]);

export interface BuildOptions {
  /** Write per-folder manifests. Default false: one file lists everything. */
  readonly manifests?: boolean;
  /** Default {@link DEFAULT_SAMPLE_ROWS}. */
  readonly sampleRows?: number;
  /** Default {@link MAX_FILES_SCANNED}. */
  readonly maxFiles?: number;
}

export interface BuiltCatalog {
  /** Entries of the top data.txt. */
  readonly top: readonly DatasetSpec[];
  /** With manifests: folder (`/`-separated, relative to the top) → its entries. */
  readonly manifests: ReadonlyMap<string, readonly DatasetSpec[]>;
  /** Files passed over (not data), relative paths. */
  readonly skipped: readonly string[];
  /** What could not be read, `path: note`. */
  readonly notes: readonly string[];
}

export async function buildCatalog(dir: string, options: BuildOptions = {}): Promise<BuiltCatalog> {
  const sampleRows = options.sampleRows ?? DEFAULT_SAMPLE_ROWS;
  const notes: string[] = [];
  const files = await listFiles(dir, options.maxFiles ?? MAX_FILES_SCANNED, notes);
  const skipped: string[] = [];
  const described: { rel: string; spec: (path: string) => DatasetSpec }[] = [];
  for (const rel of files) {
    const name = posix.basename(rel);
    if (
      OWN_FILES.has(name) ||
      name.startsWith(".") ||
      name.endsWith(".part") ||
      name.endsWith(".part.json")
    )
      continue;
    if (!looksLikeData(`http://site.invalid/${encodePath(rel)}`).data) {
      skipped.push(rel);
      continue;
    }
    const spec = await describe(dir, rel, sampleRows, notes);
    described.push({ rel, spec });
  }
  if (options.manifests !== true) {
    return {
      top: described.map((d) => d.spec(encodePath(d.rel))),
      manifests: new Map(),
      skipped,
      notes,
    };
  }
  const top: DatasetSpec[] = [];
  const manifests = new Map<string, DatasetSpec[]>();
  for (const { rel, spec } of described) {
    const slash = rel.indexOf("/");
    if (slash < 0) {
      top.push(spec(encodePath(rel)));
      continue;
    }
    const folder = rel.slice(0, slash);
    const list = manifests.get(folder) ?? [];
    list.push(spec(encodePath(rel.slice(slash + 1))));
    manifests.set(folder, list);
  }
  for (const folder of [...manifests.keys()].sort()) {
    const count = manifests.get(folder)?.length ?? 0;
    top.push({
      path: `${encodePath(folder)}/`,
      name: folder,
      description: `${count} dataset${count === 1 ? "" : "s"}, described in ${folder}/data.txt`,
    });
  }
  return { top, manifests, skipped, notes };
}

/**
 * The files of a folder as one dataset, for the folder's own data.txt in the mapping form R
 * pins reads: every file in `path`; `type: files` (what pins assumes of a folder of files);
 * `rows`, `cols` and `columns` only when every file has the same columns (rows then add up).
 */
export function folderDataset(folder: string, files: readonly DatasetSpec[]): DatasetSpec {
  const paths = files.flatMap((f) => (typeof f.path === "string" ? [f.path] : f.path));
  const first = files[0];
  const key = (d: DatasetSpec | undefined): string | null =>
    d?.columns === undefined ? null : JSON.stringify(d.columns.map((c) => [c.name, c.type]));
  const same =
    first !== undefined && key(first) !== null && files.every((f) => key(f) === key(first));
  const shape =
    same && first?.columns !== undefined
      ? {
          rows: files.reduce((sum, f) => sum + (f.rows ?? 0), 0),
          cols: first.columns.length,
          columns: first.columns,
        }
      : {};
  return {
    path: paths,
    name: folder,
    description: `${paths.length} file${paths.length === 1 ? "" : "s"} in ${folder}/`,
    type: "files",
    ...shape,
  };
}

/** An entry for one file, to be given its path relative to the data.txt that lists it. */
async function describe(
  dir: string,
  rel: string,
  sampleRows: number,
  notes: string[],
): Promise<(path: string) => DatasetSpec> {
  const name = posix.basename(rel);
  const stem = name.replace(/\.[^.]+$/, "");
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  const kind = tableKind(name);
  let shape: { rows: number; cols: number; columns: DatasetSpec["columns"] } | null = null;
  if (kind !== null) {
    try {
      const table = await inferTable(join(dir, ...rel.split("/")), kind, sampleRows);
      for (const note of table.notes) notes.push(`${rel}: ${note}`);
      shape = { rows: table.rows, cols: table.cols, columns: table.columns };
    } catch (error) {
      notes.push(
        `${rel}: cannot be read (${error instanceof Error ? error.message : String(error)}); listed without its shape`,
      );
    }
  }
  return (path) => ({
    path,
    name: stem,
    type: ext,
    ...(shape === null
      ? {}
      : {
          rows: shape.rows,
          cols: shape.cols,
          ...(shape.columns === undefined ? {} : { columns: shape.columns }),
        }),
  });
}

/** Every file under `dir`, relative and `/`-separated, sorted; symbolic links are not followed. */
async function listFiles(dir: string, maxFiles: number, notes: string[]): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    if (files.length >= maxFiles) {
      notes.push(`more than ${maxFiles} files; the rest are not listed`);
      break;
    }
    const parent = entry.parentPath ?? entry.path;
    const full = join(parent, entry.name);
    const rel = full
      .slice(dir.length)
      .replace(/^[\\/]+/, "")
      .split(sep)
      .join("/");
    if (rel.split("/").some((s) => s.startsWith("."))) continue; // hidden folders too
    files.push(rel);
  }
  return files.sort();
}

/** A relative file path as a URL path: each segment percent-encoded where a URL needs it. */
function encodePath(rel: string): string {
  return rel
    .split("/")
    .map((s) => encodeURIComponent(s).replace(/%40/g, "@").replace(/%2B/g, "+"))
    .join("/");
}
