/**
 * The settle stage: what an answer means for its URL. A network error, 5xx or 429 is tried
 * again with back-off (Retry-After holds the whole site), then failed; a redirect queues its
 * target like a link (robots.txt is checked for it before it is fetched); a page is filed
 * (validators, revisit moment), its links handed to discover, kept or not (keep.ts), given to
 * the page handler, and logged. Owns no state but the licenses it logged: the run's counts are
 * the run's.
 */
import { LICENSE, PAYMENT_REQUIRED } from "../report.js";
import { linkLicenses } from "../../protocol/robots/index.js";
import type { PageResponse, PageResult } from "../../net/http-client.js";
import type { RobotsPolicy } from "../../protocol/robots/index.js";
import type { Discovery, Lease, NewUrl, PageValidators } from "../../store/types.js";
import type { IndexedPage } from "../agent-paths.js";
import type { FetchedPage } from "../crawl-options.js";
import { describeError } from "../describe-error.js";
import { readMeta } from "../discovery.js";
import { newUrl } from "../frontier-entry.js";
import { extractLinks, MAX_PAGE_LINKS, robotsTag } from "../links.js";
import { onHost } from "../other-host.js";
import { revisitOf } from "../revisit.js";
import { normalizeUrl } from "../url-normal.js";
import { deferForOpenFiles } from "../open-files-shortage.js";
import type { TdmRepFiles } from "../usage-site-files.js";
import { pageUsage, refusalDetail, type UsageCrawlOptions } from "../usage-verdict.js";
import type { Allowed } from "../verdict.js";
import type { DiscoverStage } from "./discover.js";
import { keepPage } from "./keep.js";
import type { CrawlRun } from "./run.js";

/** An answer from the site (not a network error) to the request for a leased URL. */
interface Answer {
  readonly origin: string;
  readonly lease: Lease;
  readonly result: PageResponse;
  readonly at: number;
  readonly decision: Allowed;
  readonly sent: Readonly<Record<string, string>>;
  readonly timing: Timing;
  readonly robots: RobotsPolicy | null;
  /** The page that led to the URL, for every record of it. */
  readonly ref: { readonly referrer?: string | null };
}

/** What {@link SettleStage.readPage} read of a page. */
interface PageRead {
  readonly page: FetchedPage;
  readonly html: ReturnType<typeof extractLinks> | null;
  readonly usage: ReturnType<typeof pageUsage>;
  readonly header: ReturnType<typeof robotsTag>;
  readonly nofollow: boolean;
  readonly meta: ReturnType<typeof readMeta>;
  readonly canonical: string | null;
}

/** A redirect chain is followed this many hops from the URL first queued, then given up. */
export const MAX_REDIRECT_HOPS = 5;
/** The first retry waits this long; each next one twice as long. */
export const RETRY_BASE_MS = 2_000;

/** How a request came about and the gap it kept, for the crawl log. */
export interface Timing {
  readonly via: Discovery;
  readonly gapMs: number | null;
  readonly requiredGapMs: number;
  readonly waitedMs: number;
}

/** What an HTTP status asks of the crawl. */
export type StatusAction = "retry" | "redirect" | "page";

/**
 * RFC 9110: 5xx and 429 are the site's trouble, tried again; 3xx but 304 lead elsewhere;
 * anything else (2xx, 304, 4xx) is the page's answer, filed as it is.
 */
export function statusAction(status: number): StatusAction {
  if (status >= 500 || status === 429) return "retry";
  if (status >= 300 && status < 400 && status !== 304) return "redirect";
  return "page";
}

/** How long before try `attempts + 1`: doubling back-off, or longer when Retry-After asks. */
export function retryDelay(attempts: number, retryAfterMs: number | null): number {
  return Math.max(retryAfterMs ?? 0, RETRY_BASE_MS * 2 ** attempts);
}

/** Without --purpose, preferences are recorded and refuse nothing. */
const NO_PURPOSES: UsageCrawlOptions = { purposes: [] };

function isHtml(contentType: string | null): boolean {
  return contentType !== null && /^(?:text\/html|application\/xhtml\+xml)\b/i.test(contentType);
}

/** A crawler-price longer than this is cut in the log: a price is a currency and a number. */
const MAX_PRICE_CHARS = 100;
/** Licenses remembered as logged already, per run: more are logged again, never lost. */
const MAX_LICENSES_SEEN = 10_000;

export class SettleStage {
  /** `origin license-url` of the Link rel="license" targets this run logged. */
  private readonly licensesSeen = new Set<string>();

  constructor(
    private readonly run: CrawlRun,
    private readonly discover: DiscoverStage,
    /** Sites' tdmrep.json, when the crawl collects for AI training or input. */
    private readonly tdmrep: TdmRepFiles | null = null,
  ) {}

  /** A page's `Link: <…>; rel="license"` targets, each logged once a run for its site. */
  private async logLicenses(url: string, origin: string, at: number, link: string | undefined) {
    for (const license of linkLicenses(link, url)) {
      const key = `${origin} ${license.url}`;
      if (this.licensesSeen.has(key)) continue;
      if (this.licensesSeen.size < MAX_LICENSES_SEEN) this.licensesSeen.add(key);
      await this.run.log(url, origin, at, 0, null, 0, LICENSE, `${license.where}: ${license.url}`);
    }
  }

  /** An answer (or none) to the request for a leased URL. */
  async fetched(
    origin: string,
    lease: Lease,
    result: PageResult,
    at: number,
    decision: Allowed,
    sent: Readonly<Record<string, string>>,
    timing: Timing,
    /** The site's robots.txt, whose usage lines speak for the page too. */
    robots: RobotsPolicy | null = null,
  ): Promise<void> {
    const { run } = this;
    const { url } = lease.entry;
    // Every record of a leased URL names the page that led to it (`heed report`'s broken links).
    const ref = { referrer: lease.entry.referrer };
    if (await deferForOpenFiles(run, lease, result)) return;
    if (result.kind === "error") {
      await this.retryOrFail(origin, lease, `${result.code}: ${result.message}`, null);
      await run.log(url, origin, at, result.ms, null, 0, "error", result.message, ref);
      return;
    }
    const answer: Answer = { origin, lease, result, at, decision, sent, timing, robots, ref };
    const { status } = result;
    const action = statusAction(status);
    if (action === "retry") {
      await this.retryOrFail(origin, lease, `HTTP ${status}`, result.retryAfterMs);
      await this.logAnswer(answer, "error", `HTTP ${status}`);
      return;
    }
    await this.logLicenses(url, origin, at, result.headers["link"]);
    if (status === 402) await this.priced(answer);
    else if (action === "redirect") await this.redirected(answer);
    else await this.filed(answer);
  }

  /** The crawl log's line for an answer: its URL, site, moment, time taken, status and size. */
  private logAnswer(answer: Answer, outcome: string, detail: string | null): Promise<void> {
    const { lease, origin, at, result, ref } = answer;
    const { url } = lease.entry;
    return this.run.log(
      url,
      origin,
      at,
      result.ms,
      result.status,
      result.wireBytes,
      outcome,
      detail,
      ref,
    );
  }

  /**
   * A price asked (crawler-price, the 2026 pay-per-crawl answer) is shown, never paid: the page
   * is its own outcome, neither fetched nor an error, and not asked for again.
   */
  private async priced(answer: Answer): Promise<void> {
    const { run } = this;
    const { lease, result } = answer;
    // Cut: the value is the site's, and goes to the log, the report and the terminal.
    const price = result.headers["crawler-price"]?.slice(0, MAX_PRICE_CHARS) ?? null;
    await run.store.frontier.settle(lease, { kind: "done", status: result.status, at: run.now() });
    const detail = price === null ? "no crawler-price" : `crawler-price: ${price}`;
    await this.logAnswer({ ...answer, ref: {} }, PAYMENT_REQUIRED, detail);
    run.emit({
      type: "skipped",
      url: lease.entry.url,
      reason: `HTTP 402 Payment Required, ${detail} (not paid)`,
    });
  }

  /** A redirect: its target queued like a link, within the hop limit and the crawl's scope. */
  private async redirected(answer: Answer): Promise<void> {
    const { run } = this;
    const { store } = run;
    const { lease, result } = answer;
    const { url, depth } = lease.entry;
    const { status } = result;
    const meta = readMeta(lease.entry.meta, depth);
    const target = result.location === null ? null : run.normal(result.location);
    const hops = (meta.hops ?? 0) + 1;
    if (hops > MAX_REDIRECT_HOPS) {
      await this.failRedirect(
        answer,
        `more than ${MAX_REDIRECT_HOPS} redirects from the URL first queued`,
      );
      return;
    }
    if (target === null) {
      // Nowhere to go: the URL's answer is an error, counted and said as one.
      const given = result.headers["location"];
      await this.failRedirect(
        answer,
        given === undefined
          ? `HTTP ${status} without a Location`
          : `HTTP ${status} to ${JSON.stringify(given.slice(0, 200))}, not an http(s) URL`,
      );
      return;
    }
    const followed = this.discover.follows(url, target);
    if (followed)
      await store.frontier.add([
        newUrl(target, depth, lease.entry.priority, url, { ...meta, via: "redirect", hops }),
      ]);
    await store.frontier.settle(lease, { kind: "done", status, at: run.now() });
    // A target outside the crawl's scope is not followed, as a link there would not be.
    await this.logAnswer(
      answer,
      "redirect",
      followed ? target : `${target} (not followed: outside the crawl's scope)`,
    );
    run.done++;
  }

  private async failRedirect(answer: Answer, reason: string): Promise<void> {
    const { run } = this;
    await run.store.frontier.settle(answer.lease, { kind: "failed", reason, at: run.now() });
    await this.logAnswer(answer, "error", reason);
    run.tally.failed++;
    run.emit({ type: "failed", url: answer.lease.entry.url, reason });
  }

  /**
   * A page's answer filed: its validators and revisit moment, its links found, kept or not
   * (keep.ts), handed to the page handler, logged and settled in one store step.
   */
  private async filed(answer: Answer): Promise<void> {
    const { run } = this;
    const { origin, lease, result, at, decision, timing, ref } = answer;
    const { url } = lease.entry;
    const { status } = result;
    const validators = await this.validatorsOf(answer);
    const read = this.readPage(answer);
    const { usage, canonical } = read;
    const found = await this.linksFound(answer, read);
    const keep = keepPage({
      headerNoindex: read.header.noindex,
      metaNoindex: read.html?.noindex === true,
      usageRefused: usage.keep || usage.refused === null ? null : refusalDetail(usage.refused),
    });
    // Not kept (noindex, or a purpose refused): fetched, links followed as allowed, not handed on.
    if (keep.keep && !(await this.handOn(answer, read, found))) return;
    await run.settleLogged(
      lease,
      { kind: "done", status, at: run.now() },
      {
        url,
        origin,
        at,
        ms: result.ms,
        status,
        bytes: result.wireBytes,
        outcome: status === 304 ? "not-modified" : keep.keep ? "fetched" : keep.outcome,
        detail: keep.keep || keep.outcome === "fetched-noindex" ? decision.rule : keep.why,
        ...timing,
        ...ref,
        canonical,
        usage: usage.record,
      },
      { links: found, ...(validators === undefined ? {} : { page: validators }) },
    );
    run.counted(origin);
    run.emit({ type: "fetched", url, status });
  }

  /** A 200's or 304's validators and revisit moment, kept with the settle in one store step. */
  private async validatorsOf(answer: Answer): Promise<PageValidators | undefined> {
    const { lease, result, at, decision } = answer;
    const { status } = result;
    if (status !== 200 && status !== 304) return undefined;
    const { url, depth } = lease.entry;
    const meta = readMeta(lease.entry.meta, depth);
    const revisit = revisitOf({ changefreq: meta.changefreq ?? null, plan: decision.plan });
    // A 304 keeps the validators the site answered before (RFC 9110 §15.4.5 may omit them).
    const known = status === 304 ? await this.run.store.pages.get(url) : null;
    return {
      url,
      etag: result.etag ?? known?.etag ?? null,
      lastModified: result.lastModified ?? known?.lastModified ?? null,
      fetchedAt: at,
      status,
      revisitAt: revisit === null ? null : at + revisit.afterMs,
    };
  }

  /** What a page says of itself: its links and tags, its usage preferences, its canonical URL. */
  private readPage(answer: Answer): PageRead {
    const { run } = this;
    const { options } = run;
    const { origin, lease, result, at, decision, sent, robots } = answer;
    const { url, depth } = lease.entry;
    const { status } = result;
    const meta = readMeta(lease.entry.meta, depth);
    const html =
      status === 200 && result.body !== null && isHtml(result.contentType)
        ? extractLinks(new TextDecoder().decode(result.body), url, run.token, {
            sortQuery: options.sortQuery === true,
          })
        : null;
    // Usage preferences: recorded for every page; a purpose they refuse is not kept (keep.ts).
    const usage = pageUsage(
      {
        url,
        agent: run.token,
        robots,
        headers: result.headers,
        contentType: result.contentType,
        meta: html?.usageMeta ?? [],
        tdmrep: this.tdmrep?.get(origin) ?? null,
      },
      options.usage ?? NO_PURPOSES,
    );
    const page: FetchedPage = {
      url,
      status,
      headers: result.headers,
      body: result.body,
      at,
      rule: decision.rule,
      delaySeconds: decision.plan.delaySeconds,
      requestHeaders: sent,
      ...(meta.srcloc === undefined ? {} : { srcloc: meta.srcloc }),
      ...(result.cutReason === undefined ? {} : { truncated: result.cutReason }),
      ...(usage.record === null ? {} : { usage: usage.record }),
      depth,
      via: meta.via,
      referrer: lease.entry.referrer,
      ...(meta.label === undefined ? {} : { label: meta.label }),
    };
    // REGP Host (seeds/003 §3.2.13) names the canonical host; a page's own canonical link wins.
    const hostCanonical =
      decision.plan.host === null ? null : onHost(url, decision.plan.host.value);
    const header = robotsTag(result.headers["x-robots-tag"] ?? null, run.token);
    const nofollow = header.nofollow || html?.nofollowAll === true;
    return {
      page,
      html,
      usage,
      header,
      nofollow,
      meta,
      canonical: html?.canonical ?? hostCanonical,
    };
  }

  /** The page's links to queue, which go with the settle in the same store step. */
  private async linksFound(answer: Answer, read: PageRead): Promise<NewUrl[]> {
    const { run } = this;
    const { options } = run;
    const { lease, result } = answer;
    const { url, depth } = lease.entry;
    const { meta } = read;
    // seeds/003 §3.2.12: a `data` page is fetched without following its links; a `list`
    // page has every link followed, however deep it stands.
    const deepEnough = run.following && (meta.type === "list" || depth < options.maxDepth);
    if (meta.type === "data" || !deepEnough || read.nofollow) return [];
    const links =
      options.links !== undefined && result.status === 200 && result.body !== null
        ? readLinks(await options.links(read.page), url, options.sortQuery === true)
        : (read.html?.links ?? []);
    return this.discover.linksToQueue(url, depth, links);
  }

  /**
   * The page handed to the crawl's handler, with its links queued first (as its enqueue counts
   * them; `found` is emptied). False when the handler failed: the page is tried again, logged.
   */
  private async handOn(answer: Answer, read: PageRead, found: NewUrl[]): Promise<boolean> {
    const { run } = this;
    const { store, options } = run;
    const { origin, lease, result, at, timing, ref } = answer;
    const { url } = lease.entry;
    const { status } = result;
    if (options.onPage === undefined) return true;
    if (found.length > 0) await store.frontier.add(found.splice(0));
    const refuse = read.nofollow || read.meta.type === "data";
    try {
      await options.onPage(
        read.page,
        this.discover.hooks(
          lease,
          refuse ? "the page says nofollow (or is a sitemap `data` page)" : null,
        ),
      );
      return true;
    } catch (error) {
      // Tried again as a 5xx would be, without validators: a 304 would bring no body back.
      const why = `page handler: ${describeError(error)}`;
      await store.pages.put({ url, etag: null, lastModified: null, fetchedAt: at, status });
      await this.retryOrFail(origin, lease, why, null);
      await run.log(url, origin, at, result.ms, status, result.wireBytes, "handler-error", why, {
        ...timing,
        ...ref,
        canonical: read.canonical,
        usage: read.usage.record,
      });
      return false;
    }
  }

  /** A page an agent indexed where it lives: filed as if fetched, marked as the agent's. */
  async indexed(origin: string, lease: Lease, page: IndexedPage, decision: Allowed): Promise<void> {
    const { run } = this;
    const { store, options } = run;
    const { url, depth } = lease.entry;
    const meta = readMeta(lease.entry.meta, depth);
    const at = run.now();
    const lastModified = page.lastmod === null ? null : new Date(page.lastmod).toUTCString();
    await store.pages.put({ url, etag: null, lastModified, fetchedAt: at, status: 200 });
    if (depth < options.maxDepth) {
      const links = page.links.flatMap((href) => {
        const link = run.normal(href);
        return link !== null && run.inScope(link) ? [link] : [];
      });
      await this.discover.queueLinks(url, depth, links);
    }
    // `noindex` (meta robots): filed and its links followed as allowed, not kept.
    const keep = keepPage({ headerNoindex: false, metaNoindex: page.noindex });
    if (keep.keep && options.onPage !== undefined) {
      try {
        await options.onPage(
          {
            url,
            status: 200,
            headers: { "content-type": "application/json", "x-heed-indexed-by": page.host },
            body: new TextEncoder().encode(JSON.stringify(page)),
            at,
            rule: decision.rule,
            delaySeconds: 0,
            depth,
            via: meta.via,
            referrer: lease.entry.referrer,
            ...(meta.label === undefined ? {} : { label: meta.label }),
          },
          this.discover.hooks(lease, null),
        );
      } catch (error) {
        const why = `page handler: ${describeError(error)}`;
        await this.retryOrFail(origin, lease, why, null);
        await run.log(url, origin, at, 0, 200, 0, "handler-error", why);
        return;
      }
    }
    await store.frontier.settle(lease, { kind: "done", status: 200, at: run.now() });
    // No byte of the page crossed the network to the site: the agent read it there.
    const outcome = keep.keep ? "indexed-by-agent" : "indexed-by-agent-noindex";
    await run.log(url, origin, at, 0, 200, 0, outcome, page.host, { via: meta.via });
    run.counted(origin);
    run.emit({ type: "fetched", url, status: 200 });
  }

  async retryOrFail(
    origin: string,
    lease: Lease,
    reason: string,
    retryAfterMs: number | null,
  ): Promise<void> {
    const { run } = this;
    const { url, attempts } = lease.entry;
    if (attempts + 1 >= (run.options.maxAttempts ?? 3)) {
      await run.store.frontier.settle(lease, { kind: "failed", reason, at: run.now() });
      run.tally.failed++;
      run.emit({ type: "failed", url, reason });
      return;
    }
    const notBefore = run.now() + retryDelay(attempts, retryAfterMs);
    await run.store.frontier.settle(lease, { kind: "retry", reason, notBefore });
    // Retry-After speaks for the whole site (RFC 9110 §10.2.3): the site waits too.
    if (retryAfterMs !== null) await run.store.frontier.setNextAt(origin, notBefore);
    run.tally.retried++;
    run.emit({ type: "retry", url, reason });
  }
}

/** A link extractor's answer as links: strings only, resolved, at most a page's worth. */
function readLinks(given: readonly unknown[], pageUrl: string, sortQuery: boolean): string[] {
  return given.slice(0, MAX_PAGE_LINKS).flatMap((href) => {
    const link = typeof href === "string" ? normalizeUrl(href, pageUrl, { sortQuery }) : null;
    return link === null ? [] : [link];
  });
}
