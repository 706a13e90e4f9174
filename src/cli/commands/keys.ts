/**
 * `heed keys new KEYFILE` and `heed keys directory KEYFILE... --out FILE`: a robot's Web Bot
 * Auth key, and the key directory its owner publishes (docs/web-bot-auth.md).
 */
import { open, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { BotKey, jwkThumbprint } from "../../net/bot-key.js";
import { keyDirectoryDocument } from "../../protocol/web-bot-auth/index.js";
import { CliError, EXIT_OK } from "../errors.js";
import type { Io } from "../io.js";
import { readKeyFile } from "../key-files.js";

/** Writes a fresh Ed25519 private JWK, mode 0600, never over an existing file; prints its thumbprint. */
export async function runKeysNew(file: string, io: Io): Promise<number> {
  const path = resolve(io.cwd, file);
  const { key, jwk } = BotKey.generate();
  // "wx": a key is never overwritten; the mode is set as the file is made, never looser first.
  const handle = await open(path, "wx", 0o600).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(
      error.code === "EEXIST"
        ? `${file}: exists already; a key is never overwritten`
        : `${file}: cannot create: ${error.code ?? "error"}`,
    );
  });
  try {
    await handle.writeFile(`${JSON.stringify(jwk)}\n`);
  } finally {
    await handle.close();
  }
  io.stdout.write(`${key.thumbprint}\n`);
  return EXIT_OK;
}

/** Writes the directory of the keys' public halves to `out`; prints each thumbprint. */
export async function runKeysDirectory(
  files: readonly string[],
  options: { readonly out?: string },
  io: Io,
): Promise<number> {
  if (options.out === undefined) throw new CliError("--out FILE is required");
  if (files.length === 0) throw new CliError("give at least one key file");
  const keys = [];
  for (const file of files) keys.push(await readKeyFile(resolve(io.cwd, file)));
  await writeFile(resolve(io.cwd, options.out), keyDirectoryDocument(keys));
  for (const key of keys) io.stdout.write(`${jwkThumbprint(key)}\n`);
  return EXIT_OK;
}
