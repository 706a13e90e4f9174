/**
 * Where a site's sitemaps are: the `Sitemap` lines of its robots.txt, in every dialect, and
 * `/sitemap.xml` when it names none.
 *
 * sitemaps.org "Specifying the Sitemap location in your robots.txt file": `Sitemap:
 * <sitemap_location>`, the complete URL, anywhere in the file, several allowed. RFC 9309 §2.2.4
 * keeps such lines outside groups. seeds/003 §3.2.12 makes `Sitemap` a REGP command; the REGP
 * reading lists those of the global section in the access plan. The paper's crawler (§4.2)
 * "parses all the sitemap.xml file listed in robots.txt"; when none is listed, /sitemap.xml at the
 * root is where sitemaps.org recommends placing one.
 */
import type { RobotsPolicy } from "../robots/index.js";
import { clip } from "./fields.js";

export interface SitemapLocation {
  readonly url: string;
  /** The robots.txt line that named it, or null for the `/sitemap.xml` default. */
  readonly line: number | null;
}

export interface DiscoveredSitemaps {
  readonly sitemaps: readonly SitemapLocation[];
  /** True when robots.txt named them; false when `/sitemap.xml` stands in. */
  readonly fromRobots: boolean;
  /** `Sitemap` lines that could not be used, with why. */
  readonly problems: readonly { readonly line: number; readonly message: string }[];
}

/**
 * The sitemaps a robots.txt names (`policy` null when there is none to read), resolved against
 * the robots.txt URL, without duplicates, in file order.
 */
export function sitemapsFromRobots(
  policy: RobotsPolicy | null,
  robotsUrl: string,
): DiscoveredSitemaps {
  const base = new URL(robotsUrl);
  const found: SitemapLocation[] = [];
  const seen = new Set<string>();
  const problems: { line: number; message: string }[] = [];
  const add = (value: string, line: number) => {
    let t = value.trim();
    // seeds/003 §3.2.12 writes `Sitemap: <http://www.example.com/sitemap.xml>`.
    if (t.startsWith("<") && t.endsWith(">")) t = t.slice(1, -1).trim();
    let url: URL;
    try {
      url = new URL(t, base);
    } catch {
      problems.push({ line, message: `expected a sitemap URL, got "${clip(t)}"` });
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      problems.push({ line, message: `expected an http(s) sitemap URL, got "${clip(t)}"` });
      return;
    }
    if (!/^https?:\/\//i.test(t))
      problems.push({
        line,
        message: `"${clip(t)}" is relative; sitemaps.org asks for the complete URL (read as ${url.href})`,
      });
    url.hash = "";
    if (seen.has(url.href)) return;
    seen.add(url.href);
    found.push({ url: url.href, line });
  };
  if (policy !== null) {
    for (const s of policy.sitemaps) add(s.url, s.line);
    if (policy.regp !== null) {
      for (const s of policy.check("/", "heed").plan?.sitemaps ?? []) add(s.value, s.line);
    }
  }
  if (found.length > 0) return { sitemaps: found, fromRobots: true, problems };
  return {
    sitemaps: [{ url: new URL("/sitemap.xml", base).href, line: null }],
    fromRobots: false,
    problems,
  };
}
