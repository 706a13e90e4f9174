/** Where a command's robots.txt comes from: a file, `-` for standard input, or an http(s) URL. */
import type { RequestSigner } from "../net/request-signer.js";
import type { ProxyOptions } from "../net/proxy-url.js";
import { open } from "node:fs/promises";
import type { FetchVerdict } from "../protocol/robots/index.js";
import { linkLicenses, type NamedLicense } from "../protocol/robots/license.js";
import { MAX_ROBOTS_BYTES } from "../protocol/robots/limits.js";
import { CliError } from "./errors.js";
import { isPrivateHost } from "./private-host.js";
import { readError } from "./read-error.js";
import { readAll } from "./read-stream.js";

export interface RobotsSource {
  /** What the user named. */
  readonly label: string;
  /**
   * The bytes to parse; empty when the fetch verdict decides for the whole site. A file or
   * standard input is read no further than {@link ROBOTS_READ_BYTES}: one byte past what is
   * parsed, so that a longer file is known to be longer.
   */
  readonly bytes: Uint8Array;
  /** For URLs: the origin the file governs. */
  readonly origin: string | null;
  /** For URLs whose answer was not a 2xx: what the status means for the whole site. */
  readonly siteWide: { readonly allowed: boolean; readonly detail: string } | null;
  readonly verdict: FetchVerdict | null;
  /** For URLs: the status code of the last answer; null after a network error, or for files. */
  readonly status: number | null;
  /** For URLs: the licenses the answer's `Link: <…>; rel="license"` names (RFC 8288 §3). */
  readonly linkLicenses?: readonly NamedLicense[];
}

export interface LoadOptions {
  readonly stdin: NodeJS.ReadableStream;
  readonly userAgent?: string;
  /** The robots.txt fetch's total deadline in ms (default 30 s). */
  readonly deadlineMs?: number;
  /** Told what heed read in place of what was named (a site URL read as its /robots.txt). */
  readonly onNote?: (text: string) => void;
  /** Sign the fetch, each redirect hop too, with Web Bot Auth (`--sign`). */
  readonly signer?: RequestSigner;
  /** Fetch through an HTTP proxy (`--proxy`, `--proxy-for`). */
  readonly proxies?: ProxyOptions;
}

// RFC 9309 §2.5: only the first 500 KiB are parsed; the byte after them says there was more.
// `heed check --url / < /dev/zero` then costs 500 KiB, not all memory.
export const ROBOTS_READ_BYTES = MAX_ROBOTS_BYTES + 1;

export function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

export async function loadRobots(source: string, options: LoadOptions): Promise<RobotsSource> {
  if (source === "-") {
    return {
      label: "<stdin>",
      bytes: await readAll(options.stdin, ROBOTS_READ_BYTES),
      origin: null,
      siteWide: null,
      verdict: null,
      status: null,
    };
  }
  if (isUrl(source)) return loadUrl(source, options);
  const bytes = await readLocalFile(source, ROBOTS_READ_BYTES);
  return { label: source, bytes, origin: null, siteWide: null, verdict: null, status: null };
}

/**
 * The first `limit` bytes of a file a command was given (all of it when shorter), or a CliError
 * that says in words why it cannot be read. Read in pieces, never whole: the file may be
 * `/dev/zero` or a FIFO with no end, and a caller that reads one byte past its own limit learns
 * that the file was longer without holding it.
 */
export async function readLocalFile(path: string, limit: number): Promise<Uint8Array> {
  try {
    const handle = await open(path, "r");
    try {
      const pieces: Buffer[] = [];
      let got = 0;
      while (got < limit) {
        const piece = Buffer.allocUnsafe(Math.min(READ_PIECE_BYTES, limit - got));
        const { bytesRead } = await handle.read(piece, 0, piece.length, null);
        if (bytesRead === 0) break;
        pieces.push(piece.subarray(0, bytesRead));
        got += bytesRead;
      }
      return Buffer.concat(pieces, got);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${readError(error)}`, 2, { cause: error });
  }
}

const READ_PIECE_BYTES = 64 * 1024;

/**
 * The robots.txt a URL names: itself when its last path segment is robots.txt (a copy kept
 * under some folder is read as named), else its origin's /robots.txt, as a person who types a
 * site's address means "this site" (docs/fetching.md#which-file).
 */
export function robotsTxtUrl(url: URL): string {
  return /\/robots\.txt$/i.test(url.pathname) ? url.href : `${url.origin}/robots.txt`;
}

async function loadUrl(named: string, options: LoadOptions): Promise<RobotsSource> {
  const { userAgent } = options;
  let parsed: URL;
  try {
    parsed = new URL(named);
  } catch (error) {
    throw new CliError(`not a valid URL: ${named}`, 2, { cause: error });
  }
  const { origin } = parsed;
  const url = robotsTxtUrl(parsed);
  if (url !== parsed.href) options.onNote?.(`${named} is not a robots.txt URL; reading ${url}`);
  // Loaded here, not at the top: a local file then costs no HTTP client at start-up.
  const { fetchRobots } = await import("../net/robots-fetch.js");
  // The guard refuses private addresses on every hop unless the user named such a host.
  const allowPrivateAddresses = isPrivateHost(parsed.hostname);
  const proxied = options.proxies !== undefined && Object.keys(options.proxies).length > 0;
  const client =
    options.signer === undefined && !proxied
      ? null
      : (await import("../net/http-client.js")).createHttpClient({
          userAgent: userAgent ?? "heed",
          allowPrivateAddresses,
          ...(options.signer === undefined ? {} : { signer: options.signer }),
          ...options.proxies,
        });
  const result = await fetchRobots(url, {
    ...(userAgent === undefined ? {} : { userAgent }),
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
    ...(client === null ? { allowPrivateAddresses } : { client }),
  }).finally(() => client?.close());
  const { verdict } = result;
  if (result.status === null) throw new CliError(`cannot fetch ${url}: ${verdict.why}`);
  const base = { label: url, origin, verdict, status: result.status };
  switch (verdict.action) {
    case "parse":
      return {
        ...base,
        bytes: result.body ?? new Uint8Array(),
        siteWide: null,
        // RFC 8288 §3.2: a relative target is resolved against the URL that answered.
        linkLicenses: linkLicenses(result.link, result.finalUrl),
      };
    case "allow-all":
      return { ...base, bytes: new Uint8Array(), siteWide: { allowed: true, detail: verdict.why } };
    default:
      return {
        ...base,
        bytes: new Uint8Array(),
        siteWide: { allowed: false, detail: verdict.why },
      };
  }
}
