/**
 * `heed/crawlee`: heed's politeness for a Crawlee crawler. Its hooks read each site's robots.txt
 * as heed does (three dialects; a 5xx or unreachable robots.txt closes the site for now, 401 and
 * 403 for good: RFC 9309 §2.3.1), refuse what it refuses, send heed's User-Agent, and take the
 * site's reservation in a heed store before each request, so that Crawl-delay and Request-rate
 * are kept (across processes too, with a Redis store). Crawlee is not a dependency of heed:
 * the types below are the few parts of its context the hooks touch.
 *
 *   const polite = await crawleePoliteness({ agent: "MyBot" });
 *   new CheerioCrawler({
 *     preNavigationHooks: [polite.before], postNavigationHooks: [polite.after],
 *     errorHandler: polite.after, failedRequestHandler: polite.after, …
 *   });
 */
import { randomUUID } from "node:crypto";
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

/** The part of a Crawlee request the hooks read and set. */
export interface CrawleeRequestLike {
  readonly url: string;
  /** Set when robots.txt refuses the URL for good: Crawlee does not try it again. */
  noRetry: boolean;
}

export interface CrawleeContextLike {
  readonly request: CrawleeRequestLike;
}

/** The part of Crawlee's HTTP options (got) a pre-navigation hook may set. */
export interface RequestOptionsLike {
  headers?: Record<string, string | string[] | undefined>;
}

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
  /** For `postNavigationHooks`, `errorHandler` and `failedRequestHandler`: gives it back. */
  after(context: CrawleeContextLike): Promise<void>;
  /** What the site's robots.txt says of `url` for this robot now. */
  check(url: string): Promise<Verdict>;
  close(): Promise<void>;
}

/** Thrown by `before` for a URL the site's rules refuse (for now, or for good). */
export class RobotsRefusal extends Error {
  override readonly name = "RobotsRefusal";
}

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
  const client = createHttpClient({
    userAgent,
    allowPrivateAddresses: options.allowPrivateAddresses === true,
  });
  const now = Date.now;
  const gate = new SiteGate({
    store,
    owner: `crawlee-${randomUUID()}`,
    perHost: options.perHost ?? 1,
    now,
  });
  const sites = new SiteRules({
    cache: store.robots,
    now,
    fetch: (url) => fetchRobots(url, { userAgent, client }),
    reserve: async (origin) => {
      const ticket = await gate.take(origin, null, "robots.txt");
      if (ticket === null) return null;
      return { release: (asked) => gate.release(ticket, asked) };
    },
    ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
  });
  const held = new WeakMap<CrawleeRequestLike, Ticket>();
  const check = async (url: string): Promise<Verdict> => {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    // Only http(s) has a robots.txt: any other URL is refused for good, with no request made
    // (its origin is "null", which is no site to ask).
    if (parsed === null || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
      return {
        allowed: false,
        why: `not an http(s) URL: ${url.slice(0, 200)}`,
        retryAt: null,
        plan: EMPTY_PLAN,
      };
    return decide(await sites.view(parsed.origin), url, { agent, at: now() });
  };
  return {
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
      if (requestOptions !== undefined)
        requestOptions.headers = { ...requestOptions.headers, "user-agent": userAgent };
      const ticket = await gate.take(new URL(request.url).origin, verdict.plan, "page");
      if (ticket !== null) held.set(request, ticket);
    },
    async after(context) {
      const ticket = held.get(context.request);
      if (ticket === undefined) return;
      held.delete(context.request);
      await gate.release(ticket, true);
    },
    check,
    async close() {
      await client.close();
      if (owned) await store.close();
    },
  };
}
