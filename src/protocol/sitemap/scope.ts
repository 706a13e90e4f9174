/**
 * Which URLs a sitemap may list (sitemaps.org "Sitemap file location"):
 *
 * - "The location of a Sitemap file determines the set of URLs that can be included in that
 *   Sitemap. A Sitemap file located at http://example.com/catalog/sitemap.xml can include any
 *   URLs starting with http://example.com/catalog/ but can not include URLs starting with
 *   http://example.com/images/." The same protocol, host and port as the sitemap, and a path
 *   under the sitemap's directory. "URLs that are not considered valid are dropped."
 * - "Sitemaps & Cross Submits": a host's robots.txt that names a sitemap proves ownership of that
 *   host, so the sitemap, wherever it is kept, may list that host's URLs. robots.txt sits at the
 *   root and governs the whole host, so any path of the host is in scope: `robotsTxtHosts`.
 *   A sitemap named by its own host's robots.txt is the common case of this: `allowAnyPathOnHost`.
 * - "Using Sitemap index files": "A Sitemap index file can only specify Sitemaps that are found on
 *   the same site as the Sitemap index file" — the same origin; `sameSite`.
 */
import { clip } from "./fields.js";

export interface ScopeOptions {
  /** The sitemap's URL, as named (before redirects). Without it, no scope is checked. */
  readonly sitemapUrl?: string | null;
  /**
   * Accept any path on the sitemap's own protocol, host and port, not only paths under its
   * directory; right when the sitemap was named by that host's robots.txt. Default false.
   */
  readonly allowAnyPathOnHost?: boolean;
  /**
   * Hosts whose robots.txt named this sitemap (cross-submission): their URLs, any path, are in
   * scope. Each is an origin or URL (`https://www.host1.com`, its robots.txt URL) or a bare host
   * name (`www.host1.com`, for both http and https on the default ports).
   */
  readonly robotsTxtHosts?: readonly string[];
}

export interface SitemapScope {
  /** The prefix a URL must start with, e.g. `http://example.com/catalog/`. */
  readonly prefix: string;
  /** Null when `url` may be listed; otherwise why not, in one line. */
  check(url: URL): string | null;
  /** Null when an index may name the sitemap at `url`; otherwise why not. */
  sameSite(url: URL): string | null;
}

/** The scope of the sitemap at `options.sitemapUrl`, or null when there is none to check. */
export function sitemapScope(options: ScopeOptions): SitemapScope | null {
  const at = options.sitemapUrl;
  if (at === undefined || at === null) return null;
  let base: URL;
  try {
    base = new URL(at);
  } catch {
    throw new TypeError(`sitemapUrl: expected an absolute URL, got "${clip(at)}"`);
  }
  const directory = new URL("./", base);
  directory.search = "";
  directory.hash = "";
  const origins = new Set<string>();
  const bareHosts = new Set<string>();
  for (const entry of options.robotsTxtHosts ?? []) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
      try {
        origins.add(new URL(entry).origin);
      } catch {
        throw new TypeError(`robotsTxtHosts: expected an origin or host, got "${clip(entry)}"`);
      }
    } else if (entry !== "") {
      bareHosts.add(new URL(`http://${entry}`).host);
    }
  }
  const anyPath = options.allowAnyPathOnHost === true;
  const prefix = anyPath ? `${base.origin}/` : directory.href;
  const vouched = (url: URL): boolean =>
    origins.has(url.origin) ||
    (bareHosts.has(url.host) && (url.protocol === "http:" || url.protocol === "https:"));
  return {
    prefix,
    check(url) {
      if (url.origin === base.origin) {
        if (anyPath || url.pathname.startsWith(directory.pathname)) return null;
      }
      if (vouched(url)) return null;
      return `outside this sitemap's scope ${prefix} (sitemaps.org "Sitemap file location": a sitemap lists URLs under its own directory, on its own protocol, host and port, unless the URL's host names the sitemap in its robots.txt)`;
    },
    sameSite(url) {
      if (url.origin === base.origin || vouched(url)) return null;
      return `on another site than its index ${base.origin} (sitemaps.org: an index "can only specify Sitemaps that are found on the same site")`;
    },
  };
}
