/**
 * A site's /.well-known/tdmrep.json (W3C TDMRep), read once per site and process before its
 * pages are weighed, only by a crawl that collects for AI training or AI input (a crawl for
 * search makes no such request). The fetch itself, under the site's reservation, is the
 * crawler's; this keeps the files and makes concurrent pages of one site wait for the one read.
 */
import type { PageResult } from "../net/http-client.js";
import { MAX_ROBOTS_REDIRECTS } from "../protocol/robots/index.js";
import type { AccessPlan } from "../protocol/robots/plan.js";
import { MAX_TDMREP_BYTES, readTdmRepJson, type TdmRepFile } from "../protocol/usage/index.js";
import type { SiteGate } from "./site-gate.js";
import type { RobotsStage } from "./stages/robots.js";
import type { CrawlRun } from "./stages/run.js";
import { originOf } from "./url-normal.js";
import { decide } from "./verdict.js";

/** Sites whose file is kept; the oldest is dropped past it (a long crawl visits many sites). */
export const MAX_TDMREP_SITES = 10_000;

export const TDMREP_PATH = "/.well-known/tdmrep.json";

export class TdmRepFiles {
  private readonly files = new Map<string, TdmRepFile | null>();
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly read: (origin: string) => Promise<TdmRepFile | null>) {}

  /** Reads the site's file unless it was read; waits for a read under way. Never throws. */
  ensure(origin: string): Promise<void> {
    if (this.files.has(origin)) return Promise.resolve();
    let pending = this.pending.get(origin);
    if (pending === undefined) {
      pending = this.read(origin)
        .catch(() => null)
        .then((file) => {
          if (this.files.size >= MAX_TDMREP_SITES) {
            const oldest = this.files.keys().next().value;
            if (oldest !== undefined) this.files.delete(oldest);
          }
          this.files.set(origin, file);
        })
        .finally(() => this.pending.delete(origin));
      this.pending.set(origin, pending);
    }
    return pending;
  }

  get(origin: string): TdmRepFile | null {
    return this.files.get(origin) ?? null;
  }
}

/**
 * Redirects followed from /.well-known/tdmrep.json: robots.txt's bound (RFC 9309 §2.3.1.2,
 * DESIGN §3), since the file is read as robots.txt is, once per site, before its pages.
 */
export const MAX_TDMREP_REDIRECTS = MAX_ROBOTS_REDIRECTS;

/** Where a hop may go: robots.txt allows it, under this plan; or why not. */
type HopCheck = { readonly plan: AccessPlan } | { readonly why: string };

/**
 * Reads a site's /.well-known/tdmrep.json as a page of it: allowed by robots.txt, paced, through
 * the guarded client (which checks the address of every connection). A redirect is followed
 * (heed's reading, docs/usage-preferences.md#the-crawler: as RFC 9309 §2.3.1.2 has robots.txt
 * followed, to another host too, at most {@link MAX_TDMREP_REDIRECTS} hops, http and https
 * only), each hop a request of its own: asked of its site's robots.txt, under its site's
 * reservation, and in the crawl log. The file read speaks for the site first asked.
 */
export function tdmRepReader(
  run: CrawlRun,
  gate: SiteGate,
  robots: RobotsStage,
): (origin: string) => Promise<TdmRepFile | null> {
  const check = async (url: string): Promise<HopCheck> => {
    const view = await robots.sites.view(originOf(url));
    if (view.kind === "closed") return { why: view.detail };
    const verdict = decide(view, url, run.robot(run.now()));
    return verdict.allowed ? { plan: verdict.plan } : { why: "robots.txt refuses it" };
  };
  const nextHop = async (
    result: PageResult,
    redirects: number,
  ): Promise<{ readonly url: string; readonly plan: AccessPlan } | { readonly why: string }> => {
    if (result.kind !== "response" || result.location === null)
      return { why: "no Location to follow" };
    if (redirects >= MAX_TDMREP_REDIRECTS)
      return { why: `more than ${MAX_TDMREP_REDIRECTS} redirects` };
    const to = new URL(result.location);
    if (to.protocol !== "http:" && to.protocol !== "https:")
      return { why: `${to.protocol} is not http or https` };
    to.hash = "";
    const url = to.href;
    const hop = await check(url);
    return "why" in hop ? { why: `${url}: ${hop.why}` } : { url, plan: hop.plan };
  };
  return async (origin) => {
    let url = `${origin}${TDMREP_PATH}`;
    const first = await check(url);
    if ("why" in first) return null;
    let plan = first.plan;
    for (let redirects = 0; ; redirects++) {
      const site = originOf(url);
      const ticket = await gate.take(site, plan, "tdmrep.json");
      if (ticket === null) return null;
      // One byte past the reader's limit is enough to know the file is not read (and say so).
      const result = await run.client.fetchPage(url, {
        signal: run.signal,
        maxBodyBytes: MAX_TDMREP_BYTES + 1,
      });
      const end = run.now();
      await gate.release(ticket, true, end);
      const status = result.kind === "error" ? null : result.status;
      const redirect = status !== null && status >= 300 && status < 400 && status !== 304;
      const next = redirect ? await nextHop(result, redirects) : null;
      const detail =
        result.kind === "error"
          ? result.message
          : next !== null
            ? "url" in next
              ? `redirect to ${next.url}`
              : `redirect not followed: ${next.why}`
            : result.bodyCut
              ? `over ${MAX_TDMREP_BYTES} bytes: not read`
              : null;
      const bytes = result.kind === "error" ? 0 : result.wireBytes;
      await run.log(url, site, ticket.at, end - ticket.at, status, bytes, "tdmrep", detail);
      if (next === null)
        return result.kind === "response" && result.status === 200 && result.body !== null
          ? readTdmRepJson(result.body)
          : null;
      if ("why" in next) return null;
      url = next.url;
      plan = next.plan;
    }
  };
}
