/**
 * `Cookie` values (seeds/003 §3.2.10): the cookies a robot sends on every request to the site,
 * written as RFC 6265 cookie pairs: `Cookie: visitor=crawler`, `Cookie: a=1; b=2`.
 */
import { isTokenChar } from "./accept-list.js";
import { fail, ok, type ValueResult } from "./result.js";
import { firstBad, got, show } from "./text.js";

export interface CookiePair {
  /** An RFC 2616 token (RFC 6265 §4.1.1 cookie-name). */
  readonly name: string;
  /**
   * The cookie-value as written, double quotes included when it has them: RFC 6265 §5.2 keeps
   * them as part of the value, and the Cookie header repeats them.
   */
  readonly value: string;
}

const EXPECTED = 'expected cookie pairs name=value separated by ";", such as visitor=crawler';

/**
 * `visitor=crawler`, `a=1; b=2`, quoted values such as `id="abc"`. Spaces around
 * `=` and `;` are dropped (RFC 6265 §5.2 trims names and values); one trailing `;` is tolerated.
 */
export function parseCookie(text: string): ValueResult<readonly CookiePair[]> {
  const t = text.trim();
  if (t === "") return fail(`${EXPECTED}, got ${got(t)}`);
  const pieces = t.split(";");
  if (pieces.length > 1 && (pieces[pieces.length - 1] as string).trim() === "") pieces.pop();
  const pairs: CookiePair[] = [];
  for (const piece of pieces) {
    const p = piece.trim();
    if (p === "")
      return fail(`expected a cookie pair between ";" separators, got an empty one in ${show(t)}`);
    const eq = p.indexOf("=");
    if (eq < 0) return fail(`expected name=value, got ${show(p)} with no "="`);
    const name = p.slice(0, eq).trim();
    const value = p.slice(eq + 1).trim();
    if (name === "") return fail(`expected a cookie name before "=", got nothing in ${show(p)}`);
    const badName = firstBad(name, isTokenChar);
    if (badName !== null) {
      return fail(
        `expected a cookie name of token characters (RFC 6265 §4.1.1), got ${show(badName)} in ${show(name)}`,
      );
    }
    const badValue = checkValue(value);
    if (badValue !== null) return fail(badValue);
    pairs.push({ name, value });
  }
  return ok(pairs);
}

/** The Cookie request header value, RFC 6265 §4.2.1: `a=1; b=2`. */
export function cookieHeader(pairs: readonly CookiePair[]): string {
  return pairs.map((p) => `${p.name}=${p.value}`).join("; ");
}

// RFC 6265 §4.1.1: cookie-octet = %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E, i.e. visible
// ASCII except DQUOTE, comma, semicolon and backslash.
function isCookieOctet(code: number): boolean {
  return (
    code >= 0x21 && code <= 0x7e && code !== 0x22 && code !== 0x2c && code !== 0x3b && code !== 0x5c
  );
}

function checkValue(value: string): string | null {
  let inner = value;
  if (value.startsWith('"')) {
    if (value.length < 2 || !value.endsWith('"')) {
      return `expected a closing '"' on the cookie value, got ${show(value)}`;
    }
    inner = value.slice(1, -1);
  }
  const bad = firstBad(inner, isCookieOctet);
  if (bad === null) return null;
  return `expected a cookie value without spaces, quotes, ",", ";" or "\\" (RFC 6265 §4.1.1), got ${show(bad)} in ${show(value)}`;
}
