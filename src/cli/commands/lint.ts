import { CliError } from "../errors.js";
import type { Io } from "../io.js";

export async function runLint(
  _source: string,
  _options: { readonly json: boolean },
  _io: Io,
): Promise<number> {
  throw new CliError("lint is not built yet");
}
