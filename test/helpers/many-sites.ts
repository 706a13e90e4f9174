/**
 * Many small sites in one process: each a server of its own on 127.0.0.1 (its own port, so its
 * own origin), all logging into one list. Each has a robots.txt, `/` and `/a` (linked from `/`).
 * Connections are kept open long after their answer, as many real servers keep them, so a
 * robot that holds a socket to every site it visited runs out of open files.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./http-server.js";

export interface ManySites {
  /** `http://127.0.0.1:PORT` of each site. */
  readonly origins: readonly string[];
  /** Every request, in order of arrival: the site's origin and the path asked. */
  readonly log: readonly { readonly origin: string; readonly path: string }[];
  close(): Promise<void>;
}

export interface ManySitesOptions {
  readonly count: number;
  /** The robots.txt every site serves; default none in particular (`User-agent: *`, no rule). */
  readonly robots?: string;
  /** How long an idle connection is kept open by the server; default 60 s. */
  readonly keepAliveMs?: number;
}

export async function startManySites(options: ManySitesOptions): Promise<ManySites> {
  const log: { origin: string; path: string }[] = [];
  const servers: Server[] = [];
  const origins: string[] = [];
  const robots = options.robots ?? "User-agent: *\nDisallow:\n";
  for (let i = 0; i < options.count; i++) {
    let origin = "";
    const server = createServer((req, res) => {
      const path = req.url ?? "/";
      log.push({ origin, path });
      if (path === "/robots.txt") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(robots);
      } else if (path === "/") {
        res.writeHead(200, { "content-type": "text/html" });
        res.end('<html><body><a href="/a">a</a></body></html>');
      } else if (path === "/a") {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html><body>a</body></html>");
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not here");
      }
    });
    server.keepAliveTimeout = options.keepAliveMs ?? 60_000;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    servers.push(server);
    origins.push(origin);
  }
  return {
    origins,
    log,
    close: async () => {
      await Promise.all(servers.map(closeServer));
    },
  };
}
