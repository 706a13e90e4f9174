/**
 * The options of `new Crawler(…)`, with their defaults and units, checked at the boundary:
 * a wrong one is a `CrawlerError` ("HEED_BAD_CRAWLER_OPTION") that names it, expected and got.
 */
import { isIP } from "node:net";
import type { DialectChoice } from "../../protocol/robots/index.js";
import { type Category, readPurpose } from "../../protocol/usage/index.js";
import { productToken } from "../../protocol/robots/index.js";
import type { ExchangeObserver } from "../../net/exchange-tap.js";
import type { RequestSigner } from "../../net/request-signer.js";
import type { CrawlRecord, CrawlStore } from "../../store/types.js";
import type { ScopeKind } from "../scope.js";
import { urlPatternProblem } from "../url-patterns.js";
import { badProxyOption } from "../../net/proxy-url.js";
import { normalizeUrl } from "../url-normal.js";
import { CrawlerError } from "./errors.js";
import type { Page, PageContext, PageReader } from "./page.js";

/** Handles one fetched page. A handler that throws (or runs past its time) is tried again. */
export type PageHandler = (page: Page, context: PageContext) => void | Promise<void>;

/** A page's links, in place of heed's reading of HTML `<a href>`, `<area>`, frames … */
export type LinkExtractor = (
  page: Page,
  reader: PageReader,
) => readonly string[] | Promise<readonly string[]>;

export interface CrawlerOptions {
  /** The robot's name token, matched against robots.txt (letters, digits, `-`, `_`). */
  readonly agent: string;
  /**
   * Where the crawl keeps its state: an SQLite file path (created when missing), `redis://…`
   * (`#prefix` for the key prefix), or a store opened with `openStore` (then yours to close).
   */
  readonly store: string | CrawlStore;
  /** URLs to start from (none with `queued`). */
  readonly seeds?: readonly string[];
  /** Called with each page kept (not `noindex`); without one, the crawl only fetches and files. */
  readonly handler?: PageHandler;
  /**
   * Told of every exchange the crawl makes once it has ended (robots.txt and its redirect hops,
   * sitemaps, pages kept or not, redirects, errors): what an archive of the crawl holds.
   */
  readonly onExchange?: ExchangeObserver;
  /** Told of each record once it is in the crawl log: what heed did with each request. */
  readonly onRecord?: (record: CrawlRecord) => void;
  /** The User-Agent header; default `AGENT/<heed version> (+infoUrl)`. Its product token must be `agent`. */
  readonly userAgent?: string;
  /** The URL in the default User-Agent: a page about the robot. */
  readonly infoUrl?: string;
  /** Pages fetched in a run at most (default 1000; with `total`, in the whole crawl). */
  readonly maxPages?: number;
  /** Link steps from the seeds (default 5); sitemap entries are one step. */
  readonly maxDepth?: number;
  /** Pages fetched of one site in a run at most (default no limit). */
  readonly maxPerHost?: number;
  /** `maxPages` and `maxPerHost` count earlier runs of the crawl too. */
  readonly total?: boolean;
  /** Requests in flight at once, over all sites (default 16). */
  readonly concurrency?: number;
  /** Requests in flight at once to one site, when its robots.txt sets no delay (default 1). */
  readonly perHost?: number;
  /**
   * Sockets open at once over all sites (default: three quarters of the open-files limit,
   * `ulimit -n`, at most 4096); at the cap the idlest site's connection is closed first.
   */
  readonly maxSockets?: number;
  /**
   * Per site (an origin, `https://example.com`): requests in flight at once, at most `perHost`
   * (raise `perHost` and lower the others to favour one site). A site's robots.txt still rules:
   * a Crawl-delay or Request-rate spaces requests whatever is set here.
   */
  readonly sites?: Readonly<Record<string, { readonly concurrency?: number }>>;
  /** Which links to follow: the seeds' hosts (default), their domains, or URL prefixes. */
  readonly scope?: ScopeKind;
  /**
   * URL patterns a found URL must match to be taken (any one; every URL when empty): globs
   * (`/blog/**`, `https://example.com/docs/*`) or RE2 regular expressions written `re:…`.
   * Checked before robots.txt: a URL left out is never fetched. The seeds are always fetched.
   * docs/crawler.md#include-and-exclude.
   */
  readonly include?: readonly string[];
  /** URL patterns, as `include`, that leave a found URL out. */
  readonly exclude?: readonly string[];
  /** robots.txt dialect: `auto` (default: what the file says), `rfc9309`, `koster1996`, `regp`. */
  readonly dialect?: DialectChoice;
  /** The address requests leave from; REGP Ip-* rules see it. */
  readonly ip?: string;
  /**
   * Sign every request of the crawl with Web Bot Auth (robots.txt, sitemaps, pages, RUP,
   * /data.txt, each redirect hop): see `createRequestSigner` and docs/web-bot-auth.md.
   */
  readonly signer?: RequestSigner;
  /** What the robot supports, for REGP Language, Encoding and Charset lines. */
  readonly languages?: readonly string[];
  readonly encodings?: readonly string[];
  readonly charsets?: readonly string[];
  /** Read sites' sitemaps (default true); `sitemapFallback`: `/sitemap.xml` when none is named. */
  readonly sitemaps?: boolean;
  readonly sitemapFallback?: boolean;
  /** Follow the links heed reads in HTML pages (default true); false: only what the handler queues. */
  readonly followLinks?: boolean;
  /** A page's links in place of heed's reading (each still checked like any link). */
  readonly links?: LinkExtractor;
  /** Media types handed to the handler (`text/html`, `application/*`); default all. */
  readonly contentTypes?: readonly string[];
  /** Headers sent with every page request (not User-Agent, Host, Cookie, Accept-Encoding, If-*). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A Cookie value per site (origin → `name=value; …`), sent with its page requests. */
  readonly cookies?: Readonly<Record<string, string>>;
  /** Fetch again every page earlier runs fetched, with conditional requests. */
  readonly recrawl?: boolean;
  /** Fetch again the pages whose revisit moment came (sitemap changefreq, lastmod; REGP). */
  readonly revisit?: boolean;
  /** Fetch what the store holds queued (`follow`: and follow links, read sitemaps). */
  readonly queued?: boolean;
  readonly follow?: boolean;
  /** Sort query parameters when normalising URLs. */
  readonly sortQuery?: boolean;
  /** How long a run waits for a site closed for now before setting it aside, in ms (default 600000). */
  readonly siteWaitMs?: number;
  /** Tries of a URL meeting 5xx, network errors or a failing handler (default 3). */
  readonly maxAttempts?: number;
  /** Longest a handler may run for one page, in ms (default 60000); then it counts as failed. */
  readonly handlerTimeoutMs?: number;
  /** Index subtrees through the agent hosts sites name (Mobile-agent-server). */
  readonly agents?: boolean;
  /**
   * What the crawl collects pages for: `search`, `train-ai`, `ai-input`. A page whose usage
   * preferences (Content-Usage, Content-Signal, TDMRep, noai) refuse one is fetched and not
   * handed to the handler, unless `keepRefused`. Preferences are recorded either way
   * (docs/usage-preferences.md).
   */
  readonly purposes?: readonly Category[];
  readonly keepRefused?: boolean;
  /**
   * true: connect to loopback and private addresses on any host. Default: only on the hosts of
   * seeds that are such addresses (asking for such a site is asking for it), never on hosts a
   * link, a redirect, a sitemap or a Mirror-site line names. false: on none.
   */
  readonly allowPrivateAddresses?: boolean;
  /**
   * An HTTP proxy (`http://host:port`) every request of the crawl goes through; `proxyFor`
   * gives a host its own (or `direct`). Targets stay under the address guard as direct
   * requests are. docs/network-guard.md#proxies.
   */
  readonly proxy?: string;
  readonly proxyFor?: Readonly<Record<string, string>>;
  /** Stops the crawl; `run()` then resolves with `stoppedBy: "aborted"`. */
  readonly signal?: AbortSignal;
}

export const DEFAULTS = {
  maxPages: 1000,
  maxDepth: 5,
  concurrency: 16,
  perHost: 1,
  scope: "host",
  handlerTimeoutMs: 60_000,
  infoUrl: "https://www.npmjs.com/package/heed",
} as const;

/**
 * Headers a crawler author may not set: heed's identity and politeness (User-Agent, the
 * conditional requests), what HTTP itself frames, and Cookie (the `cookies` option, per site).
 */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  "user-agent",
  "host",
  "cookie",
  "accept-encoding",
  "if-none-match",
  "if-modified-since",
  "if-match",
  "if-unmodified-since",
  "if-range",
  "connection",
  "content-length",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "keep-alive",
  "expect",
  "proxy-authorization",
  "proxy-connection",
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Longest header value a crawler author may set: a line, not a body. */
const MAX_HEADER_CHARS = 8_000;

function bad(name: string, expected: string, got: unknown): never {
  let shown: string;
  try {
    shown = JSON.stringify(got) ?? String(got);
  } catch {
    shown = typeof got;
  }
  throw new CrawlerError(
    "HEED_BAD_CRAWLER_OPTION",
    `${name}: expected ${expected}, got ${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown}`,
  );
}

function whole(name: string, value: unknown, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < min))
    bad(name, `a whole number >= ${min}`, value);
}

function headerValue(name: string, value: unknown): void {
  if (typeof value !== "string" || value.length > MAX_HEADER_CHARS || /[\r\n\0]/.test(value))
    bad(name, `text of at most ${MAX_HEADER_CHARS} characters without line breaks`, value);
}

/** Checks every option; returns the seeds normalised. */
export function checkOptions(options: CrawlerOptions): { readonly seeds: readonly string[] } {
  if (options === null || typeof options !== "object") bad("options", "an object", options);
  const agent = options.agent;
  if (typeof agent !== "string" || !/^[A-Za-z0-9_-]+$/.test(agent))
    bad("agent", 'a name token of letters, digits, "-" and "_"', agent);
  if (options.userAgent !== undefined) {
    headerValue("userAgent", options.userAgent);
    // The header names the robot robots.txt was read for: a site targets what it sees.
    if (productToken(options.userAgent).toLowerCase() !== agent.toLowerCase())
      bad("userAgent", `a User-Agent whose product token is "${agent}"`, options.userAgent);
  }
  if (
    typeof options.store !== "string" &&
    (options.store === null || typeof options.store !== "object")
  )
    bad("store", "a file path, a redis:// URL or a store from openStore", options.store);
  const seeds = (options.seeds ?? []).map((seed, i) => {
    const url = typeof seed === "string" ? normalizeUrl(seed) : null;
    if (url === null) bad(`seeds[${i}]`, "an http(s) URL", seed);
    return url;
  });
  if (seeds.length === 0 && options.queued !== true)
    bad("seeds", "at least one URL to start from (or queued: true)", options.seeds ?? []);
  if (options.handler !== undefined && typeof options.handler !== "function")
    bad("handler", "a function", typeof options.handler);
  if (options.links !== undefined && typeof options.links !== "function")
    bad("links", "a function", typeof options.links);
  for (const name of ["onExchange", "onRecord"] as const)
    if (options[name] !== undefined && typeof options[name] !== "function")
      bad(name, "a function", typeof options[name]);
  whole("maxPages", options.maxPages, 1);
  whole("maxDepth", options.maxDepth, 0);
  whole("maxPerHost", options.maxPerHost, 1);
  whole("concurrency", options.concurrency, 1);
  whole("perHost", options.perHost, 1);
  whole("maxSockets", options.maxSockets, 1);
  whole("siteWaitMs", options.siteWaitMs, 0);
  whole("maxAttempts", options.maxAttempts, 1);
  whole("handlerTimeoutMs", options.handlerTimeoutMs, 1);
  if (options.scope !== undefined && !["host", "domain", "prefix"].includes(options.scope))
    bad("scope", "host, domain or prefix", options.scope);
  for (const name of ["include", "exclude"] as const) {
    const list = options[name];
    if (list !== undefined && (!Array.isArray(list) || list.some((p) => typeof p !== "string")))
      bad(name, "an array of pattern strings", list);
  }
  const patterns = urlPatternProblem(options.include ?? [], options.exclude ?? []);
  if (patterns !== null) throw new CrawlerError("HEED_BAD_CRAWLER_OPTION", patterns);
  const badProxy = badProxyOption(options);
  if (badProxy !== null) bad(badProxy.name, "an http(s) proxy URL", badProxy.value);
  if (options.ip !== undefined && isIP(options.ip) === 0)
    bad("ip", "an IPv4 or IPv6 address", options.ip);
  for (const [origin, site] of Object.entries(options.sites ?? {})) {
    if (originKey(origin) === null) bad(`sites["${origin}"]`, "an http(s) origin as key", origin);
    whole(`sites["${origin}"].concurrency`, site?.concurrency, 1);
    const perHost = options.perHost ?? DEFAULTS.perHost;
    if ((site?.concurrency ?? 1) > perHost)
      bad(`sites["${origin}"].concurrency`, `at most perHost (${perHost})`, site?.concurrency);
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!TOKEN.test(name)) bad(`headers["${name}"]`, "a header name", name);
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      bad(`headers["${name}"]`, "a header heed does not set itself (cookies: per site)", name);
    headerValue(`headers["${name}"]`, value);
  }
  for (const [origin, value] of Object.entries(options.cookies ?? {})) {
    if (originKey(origin) === null) bad(`cookies["${origin}"]`, "an http(s) origin as key", origin);
    headerValue(`cookies["${origin}"]`, value);
  }
  for (const [i, type] of (options.contentTypes ?? []).entries()) {
    if (typeof type !== "string" || !/^[a-z0-9!#$&^_.+-]+\/(?:\*|[a-z0-9!#$&^_.+-]+)$/i.test(type))
      bad(`contentTypes[${i}]`, "a media type such as text/html or application/*", type);
  }
  for (const [i, purpose] of (options.purposes ?? []).entries()) {
    if (typeof purpose !== "string" || readPurpose(purpose) !== purpose)
      bad(`purposes[${i}]`, "search, train-ai or ai-input", purpose);
  }
  return { seeds };
}

/** `https://example.com` for an origin given in any spelling, or null. */
export function originKey(origin: string): string | null {
  const url = normalizeUrl(origin);
  return url === null ? null : new URL(url).origin;
}

/** Whether a page of media type `type` goes to the handler. */
export function acceptsType(accepted: readonly string[] | undefined, type: string | null): boolean {
  if (accepted === undefined) return true;
  if (type === null) return false;
  return accepted.some((a) => {
    const want = a.toLowerCase();
    return want.endsWith("/*") ? type.startsWith(want.slice(0, -1)) : type === want;
  });
}
