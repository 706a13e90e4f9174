/**
 * The part of a URL that robots.txt rules see: path and query, fragment removed, in
 * canonical form. A plain URL takes a fast path; anything a WHATWG URL parser would rewrite
 * (dot segments, backslashes, spaces, non-ASCII …) goes through `URL`, so that the answer
 * is about the request a client would really send.
 */
import { canonicalize } from "./percent-encoding.js";

export type RequestPath =
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly error: string };

// Characters a WHATWG parser leaves as they are in a path or query of an http(s) URL.
const PLAIN = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) PLAIN[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) PLAIN[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) PLAIN[c] = 1;
for (const ch of "-._~/:@!&()+,;=?*$%") PLAIN[ch.charCodeAt(0)] = 1;

const HOST = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) HOST[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) HOST[c] = 1;
for (const ch of "-.:") HOST[ch.charCodeAt(0)] = 1;

// plainPathSpan's view of a byte, one lookup each: in the host, 1 a host character and 2 the
// end of the host (`/`, `?`, `#`); in the path, 1 a plain character, 2 a dot (plain unless it
// starts a segment), 3 the fragment's `#`. 0: requestPath must read the URL.
const HOST_BYTE = new Uint8Array(256);
for (let c = 0; c < 0x80; c++) if (HOST[c] === 1) HOST_BYTE[c] = 1;
for (const ch of "/?#") HOST_BYTE[ch.charCodeAt(0)] = 2;
const PATH_BYTE = new Uint8Array(256);
for (let c = 0; c < 0x80; c++) if (PLAIN[c] === 1) PATH_BYTE[c] = 1;
// Escapes and the pattern characters are read by requestPath.
for (const ch of "%*$") PATH_BYTE[ch.charCodeAt(0)] = 0;
PATH_BYTE[0x2e] = 2;
PATH_BYTE[0x23] = 3;

const PLACEHOLDER_BASE = "http://robots.invalid";

export interface RequestPathOptions {
  /**
   * Keep the `#fragment`. REGP values may hold a `#` (seeds/003 §3.2: comments became `##`
   * because Ajax URLs carry `#`), so a REGP rule can name `/page#x`; other dialects match
   * the request a client sends, which has no fragment.
   */
  readonly keepFragment?: boolean;
}

/** Path and query of `url` (absolute, or a path starting with `/`) in canonical form. */
export function requestPath(url: string | URL, options: RequestPathOptions = {}): RequestPath {
  const keepFragment = options.keepFragment === true;
  if (typeof url !== "string") return fromParsed(url, keepFragment);
  const start = pathStart(url);
  if (start >= 0) {
    let end = url.indexOf("#", start);
    if (end < 0) end = url.length;
    const fragmentEnd = keepFragment ? url.length : end;
    const plain = plainness(url, start, end);
    if (plain !== NOT_PLAIN && plainness(url, end + 1, fragmentEnd) !== NOT_PLAIN) {
      const raw = start === end ? "/" : url.slice(start, end);
      const path = plain === CANONICAL ? raw : canonicalize(raw);
      if (fragmentEnd === end) return { ok: true, path };
      return { ok: true, path: path + canonicalize(url.slice(end, fragmentEnd)) };
    }
  }
  let parsed: URL;
  try {
    parsed =
      url.startsWith("/") && !url.startsWith("//") ? new URL(url, PLACEHOLDER_BASE) : new URL(url);
  } catch {
    return { ok: false, error: url.trim() === "" ? "empty URL" : `not a valid URL: ${url}` };
  }
  return fromParsed(parsed, keepFragment);
}

function fromParsed(url: URL, keepFragment: boolean): RequestPath {
  // `search` is "" for an empty query, but a client still sends `/a?`, and `Disallow: /a?` sees it.
  const emptyQuery = url.search === "" && url.href.split("#", 1)[0]?.endsWith("?") === true;
  const path = (url.pathname === "" ? "/" : url.pathname) + (emptyQuery ? "?" : url.search);
  if (!path.startsWith("/")) return { ok: false, error: `URL has no path: ${url.href}` };
  const fragment = keepFragment ? canonicalize(url.hash) : "";
  return { ok: true, path: canonicalize(path) + fragment };
}

/** Where the path starts in a plain `http(s)://host[:port]/…` or `/…` string; -1 otherwise. */
function pathStart(url: string): number {
  if (url.charCodeAt(0) === 0x2f) return url.charCodeAt(1) === 0x2f ? -1 : 0;
  let i: number;
  if (url.startsWith("http://")) i = 7;
  else if (url.startsWith("https://")) i = 8;
  else return -1;
  const hostStart = i;
  for (; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if (c >= 0x80 || HOST[c] !== 1) return -1;
  }
  if (i === hostStart) return -1;
  // `http://h?x` has the empty path, which a client sends as `/`: leave it to URL.
  return url.charCodeAt(i) === 0x2f || i === url.length ? i : -1;
}

const NOT_PLAIN = 0;
/** Plain, and already in canonical form: no `%`, `*` or `$`. */
const CANONICAL = 1;
const NEEDS_CANONICAL = 2;

/** Is `url[start, end)` left as it is by a WHATWG parser, and is it canonical already? */
function plainness(url: string, start: number, end: number): number {
  let result = CANONICAL;
  for (let i = start; i < end; i++) {
    const c = url.charCodeAt(i);
    if (c >= 0x80 || PLAIN[c] !== 1) return NOT_PLAIN;
    // A dot segment (`/./`, `/../`, trailing `/.`) is resolved by URL, and so is its
    // escaped form `%2e` (WHATWG URL; RFC 3986 §6.2.2.3); a client requests the result.
    if (c === 0x2e && url.charCodeAt(i - 1) === 0x2f) return NOT_PLAIN;
    if (c === 0x25) {
      if (url.charCodeAt(i + 1) === 0x32 && (url.charCodeAt(i + 2) | 0x20) === 0x65)
        return NOT_PLAIN;
      result = NEEDS_CANONICAL;
    } else if (c === 0x2a || c === 0x24) result = NEEDS_CANONICAL;
  }
  return result;
}

/** Where a request path lies in the bytes of its URL (see {@link plainPathSpan}). */
export interface PathSpan {
  start: number;
  end: number;
}

/**
 * For the URL in the bytes `bytes[from, to)`: true when {@link requestPath} takes it as it is,
 * its path and query (canonical already) being `bytes[span.start, span.end)` (empty: `/`);
 * false when requestPath must read it. The same tests as requestPath's plain path, on bytes,
 * so that a caller holding the bytes (a batch of queries) need not read the URL twice.
 */
export function plainPathSpan(
  bytes: Uint8Array,
  from: number,
  to: number,
  span: PathSpan,
): boolean {
  let i = from;
  if (bytes[i] === 0x2f) {
    if (bytes[i + 1] === 0x2f) return false;
  } else {
    if (!startsWithScheme(bytes, i, to)) return false;
    i += bytes[i + 4] === 0x73 ? 8 : 7;
    const hostStart = i;
    for (; i < to; i++) {
      const kind = HOST_BYTE[bytes[i] as number];
      if (kind === 1) continue;
      if (kind === 2) break;
      return false;
    }
    if (i === hostStart || (i < to && bytes[i] !== 0x2f)) return false;
  }
  const start = i;
  for (; i < to; i++) {
    const kind = PATH_BYTE[bytes[i] as number];
    if (kind === 1) continue;
    if (kind === 3) break;
    // Dot segments and what else requestPath reads.
    if (kind === 0 || bytes[i - 1] === 0x2f) return false;
  }
  span.start = start;
  span.end = i;
  return true;
}

/** Does `bytes[at, to)` start with `http://` or `https://`? */
function startsWithScheme(bytes: Uint8Array, at: number, to: number): boolean {
  if (to - at < 7) return false;
  if (
    bytes[at] !== 0x68 ||
    bytes[at + 1] !== 0x74 ||
    bytes[at + 2] !== 0x74 ||
    bytes[at + 3] !== 0x70
  )
    return false;
  const s = bytes[at + 4] === 0x73 ? 1 : 0;
  return (
    to - at >= 7 + s &&
    bytes[at + 4 + s] === 0x3a &&
    bytes[at + 5 + s] === 0x2f &&
    bytes[at + 6 + s] === 0x2f
  );
}

/** The origin (`scheme://host[:port]`) of an absolute URL, or null when it has none. */
export function originOf(url: string | URL): string | null {
  try {
    const origin = (typeof url === "string" ? new URL(url) : url).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}
