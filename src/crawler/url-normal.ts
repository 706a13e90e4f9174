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
  return new URL(url).origin;
}
