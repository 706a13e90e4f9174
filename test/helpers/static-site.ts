/**
 * A real HTTP server on 127.0.0.1 that serves a directory as a site (index.html for a
 * directory), with robots.txt given as text, and a log of what was requested and how many
 * bytes went out: what a robot costs the site over the network.
 */
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./http-server.js";
import { join, normalize } from "node:path";

export interface StaticSite {
  readonly origin: string;
  readonly requests: string[];
  bytesOut: number;
  robots: string;
  close(): Promise<void>;
}

export async function serveDirectory(root: string, robots: string): Promise<StaticSite> {
  const site: StaticSite = {
    origin: "",
    requests: [],
    bytesOut: 0,
    robots,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
      site.requests.push(path);
      let body: Buffer | null;
      let type = "text/html; charset=utf-8";
      if (path === "/robots.txt") {
        body = Buffer.from(site.robots);
        type = "text/plain";
      } else {
        const file = join(root, normalize(path));
        try {
          const info = await stat(file);
          body = await readFile(info.isDirectory() ? join(file, "index.html") : file);
          if (file.endsWith(".txt")) type = "text/plain";
        } catch {
          body = null;
        }
      }
      if (body === null) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
        site.bytesOut += 9;
        return;
      }
      res.writeHead(200, { "content-type": type, "content-length": body.length });
      res.end(body);
      site.bytesOut += body.length;
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(site, {
    origin: `http://127.0.0.1:${port}`,
    close: () => closeServer(server),
  });
  return site;
}

/** Ports free right now, for servers whose address must be written down before they start. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = createServer();
      return new Promise<typeof server>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve(server)),
      );
    }),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  return ports;
}
