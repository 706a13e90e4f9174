/** Which URLs a crawl may follow, relative to its seeds. */
import { originOf } from "./url-normal.js";

export type ScopeKind = "host" | "domain" | "prefix";

export type Scope = (url: string) => boolean;

/**
 * `host`: the seeds' origins; `domain`: their host names and every subdomain (a leading
 * `www.` is dropped first, so www.example.com also admits shop.example.com); `prefix`: URLs
 * that start with a seed URL up to its last `/`.
 */
export function makeScope(kind: ScopeKind, seeds: readonly string[]): Scope {
  const parsed = seeds.map((s) => new URL(s));
  switch (kind) {
    case "host": {
      const origins = new Set(parsed.map((u) => u.origin));
      return (url) => origins.has(originOf(url));
    }
    case "domain": {
      const domains = parsed.map((u) => u.hostname.replace(/^www\./, ""));
      return (url) => {
        const host = new URL(url).hostname;
        return domains.some((d) => host === d || host.endsWith(`.${d}`));
      };
    }
    case "prefix": {
      const prefixes = parsed.map(
        (u) => u.origin + u.pathname.slice(0, u.pathname.lastIndexOf("/") + 1),
      );
      return (url) => prefixes.some((p) => url.startsWith(p));
    }
  }
}
