/**
 * Every exchange a client makes, told to an observer: the pages `fetchPage` asks for, and what
 * goes straight through its dispatcher (robots.txt and each of its redirect hops). An archive
 * (`heed crawl --out`) is built from these, so that it holds every request heed made, not only
 * the pages it kept.
 */
import type { IncomingHttpHeaders } from "node:http";
import { type Dispatcher, DecoratorHandler } from "undici";
import { type HttpClient, requestHeaders } from "./http-client.js";

/**
 * Body bytes kept of an exchange that goes through the dispatcher: robots.txt bodies are read to
 * 4 MiB (robots-fetch.ts), so this keeps all of any that heed reads.
 */
export const MAX_TAPPED_BODY_BYTES = 4 * 1024 * 1024;

export interface Exchange {
  readonly url: string;
  readonly method: string;
  /** When the request was sent. */
  readonly at: number;
  /** What was sent besides Host, names lower-cased. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The answer; null when none came (`error` says why). */
  readonly status: number | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
  /** The body is decoded (Content-Encoding undone), as `fetchPage` keeps it; else as sent. */
  readonly decoded: boolean;
  /** The body was cut at a limit. */
  readonly truncated: boolean;
  readonly error: string | null;
}

export type ExchangeObserver = (exchange: Exchange) => void;

/** `client`, with every exchange it makes told to `observe` once it has ended. */
export function tapClient(
  client: HttpClient,
  observe: ExchangeObserver,
  now: () => number = Date.now,
): HttpClient {
  return {
    userAgent: client.userAgent,
    dispatcher: client.dispatcher.compose(
      (dispatch) => (options, handler) =>
        dispatch(options, recorder(options, handler, observe, now)),
    ),
    async fetchPage(url, options) {
      const at = now();
      const result = await client.fetchPage(url, options);
      const sent = requestHeaders(client.userAgent, options?.headers);
      observe(
        result.kind === "response"
          ? {
              url: result.url,
              method: "GET",
              at,
              requestHeaders: sent,
              status: result.status,
              headers: result.headers,
              body: result.body,
              decoded: true,
              truncated: result.bodyCut,
              error: null,
            }
          : {
              url: result.url,
              method: "GET",
              at,
              requestHeaders: sent,
              status: null,
              headers: {},
              body: null,
              decoded: true,
              truncated: false,
              error: `${result.code}: ${result.message}`,
            },
      );
      return result;
    },
    close: () => client.close(),
  };
}

/** A handler that passes everything on to `handler` and keeps a copy for the observer. */
function recorder(
  options: Dispatcher.DispatchOptions,
  handler: Dispatcher.DispatchHandler,
  observe: ExchangeObserver,
  now: () => number,
): Dispatcher.DispatchHandler {
  const inner = new DecoratorHandler(handler) as Dispatcher.DispatchHandler;
  const at = now();
  const url = new URL(options.path, options.origin).href;
  const sent = headerRecord(options.headers);
  let status: number | null = null;
  let headers: Record<string, string> = {};
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  let told = false;
  const tell = (error: string | null) => {
    if (told) return;
    told = true;
    observe({
      url,
      method: options.method,
      at,
      requestHeaders: sent,
      status,
      headers,
      body: status === null ? null : Buffer.concat(chunks),
      decoded: false,
      truncated,
      error,
    });
  };
  return {
    onRequestStart: (controller, context: unknown) => inner.onRequestStart?.(controller, context),
    onRequestUpgrade: (controller, statusCode, upgradeHeaders, socket) =>
      inner.onRequestUpgrade?.(controller, statusCode, upgradeHeaders, socket),
    onResponseStart: (controller, statusCode, answer, message) => {
      status = statusCode;
      headers = headerRecord(answer);
      return inner.onResponseStart?.(controller, statusCode, answer, message);
    },
    onResponseData: (controller, chunk) => {
      const room = MAX_TAPPED_BODY_BYTES - size;
      if (chunk.byteLength > room) truncated = true;
      if (room > 0) {
        const kept = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
        chunks.push(Buffer.from(kept));
        size += kept.byteLength;
      }
      return inner.onResponseData?.(controller, chunk);
    },
    onResponseEnd: (controller, trailers) => {
      tell(null);
      return inner.onResponseEnd?.(controller, trailers);
    },
    onResponseError: (controller, error) => {
      // A body abandoned part way (nobody reads a redirect's) still had its answer.
      if (status !== null) truncated = true;
      tell(error.message);
      return inner.onResponseError?.(controller, error);
    },
  };
}

/** Request or response headers as one value a name, names lower-cased (first value kept). */
function headerRecord(
  raw: Dispatcher.DispatchOptions["headers"] | IncomingHttpHeaders | null | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (name: string, value: unknown) => {
    const key = name.toLowerCase();
    if (key in out || value === undefined || value === null) return;
    out[key] = Array.isArray(value) ? String(value[0]) : String(value);
  };
  if (raw === null || raw === undefined) return out;
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) put(String(raw[i]), raw[i + 1]);
  } else if (Symbol.iterator in raw) {
    for (const [name, value] of raw as Iterable<[string, string | string[] | undefined]>)
      put(name, value);
  } else {
    for (const [name, value] of Object.entries(raw)) put(name, value);
  }
  return out;
}
