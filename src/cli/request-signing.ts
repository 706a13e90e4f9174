/**
 * `--sign KEYFILE --signature-agent URL`, shared by the commands that fetch: the key read and
 * checked once, before anything is fetched; a bad file is a clear error that names it and
 * never shows what it holds.
 */
import { resolve } from "node:path";
import { BotKey, BotKeyError } from "../net/bot-key.js";
import { createRequestSigner, type RequestSigner } from "../net/request-signer.js";
import { CliError } from "./errors.js";

export interface SigningFlags {
  readonly sign?: string;
  readonly signatureAgent?: string;
}

/** The signer the flags ask for, or null without --sign. */
export async function signerFromFlags(
  flags: SigningFlags,
  cwd: string,
): Promise<RequestSigner | null> {
  if (flags.sign === undefined) {
    if (flags.signatureAgent !== undefined) throw new CliError("--signature-agent needs --sign");
    return null;
  }
  if (flags.signatureAgent !== undefined && !/^https?:\/\/[^/]/i.test(flags.signatureAgent)) {
    throw new CliError(
      `--signature-agent: expected the http(s) URL of the key directory, got "${flags.signatureAgent}"`,
    );
  }
  let key: BotKey;
  try {
    key = await BotKey.load(resolve(cwd, flags.sign));
  } catch (error) {
    if (error instanceof BotKeyError) throw new CliError(`--sign: ${error.message}`);
    throw error;
  }
  return createRequestSigner({
    key,
    ...(flags.signatureAgent === undefined ? {} : { signatureAgent: flags.signatureAgent }),
  });
}
