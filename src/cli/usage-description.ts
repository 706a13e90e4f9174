/** Reads a usage preferences description file for `heed serve --usage` and `heed usage build`. */
import { readUsageDescription, type UsageDescription } from "../protocol/usage/description.js";
import { MAX_TDMREP_BYTES } from "../protocol/usage/limits.js";
import { CliError } from "./errors.js";
import { readLocalFile } from "./robots-source.js";

// A description is refused past MAX_TDMREP_BYTES characters (protocol/usage/description.ts);
// no character takes more than 4 bytes of UTF-8, so a file that fills this read is longer than
// that, and no more of it is read (it may be /dev/zero).
const DESCRIPTION_READ_BYTES = 4 * MAX_TDMREP_BYTES + 1;

export async function loadUsageDescription(file: string): Promise<UsageDescription> {
  const bytes = await readLocalFile(file, DESCRIPTION_READ_BYTES);
  if (bytes.byteLength === DESCRIPTION_READ_BYTES)
    throw new CliError(
      `${file}: more than ${MAX_TDMREP_BYTES} characters (docs/usage-preferences.md#one-description)`,
    );
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const read = readUsageDescription(text);
  if (!read.ok)
    throw new CliError(`${file}: ${read.error} (docs/usage-preferences.md#one-description)`);
  return read.description;
}
