/**
 * One canonical form for URL paths and robots.txt patterns, so that both sides compare octet
 * for octet (RFC 9309 §2.2.2; seeds/004 §3.2.2 table):
 * - `%xx` of an unreserved character is decoded (`%7E` → `~`, `%62` → `b`);
 * - other `%xx` keep their encoding with upper-case hex (`%3c` → `%3C`; `%2F` stays, so
 *   `/a%2fb` never equals `/a/b`);
 * - non-ASCII is percent-encoded as UTF-8 (`ツ` → `%E3%83%84`), and so are characters a URI
 *   cannot hold raw (space, `<`, `"`, controls …), and a `%` that starts no escape (`%25`);
 * - `*` and `$`, special in patterns, are encoded when they stand for themselves, so that
 *   `Allow: /foo-%24` matches `/foo-$` (RFC 9309 §2.2.3).
 */

const HEX = "0123456789ABCDEF";

// 0: keep raw; 1: encode; per ASCII code.
const ENCODE = new Uint8Array(128);
for (let c = 0; c < 0x21; c++) ENCODE[c] = 1;
ENCODE[0x7f] = 1;
for (const ch of `"<>\\^\`{|}*$`) ENCODE[ch.charCodeAt(0)] = 1;

const UNRESERVED = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) UNRESERVED[c] = 1;
for (let c = 0x41; c <= 0x5a; c++) UNRESERVED[c] = 1;
for (let c = 0x61; c <= 0x7a; c++) UNRESERVED[c] = 1;
for (const ch of "-._~") UNRESERVED[ch.charCodeAt(0)] = 1;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/** True when `text` is already canonical (the common case, checked without allocating). */
export function isCanonical(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isCanonicalCode(text.charCodeAt(i))) return false;
  return true;
}

/** True when the UTF-16 code `c` stands for itself in canonical form: ASCII, not to encode, not `%`. */
export function isCanonicalCode(c: number): boolean {
  // `%`: any escape needs a look.
  return c < 0x80 && ENCODE[c] !== 1 && c !== 0x25;
}

/**
 * Canonical form of a path (with query) or of one literal piece of a pattern.
 * Pattern compilers call it per piece between `*`s, so the `*` and `$` seen here are literal.
 */
export function canonicalize(text: string): string {
  if (isCanonical(text)) return text;
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x25) {
      const hi = hexValue(text.charCodeAt(i + 1));
      const lo = hexValue(text.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        const octet = hi * 16 + lo;
        out +=
          octet < 0x80 && UNRESERVED[octet] === 1
            ? String.fromCharCode(octet)
            : percentEscape(octet);
        i += 3;
        continue;
      }
      out += "%25";
      i++;
      continue;
    }
    if (c < 0x80) {
      out += ENCODE[c] === 1 ? percentEscape(c) : text[i];
      i++;
      continue;
    }
    const cp = text.codePointAt(i) ?? 0xfffd;
    const unit = cp > 0xffff ? 2 : 1;
    // A lone surrogate is not text; it stands for U+FFFD as TextEncoder writes it.
    out += utf8Escapes(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);
    i += unit;
  }
  return out;
}

function percentEscape(octet: number): string {
  return `%${HEX[octet >> 4]}${HEX[octet & 15]}`;
}

function utf8Escapes(cp: number): string {
  if (cp < 0x800) return percentEscape(0xc0 | (cp >> 6)) + percentEscape(0x80 | (cp & 63));
  if (cp < 0x10000) {
    return (
      percentEscape(0xe0 | (cp >> 12)) +
      percentEscape(0x80 | ((cp >> 6) & 63)) +
      percentEscape(0x80 | (cp & 63))
    );
  }
  return (
    percentEscape(0xf0 | (cp >> 18)) +
    percentEscape(0x80 | ((cp >> 12) & 63)) +
    percentEscape(0x80 | ((cp >> 6) & 63)) +
    percentEscape(0x80 | (cp & 63))
  );
}
