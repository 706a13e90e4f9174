/**
 * Fetches a robot's key directory for a verifying site, through the guarded client: one GET,
 * 200 only, no redirect followed (draft-meunier-webbotauth-httpsig-protocol-02: a directory
 * that moves is not the robot's), a size bound and a time bound.
 */
import {
  DIRECTORY_MEDIA_TYPE,
  type KeyDirectory,
  MAX_DIRECTORY_BYTES,
  parseKeyDirectory,
  type Refusal,
  refusal,
} from "../protocol/web-bot-auth/index.js";
import { checkDirectorySignatures } from "./directory-signer.js";
import { guardedRequest } from "./guarded-request.js";

/** A directory that does not answer within this is unreachable: the request waits on it. */
export const DIRECTORY_TIMEOUT_MS = 5_000;

export interface DirectoryFetchOptions {
  /** Let the directory be on a loopback or private address, and on plain http. */
  readonly allowPrivateAddresses?: boolean;
  readonly timeoutMs?: number;
  readonly userAgent?: string;
  /** Refuse a directory whose response carries no signature (`directory-unsigned`). */
  readonly requireSigned?: boolean;
  /** The clock for the directory's signatures, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

export type DirectoryAnswer =
  | {
      readonly ok: true;
      readonly directory: KeyDirectory;
      /** Whether the response was signed by the keys it lists (and the signatures held). */
      readonly signed: boolean;
    }
  | Refusal;

export async function fetchKeyDirectory(
  url: string,
  options: DirectoryFetchOptions = {},
): Promise<DirectoryAnswer> {
  const allowPrivate = options.allowPrivateAddresses === true;
  if (!allowPrivate && !url.startsWith("https://")) {
    return refusal("directory-unreachable", `${url}: a key directory must be https`);
  }
  const timeout = options.timeoutMs ?? DIRECTORY_TIMEOUT_MS;
  let response;
  try {
    response = await guardedRequest(url, {
      allowPrivateAddresses: allowPrivate,
      headers: {
        accept: `${DIRECTORY_MEDIA_TYPE}, application/json;q=0.5`,
        ...(options.userAgent === undefined ? {} : { "user-agent": options.userAgent }),
      },
      maxRedirects: 0,
      headersTimeoutMs: timeout,
      bodyTimeoutMs: timeout,
      signal: AbortSignal.timeout(timeout),
    });
  } catch (error) {
    return refusal("directory-unreachable", `${url}: ${(error as Error).message}`);
  }
  if (response.status !== 200) {
    response.body.on("error", () => undefined).destroy();
    if (response.status >= 300 && response.status < 400) {
      return refusal("directory-redirect", `${url}: answered ${response.status}, a redirect`);
    }
    return refusal("directory-unreachable", `${url}: answered ${response.status}, not 200`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > MAX_DIRECTORY_BYTES) {
        return refusal("directory-invalid", `${url}: more than ${MAX_DIRECTORY_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    return refusal("directory-unreachable", `${url}: ${(error as Error).message}`);
  }
  const parsed = parseKeyDirectory(Buffer.concat(chunks).toString("utf8"));
  if (!parsed.ok) return refusal("directory-invalid", `${url}: ${parsed.message}`);
  const field = (name: string): string | null => {
    const value = response.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  };
  const signed = checkDirectorySignatures(
    { method: "GET", url, field },
    parsed.value,
    (options.now ?? Date.now)(),
  );
  if (!signed.ok) return refusal(signed.reason, `${url}: ${signed.message}`);
  if (!signed.signed && options.requireSigned === true) {
    return refusal("directory-unsigned", `${url}: the directory's response is not signed`);
  }
  return { ok: true, directory: parsed.value, signed: signed.signed };
}
