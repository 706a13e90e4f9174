/**
 * `heed ui`'s server: a plain `node:http` handler (DESIGN §2) for the page, its assets (shipped
 * in the package, nothing from elsewhere), the few fetches the user asks for, and the crawl
 * view's feed. Every request passes the gate first (request-gate.ts: Host, Origin,
 * Sec-Fetch-Site, GET only).
 */
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { VERSION } from "../net/version.js";
import {
  type ConnectionLimits,
  createLimitedServer,
  DEFAULT_CONNECTION_LIMITS,
} from "../site/connection-limits.js";
import { CrawlFeed } from "./crawl-feed.js";
import type { CrawlSnapshot } from "./crawl-snapshot.js";
import {
  askDataTxt,
  type Asker,
  AskError,
  askRobots,
  askSitemap,
  SITEMAP_SAMPLE,
  SITEMAP_URLS_READ_THROUGH,
} from "./fetches.js";
import { gate, hostRule, type HostRule } from "./request-gate.js";
import { LISTEN_BACKLOG } from "../net/connection-table.js";

/** How often the crawl view's feed reads the store while a page listens. */
export const FEED_INTERVAL_MS = 1000;
/** A comment line sent on a quiet event stream, so proxies and browsers keep it open. */
export const KEEPALIVE_MS = 15_000;
/** Event-stream listeners at once; more get 503 (each costs a socket, not a store read). */
export const MAX_LISTENERS = 32;
/** Longest User-Agent the page may ask heed to send. */
export const MAX_AGENT_CHARS = 512;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // The crawl view puts the report's own <style> in a shadow root.
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/assets/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/assets/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
};

export interface UiServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** A crawl store (SQLite path or redis:// URL) for the crawl view. */
  readonly store?: string;
  /** The crawl's robot name token, whose rules the crawl view reads for each site's pace (default `*`). */
  readonly agent?: string;
  /** The crawl's `--ip`, whose Ip-delay and Ip-rate the crawl view reads. */
  readonly ip?: string;
  readonly feedIntervalMs?: number;
  /**
   * Each fetch the page asks for: its total deadline in ms, in place of its default
   * (robots.txt 30 s, a sitemap 60 s, /data.txt 120 s).
   */
  readonly deadlineMs?: number;
  /** The connection policy's limits over its defaults (docs/connection-policy.md). */
  readonly connections?: Partial<ConnectionLimits>;
}

export interface UiServer {
  /** `http://host:port/` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function startUiServer(options: UiServerOptions = {}): Promise<UiServer> {
  const host = options.host ?? "127.0.0.1";
  const assets = await loadAssets();
  const feed =
    options.store === undefined
      ? null
      : new FeedHub(
          new CrawlFeed({
            store: options.store,
            ...(options.agent === undefined ? {} : { agent: options.agent }),
            ...(options.ip === undefined ? {} : { ip: options.ip }),
          }),
          options.feedIntervalMs ?? FEED_INTERVAL_MS,
        );
  let rule: HostRule | null = null;
  // The connection policy of every heed server (docs/connection-policy.md): a page on this
  // machine could open sockets too.
  const { server } = createLimitedServer(
    (req, res) => {
      if (rule === null) {
        // Only between listen() and its callback: the port, and so the Host rule, is not known.
        res.writeHead(503).end();
        return;
      }
      handle(req, res, { rule, assets, feed, deadlineMs: options.deadlineMs }).catch(
        (error: unknown) => {
          if (!res.headersSent) json(res, 500, { error: message(error) });
          else res.destroy();
        },
      );
    },
    { ...DEFAULT_CONNECTION_LIMITS, ...options.connections },
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port ?? 0, host, backlog: LISTEN_BACKLOG }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  rule = hostRule(host, port);
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    close: async () => {
      await feed?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Context {
  readonly rule: HostRule;
  readonly assets: ReadonlyMap<string, Buffer>;
  readonly feed: FeedHub | null;
  readonly deadlineMs: number | undefined;
}

async function handle(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  const url = new URL(req.url ?? "/", "http://ui.invalid");
  const path = url.pathname;
  const fetches = path === "/api/robots" || path === "/api/sitemap" || path === "/api/data-txt";
  const verdict = gate(
    { method: req.method ?? "GET", headers: req.headers, needsUiHeader: fetches },
    ctx.rule,
  );
  if (!verdict.ok) {
    res.writeHead(verdict.status, {
      ...COMMON_HEADERS,
      "content-type": "text/plain; charset=utf-8",
    });
    res.end(`${verdict.message}\n`);
    return;
  }
  const asset = ASSETS[path];
  if (asset !== undefined) {
    const body = ctx.assets.get(asset.file) as Buffer;
    res.writeHead(200, {
      ...COMMON_HEADERS,
      "content-type": asset.type,
      "content-length": body.byteLength,
      "cache-control": "no-cache",
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return;
  }
  const asker: Asker = {
    userAgent: agentOf(url.searchParams.get("agent")),
    ...(ctx.deadlineMs === undefined ? {} : { deadlineMs: ctx.deadlineMs }),
  };
  try {
    switch (path) {
      case "/api/info":
        return json(res, 200, { version: VERSION, crawl: ctx.feed !== null });
      case "/api/robots":
        return json(res, 200, await askRobots(url.searchParams.get("site") ?? "", asker));
      case "/api/sitemap":
        return json(
          res,
          200,
          await askSitemap(
            url.searchParams.get("url") ?? "",
            asker,
            url.searchParams.get("from") || null,
            url.searchParams.get("all") === "1" ? SITEMAP_URLS_READ_THROUGH : SITEMAP_SAMPLE,
          ),
        );
      case "/api/data-txt":
        return json(res, 200, await askDataTxt(url.searchParams.get("site") ?? "", asker));
      case "/api/crawl":
        if (ctx.feed === null)
          return json(res, 404, { error: "heed ui was started without --store" });
        return json(res, 200, await ctx.feed.latest());
      case "/api/crawl/events":
        if (ctx.feed === null)
          return json(res, 404, { error: "heed ui was started without --store" });
        return ctx.feed.listen(req, res);
      default:
        return json(res, 404, { error: `nothing at ${path}` });
    }
  } catch (error) {
    if (error instanceof AskError) return json(res, 400, { error: error.message });
    throw error;
  }
}

const COMMON_HEADERS = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "x-frame-options": "DENY",
} as const;

function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    ...COMMON_HEADERS,
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  });
  res.end(body);
}

/** The User-Agent to send: the robot the user named, when it is a header value; else heed's. */
function agentOf(text: string | null): string {
  const value = (text ?? "").trim();
  if (value === "" || value.length > MAX_AGENT_CHARS || /[\0-\x1f\x7f]/.test(value)) {
    return `heed/${VERSION}`;
  }
  return value;
}

async function loadAssets(): Promise<ReadonlyMap<string, Buffer>> {
  const dir = new URL("./assets/", import.meta.url);
  const out = new Map<string, Buffer>();
  for (const { file } of Object.values(ASSETS)) {
    try {
      out.set(file, await readFile(new URL(file, dir)));
    } catch (error) {
      throw new Error(
        `the page's ${file} is missing from ${dir.pathname} (npm run build makes it)`,
        {
          cause: error,
        },
      );
    }
  }
  return out;
}

/**
 * One feed shared by every listening page: the store is read once per tick whoever listens,
 * and not at all while nobody does.
 */
class FeedHub {
  private readonly listeners = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | null = null;
  private last: CrawlSnapshot | null = null;
  private lastText = "";
  /** The last snapshot sent, less its moment: a snapshot is sent only when this changes. */
  private lastKey = "";
  private running: Promise<CrawlSnapshot> | null = null;
  private quietSince = Date.now();

  constructor(
    private readonly feed: CrawlFeed,
    private readonly intervalMs: number,
  ) {}

  /** A fresh snapshot (reads the store unless a read is under way). */
  async latest(): Promise<CrawlSnapshot> {
    this.running ??= this.feed.refresh().finally(() => {
      this.running = null;
    });
    this.last = await this.running;
    return this.last;
  }

  listen(req: IncomingMessage, res: ServerResponse): void {
    if (this.listeners.size >= MAX_LISTENERS) {
      json(res, 503, { error: `more than ${MAX_LISTENERS} pages listening` });
      return;
    }
    res.writeHead(200, {
      ...COMMON_HEADERS,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    res.write("retry: 2000\n\n");
    this.listeners.add(res);
    if (this.lastText !== "") res.write(event(this.lastText));
    req.on("close", () => {
      this.listeners.delete(res);
      if (this.listeners.size === 0) this.stop();
    });
    if (this.timer === null) {
      void this.tick();
      this.timer = setInterval(() => void this.tick(), this.intervalMs);
    }
  }

  private async tick(): Promise<void> {
    if (this.running !== null) return;
    const snapshot = await this.latest();
    const { at: _at, ...rest } = snapshot;
    const text = JSON.stringify(snapshot);
    const key = JSON.stringify(rest);
    if (key !== this.lastKey) {
      this.lastKey = key;
      this.lastText = text;
      this.quietSince = Date.now();
      for (const res of this.listeners) res.write(event(text));
    } else if (Date.now() - this.quietSince >= KEEPALIVE_MS) {
      this.quietSince = Date.now();
      for (const res of this.listeners) res.write(": still here\n\n");
    }
  }

  private stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.lastKey = "";
  }

  async close(): Promise<void> {
    this.stop();
    for (const res of this.listeners) res.end();
    this.listeners.clear();
    await this.running?.catch(() => undefined);
    await this.feed.close();
  }
}

function event(data: string): string {
  return `event: snapshot\ndata: ${data}\n\n`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
