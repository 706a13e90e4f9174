/**
 * Fetching /robots.txt over HTTP with DESIGN §3's rules: redirects followed by the guarded client
 * (at most five, each hop guarded), a body cap, timeouts, and the status code turned into a verdict by
 * `robotsFetchVerdict`. The verdict, not an exception, carries what the answer means.
 */
import { deadlineSignal, ROBOTS_DEADLINE_MS } from "./deadline.js";
import {
  cacheLifetime,
  type FetchVerdict,
  MAX_ROBOTS_REDIRECTS,
  robotsFetchVerdict,
} from "../protocol/robots/index.js";
import { type GuardedResponse, GuardedRequestError, guardedRequest } from "./guarded-request.js";
import { classifyNetworkError, type HttpClient } from "./http-client.js";

/** Read no more than this of a robots.txt body; parsing stops at 500 KiB anyway. */
export const MAX_ROBOTS_BODY_BYTES = 4 * 1024 * 1024;
/** Time allowed for the headers, and between two chunks of the body. */
export const ROBOTS_TIMEOUT_MS = 15_000;

export interface RobotsFetchOptions {
  /** Default: the client's User-Agent, else "heed". */
  readonly userAgent?: string;
  /**
   * Fetch through this client's connection pools, so that robots.txt gets the same SSRF guard and
   * local address (`--ip`) as the pages; default: heed's shared guarded dispatcher.
   */
  readonly client?: Pick<HttpClient, "dispatcher" | "userAgent">;
  /** Without `client`: the user named a private or loopback host, so it may be reached. */
  readonly allowPrivateAddresses?: boolean;
  readonly timeoutMs?: number;
  /**
   * The exchange's total deadline in ms (default {@link ROBOTS_DEADLINE_MS}): past it the
   * exchange ends, however far it got, the site is unreachable, and the reason says so.
   */
  readonly deadlineMs?: number;
  /** Ends the exchange too (the crawl stopping): then the site is unreachable. */
  readonly signal?: AbortSignal;
  readonly maxBytes?: number;
  /** The clock, for cache lifetimes; default `Date.now`. */
  readonly now?: () => number;
  /** Called before each redirect hop is followed, as guardedRequest's `beforeRedirect`. */
  readonly beforeRedirect?: (from: string, to: string) => Promise<void>;
}

export interface RobotsFetchResult {
  /** The robots.txt URL asked first. */
  readonly url: string;
  /** The URL that answered last, after redirects. */
  readonly finalUrl: string;
  /** The last status code, or null after a network error. */
  readonly status: number | null;
  readonly redirects: number;
  readonly verdict: FetchVerdict;
  /** The body when the verdict is `parse`. */
  readonly body: Uint8Array | null;
  /** The body was longer than `maxBytes` and was cut there. */
  readonly bodyCut: boolean;
  /** How long the result may be cached, in ms. */
  readonly lifetimeMs: number;
  /** The last answer's `Link` field, when it had one (it may name a license, RFC 8288 §3). */
  readonly link?: string;
  /** After a network error, its `code` when it had one (HEED_BLOCKED_ADDRESS: the address guard). */
  readonly errorCode?: string;
  /**
   * The request could not be made: this machine ran out of open files (EMFILE, ENFILE). The
   * site gave no answer and must not be judged by it: ask again later.
   */
  readonly openFilesShortage?: true;
}

/** The robots.txt URL for any URL of a site: `https://a.example:8080/x?y` → `https://a.example:8080/robots.txt`. */
export function robotsUrlFor(url: string | URL): string {
  const parsed = typeof url === "string" ? new URL(url) : url;
  return `${parsed.origin}/robots.txt`;
}

export async function fetchRobots(
  url: string,
  options: RobotsFetchOptions = {},
): Promise<RobotsFetchResult> {
  const timeout = options.timeoutMs ?? ROBOTS_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_ROBOTS_BODY_BYTES;
  const now = options.now ?? Date.now;
  const failed = (
    finalUrl: string,
    status: number | null,
    redirects: number,
    why: string,
    errorCode?: string,
  ): RobotsFetchResult => ({
    url,
    finalUrl,
    status,
    redirects,
    verdict: robotsFetchVerdict({ networkError: why, redirects }),
    body: null,
    bodyCut: false,
    lifetimeMs: 0,
    ...(errorCode === undefined ? {} : { errorCode }),
  });
  let response: GuardedResponse;
  try {
    response = await guardedRequest(url, {
      ...(options.client === undefined ? {} : { client: options.client }),
      ...(options.allowPrivateAddresses === true ? { allowPrivateAddresses: true } : {}),
      headers: {
        ...(options.userAgent === undefined ? {} : { "user-agent": options.userAgent }),
        accept: "text/plain, */*;q=0.5",
      },
      maxRedirects: MAX_ROBOTS_REDIRECTS,
      ...(options.beforeRedirect === undefined ? {} : { beforeRedirect: options.beforeRedirect }),
      headersTimeoutMs: timeout,
      bodyTimeoutMs: timeout,
      signal: deadlineSignal(
        "robots.txt",
        options.deadlineMs ?? ROBOTS_DEADLINE_MS,
        options.signal,
      ),
    });
  } catch (error) {
    const at = error instanceof GuardedRequestError ? error.url : url;
    const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
    const result = failed(
      at,
      null,
      0,
      describe(error),
      typeof code === "string" ? code : undefined,
    );
    return classifyNetworkError(error) === "local"
      ? { ...result, openFilesShortage: true }
      : result;
  }
  const { status, redirects, headers } = response;
  const verdict = robotsFetchVerdict({ status, redirects });
  if (verdict.action === "follow" || (status >= 300 && status < 400)) {
    await response.body.dump().catch(() => undefined);
    if (response.location === null) {
      return failed(response.url, status, redirects, `${status} without a Location header`);
    }
    // The hop limit stopped the client: one more redirect than heed follows.
    const tooMany = robotsFetchVerdict({ status, redirects: redirects + 1 });
    return {
      url,
      finalUrl: response.location,
      status,
      redirects: redirects + 1,
      verdict: tooMany,
      body: null,
      bodyCut: false,
      lifetimeMs: 0,
    };
  }
  const header = (name: string): string | null => headers[name] ?? null;
  const lifetimeMs = cacheLifetime(
    { cacheControl: header("cache-control"), expires: header("expires"), date: header("date") },
    now(),
  );
  if (verdict.action !== "parse") {
    await response.body.dump().catch(() => undefined);
    return {
      url,
      finalUrl: response.url,
      status,
      redirects,
      verdict,
      body: null,
      bodyCut: false,
      lifetimeMs,
    };
  }
  const link = header("link");
  try {
    const { bytes, cut } = await readCapped(response.body, maxBytes);
    return {
      url,
      finalUrl: response.url,
      status,
      redirects,
      verdict,
      body: bytes,
      bodyCut: cut,
      lifetimeMs,
      ...(link === null ? {} : { link }),
    };
  } catch (error) {
    return failed(response.url, status, redirects, describe(error));
  }
}

async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy(): unknown },
  maxBytes: number,
) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for await (const chunk of body) {
    const room = maxBytes - size;
    if (chunk.byteLength > room) {
      chunks.push(chunk.subarray(0, room));
      size += room;
      cut = true;
      body.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, cut };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
