/**
 * The discover stage: where the URLs a page leads to go. Links heed reads in HTML, those a
 * crawler author's extractor returns, those a page handler queues, redirect targets and the
 * pages an agent brought back all pass here: scope, depth, traps, sitemap stand-ins, and the
 * site's robots.txt when already read (every URL is checked again when leased). Owns the set
 * of refused links already logged.
 */
import { createHash } from "node:crypto";
import { EMPTY_PLAN } from "../../protocol/robots/plan.js";
import type { Lease, NewUrl } from "../../store/types.js";
import type { IndexedPage } from "../agent-paths.js";
import type { EnqueueRequest, EnqueueResult, PageHooks } from "../crawl-options.js";
import { LINK_PRIORITY } from "../discovery.js";
import { newUrl } from "../frontier-entry.js";
import { onHost } from "../other-host.js";
import { INDEX_PAGE_PRIORITY } from "../revisit.js";
import { trapReason } from "../traps.js";
import { normalizeUrl, originOf } from "../url-normal.js";
import { decide } from "../verdict.js";
import type { RobotsStage } from "./robots.js";
import type { CrawlRun } from "./run.js";
import type { SitemapStage } from "./sitemaps.js";

/**
 * Refused links logged in a run at most (a memory bound: a number is kept for each, 8 bytes in a
 * set, where the link itself cost about 320 bytes and 32 MB at the bound).
 */
export const MAX_REFUSALS_LOGGED = 100_000;
/** Frontier depth a URL is queued at by a handler at most: well past any real site's. */
export const MAX_ENQUEUE_DEPTH = 10_000;

/**
 * Why a URL a page handler asks to queue is refused before its site's rules are read, or null:
 * not http(s), past the crawl's depth, outside its scope, or a priority that is not a number.
 */
export function enqueueRefusal(ask: {
  readonly link: string | null;
  readonly depth: number;
  readonly maxDepth: number;
  readonly inReach: boolean;
  readonly priority: number | undefined;
}): string | null {
  if (ask.link === null) return "not an http(s) URL";
  if (ask.depth > ask.maxDepth)
    return `depth ${ask.depth} is past the crawl's maximum depth ${ask.maxDepth}`;
  if (!ask.inReach) return "out of the crawl's scope";
  if (ask.priority !== undefined && !Number.isFinite(ask.priority))
    return "priority is not a finite number";
  return null;
}

export class DiscoverStage {
  /** Links refused by robots.txt and logged, so that each is logged once a run. */
  /** The links logged as refused, by {@link linkKey}. */
  private readonly refusedLogged = new Set<number>();

  constructor(
    private readonly run: CrawlRun,
    private readonly robots: RobotsStage,
    private readonly sitemaps: SitemapStage,
  ) {}

  /**
   * Whether a page at `from` may lead to `link`: inside the crawl's scope, or, for a page
   * outside it (one a `--queued` run was given, or a seed the include patterns leave out), a
   * link to its own site. The include and exclude patterns hold either way. A Mirror-site is a link
   * like any other (seeds/003 §3.2.11): one outside the scope is never queued (./fetch.ts).
   */
  follows(from: string, link: string): boolean {
    const { inScope, wanted } = this.run;
    return inScope(link) || (!inScope(from) && originOf(link) === originOf(from) && wanted(link));
  }

  /**
   * Where a followed link goes in the frontier, or null when it does not. Its site's rules,
   * when already in memory, speak first: a link they refuse for the whole crawl is not queued
   * (it would only be leased to be skipped); an Index-page path comes before other links
   * (seeds/003 §3.2.14); a site that names another host as its canonical one (Host, §3.2.13)
   * is crawled there when the crawl's scope takes that host, so that its mirrors are not
   * fetched twice. Links of sites not read yet are queued and checked when leased.
   */
  place(link: string): { url: string; priority: number } | null {
    const { run, sitemaps } = this;
    if (sitemaps.standInFor(link) !== undefined || trapReason(link) !== null) return null;
    const view = this.robots.sites.peek(originOf(link));
    if (view === null || view.kind !== "rules") return { url: link, priority: LINK_PRIORITY };
    const d = view.policy.check(link, run.robot(run.now()));
    if (!d.allowed && (d.reason === "rule" || d.reason === "default")) {
      this.refused(
        link,
        `${d.reason}: ${d.rule === null ? (d.detail ?? d.basis ?? d.reason) : `line ${d.line}: ${d.rule}`}`,
      );
      return null;
    }
    const host = d.plan?.host ?? null;
    const moved = host === null ? null : onHost(link, host.value);
    if (
      moved !== null &&
      moved !== link &&
      run.inScope(moved) &&
      sitemaps.standInFor(moved) === undefined
    )
      return { url: moved, priority: LINK_PRIORITY };
    return { url: link, priority: d.plan?.indexPage ? INDEX_PAGE_PRIORITY : LINK_PRIORITY };
  }

  /** The links of the page `from` (at `depth`) that the crawl follows, as URLs to queue. */
  linksToQueue(from: string, depth: number, links: readonly string[]): NewUrl[] {
    return links.flatMap((link) => {
      const placed = this.follows(from, link) ? this.place(link) : null;
      return placed === null ? [] : [newUrl(placed.url, depth + 1, placed.priority, from)];
    });
  }

  /** Queues the links of the page `from` (at `depth`) that the crawl follows. */
  async queueLinks(from: string, depth: number, links: readonly string[]): Promise<void> {
    const found = this.linksToQueue(from, depth, links);
    if (found.length > 0) await this.run.store.frontier.add(found);
  }

  /** Every page an agent brought back is queued, so that pages no link reaches are kept too. */
  async queueIndexed(pages: readonly IndexedPage[], lease: Lease): Promise<void> {
    const urls = pages.flatMap((page) => {
      const placed = this.run.inScope(page.url) ? this.place(page.url) : null;
      return placed === null
        ? []
        : [newUrl(placed.url, lease.entry.depth, placed.priority, page.host)];
    });
    if (urls.length > 0) await this.run.store.frontier.add(urls);
  }

  /**
   * What a page handler may do: queue URLs as the page's links (scope, depth, traps and the
   * site's rules when known; robots.txt again when leased) and ask a site's rules. `refuseAll`:
   * the page said nofollow, so nothing it links to is queued.
   */
  hooks(lease: Lease, refuseAll: string | null): PageHooks {
    return {
      enqueue: (requests) => this.enqueue(lease, refuseAll, requests),
      check: async (url) => {
        const { run } = this;
        const origin = originOf(url);
        // A site outside the crawl is not asked for its robots.txt on a handler's word: that
        // would be a request to any host a page names.
        const known = this.robots.sites.peek(origin);
        if (known === null && !run.inScope(url))
          return {
            allowed: false,
            why: "out of the crawl's scope: its robots.txt is not read",
            retryAt: null,
            plan: EMPTY_PLAN,
          };
        return decide(known ?? (await this.robots.sites.view(origin)), url, run.robot(run.now()));
      },
    };
  }

  private async enqueue(
    lease: Lease,
    refuseAll: string | null,
    requests: readonly EnqueueRequest[],
  ): Promise<EnqueueResult> {
    const { run } = this;
    const { url: from, depth } = lease.entry;
    const refused: { url: string; reason: string }[] = [];
    const found: NewUrl[] = [];
    for (const request of requests) {
      const given = request.url;
      const link =
        typeof given === "string"
          ? normalizeUrl(given, from, { sortQuery: run.options.sortQuery === true })
          : null;
      const at = Math.max(
        depth + 1,
        Number.isSafeInteger(request.depth) ? Number(request.depth) : 0,
      );
      const reason =
        refuseAll ??
        enqueueRefusal({
          link,
          depth: at,
          maxDepth: run.options.maxDepth,
          inReach: link !== null && this.follows(from, link),
          priority: request.priority,
        });
      if (reason !== null || link === null) {
        refused.push({ url: String(given), reason: reason ?? "not an http(s) URL" });
        continue;
      }
      const placed = this.place(link);
      if (placed === null) {
        refused.push({
          url: link,
          reason: "refused by robots.txt, a trap, or a sitemap snapshot stands for it",
        });
        continue;
      }
      found.push(
        newUrl(
          placed.url,
          Math.min(at, MAX_ENQUEUE_DEPTH),
          request.priority ?? placed.priority,
          from,
          {
            via: "link",
            ...(request.label === undefined ? {} : { label: request.label }),
          },
        ),
      );
    }
    const queued = found.length === 0 ? 0 : await run.store.frontier.add(found);
    return { queued, known: found.length - queued, refused };
  }

  /**
   * A link robots.txt refuses is not queued, but the crawl log says so once, with the line
   * (`heed report` lists them): a person asks why a linked page was never fetched.
   */
  private refused(link: string, why: string): void {
    const key = linkKey(link);
    if (this.refusedLogged.has(key) || this.refusedLogged.size >= MAX_REFUSALS_LOGGED) return;
    this.refusedLogged.add(key);
    const { run } = this;
    void run.log(link, originOf(link), run.now(), 0, null, 0, "disallowed", why).catch(() => {});
  }
}

/**
 * A link as 48 bits of its SHA-1, a whole number a set keeps without the string: two links in a
 * run sharing one (odds of about 2^-29 at 100,000 links) cost only the second's log line.
 */
export function linkKey(link: string): number {
  return createHash("sha1").update(link).digest().readUIntBE(0, 6);
}
