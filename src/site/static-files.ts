/**
 * Serving a directory as a web site: GET and HEAD of regular files with their media type,
 * ETag and Last-Modified, conditional GET (RFC 9110 §13.1.2 If-None-Match before §13.1.3
 * If-Modified-Since), `dir/` answered by `dir/index.html`. Refused with 404: paths that leave
 * the directory (`..`, encoded or not), what the hidden-path rule hides (./hidden-paths.ts: dot
 * segments, heed's own state) on the requested path and on its real path, symbolic links
 * (they could point outside) and anything that is not a regular file.
 */
import { createReadStream } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, relative } from "node:path";
import { pipeline } from "node:stream/promises";
import { hidden } from "./hidden-paths.js";

/** Media types by file extension; anything else is application/octet-stream. */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".xml": "application/xml",
  ".gz": "application/gzip",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".csv": "text/csv; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".wasm": "application/wasm",
};

export interface StaticOptions {
  /** The directory, absolute. */
  readonly root: string;
  /** Real paths never served (the RUP state file and its journals: hidden-paths.ts stateFilesOf). */
  readonly hidden?: ReadonlySet<string>;
}

/** The file a request path names, or null when it names none heed would serve. */
export function resolveRequestPath(
  root: string,
  pathname: string,
): { file: string; slash: boolean } | null {
  const raw = pathname.split("/").slice(1);
  const segments: string[] = [];
  for (const [i, segment] of raw.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (decoded === "" && i === raw.length - 1) break; // the trailing slash of a directory
    if (decoded === "" || decoded.startsWith(".") || /[/\\\0]/.test(decoded)) return null;
    segments.push(decoded);
  }
  return { file: join(root, ...segments), slash: pathname.endsWith("/") };
}

function send(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  res.end(`${text}\n`);
}

function etagOf(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}

/** RFC 9110 §13.1.2: weak comparison of each listed tag, or `*`. */
function noneMatch(header: string, etag: string): boolean {
  const weak = (t: string): string => t.trim().replace(/^W\//, "");
  return header.trim() === "*" || header.split(",").some((t) => weak(t) === weak(etag));
}

export function createStaticHandler(
  options: StaticOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  let realRoot: Promise<string> | null = null;
  /**
   * A directory on the way may be a link out of the site, or to a hidden one: the rule is
   * checked on the requested path and on the file's real path, which must be inside.
   */
  const refused = async (file: string): Promise<boolean> => {
    realRoot ??= realpath(options.root);
    const root = await realRoot;
    const own = options.hidden ?? new Set<string>();
    return (await hidden({ realRoot: root, own }, relative(options.root, file), file)) !== null;
  };
  return async (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(res, 405, "only GET and HEAD", { allow: "GET, HEAD" });
      return;
    }
    const pathname = new URL(req.url ?? "/", "http://site.invalid").pathname;
    const target = resolveRequestPath(options.root, pathname);
    if (target === null) return send(res, 404, "not found");
    let file = target.file;
    let stat = await lstat(file).catch(() => null);
    if (stat?.isDirectory() === true) {
      if (!target.slash) return send(res, 301, "moved", { location: `${pathname}/` });
      file = join(file, "index.html");
      stat = await lstat(file).catch(() => null);
    }
    if (stat === null || !stat.isFile() || (await refused(file))) {
      return send(res, 404, "not found");
    }

    const etag = etagOf(stat.size, stat.mtimeMs);
    const lastModified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000);
    const headers: Record<string, string> = {
      "content-type": MEDIA_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      etag,
      "last-modified": lastModified.toUTCString(),
      "cache-control": "no-cache",
    };
    const inm = req.headers["if-none-match"];
    const ims = req.headers["if-modified-since"];
    const notModified =
      inm !== undefined
        ? noneMatch(inm, etag)
        : ims !== undefined &&
          !Number.isNaN(Date.parse(ims)) &&
          lastModified.getTime() <= Date.parse(ims);
    if (notModified) {
      res.writeHead(304, { etag, "last-modified": headers["last-modified"] ?? "" });
      res.end();
      return;
    }
    // Set one by one, so that an access log (site-server.ts onRequest) can read them back.
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader("content-length", String(stat.size));
    res.writeHead(200);
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    await pipeline(createReadStream(file), res).catch(() => res.destroy());
  };
}
