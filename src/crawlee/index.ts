/**
 * `heed/crawlee`: heed's politeness for a Crawlee crawler. It reads each site's robots.txt as heed
 * does (three dialects; a 5xx or unreachable robots.txt closes the site for now, 401 and 403 for
 * good: RFC 9309 §2.3.1), refuses what it refuses, sends heed's User-Agent, and takes the site's
 * reservation in a heed store before each request, so that Crawl-delay and Request-rate are kept
 * (across processes too, with a Redis store). Crawlee is not a dependency of heed: the types below
 * are the few parts of its crawler and context that heed touches.
 *
 *   const polite = await crawleePoliteness({ agent: "MyBot" });
 *   const crawler = new CheerioCrawler({ requestHandler, maxRequestsPerCrawl: 80 });
 *   polite.attach(crawler);
 *
 * `attach` is what keeps heed from being bypassed (DESIGN: adapters cannot be bypassed): Crawlee
 * no longer follows redirects itself; each Location is enqueued as a request of its own, so that
 * every hop is checked against robots.txt and waits for the site's reservation. A URL refused for
 * good is skipped the way Crawlee skips what its own robots.txt reading refuses: a warning, not a
 * failed request, and not counted against `maxRequestsPerCrawl`.
 */
import { randomUUID } from "node:crypto";
import { isPrivateHost, BLOCKED_ADDRESS_CODE } from "../net/address-guard.js";
import { createHttpClient } from "../net/http-client.js";
import { fetchRobots } from "../net/robots-fetch.js";
import { VERSION } from "../net/version.js";
import { type DialectChoice, productToken } from "../protocol/robots/index.js";
import { EMPTY_PLAN } from "../protocol/robots/plan.js";
import { openStore } from "../store/open.js";
import type { CrawlStore } from "../store/types.js";
import { SiteGate, type Ticket } from "../crawler/site-gate.js";
import { SiteRules } from "../crawler/site-rules.js";
import { decide, type Verdict } from "../crawler/verdict.js";
import { attachTo, redirectTarget } from "./attach.js";
import type { CrawleeContextLike, CrawleeRequestLike, RequestOptionsLike } from "./types.js";

export type {
  CrawleeContextLike,
  CrawleeRequestLike,
  CrawleeResponseLike,
  RequestOptionsLike,
} from "./types.js";

export interface PolitenessOptions {
  /** The robot's name token, matched against robots.txt and sent in User-Agent. */
  readonly agent: string;
  /** Default `AGENT/<heed version> (+infoUrl)`; its product token must be `agent`. */
  readonly userAgent?: string;
  readonly infoUrl?: string;
  /** Where reservations and robots.txt copies are kept: an SQLite path, `redis://…`, or a store; default in memory. */
  readonly store?: string | CrawlStore;
  readonly dialect?: DialectChoice;
  /** Requests in flight at once to a site whose robots.txt sets no delay (default 1). */
  readonly perHost?: number;
  /** Read robots.txt of loopback and private addresses too (default false). */
  readonly allowPrivateAddresses?: boolean;
}

export interface Politeness {
  readonly userAgent: string;
  /** For `preNavigationHooks`: robots.txt first, then the site's reservation (waits out its gap). */
  before(context: CrawleeContextLike, requestOptions?: RequestOptionsLike): Promise<void>;
  /**
   * For `postNavigationHooks`, `errorHandler` and `failedRequestHandler`: gives the reservation
   * back; after a redirect, enqueues its target (through `context.addRequests`) as a request of
   * its own, so that the next hop is checked and paced too.
   */
  after(context: CrawleeContextLike): Promise<void>;
  /**
   * Whether `after` took this request's answer for a redirect and enqueued its target: the
   * answer is no page for the request handler.
   */
  redirected(request: CrawleeRequestLike): boolean;
  /**
   * Puts heed into a Crawlee `HttpCrawler` (CheerioCrawler, JSDOMCrawler …) built without
   * heed's hooks: its hooks, its robots.txt reading (refusals are skips), and a request handler
   * that leaves redirects to heed.
   */
  attach(crawler: object): void;
  /** What the site's robots.txt says of `url` for this robot now. */
  check(url: string): Promise<Verdict>;
  close(): Promise<void>;
}

/** Thrown by `before` for a URL the site's rules refuse (for now, or for good). */
export class RobotsRefusal extends Error {
  override readonly name = "RobotsRefusal";
}

/**
 * Redirects followed from one request, as heed's crawler follows (RFC 9110 §15.4 leaves the
 * number to the client; browsers stop near 20, heed at 5 everywhere).
 */
export const MAX_CRAWLEE_REDIRECTS = 5;

/** Where a redirect's target request carries how many hops led to it. */
const HOPS_KEY = "heedRedirects";

export async function crawleePoliteness(options: PolitenessOptions): Promise<Politeness> {
  const agent = options.agent;
  if (typeof agent !== "string" || !/^[A-Za-z0-9_-]+$/.test(agent))
    throw new TypeError(
      `agent: expected a name token of letters, digits, "-" and "_", got ${JSON.stringify(agent)}`,
    );
  const userAgent =
    options.userAgent ??
    `${agent}/${VERSION} (+${options.infoUrl ?? "https://www.npmjs.com/package/heed"})`;
  if (productToken(userAgent).toLowerCase() !== agent.toLowerCase())
    throw new TypeError(
      `userAgent: expected a User-Agent whose product token is "${agent}", got ${JSON.stringify(userAgent)}`,
    );
  const owned = typeof options.store !== "object";
  const store =
    typeof options.store === "object"
      ? options.store
      : await openStore(options.store ?? ":memory:");
  const allowPrivate = options.allowPrivateAddresses === true;
  const client = createHttpClient({ userAgent, allowPrivateAddresses: allowPrivate });
  // Sites whose robots.txt the address guard would not fetch (a name that resolves to a private
  // address): refused for good, and said so, not reported as a site that did not answer.
  const guarded = new Map<string, string>();
  // The store's clock: the gaps are judged by it in every process sharing the store.
  const now = store.now;
  const gate = new SiteGate({
    store,
    owner: `crawlee-${randomUUID()}`,
    perHost: options.perHost ?? 1,
    now,
  });
  const sites = new SiteRules({
    cache: store.robots,
    now,
    fetch: async (url) => {
      // Within robots.txt's total deadline (net/deadline.ts), as every robots.txt fetch.
      const result = await fetchRobots(url, { userAgent, client });
      if (result.errorCode === BLOCKED_ADDRESS_CODE)
        guarded.set(new URL(url).origin, guardRefusal(result.verdict.why));
      return result;
    },
    reserve: async (origin) => {
      const ticket = await gate.take(origin, null, "robots.txt");
      if (ticket === null) return null;
      return { release: (asked) => gate.release(ticket, asked) };
    },
    ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
  });
  const held = new WeakMap<CrawleeRequestLike, Ticket>();
  const redirects = new WeakSet<CrawleeRequestLike>();
  const check = async (url: string): Promise<Verdict> => {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    // Only http(s) has a robots.txt: any other URL is refused for good, with no request made
    // (its origin is "null", which is no site to ask).
    if (parsed === null || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
      return refusedForGood(`not an http(s) URL: ${url.slice(0, 200)}`);
    if (!allowPrivate && isPrivateHost(parsed.hostname))
      return refusedForGood(guardRefusal(`${parsed.hostname} is a loopback or private address`));
    const view = await sites.view(parsed.origin);
    const guard = guarded.get(parsed.origin);
    if (guard !== undefined) return refusedForGood(guard);
    return decide(view, url, { agent, at: now() });
  };
  const release = async (request: CrawleeRequestLike): Promise<void> => {
    const ticket = held.get(request);
    if (ticket === undefined) return;
    held.delete(request);
    await gate.release(ticket, true);
  };
  const politeness: Politeness = {
    userAgent,
    async before(context, requestOptions) {
      const { request } = context;
      const verdict = await check(request.url);
      if (!verdict.allowed) {
        // Refused for good: not tried again; "not now" (a time window, robots.txt
        // unreachable): Crawlee's retries come back later.
        if (verdict.retryAt === null) request.noRetry = true;
        throw new RobotsRefusal(`robots.txt: ${request.url}: ${verdict.why}`);
      }
      if (requestOptions !== undefined) {
        requestOptions.headers = { ...requestOptions.headers, "user-agent": userAgent };
        // Crawlee would follow a redirect without asking heed: `after` enqueues its target.
        requestOptions.followRedirect = false;
      }
      const ticket = await gate.take(new URL(request.url).origin, verdict.plan, "page");
      if (ticket !== null) held.set(request, ticket);
    },
    async after(context) {
      const { request } = context;
      await release(request);
      const target = redirectTarget(context);
      if (target === null) return;
      redirects.add(request);
      const { __crawlee: _internal, ...userData } = request.userData ?? {};
      const hops = (typeof userData[HOPS_KEY] === "number" ? userData[HOPS_KEY] : 0) + 1;
      // A chain longer than heed follows ends here, as heed's own crawler ends it.
      if (hops > MAX_CRAWLEE_REDIRECTS) return;
      await context.addRequests?.([{ url: target, userData: { ...userData, [HOPS_KEY]: hops } }]);
    },
    redirected: (request) => redirects.has(request),
    attach: (crawler) => attachTo(crawler, politeness),
    check,
    async close() {
      await client.close();
      if (owned) await store.close();
    },
  };
  return politeness;
}

function refusedForGood(why: string): Verdict {
  return { allowed: false, why, retryAt: null, plan: EMPTY_PLAN };
}

function guardRefusal(detail: string): string {
  return `address guard: ${detail}; heed connects to loopback and private addresses only with allowPrivateAddresses: true`;
}
