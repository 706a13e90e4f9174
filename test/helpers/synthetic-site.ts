/**
 * A small web site on 127.0.0.1 for crawl tests: numbered pages that link to each other
 * (and to a few disallowed and foreign URLs), a robots.txt of the test's choosing, and a log
 * of every request with its arrival time — the evidence the tests read.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./http-server.js";

export interface LoggedRequest {
  readonly path: string;
  readonly at: number;
  readonly userAgent: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface SiteOptions {
  readonly pages: number;
  /** Links per page to other pages of the site. */
  readonly links?: number;
  /** Body of /robots.txt, or a handler for it (status codes, redirects …). */
  readonly robots?: string | ((req: IncomingMessage, res: ServerResponse) => void);
  /** Extra links on every page (disallowed paths, other hosts …). */
  readonly extraLinks?: readonly string[];
  /** Bytes of filler text per page. */
  readonly pageBytes?: number;
  /** Answer for a path instead of the default page; return false to fall through. */
  readonly route?: (req: IncomingMessage, res: ServerResponse) => boolean;
  readonly host?: string;
}

export interface Site {
  readonly origin: string;
  readonly log: LoggedRequest[];
  /** Paths requested, in order, `/robots.txt` included. */
  paths(): string[];
  close(): Promise<void>;
}

/** A request for a page, not for what a crawler reads about the site (robots.txt, sitemap). */
export function isPage(path: string): boolean {
  return path !== "/robots.txt" && path !== "/sitemap.xml";
}

/** The pages asked of every site of `sites`, in each site's order. */
export function pagesAsked(sites: readonly Site[]): string[] {
  return sites.flatMap((site) => site.paths().filter(isPage));
}

/** Waits until `sites` were asked `n` pages in all (a minute at most, else fails). */
export async function untilPages(sites: readonly Site[], n: number): Promise<void> {
  for (let i = 0; i < 1200 && pagesAsked(sites).length < n; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  if (pagesAsked(sites).length < n)
    throw new Error(`only ${pagesAsked(sites).length} pages of ${n} were asked`);
}

export function pagePath(n: number): string {
  return n === 0 ? "/" : `/page/${n}.html`;
}

export function pageHtml(n: number, options: SiteOptions): string {
  const links = options.links ?? 5;
  const hrefs: string[] = [];
  for (let i = 1; i <= links; i++) hrefs.push(pagePath((n * links + i) % options.pages));
  hrefs.push(...(options.extraLinks ?? []));
  const filler = "lorem ipsum ".repeat(Math.ceil((options.pageBytes ?? 200) / 12));
  return `<!doctype html><html><head><title>page ${n}</title></head><body><h1>Page ${n}</h1>${hrefs
    .map((h) => `<a href="${h}">${h}</a>`)
    .join(" ")}<p>${filler}</p></body></html>`;
}

export async function startSite(options: SiteOptions): Promise<Site> {
  const log: LoggedRequest[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    log.push({
      path,
      at: Date.now(),
      userAgent: String(req.headers["user-agent"] ?? ""),
      headers: req.headers,
    });
    if (options.route?.(req, res) === true) return;
    if (path === "/robots.txt") {
      if (typeof options.robots === "function") return options.robots(req, res);
      if (options.robots === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end(options.robots);
      return;
    }
    const match = /^\/(?:page\/(\d+)\.html)?$/.exec(path);
    const n = match === null ? -1 : Number(match[1] ?? 0);
    if (n < 0 || n >= options.pages) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(pageHtml(n, options));
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${options.host ?? "127.0.0.1"}:${port}`,
    log,
    paths: () => log.map((r) => r.path),
    close: () => closeServer(server),
  };
}
