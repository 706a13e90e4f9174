/**
 * `heed crawl`: a polite crawl from seed URLs, resumable from its SQLite store (or shared
 * through Redis), with a live progress line and a JSON summary.
 */
import { isIP } from "node:net";
import { Crawler, type CrawlerSummary } from "../../crawler/api/crawler.js";
import type { Page } from "../../crawler/api/page.js";
import type { CrawlEvent, CrawlSummary, FetchedPage } from "../../crawler/crawler.js";
import type { CatalogRun } from "../../crawler/datasets/crawl-catalogs.js";
import { catalogLine, catalogSummary } from "../crawl-datasets.js";
import type { ScopeKind } from "../../crawler/scope.js";
import { urlPatternProblem } from "../../crawler/url-patterns.js";
import { proxyChoice } from "../proxy-flags.js";
import { normalizeUrl } from "../../crawler/url-normal.js";
import { WarcWriter } from "../../crawler/warc-writer.js";
import type { Exchange } from "../../net/exchange-tap.js";
import { createHttpClient } from "../../net/http-client.js";
import { openStore } from "../../store/open.js";
import { StoreError } from "../../store/errors.js";
import { isStorageFailure } from "../../crawler/storage-failure.js";
import { shown } from "../../store/shown-spec.js";
import type { CrawlRecord } from "../../store/types.js";
import { CliError, EXIT_INTERRUPTED, EXIT_OK, EXIT_STORE } from "../errors.js";
import type { Io } from "../io.js";
import { ProgressLine } from "../progress.js";
import { VERSION } from "../version.js";
import { agentToken } from "../agent-token.js";
import { isPrivateHost } from "../private-host.js";
import { type Category, readPurpose } from "../../protocol/usage/index.js";
import { printable } from "../printable.js";
import { signerFromFlags } from "../request-signing.js";
import { ACCEPT_FLAG, watchRestoredStore } from "../restored-store.js";

/** `--purpose search --purpose train-ai` (or `search,train-ai`) → the categories, checked. */
function crawlPurposes(given: readonly string[] | undefined): Category[] {
  const purposes: Category[] = [];
  for (const text of given ?? []) {
    for (const part of text.split(",")) {
      const purpose = readPurpose(part);
      if (purpose === null)
        throw new CliError(
          `--purpose: expected search, train-ai or ai-input, got "${part.trim()}"`,
        );
      if (!purposes.includes(purpose)) purposes.push(purpose);
    }
  }
  return purposes;
}

export interface CrawlCommandOptions {
  readonly agent?: string;
  readonly infoUrl: string;
  readonly store: string;
  readonly out?: string;
  readonly warcMaxBytes?: string;
  readonly maxPages: string;
  readonly maxDepth: string;
  readonly maxPerHost?: string;
  readonly concurrency: string;
  readonly perHost: string;
  /** Connections open at once over all sites (default: from the open-files limit). */
  readonly maxSockets?: string;
  readonly scope: ScopeKind;
  readonly include?: readonly string[];
  readonly proxy?: string;
  readonly proxyFor?: readonly string[];
  readonly exclude?: readonly string[];
  readonly ip?: string;
  readonly languages?: string;
  readonly encodings?: string;
  readonly charsets?: string;
  readonly allowPrivate?: boolean;
  readonly quiet?: boolean;
  /** `auto` (default), `lines` or `json`: how progress is written (see progress.ts). */
  readonly progress?: string;
  readonly recrawl?: boolean;
  readonly revisit?: boolean;
  readonly queued?: boolean;
  readonly sortQuery?: boolean;
  readonly json?: boolean;
  /** After the crawl, read each host's /data.txt and keep its catalog in the store. */
  readonly datasets?: boolean;
  /** Index subtrees through the agent hosts sites name (Mobile-agent-server, seeds/000). */
  readonly agents?: boolean;
  readonly total?: boolean;
  readonly follow?: boolean;
  /** False: `--no-sitemaps`. */
  readonly sitemaps?: boolean;
  /** Seconds a run waits for a site that is closed for now. */
  readonly siteWait?: string;
  /** Seconds to wait for a shared store that became unreachable. */
  readonly storeWait?: string;
  /** What the crawl collects for: search, train-ai, ai-input (docs/usage-preferences.md). */
  readonly purpose?: readonly string[];
  /** Keep pages whose usage preferences refuse a purpose (marked in the log). */
  readonly keepRefused?: boolean;
  /** A private JWK file: sign every request with Web Bot Auth (docs/web-bot-auth.md). */
  readonly sign?: string;
  /** The URL of the robot's key directory, sent as Signature-Agent. */
  readonly signatureAgent?: string;
  /** Crawl on a store that went back to an older state, from what it holds now. */
  readonly acceptRestoredStore?: boolean;
}

export async function runCrawl(
  seeds: readonly string[],
  options: CrawlCommandOptions,
  io: Io,
): Promise<number> {
  if (options.agent === undefined || options.agent.trim() === "")
    throw new CliError("--agent NAME is required");
  const agent = agentToken(options.agent);
  const progressMode = progressOf(options.progress);
  const purposes = crawlPurposes(options.purpose);
  if (seeds.length === 0 && options.queued !== true) {
    throw new CliError("give at least one URL to start from (or --queued)");
  }
  const normal = seeds.map((seed) => {
    const url = normalizeUrl(seed);
    if (url === null) throw new CliError(`not an http(s) URL: ${seed}`);
    return url;
  });
  if (options.ip !== undefined && isIP(options.ip) === 0) {
    throw new CliError(`--ip: expected an IPv4 or IPv6 address, got "${options.ip}"`);
  }
  const proxies = proxyChoice(options);
  const patterns = urlPatternProblem(options.include ?? [], options.exclude ?? []);
  // "include: …" names the flag; a count over the limit names both.
  if (patterns !== null)
    throw new CliError(/^(in|ex)clude:/.test(patterns) ? `--${patterns}` : patterns);
  const maxPages = count("--max-pages", options.maxPages, 1);
  const maxDepth = count("--max-depth", options.maxDepth, 0);
  const maxPerHost =
    options.maxPerHost === undefined ? undefined : count("--max-per-host", options.maxPerHost, 1);
  const concurrency = count("--concurrency", options.concurrency, 1);
  const perHost = count("--per-host", options.perHost, 1);
  const maxSockets =
    options.maxSockets === undefined ? undefined : count("--max-sockets", options.maxSockets, 1);
  const warcMaxBytes =
    options.warcMaxBytes === undefined
      ? undefined
      : count("--warc-max-bytes", options.warcMaxBytes, 1);
  const userAgent = `${agent}/${VERSION} (+${options.infoUrl})`;
  // Crawling a loopback or private seed is asking for it; anything else must opt in.
  const allowPrivate =
    options.allowPrivate === true || normal.some((url) => isPrivateHost(new URL(url).hostname));

  const signer = await signerFromFlags(options, io.cwd);

  const storeWaitS = count("--store-wait", options.storeWait ?? "60", 1);
  const siteWaitS = count("--site-wait", options.siteWait ?? "600", 0);
  const tty = (io.stderr as { isTTY?: boolean }).isTTY === true;
  // A line for a person; on a terminal it starts below the progress line.
  // Its text comes from sites (URLs, reasons, robots.txt lines): control characters shown, not sent.
  const say = (line: string) =>
    io.stderr.write(`${tty ? "\r\x1b[K" : ""}heed crawl: ${printable(line)}\n`);
  const clock = (at: number) => new Date(at).toISOString().slice(11, 19);
  // Settles only when a shared store gives up: the crawl's calls may then never settle.
  let storeFailed: (error: Error) => void = () => {};
  const failedStore = new Promise<never>((_, reject) => {
    storeFailed = reject;
  });
  failedStore.catch(() => {});
  const opened = await openStore(options.store, {
    unreachableMs: storeWaitS * 1000,
    onFailure: (error) => storeFailed(error),
    onConnection: ({ back, since }) =>
      say(
        back
          ? `store ${shown(options.store)} reachable again (lost at ${clock(since)})`
          : `store ${shown(options.store)} unreachable since ${clock(since)} UTC; ` +
              `waiting up to ${storeWaitS} s (--store-wait)`,
      ),
  }).catch((error: unknown) => {
    // A crawl kept in a layout this heed cannot read is a store's refusal, not bad input.
    const older = error instanceof StoreError && error.code === "HEED_STORE_OLDER_LAYOUT";
    throw new CliError(
      `cannot open the store ${options.store}: ${(error as Error).message}`,
      older ? EXIT_STORE : 2,
      { cause: error },
    );
  });
  const store = opened;
  const restored = await watchRestoredStore(store, {
    spec: options.store,
    cwd: io.cwd,
    accept: options.acceptRestoredStore === true,
  });
  // URLs an earlier run settled (fetched, or failed for good): a run with nothing left to do on
  // such a store is a finished crawl, not a first run that found nothing.
  const before = await store.frontier.counts();
  const settledBefore = before.done + before.failed;
  if (options.quiet !== true && (before.queued > 0 || settledBefore > 0))
    say(
      `resuming the crawl in ${shown(options.store)}: ${before.queued} queued, ` +
        `${settledBefore} settled by earlier runs`,
    );
  // --queued crawls the sites the store names: a private or loopback one is refused by the
  // address guard unless asked for, and saying so now beats "robots.txt no answer" later.
  if (options.queued === true && !allowPrivate) {
    const queuedSites = await store.frontier.readyOrigins(Number.MAX_SAFE_INTEGER, 1000, new Set());
    const privateSite = queuedSites.find((origin) => isPrivateHost(new URL(origin).hostname));
    if (privateSite !== undefined) {
      await store.close();
      throw new CliError(
        `${privateSite} is queued, and it is a private or loopback address: heed does not ` +
          "connect to those unless asked (--allow-private)",
      );
    }
  }
  // --out: WARC 1.1 files (see crawler/warc-writer.ts); each run starts a new file.
  const warc =
    options.out === undefined
      ? null
      : await WarcWriter.open(options.out, {
          prefix: "heed",
          software: `heed/${VERSION}`,
          info: { "http-header-user-agent": userAgent, robots: "obey" },
          ...(warcMaxBytes === undefined ? {} : { maxBytes: warcMaxBytes }),
        }).catch(async (error: unknown) => {
          await store.close();
          throw new CliError(
            `--out: cannot write WARC files in ${options.out}: ${(error as Error).message}`,
            2,
            { cause: error },
          );
        });
  const controller = new AbortController();
  // A stop, by Ctrl-C or by a service manager's SIGTERM, ends the crawl with its summary and
  // exit 130: the crawl resumes where it stopped when run again.
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    controller.abort();
  };
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  // What the store holds from earlier runs: the progress line starts from it.
  let queued = before.queued;
  // Off a terminal (cron, CI, a log file) the waits are lines, each said once.
  const told = new Map<string, string>();
  let skipsTold = 0;
  // What this run did, for a run that a failing store ends before the crawl's own summary.
  const thisRun = { fetched: 0, skipped: 0, failed: 0, started: Date.now() };
  const sayThisRun = (why: string) => {
    if (options.quiet === true) return;
    const { fetched, skipped, failed, started } = thisRun;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    say(`${fetched} fetched, ${skipped} skipped, ${failed} failed in ${seconds} s; ${why}`);
  };
  // Off a terminal, --json asks for the summary alone unless --progress says otherwise.
  const mode =
    progressMode !== "auto"
      ? progressMode
      : tty
        ? "redraw"
        : options.json === true
          ? null
          : "lines";
  const progress =
    options.quiet === true || mode === null
      ? null
      : new ProgressLine(io.stderr, () => queued, Date.now, mode);
  progress?.start();
  const poll =
    progress === null
      ? null
      : setInterval(() => {
          store.frontier.counts().then(
            (c) => {
              queued = c.queued;
            },
            () => {},
          );
        }, 1000);
  poll?.unref();
  // A page that cannot be archived stops the crawl: going on would fetch pages and lose them.
  let warcError: unknown = null;
  // Every exchange goes to the WARC files, each with the crawl log's record of what heed did
  // with it; a page kept gets a note of the rule that allowed it (the command's page handler).
  const archiving = (job: Promise<void>) =>
    job.catch((error: unknown) => {
      warcError ??= error;
      controller.abort();
    });
  const archive =
    warc === null
      ? {}
      : {
          onExchange: (exchange: Exchange) => void archiving(warc.writeExchange(exchange)),
          onRecord: (record: CrawlRecord) => void archiving(warc.noteRecord(record)),
          handler: (page: Page) =>
            warc
              .noteKept(archived(page), page.srcloc === null ? {} : { srcloc: page.srcloc })
              .catch((error: unknown) => {
                warcError ??= error;
                controller.abort();
                throw error;
              }),
        };
  let summary: CrawlSummary;
  // --datasets: the hosts the crawl reached, seeds' first.
  const hosts = new Set(normal.map((url) => new URL(url).origin));
  let catalogs: CatalogRun | null = null;
  try {
    const crawler = new Crawler({
      seeds: normal,
      agent,
      infoUrl: options.infoUrl,
      // A private seed opens its own host only (the library's default); --allow-private all.
      ...(options.allowPrivate === true ? { allowPrivateAddresses: true } : {}),
      store,
      maxPages,
      maxDepth,
      concurrency,
      perHost,
      ...(maxSockets === undefined ? {} : { maxSockets }),
      scope: options.scope,
      ...proxies,
      include: options.include ?? [],
      exclude: options.exclude ?? [],
      recrawl: options.recrawl === true,
      revisit: options.revisit === true,
      queued: options.queued === true,
      sortQuery: options.sortQuery === true,
      ...(maxPerHost === undefined ? {} : { maxPerHost }),
      signal: controller.signal,
      ...(options.sitemaps === false ? { sitemaps: false } : {}),
      total: options.total === true,
      siteWaitMs: siteWaitS * 1000,
      follow: options.follow === true,
      purposes,
      keepRefused: options.keepRefused === true,
      ...archive,
      ...(options.agents === true ? { agents: true } : {}),
      ...(options.ip === undefined ? {} : { ip: options.ip }),
      ...(signer === null ? {} : { signer }),
      ...list(options.languages, "languages"),
      ...list(options.encodings, "encodings"),
      ...list(options.charsets, "charsets"),
    });
    const onEvent = (event: CrawlEvent) => {
      progress?.event(event);
      if (event.type === "fetched" || event.type === "skipped" || event.type === "failed")
        thisRun[event.type]++;
      if (event.type === "notice") say(event.message);
      // Why a URL was not fetched, for the first few (heed report lists every one).
      if (event.type === "skipped" && options.quiet !== true && skipsTold < SKIPS_TOLD) {
        skipsTold++;
        say(`skipped ${event.url}: ${event.reason}`);
        if (skipsTold === SKIPS_TOLD) say("more skipped URLs: heed report lists them");
      }
      if (event.type === "waiting" && !tty && options.quiet !== true) {
        if (told.get(event.origin) !== event.why) {
          told.set(event.origin, event.why);
          say(`waiting for ${event.origin} until ${clock(event.until)} UTC: ${event.why}`);
        }
      }
      if (options.datasets === true && event.type === "fetched")
        hosts.add(new URL(event.url).origin);
    };
    for (const type of ["fetched", "skipped", "failed", "retry", "notice", "waiting"] as const)
      crawler.on(type, onEvent);
    summary = withoutLibraryFields(await runUntilFailed(failedStore, crawler));
    // The progress line's last draw shows the summary's count, not a poll's older one.
    queued = summary.queued;
    if (options.datasets === true && !controller.signal.aborted) {
      const client = createHttpClient({
        userAgent,
        allowPrivateAddresses: allowPrivate,
        ...proxies,
        connectionsPerOrigin: perHost,
        ...(options.ip === undefined ? {} : { localAddress: options.ip }),
        ...(signer === null ? {} : { signer }),
      });
      try {
        // Loaded only for --datasets: its pacer's in-memory store is SQLite.
        const { storeCatalogs } = await import("../../crawler/datasets/crawl-catalogs.js");
        catalogs = await storeCatalogs({
          store,
          client,
          agent,
          origins: hosts,
          ...(options.ip === undefined ? {} : { ip: options.ip }),
        });
      } finally {
        await client.close();
      }
    }
  } catch (error) {
    const failure = storeFailure(error, store.failure(), options.store);
    if (failure === null) throw error;
    sayThisRun("then the store failed");
    throw failure;
  } finally {
    if (poll !== null) clearInterval(poll);
    progress?.stop();
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    await restored.stop();
    await store.close().catch(() => {});
    await warc?.close();
  }
  if (warcError !== null) {
    sayThisRun("then the WARC output failed");
    // An output that failed mid-crawl (a full disk) is the crawl's storage failing, as a
    // store's is: exit 3. The page whose records failed was not filed as done: it stays queued.
    throw new CliError(
      `--out: ${(warcError as Error).message}; the pages not archived stay queued: ` +
        "make room and run the same command again to resume",
      EXIT_STORE,
      { cause: warcError },
    );
  }
  if (options.json === true) {
    const datasets = catalogs === null ? {} : { datasets: catalogSummary(catalogs) };
    io.stdout.write(`${JSON.stringify({ ...summary, ...datasets })}\n`);
  } else if (options.quiet !== true) {
    io.stderr.write(
      `heed crawl: ${summary.fetched} fetched, ${summary.skipped} skipped, ${summary.failed} failed, ` +
        `${summary.queued} still queued (${summary.stoppedBy}) in ${(summary.elapsedMs / 1000).toFixed(1)} s` +
        (options.revisit === true ? `; ${summary.revisitsDue} pages were due for a revisit` : "") +
        "\n",
    );
    if (catalogs !== null) io.stderr.write(`${printable(catalogLine(catalogs))}\n`);
    const again = options.recrawl === true || options.revisit === true;
    if (summary.stoppedBy === "finished" && summary.fetched === 0 && settledBefore > 0 && !again)
      io.stderr.write(
        "heed crawl: this crawl is finished: --revisit fetches the pages due again, " +
          "--recrawl fetches every page again\n",
      );
  }
  return interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

/** Skipped URLs whose reason is printed in a run; past them, `heed report` tells. */
const SKIPS_TOLD = 10;

function count(flag: string, value: string, min: number): number {
  const n = Number(value);
  // Past 2^53 a number is no longer whole in JavaScript (1e20 + 1 === 1e20): no count means that.
  if (!Number.isSafeInteger(n) || n < min)
    throw new CliError(`${flag}: expected a whole number ≥ ${min}, got "${value}"`);
  return n;
}

function list<K extends string>(value: string | undefined, key: K): Partial<Record<K, string[]>> {
  if (value === undefined) return {};
  const items = value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
  return { [key]: items } as Partial<Record<K, string[]>>;
}

/**
 * The words for a crawl ended by its store (exit 3), once and without a stack, or null when
 * `error` is not the store's: the crawl resumes when run again.
 */
function storeFailure(error: unknown, failed: Error | null, spec: string): CliError | null {
  if (failed instanceof StoreError && failed.code === "HEED_STORE_WENT_BACK")
    return new CliError(
      `${failed.message}. Check the store; to crawl on from what it holds now, run again ` +
        `with ${ACCEPT_FLAG}`,
      EXIT_STORE,
      { cause: error },
    );
  const lost = failed ?? error;
  if (lost instanceof StoreError && lost.code === "HEED_STORE_LOST")
    return new CliError(lost.message, EXIT_STORE, { cause: error });
  if (failed !== null)
    return new CliError(`${failed.message}; run the same command again to resume`, EXIT_STORE, {
      cause: error,
    });
  if (isStorageFailure(error)) {
    const { code, message } = error as Error & { code: string };
    return new CliError(
      `the store ${shown(spec)} cannot be written: ${message} (${code}); make room ` +
        "or make it writable, and run the same command again to resume",
      EXIT_STORE,
      { cause: error },
    );
  }
  return null;
}

/** The crawl, or the store's failure if that comes first. */
function runUntilFailed(failed: Promise<never>, crawler: Crawler): Promise<CrawlerSummary> {
  return Promise.race([crawler.run(), failed]);
}

/** `--progress`: how progress is written; `auto` chooses by whether stderr is a terminal. */
function progressOf(value: string | undefined): "auto" | "lines" | "json" {
  const mode = value ?? "auto";
  if (mode === "auto" || mode === "lines" || mode === "json") return mode;
  throw new CliError(`--progress: expected auto, lines or json, got "${mode}"`);
}

/** The command's summary: the crawl's, without what only a page handler adds. */
function withoutLibraryFields(summary: CrawlerSummary): CrawlSummary {
  const { items: _items, handlerErrors: _errors, ...crawl } = summary;
  return crawl;
}

/** A kept page as the WARC writer files it. */
function archived(page: Page): FetchedPage {
  return {
    url: page.url,
    status: page.status,
    headers: page.headers,
    body: page.body,
    at: page.fetchedAt,
    rule: page.rule,
    delaySeconds: page.delaySeconds,
    requestHeaders: page.requestHeaders,
    ...(page.truncated === null ? {} : { truncated: page.truncated }),
    ...(page.usage === null ? {} : { usage: page.usage }),
  };
}
