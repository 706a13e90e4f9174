/**
 * The file name a downloaded URL gets inside the download folder: `<host>/<path>`, one name per
 * URL, so that two distinct URLs never share a file (`/get?id=1` and `/get?id=2` are two files).
 *
 * The mapping works on the URL as the WHATWG parser serializes it, where a path segment never
 * holds a literal `#`, `?`, space or non-ASCII character (they arrive percent-encoded). It
 * decodes only what cannot be confused with a literal: unreserved characters (RFC 3986 §2.3,
 * equivalent either way, §6.2.2.2), spaces and UTF-8 characters; every other `%XX` is kept as
 * written, with its hex in upper case (RFC 3986 §6.2.2.1). `#` then marks heed's own additions:
 * an empty segment is `#`, the index of a folder URL (`/dir/`) is `#index`, a name too long for
 * a file system ends in `#` and a hash of the whole segment, and a query too awkward for a file
 * name is `?#` and its hash. A name never starts with `.`: that is written `%2E`, so no dataset
 * can name a hidden file, nor heed's own folder of records.
 */
import { createHash } from "node:crypto";

/** Longest segment name kept as it is (bytes of UTF-8); file systems allow 255. */
export const MAX_NAME_BYTES = 200;

export function localPath(url: string): string {
  const parsed = new URL(url);
  const segments = parsed.pathname.split("/").slice(1);
  const names = segments.map((segment, i) => {
    const last = i === segments.length - 1;
    let name = segment === "" ? (last ? "#index" : "#") : normalize(segment);
    // An empty query (`/get?`) is kept too: RFC 3986 §6.2.3 does not make it the same URL.
    if (last && hasQuery(parsed)) name += `?${queryName(parsed.search.slice(1))}`;
    return shorten(name.startsWith(".") ? `%2E${name.slice(1)}` : name);
  });
  const host = hostName(parsed);
  return [host.startsWith(".") ? `%2E${host.slice(1)}` : host, ...names].join("/");
}

/** `example.com`, `127.0.0.1:8080`; `[::1]:8080` as it is (brackets and colons are file-name characters). */
function hostName(url: URL): string {
  // http and https of one host share a folder: one site. A clash between them is caught by the
  // records, which name each file's URL.
  return url.host === "" ? "#" : url.host;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** True when the URL has a query, even an empty one (a path never holds a literal `?`). */
function hasQuery(url: URL): boolean {
  return url.href.slice(0, url.href.length - url.hash.length).includes("?");
}

function normalize(segment: string): string {
  let out = "";
  let bytes: number[] = [];
  const flush = (): void => {
    if (bytes.length === 0) return;
    out += decodeBytes(bytes);
    bytes = [];
  };
  for (let i = 0; i < segment.length; i++) {
    const hex = segment.slice(i + 1, i + 3);
    if (segment[i] === "%" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
      continue;
    }
    flush();
    out += segment[i];
  }
  flush();
  return out;
}

/** Decoded bytes as text where that is unambiguous; else `%XX` in upper case. */
function decodeBytes(bytes: readonly number[]): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const char = String.fromCharCode(b);
    if (b < 0x80) {
      out += UNRESERVED.test(char) || b === 0x20 ? char : `%${hex2(b)}`;
      i++;
      continue;
    }
    const length = b >= 0xf0 && b < 0xf5 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
    const run = bytes.slice(i, i + length);
    const text = length > 0 && run.length === length ? strictUtf8(run) : null;
    if (text === null) {
      out += `%${hex2(b)}`;
      i++;
    } else {
      out += text;
      i += length;
    }
  }
  return out;
}

function strictUtf8(bytes: readonly number[]): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

function hex2(b: number): string {
  return b.toString(16).toUpperCase().padStart(2, "0");
}

/** The query as written when it is plain; `#` and a hash of it when it holds a `/` or a control. */
function queryName(query: string): string {
  return /^[^/#\0-\x1f\x7f]*$/.test(query) ? query : `#${digest(query)}`;
}

function shorten(name: string): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  let head = name.slice(0, 100);
  while (Buffer.byteLength(head) > 100) head = head.slice(0, -1);
  return `${head}#${digest(name)}`;
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}
