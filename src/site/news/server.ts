/**
 * The news site on a real HTTP server: listens first (the port may be 0, chosen by the
 * system), then builds the site for the origin it got, since the sitemap and robots.txt name
 * absolute URLs. Snapshots and the sitemap go to a temporary directory removed on close,
 * unless a directory is given.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import type { RequestListener, Server } from "node:http";
import { createLimitedServer } from "../connection-limits.js";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNewsSite, type NewsSite, type NewsSiteOptions } from "./site.js";

export interface StartNewsSiteOptions extends Omit<
  NewsSiteOptions,
  "origin" | "dir" | "adminPassword"
> {
  /** Address to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; default 0 (any free port). */
  readonly port?: number;
  /** Directory for snapshots and the sitemap; default a temporary one, removed on close. */
  readonly dir?: string;
  /**
   * The URL the site is reached at, which robots.txt and the sitemap name; default
   * `http://HOST:PORT` (behind a proxy, or listening on 0.0.0.0, give the public one).
   */
  readonly url?: string;
  /** Default: 12 random bytes, base64url (read it from `adminPassword` of the result). */
  readonly adminPassword?: string;
}

export interface RunningNewsSite {
  readonly site: NewsSite;
  /** The URL the site names (the `url` option, or where it listens). */
  readonly origin: string;
  /** Where it listens: `http://HOST:PORT`. */
  readonly listening: string;
  readonly adminPassword: string;
  close(): Promise<void>;
}

export async function startNewsSite(options: StartNewsSiteOptions): Promise<RunningNewsSite> {
  const host = options.host ?? "127.0.0.1";
  let handler: RequestListener | null = null;
  // The connection policy of every heed server (docs/connection-policy.md), at its defaults.
  const { server } = createLimitedServer((req, res) => {
    if (handler === null) res.writeHead(503, { "retry-after": "1" }).end();
    else handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const temp = options.dir === undefined ? await mkdtemp(join(tmpdir(), "heed-news-")) : null;
  const adminPassword = options.adminPassword ?? randomBytes(12).toString("base64url");
  const { port } = server.address() as AddressInfo;
  const listening = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const origin = options.url ?? listening;
  let site: NewsSite;
  try {
    const { host: _h, port: _p, dir: _d, adminPassword: _a, url: _u, ...rest } = options;
    site = await createNewsSite({
      ...rest,
      origin,
      dir: options.dir ?? (temp as string),
      adminPassword,
    });
  } catch (error) {
    await closeServer(server);
    if (temp !== null) await rm(temp, { recursive: true, force: true });
    throw error;
  }
  handler = site.handler;
  return {
    site,
    origin: site.origin,
    listening,
    adminPassword,
    close: async () => {
      await closeServer(server);
      await site.idle();
      if (temp !== null) await rm(temp, { recursive: true, force: true });
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
