/**
 * The fetch stage: one leased URL, under its site's reservation. The run's page budget for the
 * site, a sitemap snapshot standing for the URL, the URL's own robots.txt verdict (refused, or
 * not now), the site's Host and Mirror-site lines and its agent host come first; then the
 * request, with the site's cookie, the crawler author's headers and conditional headers. Owns
 * when this process's last exchange with each site ended (the gap the crawl log shows) and the
 * sites whose canonical host it has logged.
 */
import { ACCEPT_ENCODING, type PageResult } from "../../net/http-client.js";
import type { AccessPlan } from "../../protocol/robots/index.js";
import type { Lease, PageValidators } from "../../store/types.js";
import { readMeta } from "../discovery.js";
import { newUrl } from "../frontier-entry.js";
import { mirrored } from "../other-host.js";
import { ruleOf, type SiteGate, type Ticket } from "../site-gate.js";
import type { SiteView } from "../site-rules.js";
import { decide } from "../verdict.js";
import type { DiscoverStage } from "./discover.js";
import type { RobotsStage } from "./robots.js";
import type { CrawlRun } from "./run.js";
import type { SettleStage, Timing } from "./settle.js";
import type { SitemapStage } from "./sitemaps.js";

/** What a page request sends besides User-Agent, as the client takes it and as the log shows it. */
export function pageHeaders(parts: {
  readonly userAgent: string;
  /** A REGP `Cookie:` line's value (seeds/003 §3.2.10), first. */
  readonly siteCookie: string | null;
  /** The crawler author's cookie for the site, after it. */
  readonly userCookie: string | null;
  readonly extra: Readonly<Record<string, string>> | null;
  readonly validators: PageValidators | null;
}): {
  readonly headers: {
    readonly extra?: Readonly<Record<string, string>>;
    readonly cookie?: string;
    readonly ifNoneMatch?: string;
    readonly ifModifiedSince?: string;
  };
  readonly sent: Readonly<Record<string, string>>;
} {
  const cookie = [parts.siteCookie, parts.userCookie]
    .filter((c): c is string => c !== null && c !== "")
    .join("; ");
  const { extra, validators } = parts;
  const etag = validators?.etag ?? "";
  const lastModified = validators?.lastModified ?? "";
  const headers = {
    ...(extra === null ? {} : { extra }),
    ...(cookie === "" ? {} : { cookie }),
    ...(etag === "" ? {} : { ifNoneMatch: etag }),
    ...(lastModified === "" ? {} : { ifModifiedSince: lastModified }),
  };
  const sent = {
    ...extra,
    "user-agent": parts.userAgent,
    "accept-encoding": ACCEPT_ENCODING,
    ...(cookie === "" ? {} : { cookie }),
    ...(etag === "" ? {} : { "if-none-match": etag }),
    ...(lastModified === "" ? {} : { "if-modified-since": lastModified }),
  };
  return { headers, sent };
}

/** Do two plans ask the same of a site's reservation? */
export function sameRule(a: AccessPlan | null, b: AccessPlan, perHost: number): boolean {
  return (
    JSON.stringify([ruleOf(a, "agent", perHost), ruleOf(a, "ip", perHost)]) ===
    JSON.stringify([ruleOf(b, "agent", perHost), ruleOf(b, "ip", perHost)])
  );
}

/** The site's reservation as one fetch holds it: taken again, given back once. */
interface Hold {
  ticket: Ticket | null;
  /** The URL's validators as the lease brought them; undefined: not asked yet. */
  readonly validators: PageValidators | null | undefined;
}

export class FetchStage {
  /** When this process's last exchange with each site ended: the gap the crawl log shows. */
  private readonly lastEnd = new Map<string, number>();
  /** Sites whose canonical host (REGP Host) the crawl log has. */
  private readonly hostsNoted = new Set<string>();
  /** Sites whose Mirror-site, outside the crawl's scope, was logged as not followed. */
  private readonly mirrorsRefused = new Set<string>();

  constructor(
    private readonly run: CrawlRun,
    private readonly gate: SiteGate,
    private readonly robots: RobotsStage,
    private readonly sitemaps: SitemapStage,
    private readonly discover: DiscoverStage,
    private readonly settle: SettleStage,
  ) {}

  /**
   * One leased URL, under the site's reservation `held`: given back unused when no request goes
   * out (a refusal, a budget, a stand-in), so that skips keep no gap.
   */
  async one(
    origin: string,
    view: SiteView,
    lease: Lease,
    held: Ticket,
    waitingFrom: number,
    validators?: PageValidators | null,
  ): Promise<void> {
    const hold: Hold = { ticket: held, validators };
    try {
      await this.leased(origin, view, lease, waitingFrom, hold);
    } finally {
      await this.giveBack(hold, false);
    }
  }

  private async giveBack(hold: Hold, used: boolean): Promise<void> {
    const t = hold.ticket;
    hold.ticket = null;
    if (t !== null) await this.gate.release(t, used);
  }

  private async leased(
    origin: string,
    view: SiteView,
    lease: Lease,
    waitingFrom: number,
    hold: Hold,
  ): Promise<void> {
    const { run, gate } = this;
    const { store, options } = run;
    const { url } = lease.entry;
    const meta = readMeta(lease.entry.meta, lease.entry.depth);
    if ((run.perSite.get(origin) ?? 0) >= (options.maxPerHost ?? Number.POSITIVE_INFINITY)) {
      // A budget is this run's: the URL stays queued as it was, for a later run.
      run.spent.add(origin);
      await store.frontier.settle(lease, {
        kind: "defer",
        reason: "the site's page budget of this run is spent",
        notBefore: run.now(),
      });
      return;
    }
    const snapshot = this.sitemaps.standInFor(url);
    if (snapshot !== undefined) {
      // seeds/003 §4.2: the snapshot is fetched instead and recorded under this URL.
      await store.frontier.settle(lease, {
        kind: "skipped",
        reason: `snapshot ${snapshot}`,
        at: run.now(),
      });
      run.tally.skipped++;
      run.emit({ type: "skipped", url, reason: `the snapshot ${snapshot} stands for it` });
      return;
    }
    const decision = decide(view, url, run.robot(run.now()));
    if (!decision.allowed) {
      if (decision.retryAt !== null) {
        await store.frontier.settle(lease, {
          kind: "defer",
          reason: decision.why,
          notBefore: decision.retryAt,
        });
        await store.frontier.setNextAt(origin, decision.retryAt);
        run.emit({ type: "waiting", origin, until: decision.retryAt, why: decision.why });
        return;
      }
      await store.frontier.settle(lease, { kind: "skipped", reason: decision.why, at: run.now() });
      await run.log(url, origin, run.now(), 0, null, 0, "disallowed", decision.why, {
        referrer: lease.entry.referrer,
      });
      run.tally.skipped++;
      run.emit({ type: "skipped", url, reason: decision.why });
      return;
    }
    const { plan } = decision;
    if (plan.host !== null && !this.hostsNoted.has(origin)) {
      // seeds/003 §3.2.13: the site names its canonical host; the crawl log keeps it.
      this.hostsNoted.add(origin);
      await run.log(origin, origin, run.now(), 0, null, 0, "canonical-host", plan.host.value);
    }
    const mirror = plan.mirror === null ? null : mirrored(url, plan.mirror.value);
    if (mirror !== null && mirror !== url && !run.inScope(mirror)) {
      // A Mirror-site line is a link like any other: a mirror outside the crawl's scope is not
      // followed (a site could send the crawl anywhere, a private address included), and the
      // page is fetched where it is. The crawl log says so once a site.
      if (!this.mirrorsRefused.has(origin)) {
        this.mirrorsRefused.add(origin);
        await run.log(origin, origin, run.now(), 0, null, 0, "mirror-out-of-scope", mirror);
      }
    } else if (mirror !== null && mirror !== url) {
      // seeds/003 §3.2.11: crawl the mirror instead; its own robots.txt governs it there.
      await store.frontier.add([
        newUrl(mirror, lease.entry.depth, lease.entry.priority, url, { ...meta, via: "mirror" }),
      ]);
      await store.frontier.settle(lease, {
        kind: "skipped",
        reason: `Mirror-site ${plan.mirror?.value}`,
        at: run.now(),
      });
      run.tally.skipped++;
      return;
    }

    const indexed =
      options.agents !== undefined && view.kind === "rules"
        ? await options.agents.indexed(
            url,
            view.policy,
            (pages) => this.discover.queueIndexed(pages, lease),
            // The exchange with the agent host went out under the site's reservation.
            () => this.giveBack(hold, true),
          )
        : null;
    if (indexed !== null) return this.settle.indexed(origin, lease, indexed, decision);

    // This URL's own rules (a brace block may ask more than the site's) take the reservation
    // again under them.
    const base = this.robots.plans.get(origin) ?? null;
    if (hold.ticket === null || !sameRule(base, plan, run.perHostOf(origin))) {
      await this.giveBack(hold, false);
      hold.ticket = await gate.take(origin, plan, "page");
    }
    const ticket = hold.ticket;
    // Stopped: the lease goes back when the process stops, and a later run takes the URL.
    if (ticket === null || run.signal.aborted) return;
    const at = ticket.at;
    const last = this.lastEnd.get(origin);
    // Time waited: the part of the gap since this process's last page of the site that the
    // site's delay or rate asked for (the loop slept it out before visiting), or the time the
    // store refused the site, whichever is longer.
    const kept =
      last === undefined
        ? 0
        : Math.min(at - last, ruleOf(plan, "agent", run.perHostOf(origin)).gapMs);
    const timing: Timing = {
      via: meta.via,
      gapMs: last === undefined ? null : at - last,
      requiredGapMs: plan.delaySeconds * 1000,
      waitedMs: Math.max(0, at - waitingFrom, kept),
    };
    const { headers, sent } = pageHeaders({
      userAgent: options.userAgent,
      siteCookie: plan.cookie?.value ?? null,
      userCookie: options.cookie?.(origin) ?? null,
      extra: options.extraHeaders?.(origin) ?? null,
      validators: hold.validators !== undefined ? hold.validators : await store.pages.get(url),
    });
    const result = await run.client.fetchPage(url, { headers });
    const end = run.now();
    this.lastEnd.set(origin, end);
    await this.giveBack(hold, true);
    // The log's start and duration span the reservation, from its start to the end the next
    // gap counts from: the report's gaps, read off the log, are then the ones kept.
    const spanned: PageResult = { ...result, ms: Math.max(0, end - at) };
    const policy = view.kind === "rules" ? view.policy : null;
    await this.settle.fetched(origin, lease, spanned, at, decision, sent, timing, policy);
  }
}
