/**
 * `heed serve`'s server: a directory as a web site (./static-files.ts), with a RUP service
 * (./rup/rup-site.ts) when asked. A plain `node:http` handler, listening on 127.0.0.1 unless
 * told otherwise.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { RupSite, type RupSiteOptions } from "./rup/rup-site.js";
import {
  type ConnectionLimits,
  createLimitedServer,
  DEFAULT_CONNECTION_LIMITS,
} from "./connection-limits.js";
import { stateFilesOf } from "./hidden-paths.js";
import { createStaticHandler } from "./static-files.js";
import type { UsageDescription } from "../protocol/usage/description.js";
import { serveUsage } from "./usage-preferences.js";
import { type BotAuthOptions, botVerdictOf, createBotAuth, describeVerdict } from "./bot-auth.js";
import { DIRECTORY_MEDIA_TYPE, DIRECTORY_PATH } from "../protocol/web-bot-auth/index.js";
import type { BotKey } from "../net/bot-key.js";
import { signDirectoryResponse } from "../net/directory-signer.js";
import { LISTEN_BACKLOG } from "../net/connection-table.js";

export interface SiteServerOptions {
  readonly root: string;
  /** Listening address (default 127.0.0.1) and port (default 0: any free one). */
  readonly host?: string;
  readonly port?: number;
  /** Turns RUP on; `urlBase` defaults to the address listened on. */
  readonly rup?: Omit<RupSiteOptions, "root" | "urlBase"> & { readonly urlBase?: string };
  /** Usage preferences to attach: a Content-Usage header per path, /.well-known/tdmrep.json. */
  readonly usage?: UsageDescription;
  /** Connections in all and per address, deadlines, pipelining (default: connection-limits.ts). */
  readonly connections?: Partial<ConnectionLimits>;
  /**
   * A robot's key directory to serve at /.well-known/http-message-signatures-directory: JSON
   * text served as it is, or the text and the private keys to sign each answer with.
   */
  readonly botKeys?: string | SignedKeyDirectory;
  /** Verify Web Bot Auth signatures (./bot-auth.ts); 401 where one is required and fails. */
  readonly botAuth?: SiteBotAuthOptions;
  /**
   * Told of each answer when it is done (or cut off): method, path and query, status, body
   * bytes, and with `botAuth` the verdict on the robot (bot-auth.ts describeVerdict).
   */
  readonly onRequest?: (entry: {
    method: string;
    path: string;
    status: number;
    bytes: number;
    bot?: string;
  }) => void;
}

export interface SiteBotAuthOptions extends BotAuthOptions {
  /**
   * Add the authority listened on (`127.0.0.1:8080`, the `host` option's name when it is one,
   * and `localhost:8080` on a loopback address) to `authorities`, so that a signature made for another site is refused here. Not on a
   * wildcard address (`0.0.0.0`, `::`): that names no host, and only `authorities` count.
   */
  readonly listenedAuthority?: boolean;
}

/** A key directory whose every answer is signed by `keys`, at the request's own authority. */
export interface SignedKeyDirectory {
  readonly document: string;
  readonly keys: readonly BotKey[];
}

export interface SiteServer {
  /** `http://host:port/` as listened on. */
  readonly url: string;
  readonly rup: RupSite | null;
  close(): Promise<void>;
}

export async function startSiteServer(options: SiteServerOptions): Promise<SiteServer> {
  const root = resolve(options.root);
  let rup: RupSite | null = null;
  // Compared as real paths: a --state reaching the directory through a symlink is still ours.
  const hidden = new Set<string>(
    options.rup === undefined ? [] : stateFilesOf(resolve(options.rup.statePath)),
  );
  const files = createStaticHandler({ root, hidden });
  // Made once the port is known when the listened authority is one of those accepted.
  let botAuth =
    options.botAuth === undefined || options.botAuth.listenedAuthority === true
      ? null
      : createBotAuth(options.botAuth);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const pathname = new URL(req.url ?? "/", "http://site.invalid").pathname;
    // Before any signature check: a verifier fetches the directory unsigned.
    if (options.botKeys !== undefined && pathname === DIRECTORY_PATH) {
      serveKeyDirectory(options.botKeys, req, res);
      return;
    }
    if (botAuth !== null && (await botAuth.check(req, res)).refused) return;
    if (options.usage !== undefined && serveUsage(options.usage, req, res, pathname)) return;
    if (
      options.rup !== undefined &&
      rup === null &&
      (pathname.startsWith("/rupinfo.") ||
        pathname.startsWith("/cgi-bin/") ||
        pathname.startsWith("/resourcesync/") ||
        pathname.startsWith("/.well-known/"))
    ) {
      res.writeHead(503, { "retry-after": "1", "content-type": "text/plain; charset=utf-8" });
      res.end("starting\n");
      return;
    }
    if (rup !== null && (await rup.serve(req, res, pathname))) return;
    await files(req, res);
  };
  const { server } = createLimitedServer(
    (req, res) => {
      const log = options.onRequest;
      if (log !== undefined) {
        res.once("close", () =>
          log({
            method: req.method ?? "",
            path: req.url ?? "",
            status: res.statusCode,
            bytes: Number(res.getHeader("content-length") ?? 0),
            ...(options.botAuth === undefined ? {} : { bot: describeVerdict(botVerdictOf(req)) }),
          }),
        );
      }
      handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end("internal error\n");
      });
    },
    { ...DEFAULT_CONNECTION_LIMITS, ...options.connections },
  );
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(
      { port: options.port ?? 0, host: options.host ?? "127.0.0.1", backlog: LISTEN_BACKLOG },
      () => ok(),
    );
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}/`;
  if (options.botAuth?.listenedAuthority === true) {
    botAuth = createBotAuth({
      ...options.botAuth,
      authorities: [
        ...(options.botAuth.authorities ?? []),
        ...listenedAuthorities(options.host, host, address.port),
      ],
    });
  }
  const close = (): Promise<void> =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  if (options.rup !== undefined) {
    try {
      rup = await RupSite.open({ ...options.rup, root, urlBase: options.rup.urlBase ?? url });
    } catch (error) {
      await close();
      throw error;
    }
  }
  return {
    url,
    get rup() {
      return rup;
    },
    async close() {
      await close();
      await rup?.close();
    },
  };
}

/**
 * `host:port` for the address listened on and the name asked for (and `localhost` on a loopback
 * address, the name people reach it by); none for a wildcard address.
 */
function listenedAuthorities(named: string | undefined, address: string, port: number): string[] {
  const wildcard = (name: string): boolean => ["0.0.0.0", "::", "[::]", ""].includes(name);
  const loopback = address.startsWith("127.") || address === "[::1]";
  const names = new Set(
    [address, named ?? address, ...(loopback ? ["localhost"] : [])].filter((n) => !wildcard(n)),
  );
  const bracketed = (name: string): string =>
    name.includes(":") && !name.startsWith("[") ? `[${name}]` : name;
  return [...names].map((name) => new URL(`http://${bracketed(name)}:${port}`).host);
}

/**
 * The key directory, signed when keys are given: draft-meunier-http-message-signatures-directory
 * §5 binds each answer to the authority it was asked for, so the signature is made per request.
 */
function serveKeyDirectory(
  botKeys: string | SignedKeyDirectory,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const document = typeof botKeys === "string" ? botKeys : botKeys.document;
  const keys = typeof botKeys === "string" ? [] : botKeys.keys;
  const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
  const url = `${tls ? "https" : "http"}://${req.headers.host ?? "unknown.invalid"}${DIRECTORY_PATH}`;
  res.writeHead(200, {
    "content-type": DIRECTORY_MEDIA_TYPE,
    "content-length": Buffer.byteLength(document),
    // A signed answer holds for minutes, not a day: caches must not outlive its signatures.
    "cache-control": keys.length === 0 ? "max-age=86400" : "max-age=60",
    ...(keys.length === 0 ? {} : signDirectoryResponse(keys, url, Date.now())),
  });
  res.end(req.method === "HEAD" ? undefined : document);
}
