/**
 * Name tokens. A robot is named by the product token of its User-Agent header
 * (seeds/004 §3.2.1: `FigTree/0.1 Robot libwww-perl/5.04` is the robot `FigTree`).
 */

// A product token ends at the version slash, at whitespace, or at a comment or list separator.
const TOKEN_END = /[\s/(;,]/;
// `Mozilla/5.0 (compatible; Googlebot/2.1; +http://…)`: the robot names itself inside.
const COMPATIBLE = /\(\s*compatible\s*;\s*([^\s/;()]+)/i;

/** `FigTree/0.1 Robot libwww-perl/5.04` → `FigTree`; `Mozilla/5.0 (compatible; Foo/1.0)` → `Foo`. */
export function productToken(userAgent: string): string {
  const text = userAgent.trim();
  const first = cut(text);
  if (first.toLowerCase() === "mozilla") {
    const inner = COMPATIBLE.exec(text)?.[1];
    if (inner) return inner;
  }
  return first;
}

function cut(text: string): string {
  const end = text.search(TOKEN_END);
  return end < 0 ? text : text.slice(0, end);
}

/**
 * The token a robots.txt `User-agent` value names, lower-cased. `*` stays `*`; a value written
 * as a header (`Googlebot/2.1`) is reduced the same way; otherwise the value is kept whole, so
 * that `MJ12bot` names `mj12bot` and not `mj` (DESIGN §3).
 *
 * A `*` after a name (`barbarbot*`, common in real files) ends the token there: google/robotstxt
 * reads the token up to the first character outside `[A-Za-z_-]`, so `barbarbot*` is the robot
 * `barbarbot` for it, and heed reads it the same. The two readings coexist because the `*` is
 * the only character heed cuts at that Google also cuts at: digits and `.` stay part of the
 * token, so `MJ12bot` and `MJ12bot*` both name `mj12bot`, never `mj`. The `*` is not a prefix
 * wildcard either way: `barbarbot*` does not name `barbarbot-prod` (RFC 9309 §2.2.1 matches
 * tokens whole).
 */
export function agentValueToken(value: string): string {
  // The value of most groups of a real file, asked first.
  if (value === "*") return "*";
  const plain = plainToken(value);
  if (plain !== null) return plain;
  const text = value.trim();
  if (text === "*") return "*";
  const token = cut(text);
  const star = token.indexOf("*");
  // `*bot` or `**` name no robot; keep them as written so they match none.
  return (star > 0 ? token.slice(0, star) : token).toLowerCase();
}

/**
 * The token of a value written as one plain word (printable ASCII, none of `/ ( ; , *`), as
 * {@link agentValueToken} reads it, without a search or a copy when it is lower-case already:
 * nearly every User-agent value of a real file. Null for any other value.
 */
function plainToken(value: string): string | null {
  let upper = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (
      c <= 0x20 ||
      c >= 0x7f ||
      c === 0x2f ||
      c === 0x28 ||
      c === 0x3b ||
      c === 0x2c ||
      c === 0x2a
    )
      return null;
    if (c >= 0x41 && c <= 0x5a) upper = true;
  }
  return value === "" ? null : upper ? value.toLowerCase() : value;
}

/** RFC 9309 §2.2.1: a product token is letters, `-` and `_` only. */
export function isRfcProductToken(token: string): boolean {
  return /^[A-Za-z_-]+$/.test(token);
}
