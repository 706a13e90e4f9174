/**
 * `heed datasets build <dir>`: writes a YAML-form /data.txt for a folder of data files
 * (src/site/datasets/build.ts), and with `--manifests` a data.txt in each sub-folder.
 * Prints what it wrote. Exit 0: written; 2: bad input (no such folder, a bad option).
 */
import { rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve as resolvePath, sep } from "node:path";
import {
  MAX_DATA_TXT_BYTES,
  type DatasetSpec,
  MAX_ENTRIES,
  MAX_FILES_PER_ENTRY,
  readDataTxt,
  writeDataTxt,
  writeDatasetMapping,
} from "../../protocol/datasets/index.js";
import { buildCatalog, folderDataset } from "../../site/datasets/build.js";
import { DEFAULT_SAMPLE_ROWS } from "../../site/datasets/infer.js";
import { CliError, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";
import { printable } from "../printable.js";

export { DEFAULT_SAMPLE_ROWS };

export interface DatasetsBuildOptions {
  readonly out?: string;
  readonly manifests: boolean;
  readonly sampleRows?: string;
  readonly json?: boolean;
}

export async function runDatasetsBuild(
  dirArg: string,
  options: DatasetsBuildOptions,
  io: Io,
): Promise<number> {
  const dir = resolvePath(io.cwd, dirArg);
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) throw new CliError(`${dirArg}: no such folder`);
  const sampleRows = Number(options.sampleRows ?? DEFAULT_SAMPLE_ROWS);
  if (!Number.isSafeInteger(sampleRows) || sampleRows < 1) {
    throw new CliError(
      `--sample-rows: expected a whole number of at least 1, got "${options.sampleRows ?? ""}"`,
    );
  }
  const built = await buildCatalog(dir, { manifests: options.manifests, sampleRows });
  // An empty list is no catalog (heed's reader refuses it): say so, and write nothing.
  if (built.top.length === 0)
    throw new CliError(
      `${dirArg}: no data files to list (by extension: csv, tsv, json, jsonl, parquet, xlsx …)${built.skipped.length === 0 ? "" : `; ${built.skipped.length} other file${built.skipped.length === 1 ? "" : "s"} left out`}; nothing written`,
    );
  const out = new LineWriter(io.stdout);
  const err = new LineWriter(io.stderr);
  const topFile =
    options.out === undefined ? join(dir, "data.txt") : resolvePath(io.cwd, options.out);
  // A reader resolves each path against the URL of the file that names it (docs/data-txt.md#paths):
  // a catalog written in a folder above DIR names DIR's files through DIR's own folders.
  const prefix = pathPrefix(dirname(topFile), dir);
  const top =
    prefix === null || prefix === "" ? built.top : built.top.map((d) => prefixed(d, prefix));
  const files: [path: string, text: string, entries: number][] = [
    [
      topFile,
      writeDataTxt(top, {
        comment: "data.txt: datasets of this site (written by heed datasets build)",
      }),
      top.length,
    ],
  ];
  for (const [folder, specs] of built.manifests) {
    // A folder is one dataset, written as the mapping R pins reads in a dataset's folder; a
    // folder of more files than one path list may hold keeps the list form (heed reads both).
    const asMapping = specs.length <= MAX_FILES_PER_ENTRY;
    const comment = `data.txt: ${asMapping ? "the dataset" : "datasets"} of ${folder}/ (written by heed datasets build)`;
    files.push([
      join(dir, ...folder.split("/"), "data.txt"),
      asMapping
        ? writeDatasetMapping(folderDataset(folder, specs), { comment })
        : writeDataTxt(specs, { comment }),
      asMapping ? 1 : specs.length,
    ]);
  }
  // Every file checked before any is written: all of them, or none.
  if (options.out !== undefined) await checkOut(topFile, options.out);
  for (const [path, text] of files) check(path, text, options.manifests);
  for (const [path, text, entries] of files) {
    await write(path, text);
    if (options.json !== true)
      // File and folder names may hold control characters: shown, not sent.
      await out.line(printable(`${path}: ${entries} entr${entries === 1 ? "y" : "ies"}`));
  }
  if (options.json === true) {
    await out.line(
      JSON.stringify({
        files: files.map(([path, , entries]) => ({ path, entries })),
        notes: built.notes,
        skipped: built.skipped.length,
      }),
    );
  }
  for (const note of built.notes) await err.line(printable(`note: ${note}`));
  if (prefix === null)
    await err.line(
      `note: ${options.out ?? topFile} is not in ${dirArg} or a folder above it, so its paths stay relative to ${dirArg}: serve it as ${join(dirArg, "data.txt")}`,
    );
  if (built.skipped.length > 0) {
    await err.line(
      `${built.skipped.length} file${built.skipped.length === 1 ? "" : "s"} not listed (not data by extension)`,
    );
  }
  await out.flush();
  await err.flush();
  return EXIT_OK;
}

/**
 * Written whole or not at all; and read back first, so that heed never writes what its own
 * reader would refuse. A folder too big for one file is bad input, with the way out named.
 */
function check(path: string, text: string, manifests: boolean): void {
  const bytes = Buffer.byteLength(text);
  const hint = manifests ? "" : "; --manifests splits it by folder";
  if (bytes > MAX_DATA_TXT_BYTES) {
    throw new CliError(
      `${path} would be ${bytes} bytes, more than the ${MAX_DATA_TXT_BYTES} a data.txt may have${hint}`,
    );
  }
  const check = readDataTxt(text);
  if (
    check.entries.length >= MAX_ENTRIES &&
    check.diagnostics.some((d) => d.code === "entry-limit")
  ) {
    throw new CliError(`${path} would list more than ${MAX_ENTRIES} datasets${hint}`);
  }
  const tooMany = check.diagnostics.find(
    (d) => d.code === "value-limit" || d.code === "entry-size-limit",
  );
  if (tooMany !== undefined) throw new CliError(`${path}: ${tooMany.message}${hint}`);
  const errors = check.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    throw new Error(
      `internal: the catalog written for ${path} does not read back: ${errors[0]?.message ?? ""}`,
    );
  }
}

/**
 * The path from the catalog's folder down to DIR, `/`-separated and URL-encoded as the entries'
 * paths are ("" when the catalog is in DIR); null when DIR is not under the catalog's folder.
 */
function pathPrefix(catalogFolder: string, dir: string): string | null {
  const down = relative(catalogFolder, dir);
  if (down === "") return "";
  if (down === ".." || down.startsWith(`..${sep}`) || resolvePath(catalogFolder, down) !== dir)
    return null;
  return `${down
    .split(sep)
    .map((s) => encodeURIComponent(s).replace(/%40/g, "@").replace(/%2B/g, "+"))
    .join("/")}/`;
}

function prefixed(spec: DatasetSpec, prefix: string): DatasetSpec {
  const path =
    typeof spec.path === "string" ? prefix + spec.path : spec.path.map((p) => prefix + p);
  return { ...spec, path };
}

/** `--out` names a file in a folder that exists: else one line saying what is wrong, exit 2. */
async function checkOut(path: string, named: string): Promise<void> {
  const target = await stat(path).catch(() => null);
  if (target?.isDirectory() === true)
    throw new CliError(
      `--out ${named}: is a folder; name the file to write, e.g. ${join(named, "data.txt")}`,
    );
  const folder = await stat(dirname(path)).catch(() => null);
  if (folder?.isDirectory() !== true)
    throw new CliError(`--out ${named}: the folder ${dirname(named)} does not exist`);
}

async function write(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CliError(`cannot write ${path}: ${(error as Error).message}`, 2, { cause: error });
  }
}
