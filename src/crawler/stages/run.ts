/**
 * What every stage of one crawl run shares: the options, the store and client, the clock, the
 * events, the stop signal, who this process is, and the run's counts and budgets. Each stage
 * owns its own state besides (see the stage files); this holds only what they all read.
 */
import { tapClient } from "../../net/exchange-tap.js";
import type { HttpClient } from "../../net/http-client.js";
import type { Robot } from "../../protocol/robots/index.js";
import type { CrawlRecord, CrawlStore, Lease, Outcome, SettleWrites } from "../../store/types.js";
import type { CrawlerOptions, CrawlEvent } from "../crawl-options.js";
import { makeScope, type Scope } from "../scope.js";
import { urlFilter } from "../url-patterns.js";
import { normalizeUrl } from "../url-normal.js";

/** A record's optional fields the stages fill. */
export type LogExtras = Partial<
  Pick<
    CrawlRecord,
    "canonical" | "via" | "referrer" | "gapMs" | "requiredGapMs" | "waitedMs" | "usage"
  >
>;

export class CrawlRun {
  readonly store: CrawlStore;
  readonly client: HttpClient;
  readonly now: () => number;
  readonly started: number;
  readonly emit: (event: CrawlEvent) => void;
  /** The scope's hosts and the include and exclude patterns: whether a found URL is taken. */
  readonly inScope: Scope;
  /** The include and exclude patterns alone. */
  readonly wanted: Scope;
  /** The robot's name token, lower-cased, as page robots meta and X-Robots-Tag name it. */
  readonly token: string;
  /** --queued fetches what is queued: links and sitemaps only with --follow. */
  readonly following: boolean;
  /** What this run did, for the summary. */
  readonly tally = { fetched: 0, skipped: 0, failed: 0, retried: 0 };
  /** Pages settled, counted against `maxPages` (this run's, or the crawl's with --total). */
  done = 0;
  /** Pages fetched of each site, counted against `maxPerHost`. */
  readonly perSite = new Map<string, number>();
  /** Sites whose page budget is spent: their URLs stay queued for a later run. */
  readonly spent = new Set<string>();

  constructor(
    readonly options: CrawlerOptions,
    /** Stopped by the caller, or from within (the store lost the crawl). */
    readonly signal: AbortSignal,
    /** This process, as the store knows it (leases, reservations). */
    readonly owner: string,
  ) {
    this.store = options.store;
    this.now = options.now ?? options.store.now;
    this.client =
      options.onExchange === undefined
        ? options.client
        : tapClient(options.client, options.onExchange, this.now);
    this.started = this.now();
    this.emit = options.onEvent ?? (() => {});
    this.wanted = urlFilter(options.include ?? [], options.exclude ?? []);
    const hosts = makeScope(options.scope, options.seeds);
    this.inScope = (url) => hosts(url) && this.wanted(url);
    this.token = options.agent.toLowerCase();
    this.following = options.queued !== true || options.follow === true;
  }

  normal(url: string): string | null {
    return normalizeUrl(url, undefined, { sortQuery: this.options.sortQuery === true });
  }

  /** The robot as robots.txt rules see it at `at`. */
  robot(at: number): Robot {
    const o = this.options;
    return {
      agent: o.agent,
      at,
      ...(o.ip === undefined ? {} : { ip: o.ip }),
      ...(o.languages === undefined ? {} : { languages: o.languages }),
      ...(o.encodings === undefined ? {} : { encodings: o.encodings }),
      ...(o.charsets === undefined ? {} : { charsets: o.charsets }),
    };
  }

  /** One record in the crawl log. */
  log(
    url: string,
    origin: string,
    at: number,
    ms: number,
    status: number | null,
    bytes: number,
    outcome: string,
    detail: string | null,
    extras: LogExtras = {},
  ): Promise<void> {
    const record = { url, origin, at, ms, status, bytes, outcome, detail, ...extras };
    const told = this.options.onRecord;
    return told === undefined
      ? this.store.log.append(record)
      : this.store.log.append(record).then(() => told(record));
  }

  /**
   * Ends a lease with its crawl log line and the page's links and validators, in one store step
   * (one round trip on Redis, one transaction on SQLite).
   */
  async settleLogged(
    lease: Lease,
    outcome: Outcome,
    record: CrawlRecord,
    writes: Omit<SettleWrites, "record"> = {},
  ): Promise<void> {
    await this.store.steps.settle(lease, outcome, { ...writes, record });
    this.options.onRecord?.(record);
  }

  /** Requests in flight at once to `origin` over the crawl: its own setting, else `perHost`. */
  perHostOf(origin: string): number {
    const { perHostOf, perHost } = this.options;
    return Math.min(perHostOf?.(origin) ?? perHost, perHost);
  }

  /** A page of `origin` kept (fetched, or indexed by an agent): counted against the budgets. */
  counted(origin: string): void {
    this.tally.fetched++;
    this.done++;
    this.perSite.set(origin, (this.perSite.get(origin) ?? 0) + 1);
  }
}
