/**
 * How the news site answers: a status, a type, a body and headers as plain data, sent with gzip
 * when the client takes it (the REGP file of seeds/003 §5 says `Encoding: gzip, deflate`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { messagePage } from "./pages.js";

export interface Answer {
  readonly status: number;
  readonly type?: string;
  readonly body?: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

export const HTML = "text/html; charset=utf-8";

export function page(status: number, html: string): Answer {
  return { status, type: HTML, body: html };
}

export function notFound(user: string | null): Answer {
  return page(404, messagePage("Not found", "There is no such page here.", user));
}

export function notAllowed(allow: string): Answer {
  return {
    status: 405,
    type: "text/plain; charset=utf-8",
    body: `allowed: ${allow}\n`,
    headers: { allow },
  };
}

export function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Sends an answer; text is gzip-compressed when the client accepts it (REGP `Encoding: gzip`). */
export function send(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string> = { ...answer.headers };
  let body: Buffer | undefined =
    answer.body === undefined
      ? undefined
      : typeof answer.body === "string"
        ? Buffer.from(answer.body, "utf8")
        : answer.body;
  if (answer.type !== undefined) headers["content-type"] = answer.type;
  if (body !== undefined && body.length > 0 && acceptsGzip(header(req, "accept-encoding"))) {
    body = gzipSync(body);
    headers["content-encoding"] = "gzip";
    headers.vary = "Accept-Encoding";
  }
  if (body !== undefined) headers["content-length"] = String(body.length);
  res.writeHead(answer.status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

function acceptsGzip(value: string | null): boolean {
  if (value === null) return false;
  return value.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
