/**
 * A real HTTP server on 127.0.0.1 whose routes see the site's own origin: a string route is
 * served with `{origin}` filled in, a function answers as it likes, anything else is a 404.
 * Each request is logged with its time and headers, so a test reads what the site was asked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./http-server.js";

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, origin: string) => void;

export interface RouteRequest {
  readonly path: string;
  readonly at: number;
  readonly headers: IncomingMessage["headers"];
}

export interface RouteSite {
  readonly origin: string;
  readonly log: RouteRequest[];
  /** The paths asked, in order. */
  paths(): string[];
  close(): Promise<void>;
}

export interface RouteSiteOptions {
  /** The content type of a string route (default text/plain). */
  readonly typeOf?: (path: string) => string;
}

export async function startRouteSite(
  routes: Record<string, RouteHandler | string>,
  options: RouteSiteOptions = {},
): Promise<RouteSite> {
  const typeOf = options.typeOf ?? (() => "text/plain");
  const log: RouteRequest[] = [];
  let origin = "";
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    log.push({ path, at: Date.now(), headers: req.headers });
    const route = routes[path];
    if (route === undefined) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    } else if (typeof route === "string") {
      res.writeHead(200, { "content-type": typeOf(path) });
      res.end(route.replaceAll("{origin}", origin));
    } else route(req, res, origin);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    log,
    paths: () => log.map((r) => r.path),
    close: () => closeServer(server),
  };
}
