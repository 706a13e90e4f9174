/**
 * The polite crawler as a library: `new Crawler({ agent, store, seeds, handler }).run()`.
 * It owns what one crawl needs besides its store (the HTTP client, the agent paths, the events)
 * and hands every kept page to the handler with a context whose every way out goes through the
 * crawl's checks. What a run does is `crawl()`'s (../crawler.ts), the same as `heed crawl`'s.
 */
import { setMaxListeners } from "node:events";
import { createHttpClient } from "../../net/http-client.js";
import { isPrivateHost } from "../../net/address-guard.js";
import { VERSION } from "../../net/version.js";
import { openStore } from "../../store/open.js";
import type { CrawlStore } from "../../store/types.js";
import { AgentPaths } from "../agent-paths.js";
import {
  crawl,
  type CrawlEvent,
  type CrawlerOptions as CoreOptions,
  type CrawlSummary,
  type FetchedPage,
  type PageHooks,
} from "../crawler.js";
import { describeError } from "../describe-error.js";
import { CrawlerError } from "./errors.js";
import { type CrawlEventOf, CrawlEvents, type CrawlEventType } from "./events.js";
import {
  acceptsType,
  checkOptions,
  type CrawlerOptions,
  DEFAULTS,
  type LinkExtractor,
  originKey,
  type PageHandler,
} from "./options.js";
import { pageContext, pageOf, pageReader } from "./page.js";

/** What a run did: the crawl's summary, and what the handler added. */
export interface CrawlerSummary extends CrawlSummary {
  /** Records the handler pushed in this run. */
  readonly items: number;
  /** Pages whose handler threw or ran past its time (each tried again, then failed). */
  readonly handlerErrors: number;
}

/** Options of one run, over the crawler's. */
export interface RunOptions {
  readonly signal?: AbortSignal;
}

export class Crawler {
  private readonly options: CrawlerOptions;
  private readonly seeds: readonly string[];
  private readonly hub = new CrawlEvents();
  private running = false;

  constructor(options: CrawlerOptions) {
    this.seeds = checkOptions(options).seeds;
    // A copy: options changed by the caller later do not change this crawler.
    this.options = { ...options };
  }

  /** Calls `listener` with each event of `type`; returns the function that stops it. */
  on<T extends CrawlEventType>(type: T, listener: (event: CrawlEventOf<T>) => void): () => void {
    return this.hub.on(type, listener);
  }

  /** The events of the next (or current) run, in order, ending when the run ends. */
  events(): AsyncIterableIterator<CrawlEvent> {
    return this.hub.stream();
  }

  /**
   * Crawls until nothing is left in reach, a budget is spent, or the signal stops it; resolves
   * to the summary. Run again on the same store, it resumes. Rejects only when the crawl
   * cannot go on at all (the store failed or lost the crawl), never for a page or a handler.
   */
  async run(runOptions: RunOptions = {}): Promise<CrawlerSummary> {
    if (this.running)
      throw new CrawlerError("HEED_ALREADY_RUNNING", "run(): this crawler is running already");
    this.running = true;
    this.hub.begin();
    const o = this.options;
    const owned = typeof o.store === "string";
    let store: CrawlStore | null = null;
    const perHost = o.perHost ?? DEFAULTS.perHost;
    const userAgent = o.userAgent ?? `${o.agent}/${VERSION} (+${o.infoUrl ?? DEFAULTS.infoUrl})`;
    // Asking for a loopback or private seed is asking for that host, not for every host the
    // crawl comes upon: anything else must opt in (allowPrivateAddresses).
    const privateHosts = this.seeds
      .map((url) => new URL(url).hostname)
      .filter((host) => isPrivateHost(host));
    const client = createHttpClient({
      userAgent,
      allowPrivateAddresses: o.allowPrivateAddresses === true,
      ...(o.allowPrivateAddresses === false ? {} : { privateHosts }),
      connectionsPerOrigin: perHost,
      ...(o.maxSockets === undefined ? {} : { maxSockets: o.maxSockets }),
      ...(o.ip === undefined ? {} : { localAddress: o.ip }),
      ...(o.signer === undefined ? {} : { signer: o.signer }),
      ...(o.proxy === undefined ? {} : { proxy: o.proxy }),
      ...(o.proxyFor === undefined ? {} : { proxyFor: o.proxyFor }),
    });
    const signals = [o.signal, runOptions.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
    // One listener a page in a handler, as many as the crawl's concurrency: not a leak.
    if (signal !== undefined) setMaxListeners(0, signal);
    const tally = { items: 0, handlerErrors: 0 };
    try {
      store = typeof o.store === "string" ? await openStore(o.store) : o.store;
      const kept = store;
      const timeoutMs = o.handlerTimeoutMs ?? DEFAULTS.handlerTimeoutMs;
      const handler = o.handler;
      const onPage =
        handler === undefined
          ? {}
          : { onPage: this.pageHandler({ handler, timeoutMs, signal, store: kept, tally }) };
      const sites = new Map(
        Object.entries(o.sites ?? {}).map(([origin, site]) => [originKey(origin) ?? origin, site]),
      );
      const cookies = new Map(
        Object.entries(o.cookies ?? {}).map(([origin, value]) => [
          originKey(origin) ?? origin,
          value,
        ]),
      );
      const headers = o.headers === undefined ? null : lowerCased(o.headers);
      const links = o.links;
      const core: CoreOptions = {
        seeds: this.seeds,
        agent: o.agent,
        userAgent,
        store,
        client,
        maxPages: o.maxPages ?? DEFAULTS.maxPages,
        maxDepth: o.maxDepth ?? DEFAULTS.maxDepth,
        concurrency: o.concurrency ?? DEFAULTS.concurrency,
        perHost,
        scope: o.scope ?? DEFAULTS.scope,
        ...(o.include === undefined ? {} : { include: o.include }),
        ...(o.exclude === undefined ? {} : { exclude: o.exclude }),
        onEvent: (event) => this.hub.emit(event),
        ...onPage,
        ...(signal === undefined ? {} : { signal }),
        ...(sites.size === 0
          ? {}
          : { perHostOf: (origin: string) => sites.get(origin)?.concurrency ?? perHost }),
        ...(headers === null ? {} : { extraHeaders: () => headers }),
        ...(cookies.size === 0 ? {} : { cookie: (origin: string) => cookies.get(origin) ?? null }),
        ...(links !== undefined
          ? { links: this.linkExtractor(links, timeoutMs) }
          : o.followLinks === false
            ? { links: () => [] }
            : {}),
        ...(o.purposes === undefined && o.keepRefused === undefined
          ? {}
          : { usage: { purposes: o.purposes ?? [], keepRefused: o.keepRefused === true } }),
        ...(o.agents === true
          ? {
              agents: new AgentPaths({
                robot: o.agent,
                userAgent,
                store,
                // As for HTTP: an agent host on a private address is reached when the user
                // named its host as a seed, or allowed private addresses for the whole crawl.
                allowPrivate: o.allowPrivateAddresses === true,
                ...(o.allowPrivateAddresses === false ? {} : { privateHosts }),
                now: store.now,
              }),
            }
          : {}),
        ...pick(o, [
          "maxPerHost",
          "total",
          "ip",
          "languages",
          "encodings",
          "charsets",
          "dialect",
          "sitemaps",
          "sitemapFallback",
          "recrawl",
          "revisit",
          "queued",
          "follow",
          "sortQuery",
          "siteWaitMs",
          "maxAttempts",
          "onExchange",
          "onRecord",
        ]),
      };
      const summary = await crawl(core);
      return { ...summary, ...tally };
    } finally {
      this.hub.end();
      this.running = false;
      await client.close();
      if (owned) await store?.close().catch(() => {});
    }
  }

  /**
   * The crawl's `onPage`: the user's handler given the page and its context, within its time,
   * with the crawl's stop as its signal; what it pushed and whether it failed are counted.
   */
  private pageHandler(
    parts: HandlerParts,
  ): (fetched: FetchedPage, hooks: PageHooks) => Promise<void> {
    const { handler, timeoutMs, signal, tally } = parts;
    const contentTypes = this.options.contentTypes;
    return async (fetched, hooks) => {
      const page = pageOf(fetched);
      if (!acceptsType(contentTypes, page.contentType)) return;
      // The crawl's stop reaches the page's signal through one listener, removed after:
      // AbortSignal.any per page would keep every page's signal alive on Node 20.
      const stop = new AbortController();
      const abort = () => stop.abort();
      signal?.addEventListener("abort", abort, { once: true });
      if (signal?.aborted === true) stop.abort();
      const context = pageContext({
        page,
        hooks,
        signal: stop.signal,
        keep: (texts) => parts.store.items.append(texts),
      });
      try {
        await withTimeout(
          (async () => {
            await handler(page, context.context);
            await context.settled();
          })(),
          timeoutMs,
          () => {
            // The handler's signal says its time is up (an abort per page would cost an
            // exception object each; a handler that ended needs none).
            stop.abort();
            return new CrawlerError(
              "HEED_HANDLER_TIMEOUT",
              `the handler of ${page.url} ran past ${timeoutMs} ms`,
            );
          },
        );
      } catch (error) {
        tally.handlerErrors++;
        throw error;
      } finally {
        signal?.removeEventListener("abort", abort);
        context.close();
        tally.items += context.pushed();
      }
    };
  }

  /** The crawl's `links`: the user's extractor within its time; a failure keeps no links. */
  private linkExtractor(
    links: LinkExtractor,
    timeoutMs: number,
  ): (fetched: FetchedPage) => Promise<readonly string[]> {
    return async (fetched) => {
      const page = pageOf(fetched);
      try {
        const found = await withTimeout(
          Promise.resolve(links(page, pageReader(page))),
          timeoutMs,
          () =>
            new CrawlerError("HEED_HANDLER_TIMEOUT", `links of ${page.url}: past ${timeoutMs} ms`),
        );
        return Array.isArray(found) ? found : [];
      } catch (error) {
        this.hub.emit({
          type: "notice",
          message: `the link extractor failed on ${page.url}: ${describeError(error)}; no links kept from it`,
        });
        return [];
      }
    };
  }
}

/** What {@link Crawler.pageHandler} needs of a run. */
interface HandlerParts {
  readonly handler: PageHandler;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly store: CrawlStore;
  /** The run's counts, added to by each page. */
  readonly tally: { items: number; handlerErrors: number };
}

/** The options named, those given. */
function pick<K extends keyof CrawlerOptions>(
  options: CrawlerOptions,
  keys: readonly K[],
): Partial<Pick<CrawlerOptions, K>> {
  const out: Partial<Pick<CrawlerOptions, K>> = {};
  for (const key of keys) if (options[key] !== undefined) out[key] = options[key];
  return out;
}

function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** `work`, or `timeout()`'s error once `ms` have passed (the work itself cannot be stopped). */
function withTimeout<T>(work: Promise<T>, ms: number, timeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeout()), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
