/** Where a command's robots.txt comes from: a file, `-` for standard input, or an http(s) URL. */
import { readFile } from "node:fs/promises";
import { fetchRobots } from "../net/robots-fetch.js";
import type { FetchVerdict } from "../protocol/robots/index.js";
import { CliError } from "./errors.js";
import { isPrivateHost } from "./private-host.js";

export interface RobotsSource {
  /** What the user named. */
  readonly label: string;
  /** The bytes to parse; empty when the fetch verdict decides for the whole site. */
  readonly bytes: Uint8Array;
  /** For URLs: the origin the file governs. */
  readonly origin: string | null;
  /** For URLs whose answer was not a 2xx: what the status means for the whole site. */
  readonly siteWide: { readonly allowed: boolean; readonly detail: string } | null;
  readonly verdict: FetchVerdict | null;
}

export function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

export async function loadRobots(
  source: string,
  options: { readonly stdin: NodeJS.ReadableStream; readonly userAgent?: string },
): Promise<RobotsSource> {
  if (source === "-") {
    return {
      label: "<stdin>",
      bytes: await readAll(options.stdin),
      origin: null,
      siteWide: null,
      verdict: null,
    };
  }
  if (isUrl(source)) return loadUrl(source, options.userAgent);
  const bytes = await readLocalFile(source);
  return { label: source, bytes, origin: null, siteWide: null, verdict: null };
}

/** A file a command was given, or a CliError that says in words why it cannot be read. */
export async function readLocalFile(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${reason(error)}`, 2, { cause: error });
  }
}

async function loadUrl(url: string, userAgent: string | undefined): Promise<RobotsSource> {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch (error) {
    throw new CliError(`not a valid URL: ${url}`, 2, { cause: error });
  }
  // The guard refuses private addresses on every hop unless the user named such a host.
  const result = await fetchRobots(url, {
    ...(userAgent === undefined ? {} : { userAgent }),
    allowPrivateAddresses: isPrivateHost(new URL(url).hostname),
  });
  const { verdict } = result;
  if (result.status === null) throw new CliError(`cannot fetch ${url}: ${verdict.why}`);
  const base = { label: url, origin, verdict };
  switch (verdict.action) {
    case "parse":
      return { ...base, bytes: result.body ?? new Uint8Array(), siteWide: null };
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

export async function readAll(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

function reason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "it is a directory";
  if (code === "EACCES") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}
