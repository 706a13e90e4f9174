/**
 * `heed datasets build <dir>`: writes a YAML-form /data.txt for a folder of data files
 * (src/site/datasets/build.ts), and with `--manifests` a data.txt in each sub-folder.
 * Prints what it wrote. Exit 0: written; 2: bad input (no such folder, a bad option).
 */
import { stat, writeFile, rename } from "node:fs/promises";
import { join, resolve as resolvePath } from "node:path";
import { readDataTxt, writeDataTxt } from "../../protocol/datasets/index.js";
import { buildCatalog } from "../../site/datasets/build.js";
import { DEFAULT_SAMPLE_ROWS } from "../../site/datasets/infer.js";
import { CliError, EXIT_OK } from "../errors.js";
import { type Io, LineWriter } from "../io.js";

export { DEFAULT_SAMPLE_ROWS };

export interface DatasetsBuildOptions {
  readonly out?: string;
  readonly manifests: boolean;
  readonly sampleRows?: string;
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
  const out = new LineWriter(io.stdout);
  const err = new LineWriter(io.stderr);
  const topFile =
    options.out === undefined ? join(dir, "data.txt") : resolvePath(io.cwd, options.out);
  await write(
    topFile,
    writeDataTxt(built.top, {
      comment: "data.txt: datasets of this site (written by heed datasets build)",
    }),
  );
  await out.line(`${topFile}: ${built.top.length} entr${built.top.length === 1 ? "y" : "ies"}`);
  for (const [folder, specs] of built.manifests) {
    const file = join(dir, ...folder.split("/"), "data.txt");
    await write(
      file,
      writeDataTxt(specs, {
        comment: `data.txt: datasets of ${folder}/ (written by heed datasets build)`,
      }),
    );
    await out.line(`${file}: ${specs.length} entr${specs.length === 1 ? "y" : "ies"}`);
  }
  for (const note of built.notes) await err.line(`note: ${note}`);
  if (built.skipped.length > 0) {
    await err.line(
      `${built.skipped.length} file${built.skipped.length === 1 ? "" : "s"} not listed (not data by extension)`,
    );
  }
  await out.flush();
  await err.flush();
  return EXIT_OK;
}

/** Written whole or not at all; and read back, so that heed never writes what it would refuse. */
async function write(path: string, text: string): Promise<void> {
  const check = readDataTxt(text);
  const errors = check.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    throw new Error(
      `internal: the catalog written for ${path} does not read back: ${errors[0]?.message ?? ""}`,
    );
  }
  const temporary = `${path}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}
