/**
 * URLs moved to another host by the site's own word: REGP Host, the canonical host of a site
 * with mirrors (seeds/003 §3.2.13), and Mirror-site, where to crawl instead (§3.2.11).
 */
import { normalizeUrl } from "./url-normal.js";

/** `url` with its host replaced by a REGP Host value (`www.example.com`, maybe with a port). */
export function onHost(url: string, host: string): string | null {
  try {
    const target = new URL(url);
    const named = new URL(`${target.protocol}//${host.replace(/^https?:\/\//i, "")}`);
    // Both parts: setting `host` without a port would keep the page's own port.
    target.hostname = named.hostname;
    target.port = named.port;
    return normalizeUrl(target.href);
  } catch {
    return null;
  }
}

/** `url` on a Mirror-site (a host, or a URL whose scheme is taken too). */
export function mirrored(url: string, host: string): string | null {
  try {
    const target = new URL(url);
    const mirror = /^https?:\/\//i.test(host)
      ? new URL(host)
      : new URL(`${target.protocol}//${host}`);
    target.protocol = mirror.protocol;
    target.hostname = mirror.hostname;
    target.port = mirror.port;
    return normalizeUrl(target.href);
  } catch {
    return null;
  }
}
