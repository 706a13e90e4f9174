/** Reads a usage preferences description file for `heed serve --usage` and `heed usage build`. */
import { readFile } from "node:fs/promises";
import { readUsageDescription, type UsageDescription } from "../protocol/usage/description.js";
import { CliError } from "./errors.js";

export async function loadUsageDescription(file: string): Promise<UsageDescription> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, 2, { cause: error });
  }
  const read = readUsageDescription(text);
  if (!read.ok)
    throw new CliError(`${file}: ${read.error} (docs/usage-preferences.md#one-description)`);
  return read.description;
}
