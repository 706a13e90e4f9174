/**
 * A site's RUP service, as one object that owns its state: the state file, the modification
 * log, the action endpoint, /rupinfo.txt, and the schedule that makes reports at each
 * registration's latency and mails them. The clock is injected; `tick` does one round of the
 * schedule, and runs by itself every `tickMs` unless that is 0 (tests drive it by hand).
 */
import { callbackProblem } from "./callback-check.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { stateFilesOf } from "../hidden-paths.js";
import { formatRupInfo, type Latency, latencyMs, type RupInfo } from "../../protocol/rup/index.js";
import { VERSION } from "../../net/version.js";
import { createHttpClient, type HttpClient } from "../../net/http-client.js";
import { ActionEndpoint } from "./action-endpoint.js";
import { CONFIRM_PATH, handleConfirm } from "./confirm-page.js";
import { type MailTransport, sendOutbox, type SendResult } from "./mailer.js";
import { ModificationLog } from "./modification-log.js";
import { productToken } from "../../protocol/robots/index.js";
import { capabilityList, changeList, RESOURCESYNC_PATHS, sourceDescription } from "./changelist.js";
import { makeDueReports, readSiteRobots, reportFilter } from "./reports.js";
import { SiteState } from "./state.js";

/** Where the action endpoint answers, after the CGI scripts the seed has in mind. */
export const ACTION_PATH = "/cgi-bin/rup";
/** The names /rupinfo.txt answers to (DESIGN §5: the draft writes both). */
export const RUPINFO_PATHS: readonly string[] = ["/rupinfo.txt", "/rupinfo.tex"];

export interface RupSiteOptions {
  /** The site's directory. */
  readonly root: string;
  /** The state file (SQLite), created when missing. */
  readonly statePath: string;
  /** The site's public URL: URLBase of reports, base of RUP-CGI. */
  readonly urlBase: string;
  /** Latency values offered (default day, week, month). */
  readonly latencies?: readonly string[];
  /** How long the log is kept and GetIndex reaches back (default 1-month). */
  readonly maxQuerySpan?: Latency;
  /** Patterns offered for Exclude and IncludeOnly (default none). */
  readonly exclude?: readonly string[];
  readonly includeOnly?: readonly string[];
  /** Where reports go; null keeps them in the outbox until a transport is given. */
  readonly transport: MailTransport | null;
  /** The From address of reports. */
  readonly from: string;
  readonly now?: () => number;
  /** Full comparisons of the tree with the snapshot, every this many ms (default 300000; 0: never). */
  readonly scanIntervalMs?: number;
  /** Rounds of the report schedule, every this many ms (default 5000; 0: only by `tick`). */
  readonly tickMs?: number;
  readonly warn?: (message: string) => void;
  /**
   * Webhook registrations (an http(s) URL in place of an address) may name private and
   * loopback addresses; off by default, so that a robot cannot make the site call inside its
   * own network.
   */
  readonly allowPrivateWebhooks?: boolean;
  /**
   * Ask each new recipient to confirm by mail before anything else is sent to it (`--confirm`;
   * docs/rup-abuse.md). Webhook registrations are then not offered.
   */
  readonly confirm?: boolean;
  /** Registration limits (default: action-endpoint.ts MAX_REGISTRATIONS and the rest). */
  readonly maxRegistrations?: number;
  readonly maxRegistrationsPerNetwork?: number;
  readonly maxRegistrationsPerHour?: number;
}

/**
 * A registration whose robot has not been heard of this long (no report delivered to it, no
 * request with its key) is forgotten with its unsent reports: an undeliverable address must
 * not keep reports forever. Two months outlast the longest usual latency (a month).
 */
export const REGISTRATION_SILENCE_MS = 60 * 86_400_000;
/** An unconfirmed registration (`--confirm`) is forgotten after this long. */
export const CONFIRMATION_WINDOW_MS = 3 * 86_400_000;

export const DEFAULT_LATENCIES: readonly string[] = ["day", "week", "month"];
export const DEFAULT_MAX_QUERY_SPAN: Latency = { count: 1, unit: "month" };

export interface TickResult extends SendResult {
  /** Reports made this round. */
  readonly made: number;
  /** Log entries forgotten (older than MaxQuerySpan and reported to everyone). */
  readonly pruned: number;
  /** Registrations forgotten: silent too long, or never confirmed. */
  readonly expired: number;
}

export class RupSite {
  readonly info: RupInfo;
  readonly state: SiteState;
  readonly log: ModificationLog;
  private readonly endpoint: ActionEndpoint;
  private readonly now: () => number;
  private readonly timers: NodeJS.Timeout[] = [];
  private ticking: Promise<TickResult> | null = null;
  private transport: MailTransport | null;
  private readonly webhooks: HttpClient;

  private constructor(
    private readonly options: RupSiteOptions,
    state: SiteState,
    realRoot: string,
  ) {
    this.now = options.now ?? Date.now;
    this.state = state;
    this.transport = options.transport;
    this.webhooks = createHttpClient({
      userAgent: `heed-rup/${VERSION}`,
      allowPrivateAddresses: options.allowPrivateWebhooks === true,
    });
    this.info = {
      cgiUrl: new URL(ACTION_PATH, options.urlBase).href,
      authentifier: "none",
      latencies: options.latencies ?? DEFAULT_LATENCIES,
      exclude: options.exclude ?? [],
      includeOnly: options.includeOnly ?? [],
      maxQuerySpan: options.maxQuerySpan ?? DEFAULT_MAX_QUERY_SPAN,
      extensions: [],
    };
    // Real paths: the watcher reports them, and a --state reaching the directory through a
    // symlink must still be recognised as heed's own file (its writes are no site change).
    const root = realRoot;
    this.log = new ModificationLog({
      root,
      state,
      now: this.now,
      ignore: new Set(stateFilesOf(resolve(options.statePath))),
      ...(options.warn === undefined ? {} : { warn: options.warn }),
    });
    this.endpoint = new ActionEndpoint({
      state,
      info: this.info,
      root,
      urlBase: options.urlBase,
      now: this.now,
      callbackProblem: (url) => callbackProblem(url, options.allowPrivateWebhooks === true),
      confirm: options.confirm === true,
      ...(options.maxRegistrations === undefined
        ? {}
        : { maxRegistrations: options.maxRegistrations }),
      ...(options.maxRegistrationsPerNetwork === undefined
        ? {}
        : { maxRegistrationsPerNetwork: options.maxRegistrationsPerNetwork }),
      ...(options.maxRegistrationsPerHour === undefined
        ? {}
        : { maxRegistrationsPerHour: options.maxRegistrationsPerHour }),
    });
  }

  /** Opens the state, compares the tree with its snapshot, starts watching and the timers. */
  static async open(options: RupSiteOptions): Promise<RupSite> {
    // A symlinked directory is watched at its real path (inotify will not watch a link).
    const realRoot = await realpath(resolve(options.root));
    const state = SiteState.open(options.statePath);
    const site = new RupSite(options, state, realRoot);
    try {
      await site.log.start();
    } catch (error) {
      state.close();
      throw error;
    }
    const scanEvery = options.scanIntervalMs ?? 300_000;
    if (scanEvery > 0) site.timers.push(setInterval(() => void site.log.rescan(), scanEvery));
    const tickEvery = options.tickMs ?? 5_000;
    if (tickEvery > 0)
      site.timers.push(
        setInterval(
          () =>
            void site
              .tick()
              .catch((e: unknown) => options.warn?.(`reports: ${(e as Error).message}`)),
          tickEvery,
        ),
      );
    for (const t of site.timers) t.unref();
    return site;
  }

  get infoText(): string {
    return formatRupInfo(this.info);
  }

  /** Serves /rupinfo.txt, /rupinfo.tex and the action endpoint; false for any other path. */
  async serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    if (RUPINFO_PATHS.includes(pathname)) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
        res.end("only GET and HEAD\n");
        return true;
      }
      res.writeHead(200, {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "max-age=3600",
      });
      res.end(req.method === "HEAD" ? undefined : this.infoText);
      return true;
    }
    if (pathname === ACTION_PATH) {
      await this.endpoint.handle(req, res);
      return true;
    }
    if (pathname === CONFIRM_PATH && this.options.confirm === true) {
      await handleConfirm(req, res, this.state);
      return true;
    }
    const xml = await this.resourceSync(req, pathname);
    if (xml === null) return false;
    res.writeHead(200, {
      "content-type": "application/xml; charset=utf-8",
      "cache-control": "no-cache",
    });
    res.end(req.method === "HEAD" ? undefined : xml);
    return true;
  }

  /** The ResourceSync documents (./changelist.ts), or null for any other path. */
  private async resourceSync(req: IncomingMessage, pathname: string): Promise<string | null> {
    const base = this.options.urlBase;
    if (pathname === RESOURCESYNC_PATHS.description) return sourceDescription(base);
    if (pathname === RESOURCESYNC_PATHS.capabilities) return capabilityList(base);
    if (pathname !== RESOURCESYNC_PATHS.changes) return null;
    const now = this.now();
    const from = now - latencyMs(this.info.maxQuerySpan ?? DEFAULT_MAX_QUERY_SPAN);
    const ua = req.headers["user-agent"];
    const keep = reportFilter(
      { kind: "all" },
      ua === undefined || ua.trim() === "" ? null : productToken(ua),
      await readSiteRobots(this.options.root),
      base,
    );
    return changeList(
      this.state.changesSince(from).filter((c) => keep(c.path)),
      base,
      from,
      now,
    );
  }

  /**
   * One round: the log brought up to date, reports made for every registration due, the
   * outbox sent (what fails stays for a retry), the log pruned. Rounds never overlap.
   */
  tick(): Promise<TickResult> {
    this.ticking ??= this.round().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async round(): Promise<TickResult> {
    await this.log.idle();
    const now = this.now();
    const expired = this.state.expire(now - REGISTRATION_SILENCE_MS, now - CONFIRMATION_WINDOW_MS);
    const made = await makeDueReports(this.state, this.options.root, this.options.urlBase, now);
    const sent = await sendOutbox(this.state, this.transport, {
      from: this.options.from,
      urlBase: this.options.urlBase,
      now,
      webhooks: this.webhooks,
      ...(this.options.warn === undefined ? {} : { warn: this.options.warn }),
    });
    const span = this.info.maxQuerySpan ?? DEFAULT_MAX_QUERY_SPAN;
    const pruned = this.state.prune(now - latencyMs(span));
    return { made, pruned, expired, ...sent };
  }

  /** Stops the timers and the watcher, waits for a round in progress, closes the state. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.ticking?.catch(() => undefined);
    await this.log.stop();
    this.transport?.close();
    await this.webhooks.close();
    this.state.close();
  }
}
