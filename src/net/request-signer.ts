/**
 * Web Bot Auth on the way out: a signer adds `Signature-Input`, `Signature` and
 * `Signature-Agent` to a request, and {@link signingDispatcher} makes a dispatcher sign every
 * request it sends. The guarded client is built with it when a signer is given, so robots.txt,
 * sitemaps, pages, RUP, /data.txt and downloads are all signed, and each redirect hop, being its
 * own dispatch, is signed anew for its own authority.
 */
import type { Dispatcher } from "undici";
import {
  DEFAULT_LIFETIME_S,
  MAX_LIFETIME_S,
  planSignature,
  signatureField,
} from "../protocol/web-bot-auth/index.js";
import type { BotKey } from "./bot-key.js";

export interface RequestSignerOptions {
  readonly key: BotKey;
  /** The URL of the robot's key directory, sent as Signature-Agent and covered. */
  readonly signatureAgent?: string;
  /** Seconds a signature holds; default {@link DEFAULT_LIFETIME_S}, at most 24 hours. */
  readonly lifetimeS?: number;
  /** The clock, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

export interface RequestSigner {
  /** The key's thumbprint, the `keyid` of every signature. */
  readonly keyid: string;
  /** The fields to add to a request of `method` to `url` (names in lower case). */
  fieldsFor(method: string, url: string): Record<string, string>;
}

export function createRequestSigner(options: RequestSignerOptions): RequestSigner {
  const lifetime = options.lifetimeS ?? DEFAULT_LIFETIME_S;
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > MAX_LIFETIME_S) {
    throw new TypeError(`lifetimeS: expected 1 to ${MAX_LIFETIME_S}, got ${String(lifetime)}`);
  }
  const now = options.now ?? Date.now;
  const key = options.key;
  return {
    keyid: key.thumbprint,
    fieldsFor(method, url) {
      const created = Math.floor(now() / 1000);
      const plan = planSignature(
        { method, url },
        {
          keyid: key.thumbprint,
          created,
          expires: created + lifetime,
          ...(options.signatureAgent === undefined
            ? {}
            : { signatureAgent: options.signatureAgent }),
        },
      );
      // A URL the dispatcher sends to is always absolute: a plan cannot fail here.
      if (!plan.ok) throw new Error(`cannot sign ${url}: ${plan.message}`);
      return { ...plan.value.fields, signature: signatureField(key.sign(plan.value.base)) };
    },
  };
}

/** `dispatcher`, signing each request it dispatches with `signer`. */
export function signingDispatcher(dispatcher: Dispatcher, signer: RequestSigner): Dispatcher {
  return dispatcher.compose(
    (dispatch) => (options, handler) =>
      dispatch({ ...options, headers: signed(options, signer) }, handler),
  );
}

type Headers = Exclude<Dispatcher.DispatchOptions["headers"], undefined>;

function signed(options: Dispatcher.DispatchOptions, signer: RequestSigner): Headers {
  const url = new URL(options.path, options.origin ?? "http://origin.invalid").href;
  const fields = signer.fieldsFor(options.method, url);
  const given = options.headers;
  const names = new Set(Object.keys(fields));
  if (given === undefined || given === null) return fields;
  if (Array.isArray(given)) {
    // Flat [name, value, …]: drop any signature fields the caller set, then add ours.
    const kept: string[] = [];
    for (let i = 0; i + 1 < given.length; i += 2) {
      const name = String(given[i]);
      if (!names.has(name.toLowerCase())) kept.push(name, String(given[i + 1]));
    }
    return [...kept, ...Object.entries(fields).flat()];
  }
  if (typeof (given as Iterable<unknown>)[Symbol.iterator] === "function") {
    const out: Record<string, string> = {};
    for (const [name, value] of given as Iterable<[string, string | string[] | undefined]>) {
      if (value !== undefined && !names.has(name.toLowerCase())) out[name] = String(value);
    }
    return { ...out, ...fields };
  }
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(
    given as Record<string, string | string[] | undefined>,
  )) {
    if (!names.has(name.toLowerCase())) out[name] = value;
  }
  return { ...out, ...fields };
}
