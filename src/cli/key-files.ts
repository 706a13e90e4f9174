/**
 * Reading robots' key files for `heed keys directory` and `heed serve --bot-keys`: each a JWK,
 * private (as `heed keys new` writes it) or public; only the public members ever go out.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  keyDirectoryDocument,
  MAX_DIRECTORY_KEYS,
  parseKeyDirectory,
  type PublicJwk,
  readPublicJwk,
} from "../protocol/web-bot-auth/index.js";
import { CliError } from "./errors.js";
import { BotKey, BotKeyError } from "../net/bot-key.js";
import type { SignedKeyDirectory } from "../site/site-server.js";

/** A key file longer than this is not a JWK. */
const MAX_KEY_FILE_BYTES = 16 * 1024;
/** A --bot-keys file longer than this is not a key directory (the same bound a verifier uses). */
const MAX_DIRECTORY_FILE_BYTES = 64 * 1024;

/** The public key of a JWK file; errors name the file and never quote it. */
export async function readKeyFile(path: string): Promise<PublicJwk> {
  const json = await readJson(path, MAX_KEY_FILE_BYTES);
  const key = readPublicJwk(json, path);
  if (!key.ok) throw new CliError(key.message);
  return key.value;
}

/**
 * What `heed serve --bot-keys` serves: a file as it is, unsigned (once checked to be a directory
 * that holds no private member), or a directory's `*.jwk` and `*.json` key files made into one,
 * each answer signed by the private keys among them.
 */
export async function botKeysDocument(path: string): Promise<string | SignedKeyDirectory> {
  const info = await stat(path).catch(() => null);
  if (info === null) throw new CliError(`--bot-keys: ${path}: no such file or directory`);
  if (info.isDirectory()) {
    const names = (await readdir(path)).filter((n) => /\.(jwk|json)$/.test(n)).sort();
    if (names.length === 0) throw new CliError(`--bot-keys: ${path}: no .jwk or .json key files`);
    if (names.length > MAX_DIRECTORY_KEYS) {
      throw new CliError(`--bot-keys: ${path}: more than ${MAX_DIRECTORY_KEYS} key files`);
    }
    const keys = await Promise.all(names.map((name) => readKeyFile(join(path, name))));
    const signers = await Promise.all(names.map((name) => privateKeyOf(join(path, name))));
    return {
      document: keyDirectoryDocument(keys),
      keys: signers.filter((k): k is BotKey => k !== null),
    };
  }
  const json = await readJson(path, MAX_DIRECTORY_FILE_BYTES);
  if (hasPrivateMember(json)) {
    throw new CliError(
      `--bot-keys: ${path} holds a private key ("d"): publish the output of heed keys directory instead`,
    );
  }
  const text = await readFile(path, "utf8");
  const parsed = parseKeyDirectory(text);
  if (!parsed.ok) throw new CliError(`--bot-keys: ${path}: ${parsed.message}`);
  if (parsed.value.keys.length === 0) throw new CliError(`--bot-keys: ${path}: no Ed25519 keys`);
  return text;
}

/** The private key of a key file that holds one (`d`), or null for a public key file. */
async function privateKeyOf(path: string): Promise<BotKey | null> {
  const json = await readJson(path, MAX_KEY_FILE_BYTES);
  if (typeof json !== "object" || json === null || !Object.hasOwn(json, "d")) return null;
  try {
    return await BotKey.load(path);
  } catch (error) {
    if (error instanceof BotKeyError) throw new CliError(`--bot-keys: ${error.message}`);
    throw error;
  }
}

function hasPrivateMember(json: unknown): boolean {
  const keys = (json as { keys?: unknown } | null)?.keys;
  return (
    Array.isArray(keys) &&
    keys.some((k) => typeof k === "object" && k !== null && Object.hasOwn(k, "d"))
  );
}

async function readJson(path: string, maxBytes: number): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new CliError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  if (bytes.length > maxBytes) throw new CliError(`${path}: more than ${maxBytes} bytes`);
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    // JSON.parse quotes the text near the fault, and the file may hold a private key.
    throw new CliError(`${path}: not JSON`);
  }
}
