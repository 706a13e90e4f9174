/**
 * One spelling per URL, so that the frontier sees each page once: WHATWG parsing (lower-case
 * host, default port dropped, dot segments resolved), no fragment, upper-case percent
 * escapes; query parameters sorted only when asked, since order can matter to a site.
 */

export interface NormalizeOptions {
  readonly sortQuery?: boolean;
}

/** The normal form of `href` resolved against `base`, or null when it is not an http(s) URL. */
export function normalizeUrl(
  href: string,
  base?: string | URL,
  options: NormalizeOptions = {},
): string | null {
  let url: URL;
  try {
    url = base === undefined ? new URL(href) : new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  // Each setter re-serialises the URL: set only what is there (a third of the time per link).
  // An empty fragment (`…/x#`) reads as "" too, but is in `href`.
  if (url.hash !== "" || url.href.endsWith("#")) url.hash = "";
  if (url.username !== "") url.username = "";
  if (url.password !== "") url.password = "";
  if (options.sortQuery === true && url.search !== "") url.searchParams.sort();
  const text = url.href;
  return text.includes("%")
    ? text.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase())
    : text;
}

/** `https://example.com:8443` for any URL of that site. */
export function originOf(url: string): string {
  return plainOrigin(url) ?? new URL(url).origin;
}

/**
 * `scheme://host[:port]` read off the text when it is already as the URL parser writes an
 * origin: http(s), a lower-case ASCII host name (no `xn--` label) or a dotted-decimal IPv4
 * address, no user info, no default port. Anything else is left to the parser. Every link
 * asks for its origin several times over, and a URL object each time was much of a crawl's
 * garbage.
 */
const PLAIN_ORIGIN = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::[1-9][0-9]{0,4})?(?=[/?#]|$)/;
const IPV4_PART = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const IPV4 = new RegExp(`^${IPV4_PART}(?:\\.${IPV4_PART}){3}$`);

function plainOrigin(url: string): string | null {
  const origin = PLAIN_ORIGIN.exec(url)?.[0];
  if (origin === undefined) return null;
  const https = origin.charCodeAt(4) === 115; // "s"
  const hostStart = https ? 8 : 7;
  const colon = origin.indexOf(":", hostStart);
  const host = colon === -1 ? origin.slice(hostStart) : origin.slice(hostStart, colon);
  if (colon !== -1) {
    const port = Number(origin.slice(colon + 1));
    if (port > 65_535 || port === (https ? 443 : 80)) return null;
  }
  if (host.startsWith("xn--") || host.includes(".xn--")) return null;
  // WHATWG URL: a host whose last label is a number is read as an IPv4 address.
  const last = host.slice(host.lastIndexOf(".") + 1);
  if (/^(?:[0-9]+|0x[0-9a-f]*)$/.test(last) && !IPV4.test(host)) return null;
  return origin;
}
