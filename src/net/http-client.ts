/**
 * The HTTP client the crawler fetches pages with: one undici `Agent` (keep-alive pools, a bounded
 * number of connections per origin, an optional local address for `--ip`, the SSRF guard at
 * connect time), and `fetchPage`, which makes exactly one request and returns plain data.
 *
 * Redirects are not followed: a 3xx comes back with its `location` resolved, because the crawler
 * asks robots.txt about every hop. Bodies are decompressed here, with node:zlib, under a size cap
 * and a compression-ratio cap; the raw body has its own cap; connect, headers, body and the whole
 * exchange have time limits. Whatever goes wrong comes back as `{ kind: "error" }`, never as an
 * exception, so one odd server cannot take a crawl down.
 */
import { DeadlineError } from "./deadline.js";
import { isIP } from "node:net";
import { performance } from "node:perf_hooks";
import type { Transform } from "node:stream";
import {
  constants as zlib,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
} from "node:zlib";
import { Agent, buildConnector, type Dispatcher, type Pool, request } from "undici";
import { BLOCKED_ADDRESS_CODE, guardConnector, guardedLookup } from "./address-guard.js";
import { type RequestSigner, signingDispatcher } from "./request-signer.js";
import { proxyRoute } from "./proxy-route.js";
import { badProxyOption } from "./proxy-url.js";
import { retryAfterMs } from "./retry-after.js";
import { defaultMaxSockets, OPEN_FILES_SHORTAGE_CODES } from "./open-files.js";
import { SocketBudget } from "./socket-budget.js";

/** Time to open a TCP (and TLS) connection; a host that takes longer is as good as down. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Time from sending the request to the end of the response headers. */
export const HEADERS_TIMEOUT_MS = 30_000;
/** Longest silence between two chunks of the body. */
export const BODY_TIMEOUT_MS = 30_000;
/**
 * Time for the whole exchange: the other limits bound each wait, but a server that trickles a
 * byte every 29 s would never trip them. Two minutes is generous for any page.
 */
export const TOTAL_TIMEOUT_MS = 120_000;
/** Bytes read off the wire (before decompression); more than any page a search engine indexes. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Bytes of decoded body kept; the same bound, so a compressed page cannot be larger. */
export const MAX_DECOMPRESSED_BYTES = 16 * 1024 * 1024;
/**
 * Decoded bytes per byte on the wire beyond which the body is treated as a decompression bomb.
 * HTML gzips about 5:1 to 10:1 and very repetitive markup about 50:1; zeros gzip about 1000:1.
 */
export const MAX_COMPRESSION_RATIO = 100;
/** The ratio is judged only past this much decoded output: tiny bodies have noisy ratios. */
export const RATIO_GRACE_BYTES = 1024 * 1024;
/** Connections kept per origin: a polite robot has one page and its robots.txt in flight at most. */
export const CONNECTIONS_PER_ORIGIN = 2;
/** The codings heed can undo; sent as `Accept-Encoding` on every request. */
export const ACCEPT_ENCODING = "gzip, deflate, br";
const DEFAULT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The stable `code` of the exception thrown for bad options. */
export const BAD_HTTP_OPTION_CODE = "HEED_BAD_HTTP_OPTION";

export interface HttpClientOptions {
  /** Sent as `User-Agent` on every request. */
  readonly userAgent: string;
  /** The local IP address outgoing connections are bound to (`--ip`); default: the system's choice. */
  readonly localAddress?: string;
  /** Default {@link CONNECT_TIMEOUT_MS}. */
  readonly connectTimeoutMs?: number;
  /** Default {@link HEADERS_TIMEOUT_MS}. */
  readonly headersTimeoutMs?: number;
  /** Longest silence inside the body; default {@link BODY_TIMEOUT_MS}. */
  readonly bodyTimeoutMs?: number;
  /** The whole exchange; default {@link TOTAL_TIMEOUT_MS}. */
  readonly totalTimeoutMs?: number;
  /** Raw body bytes read; default {@link MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /** Decoded body bytes kept; default {@link MAX_DECOMPRESSED_BYTES}. */
  readonly maxDecompressedBytes?: number;
  /** Decoded bytes per raw byte; default {@link MAX_COMPRESSION_RATIO}. */
  readonly maxRatio?: number;
  /** Default {@link CONNECTIONS_PER_ORIGIN}. */
  readonly connectionsPerOrigin?: number;
  /**
   * Sockets open at once over every site; idle ones are closed first (socket-budget.ts).
   * Default: a share of the open-files limit ({@link defaultMaxSockets}).
   */
  readonly maxSockets?: number;
  /**
   * Connect to loopback, private, link-local, unique-local, multicast and unspecified addresses
   * too. Off by default (the SSRF guard, see address-guard.ts); tests and the demo turn it on.
   */
  readonly allowPrivateAddresses?: boolean;
  /**
   * Host names (as `URL.hostname` writes them) that may be reached on private addresses: the
   * hosts the user named. Every other host stays guarded, whatever a site names or links to.
   */
  readonly privateHosts?: readonly string[];
  /** The clock, for `Retry-After` dates; default `Date.now`. */
  readonly now?: () => number;
  /** Sign every request, each redirect hop anew, with Web Bot Auth (request-signer.ts). */
  readonly signer?: RequestSigner;
  /**
   * An HTTP proxy for every request (`proxy`) or per host (`proxyFor`, `direct` for none);
   * the targets stay guarded as direct connections are (proxy-route.ts).
   */
  readonly proxy?: string;
  readonly proxyFor?: Readonly<Record<string, string>>;
}

export interface FetchPageOptions {
  readonly headers?: {
    /** Sent as is (a REGP `Cookie:` line asks for it). */
    readonly cookie?: string;
    /** The `etag` of the copy we have: a 304 means it is still good. */
    readonly ifNoneMatch?: string;
    /** The `lastModified` of the copy we have (an HTTP-date string, or a Date). */
    readonly ifModifiedSince?: string | Date;
    /** Default: HTML first, anything else accepted. */
    readonly accept?: string;
    /**
     * More headers a crawler author asked for (names lower-cased). Sent before the ones above,
     * which win: User-Agent, Accept-Encoding and the conditional headers are heed's to set.
     */
    readonly extra?: Readonly<Record<string, string>>;
  };
  /** Aborting gives `{ kind: "error", code: "other" }`. */
  readonly signal?: AbortSignal;
  /**
   * This exchange's body limit, raw and decoded, in place of the client's (a sitemap may be
   * 50 MB where a page is cut at 16 MiB); the ratio limit still holds.
   */
  readonly maxBodyBytes?: number;
}

export type CutReason = "size" | "ratio";

export interface PageResponse {
  readonly kind: "response";
  /** The URL asked (parsed, without its #fragment, which is never sent). */
  readonly url: string;
  readonly status: number;
  /**
   * Response headers, names lower-cased, the first value of each; every line of Content-Usage,
   * Content-Signal and tdm-reservation (joined with ", ") and of X-Robots-Tag (joined with a
   * line break).
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The media type without parameters, lower-cased (`text/html`), or null. */
  readonly contentType: string | null;
  /** The `charset` parameter of Content-Type, lower-cased, or null. */
  readonly charset: string | null;
  /**
   * The decoded body; null when the status has none (1xx, 204, 205, 304) and for a 3xx with a
   * Location, whose body nobody reads.
   */
  readonly body: Uint8Array | null;
  /** The body stopped at a limit; `body` holds what came before it. */
  readonly bodyCut: boolean;
  /** Present when `bodyCut`: the raw or decoded size limit, or the compression-ratio limit. */
  readonly cutReason?: CutReason;
  /** The Location header resolved against `url`, or null (absent or not a URL). */
  readonly location: string | null;
  /** What `Retry-After` asks for, in ms (see retry-after.ts), or null. */
  readonly retryAfterMs: number | null;
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** From sending the request to the end of the body. */
  readonly ms: number;
  /** Body bytes read off the wire (still compressed). */
  readonly wireBytes: number;
}

/**
 * `local`: this machine ran out of open files (EMFILE, ENFILE); the site gave no answer and was
 * not even asked, so the request is to be made again, never held against the site.
 */
export type PageErrorCode =
  "timeout" | "refused" | "dns" | "reset" | "tls" | "blocked" | "local" | "other";

export interface PageError {
  readonly kind: "error";
  readonly url: string;
  readonly code: PageErrorCode;
  readonly message: string;
  readonly ms: number;
}

export type PageResult = PageResponse | PageError;

export interface HttpClient {
  readonly userAgent: string;
  /** The undici Agent, for other fetchers that should share pools, guard and local address. */
  readonly dispatcher: Dispatcher;
  /** One GET, no redirect followed; never throws. */
  fetchPage(url: string | URL, options?: FetchPageOptions): Promise<PageResult>;
  /** Closes the pooled connections once requests in flight are done. */
  close(): Promise<void>;
}

type Coding = "gzip" | "deflate" | "br";

interface Limits {
  readonly maxBodyBytes: number;
  readonly maxDecompressedBytes: number;
  readonly maxRatio: number;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const userAgent = options.userAgent;
  if (typeof userAgent !== "string" || userAgent.trim() === "" || /[\0-\x1f\x7f]/.test(userAgent)) {
    throw optionError(
      `userAgent: expected a non-empty header value, got ${JSON.stringify(userAgent)}`,
    );
  }
  const localAddress = options.localAddress;
  if (localAddress !== undefined && isIP(localAddress) === 0) {
    throw optionError(`localAddress: expected an IP address, got ${JSON.stringify(localAddress)}`);
  }
  const connectTimeoutMs = positive(
    "connectTimeoutMs",
    options.connectTimeoutMs,
    CONNECT_TIMEOUT_MS,
  );
  const headersTimeoutMs = positive(
    "headersTimeoutMs",
    options.headersTimeoutMs,
    HEADERS_TIMEOUT_MS,
  );
  const bodyTimeoutMs = positive("bodyTimeoutMs", options.bodyTimeoutMs, BODY_TIMEOUT_MS);
  const totalTimeoutMs = positive("totalTimeoutMs", options.totalTimeoutMs, TOTAL_TIMEOUT_MS);
  const limits: Limits = {
    maxBodyBytes: positiveInteger("maxBodyBytes", options.maxBodyBytes, MAX_BODY_BYTES),
    maxDecompressedBytes: positiveInteger(
      "maxDecompressedBytes",
      options.maxDecompressedBytes,
      MAX_DECOMPRESSED_BYTES,
    ),
    maxRatio: positive("maxRatio", options.maxRatio, MAX_COMPRESSION_RATIO),
  };
  const connections = positiveInteger(
    "connectionsPerOrigin",
    options.connectionsPerOrigin,
    CONNECTIONS_PER_ORIGIN,
  );
  const maxSockets = positiveInteger("maxSockets", options.maxSockets, defaultMaxSockets());
  const now = options.now ?? Date.now;
  const guarded = createGuardedAgent({
    maxSockets,
    allowPrivateAddresses: options.allowPrivateAddresses === true,
    ...(options.privateHosts === undefined ? {} : { privateHosts: options.privateHosts }),
    connectTimeoutMs,
    connections,
    headersTimeoutMs,
    bodyTimeoutMs,
    ...(localAddress !== undefined ? { localAddress } : {}),
  });
  const badProxy = badProxyOption(options);
  if (badProxy !== null) throw optionError(`${badProxy.name}: ${badProxy.problem}`);
  const routed = proxyRoute(guarded, {
    ...(options.proxy === undefined ? {} : { proxy: options.proxy }),
    ...(options.proxyFor === undefined ? {} : { proxyFor: options.proxyFor }),
    allowPrivateAddresses: options.allowPrivateAddresses === true,
    privateHosts: new Set(options.privateHosts?.map((host) => host.toLowerCase())),
    connections,
    headersTimeoutMs,
    bodyTimeoutMs,
    ...(localAddress !== undefined ? { localAddress } : {}),
  });
  const agent =
    options.signer === undefined
      ? routed.dispatcher
      : signingDispatcher(routed.dispatcher, options.signer);

  async function fetchPage(input: string | URL, fetchOptions: FetchPageOptions = {}) {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      return pageError(String(input), "other", `not a URL: ${String(input)}`, elapsed());
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return pageError(url.href, "other", `not an http(s) URL: ${url.href}`, elapsed());
    }
    url.hash = "";
    const href = url.href;
    const deadline = AbortSignal.timeout(totalTimeoutMs);
    const signal = fetchOptions.signal
      ? AbortSignal.any([fetchOptions.signal, deadline])
      : deadline;
    const failed = (error: unknown, during: string): PageError => {
      if (fetchOptions.signal?.aborted) return pageError(href, "other", "aborted", elapsed());
      if (deadline.aborted) {
        const ended = new DeadlineError("one request", totalTimeoutMs);
        return pageError(href, "timeout", `${ended.message} (${during})`, elapsed());
      }
      if (error instanceof DecodeError) return pageError(href, "other", error.message, elapsed());
      return pageError(href, classifyNetworkError(error), describe(error), elapsed());
    };

    let response: Dispatcher.ResponseData;
    try {
      response = await request(href, {
        dispatcher: agent,
        method: "GET",
        headers: requestHeaders(userAgent, fetchOptions.headers),
        signal,
      });
    } catch (error) {
      return failed(error, "waiting for the headers");
    }

    const status = response.statusCode;
    const headers = firstValues(response.headers);
    const location = resolveLocation(headers["location"], href);
    const contentTypeHeader = headers["content-type"] ?? null;
    const answer = {
      kind: "response" as const,
      url: href,
      status,
      headers,
      contentType: mediaType(contentTypeHeader),
      charset: charsetOf(contentTypeHeader),
      location,
      retryAfterMs: retryAfterMs(headers["retry-after"] ?? null, now()),
      etag: headers["etag"] ?? null,
      lastModified: headers["last-modified"] ?? null,
    };

    const noBody =
      status < 200 ||
      status === 204 ||
      status === 205 ||
      status === 304 ||
      (status >= 300 && status < 400 && location !== null);
    if (noBody) {
      // Nobody reads it; draining a little lets the connection be reused, and a failure here
      // changes nothing about the answer.
      await response.body.dump().catch(() => undefined);
      return { ...answer, body: null, bodyCut: false, ms: elapsed(), wireBytes: 0 };
    }

    const coding = contentCoding(headers["content-encoding"]);
    if (coding === "unsupported") {
      // undici reports a body destroyed before its end as an "aborted" error event: expected here.
      response.body.on("error", () => undefined).destroy();
      return pageError(
        href,
        "other",
        `unsupported Content-Encoding ${JSON.stringify(headers["content-encoding"])} (status ${status})`,
        elapsed(),
      );
    }
    try {
      const cap = fetchOptions.maxBodyBytes;
      const read = await readBody(
        response.body,
        coding,
        cap === undefined ? limits : { ...limits, maxBodyBytes: cap, maxDecompressedBytes: cap },
      );
      return {
        ...answer,
        body: read.bytes,
        bodyCut: read.cut !== null,
        ...(read.cut !== null ? { cutReason: read.cut } : {}),
        ms: elapsed(),
        wireBytes: read.wireBytes,
      };
    } catch (error) {
      return failed(error, `reading the body after status ${status}`);
    }
  }

  return {
    userAgent,
    dispatcher: agent,
    fetchPage,
    close: () => routed.close(),
  };
}

interface GuardedAgentOptions {
  readonly allowPrivateAddresses: boolean;
  /** Hosts whose connections skip the guard (the hosts the user named). */
  readonly privateHosts?: readonly string[];
  readonly connectTimeoutMs: number;
  readonly connections: number;
  /** Sockets open at once over every origin; default {@link defaultMaxSockets}. */
  readonly maxSockets?: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly localAddress?: string;
}

/**
 * The one undici Agent builder of heed: every connection it opens goes through the SSRF guard
 * (address-guard.ts) unless private addresses were asked for. Only `net/` builds dispatchers.
 */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  const open = buildConnector({ timeout: options.connectTimeoutMs });
  const guarded = guardConnector(
    buildConnector({ timeout: options.connectTimeoutMs, lookup: guardedLookup }),
  );
  // Decided per connection, by the host asked for: a host the user named may be private, and
  // a link, a redirect or a robots.txt line naming another host does not make it so.
  const named = new Set(options.privateHosts?.map((host) => host.toLowerCase()));
  const connect: buildConnector.connector = options.allowPrivateAddresses
    ? open
    : named.size === 0
      ? guarded
      : (connectOptions, callback) =>
          (named.has(connectOptions.hostname.toLowerCase()) ? open : guarded)(
            connectOptions,
            callback,
          );
  const budget = new SocketBudget(options.maxSockets ?? defaultMaxSockets());
  // The local address goes to the Agent, not to `connect`: undici hands the connector the
  // client's `localAddress` and that would override one given to buildConnector.
  return new Agent({
    connect,
    factory: (origin, poolOptions) => budget.pool(origin, poolOptions as Pool.Options, connect),
    connections: options.connections,
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
    ...(options.localAddress !== undefined ? { localAddress: options.localAddress } : {}),
  });
}

/** The headers `fetchPage` sends besides Host, names lower-cased. */
export function requestHeaders(
  userAgent: string,
  extra: FetchPageOptions["headers"] = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    ...extra.extra,
    "user-agent": userAgent,
    accept: extra.accept ?? extra.extra?.["accept"] ?? DEFAULT_ACCEPT,
    "accept-encoding": ACCEPT_ENCODING,
  };
  if (extra.cookie !== undefined) headers["cookie"] = extra.cookie;
  if (extra.ifNoneMatch !== undefined) headers["if-none-match"] = extra.ifNoneMatch;
  if (extra.ifModifiedSince !== undefined) {
    headers["if-modified-since"] =
      extra.ifModifiedSince instanceof Date
        ? extra.ifModifiedSince.toUTCString()
        : extra.ifModifiedSince;
  }
  return headers;
}

/**
 * Fields of which every line counts, and how their lines are joined. Content-Usage and
 * Content-Signal are Structured Fields dictionaries: their lines combine, in order, with ", "
 * (RFC 9110 §5.3, RFC 9651 §4.2), so a second line saying `train-ai=n` is read. X-Robots-Tag
 * lines each stand alone (one may name a robot, `googlebot: noindex`, and the next not), so
 * they are kept a line each, which its readers split on. tdm-reservation lines are joined too:
 * one saying 1 reserves, whichever line it is (protocol/usage/tdmrep.ts).
 */
const JOINED_FIELDS: Readonly<Record<string, string>> = {
  "content-usage": ", ",
  "content-signal": ", ",
  "tdm-reservation": ", ",
  "x-robots-tag": "\n",
};

function firstValues(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(raw)) {
    const name = key.toLowerCase();
    const joiner = Object.hasOwn(JOINED_FIELDS, name) ? JOINED_FIELDS[name] : undefined;
    const first = !Array.isArray(value)
      ? value
      : joiner === undefined
        ? value[0]
        : value.join(joiner);
    if (first !== undefined) headers[name] = first;
  }
  return headers;
}

function resolveLocation(location: string | undefined, base: string): string | null {
  if (location === undefined) return null;
  try {
    return new URL(location, base).href;
  } catch {
    return null;
  }
}

function mediaType(header: string | null): string | null {
  const type = header?.split(";")[0]?.trim().toLowerCase();
  return type ? type : null;
}

function charsetOf(header: string | null): string | null {
  const match = header === null ? null : /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header);
  return match?.[1]?.toLowerCase() ?? null;
}

/** null: identity. More than one coding is legal HTTP but nothing heed asks for produces it. */
function contentCoding(header: string | undefined): Coding | null | "unsupported" {
  if (header === undefined) return null;
  const codings = header
    .split(",")
    .map((token) => token.trim().toLowerCase())
    .filter((token) => token !== "" && token !== "identity");
  if (codings.length === 0) return null;
  if (codings.length > 1) return "unsupported";
  const [coding] = codings;
  if (coding === "gzip" || coding === "x-gzip") return "gzip";
  if (coding === "deflate" || coding === "br") return coding;
  return "unsupported";
}

/** A body that could not be decoded: content, not the network. */
class DecodeError extends Error {
  readonly code = "HEED_BAD_CONTENT_ENCODING";
}

interface BodyRead {
  readonly bytes: Uint8Array;
  readonly wireBytes: number;
  readonly cut: CutReason | null;
}

/**
 * Reads the body chunk by chunk: raw bytes are counted against `maxBodyBytes` and fed to the
 * decoder; decoded bytes are counted against `maxDecompressedBytes` and, past
 * {@link RATIO_GRACE_BYTES}, against `maxRatio` times the raw bytes so far. The first limit hit
 * stops everything; what was decoded before it is kept.
 */
async function readBody(
  body: AsyncIterable<Buffer>,
  coding: Coding | null,
  limits: Limits,
): Promise<BodyRead> {
  const kept: Buffer[] = [];
  let decoded = 0;
  let wire = 0;
  let cut: CutReason | null = null;
  let decoder: Transform | null = null;
  let decodeError: Error | null = null;

  const take = (chunk: Buffer) => {
    if (cut !== null) return;
    const room = limits.maxDecompressedBytes - decoded;
    if (chunk.byteLength > room) {
      kept.push(chunk.subarray(0, room));
      decoded += room;
      cut = "size";
    } else {
      kept.push(chunk);
      decoded += chunk.byteLength;
      if (coding !== null && decoded > RATIO_GRACE_BYTES && decoded > limits.maxRatio * wire) {
        cut = "ratio";
      }
    }
    // Destroying the decoder stops zlib before it inflates the rest of the chunk.
    if (cut !== null) decoder?.destroy();
  };

  try {
    for await (const raw of body) {
      const room = limits.maxBodyBytes - wire;
      const chunk = raw.byteLength > room ? raw.subarray(0, room) : raw;
      wire += chunk.byteLength;
      if (coding === null) take(chunk);
      else if (chunk.byteLength > 0) {
        if (decoder === null) {
          const started = createDecoder(coding, chunk);
          started.on("data", take);
          started.on("error", (error: Error) => {
            decodeError ??= error;
          });
          decoder = started;
        }
        await feed(decoder, chunk);
        if (decodeError !== null) throw decodeFailure(coding, decodeError);
      }
      if (cut === null && raw.byteLength > room) cut = "size";
      // Leaving the loop destroys the body, which closes the connection.
      if (cut !== null) break;
    }
    if (decoder !== null && cut === null) {
      await finish(decoder);
      if (decodeError !== null) throw decodeFailure(coding ?? "identity", decodeError);
    }
  } finally {
    const started: Transform | null = decoder;
    if (started !== null && !started.destroyed) started.destroy();
  }
  return { bytes: concat(kept, decoded), wireBytes: wire, cut };
}

function createDecoder(coding: Coding, first: Buffer): Transform {
  // Lenient at the end, as browsers are: a body cut short still gives what it holds.
  const lenient = { flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH };
  if (coding === "gzip") return createGunzip(lenient);
  if (coding === "br") {
    return createBrotliDecompress({
      flush: zlib.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.BROTLI_OPERATION_FLUSH,
    });
  }
  // HTTP's "deflate" is zlib-wrapped (RFC 9110 §8.4.1.2), but some servers send raw deflate:
  // a zlib stream starts with a CMF byte for method 8 and a header that is a multiple of 31.
  const cmf = first[0] ?? 0;
  const flg = first[1];
  const zlibWrapped = (cmf & 0x0f) === 8 && (flg === undefined || ((cmf << 8) | flg) % 31 === 0);
  return zlibWrapped ? createInflate(lenient) : createInflateRaw(lenient);
}

/** Resolves once the decoder has taken the chunk, or has been destroyed. */
function feed(decoder: Transform, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (decoder.destroyed) {
      resolve();
      return;
    }
    const settle = () => {
      decoder.off("close", settle);
      resolve();
    };
    decoder.once("close", settle);
    decoder.write(chunk, () => settle());
  });
}

/** Resolves once the decoder has put out everything, or has been destroyed. */
function finish(decoder: Transform): Promise<void> {
  return new Promise((resolve) => {
    if (decoder.destroyed) {
      resolve();
      return;
    }
    const settle = () => {
      decoder.off("end", settle);
      decoder.off("close", settle);
      resolve();
    };
    decoder.once("end", settle);
    decoder.once("close", settle);
    decoder.end();
  });
}

function decodeFailure(coding: string, error: Error): DecodeError {
  return new DecodeError(`cannot decode the ${coding} body: ${describe(error)}`, { cause: error });
}

function concat(chunks: readonly Buffer[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const TIMEOUT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
  "ERR_SOCKET_CONNECTION_TIMEOUT",
]);
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"]);
const RESET_CODES = new Set([
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);
const TLS_CODES = new Set([
  "EPROTO",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
]);

/** Which of the few kinds of network failure an error is; it looks into `cause` and AggregateError. */
export function classifyNetworkError(error: unknown): PageErrorCode {
  const seen = new Set<unknown>();
  const visit = (value: unknown): PageErrorCode | null => {
    if (typeof value !== "object" || value === null || seen.has(value)) return null;
    seen.add(value);
    const code = (value as { code?: unknown }).code;
    if (typeof code === "string") {
      if (code === BLOCKED_ADDRESS_CODE) return "blocked";
      if (OPEN_FILES_SHORTAGE_CODES.has(code)) return "local";
      if (TIMEOUT_CODES.has(code)) return "timeout";
      if (code === "ECONNREFUSED") return "refused";
      if (DNS_CODES.has(code)) return "dns";
      if (RESET_CODES.has(code)) return "reset";
      if (TLS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_")) {
        return "tls";
      }
    }
    const nested = [
      (value as { cause?: unknown }).cause,
      ...(value instanceof AggregateError ? (value.errors as unknown[]) : []),
    ];
    for (const inner of nested) {
      const found = visit(inner);
      if (found !== null) return found;
    }
    return null;
  };
  return visit(error) ?? "other";
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const message =
      error.message ||
      (error instanceof AggregateError
        ? (error.errors as unknown[]).map((inner) => describe(inner)).join("; ")
        : error.name);
    // OpenSSL's messages end in a line break.
    return typeof code === "string" ? `${code}: ${message.trim()}` : message.trim();
  }
  return String(error);
}

function pageError(url: string, code: PageErrorCode, message: string, ms: number): PageError {
  return { kind: "error", url, code, message, ms };
}

function optionError(message: string): TypeError & { code: string } {
  return Object.assign(new TypeError(message), { code: BAD_HTTP_OPTION_CODE });
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw optionError(`${name}: expected a positive number, got ${String(value)}`);
  }
  return value;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const checked = positive(name, value, fallback);
  if (!Number.isSafeInteger(checked)) {
    throw optionError(`${name}: expected a positive integer, got ${String(value)}`);
  }
  return checked;
}
