/**
 * The benches' test site: robots.txt as the caller says, pages `/p/N.html` (and `/`, page 0)
 * of some filler text, each linking to five others (page n to 5n+1 … 5n+5, modulo the count),
 * so a crawl from `/` reaches every page within a few hops. One handler serves one site or,
 * reading the Host header, many.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export interface PageSiteOptions {
  /** Pages a site: 1 or more. */
  readonly pages: number;
  /** The robots.txt for a request's Host header. */
  readonly robots: (host: string) => string;
  /** Repeats of "lorem ipsum " a page. */
  readonly filler: number;
}

/** The request handler of a page site. */
export function pageSite(
  options: PageSiteOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const filler = "lorem ipsum ".repeat(options.filler);
  return (req, res) => {
    const path = req.url ?? "/";
    if (path === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(options.robots(req.headers.host ?? ""));
      return;
    }
    const m = /^\/(?:p\/(\d+)\.html)?$/.exec(path);
    if (m === null) {
      res.writeHead(404);
      res.end();
      return;
    }
    const n = m[1] === undefined ? 0 : Number(m[1]);
    const links = [1, 2, 3, 4, 5].map(
      (i) => `<a href="/p/${(n * 5 + i) % options.pages}.html">x</a>`,
    );
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><title>${n}</title><p>${filler}</p>${links.join("")}`);
  };
}
