/**
 * The one way out (DESIGN §2): every request heed makes that is not a crawler page fetch
 * (robots.txt, sitemaps, RUP actions, webhooks, downloads) is sent here. Each hop goes through a
 * dispatcher built by `createGuardedAgent`, so the SSRF guard checks the address connected to on
 * every hop; redirects are followed here, hop by hop, never by undici, and a Location that is not
 * an http(s) URL is a clean error with a stable code, never an exception from `new URL`.
 *
 * Private and loopback addresses are reached only when the caller says the user named such a
 * host (`allowPrivateAddresses`, or a client built with it).
 */
import { type Dispatcher, request } from "undici";
import {
  BODY_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  CONNECTIONS_PER_ORIGIN,
  createGuardedAgent,
  HEADERS_TIMEOUT_MS,
  type HttpClient,
} from "./http-client.js";

/** Redirects followed unless a caller asks otherwise: RFC 9309 §2.3.1.2's five, as for robots.txt. */
export const MAX_REDIRECTS = 5;
/** The `code` of the error for a URL, or a redirect's Location, that is not an http(s) URL. */
export const BAD_URL_CODE = "HEED_BAD_URL";
/** A Location longer than this is cut in messages: a hostile header must not flood the terminal. */
const SHOWN_LOCATION_CHARS = 200;

export interface GuardedRequestOptions {
  /**
   * Send through this client's pools, guard and local address. Without one, a shared guarded
   * dispatcher is used (private addresses per {@link allowPrivateAddresses}).
   */
  readonly client?: Pick<HttpClient, "dispatcher" | "userAgent">;
  /** Without `client`: the user named a private or loopback host, so it may be reached. */
  readonly allowPrivateAddresses?: boolean;
  /** Default GET. A redirect of a POST is never followed. */
  readonly method?: "GET" | "POST";
  /** Header names in lower case. `user-agent` defaults to the client's, else "heed". */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Redirects followed; default 0 (the 3xx comes back). */
  readonly maxRedirects?: number;
  /** Time to the end of the headers, per hop; default the client's. */
  readonly headersTimeoutMs?: number;
  /** Longest silence in a body; default the client's. */
  readonly bodyTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /**
   * Called before each redirect is followed, with the URL that answered and the one it leads
   * to; the hop waits for it. A caller keeps each site's pace here (a robots.txt hop to another
   * site takes that site's turn); a rejection ends the request with its error.
   */
  readonly beforeRedirect?: (from: string, to: string) => Promise<void>;
}

/** A body to read once: an async iterable of chunks that can be dumped or destroyed. */
export type ResponseBody = Dispatcher.ResponseData["body"];

export interface GuardedResponse {
  /** The URL that gave this answer, after the redirects followed. */
  readonly url: string;
  readonly status: number;
  /** Names lower-cased, the first value of each. */
  readonly headers: Readonly<Record<string, string>>;
  /** The Location header resolved against `url` (a 3xx the hop limit stopped), or null. */
  readonly location: string | null;
  /** Redirects followed to get here. */
  readonly redirects: number;
  readonly body: ResponseBody;
}

/** A request that could not be sent or answered; `code` is stable, `message` one line. */
export class GuardedRequestError extends Error {
  readonly code: string;
  /** The URL of the hop that failed. */
  readonly url: string;
  constructor(code: string, url: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GuardedRequestError";
    this.code = code;
    this.url = url;
  }
}

const shared = new Map<boolean, Dispatcher>();

/** One dispatcher per choice, made on first use and kept for the life of the process. */
function sharedDispatcher(allowPrivate: boolean): Dispatcher {
  let dispatcher = shared.get(allowPrivate);
  if (dispatcher === undefined) {
    dispatcher = createGuardedAgent({
      allowPrivateAddresses: allowPrivate,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      connections: CONNECTIONS_PER_ORIGIN,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      bodyTimeoutMs: BODY_TIMEOUT_MS,
    });
    shared.set(allowPrivate, dispatcher);
  }
  return dispatcher;
}

/**
 * Sends one request and follows up to `maxRedirects` redirects (any 3xx with a Location), each
 * hop through the guarded dispatcher. Resolves with the last answer, whatever its status;
 * rejects with a {@link GuardedRequestError} (a bad URL or Location; a hop after a redirect that
 * failed, with the failure's `code`) or the network's error (a refused address has `code`
 * HEED_BLOCKED_ADDRESS).
 */
export async function guardedRequest(
  url: string,
  options: GuardedRequestOptions = {},
): Promise<GuardedResponse> {
  const dispatcher =
    options.client?.dispatcher ?? sharedDispatcher(options.allowPrivateAddresses === true);
  const maxRedirects = options.maxRedirects ?? 0;
  const headers: Record<string, string> = {
    "user-agent": options.client?.userAgent ?? "heed",
    ...options.headers,
  };
  const send = (target: string) =>
    request(target, {
      dispatcher,
      method: options.method ?? "GET",
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.headersTimeoutMs === undefined
        ? {}
        : { headersTimeout: options.headersTimeoutMs }),
      ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeout: options.bodyTimeoutMs }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  let current = httpUrl(url, null);
  let previous: string | null = null;
  for (let redirects = 0; ; redirects++) {
    let response: Dispatcher.ResponseData;
    try {
      response = await send(current);
    } catch (error) {
      throw previous === null ? error : hopFailed(error, previous, current);
    }
    const status = response.statusCode;
    const answerHeaders = firstValues(response.headers);
    const rawLocation = status >= 300 && status < 400 ? answerHeaders["location"] : undefined;
    let location: string | null = null;
    if (rawLocation !== undefined) {
      try {
        location = httpUrl(rawLocation, current);
      } catch (error) {
        response.body.on("error", () => undefined).destroy();
        throw error;
      }
    }
    const follow =
      location !== null && redirects < maxRedirects && (options.method ?? "GET") === "GET";
    if (location === null || !follow) {
      return {
        url: current,
        status,
        headers: answerHeaders,
        location,
        redirects,
        body: response.body,
      };
    }
    // Nobody reads a redirect's body; a failure draining it changes nothing.
    await response.body.dump().catch(() => undefined);
    await options.beforeRedirect?.(current, location);
    previous = current;
    current = location;
  }
}

/**
 * A hop after a redirect failed (a refused address, say): the same `code`, and a message that
 * names the hop, so that the user sees where the redirect led.
 */
function hopFailed(error: unknown, from: string, to: string): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  return new GuardedRequestError(
    typeof code === "string" ? code : "HEED_REDIRECT_FAILED",
    to,
    `${cut(from)} redirected to ${cut(to)}: ${error.message.trim()}`,
    { cause: error },
  );
}

/** `text` resolved against `base` as an http(s) URL without its fragment, or a GuardedRequestError. */
function httpUrl(text: string, base: string | null): string {
  const shown = JSON.stringify(cut(text));
  const where = base === null ? "" : `${cut(base)} redirected to `;
  let parsed: URL;
  try {
    parsed = base === null ? new URL(text) : new URL(text, base);
  } catch (error) {
    throw new GuardedRequestError(BAD_URL_CODE, base ?? text, `${where}${shown}: not a URL`, {
      cause: error,
    });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new GuardedRequestError(
      BAD_URL_CODE,
      base ?? text,
      `${where}${shown}: not an http(s) URL`,
    );
  }
  parsed.hash = "";
  return parsed.href;
}

/** A URL or Location as shown in a message: at most SHOWN_LOCATION_CHARS characters. */
function cut(text: string): string {
  return text.length > SHOWN_LOCATION_CHARS ? `${text.slice(0, SHOWN_LOCATION_CHARS)}…` : text;
}

function firstValues(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(raw)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) headers[name.toLowerCase()] = first;
  }
  return headers;
}
