/**
 * The site's side of Web Bot Auth: reads a request's signature (protocol/web-bot-auth), finds
 * the key by its thumbprint in the robot's key directory (fetched through the guarded client,
 * no redirects, cached with a bound and a lifetime), and checks the signature with node:crypto.
 *
 * `verify` never throws for what a request holds: every failure is a {@link Refusal} with a
 * stable reason.
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { jwkThumbprint, verifyWithJwk } from "../net/bot-key.js";
import {
  type DirectoryAnswer,
  type DirectoryFetchOptions,
  fetchKeyDirectory,
} from "../net/key-directory-fetch.js";
import {
  directoryUrl,
  type MessageRequest,
  type PublicJwk,
  readSignature,
  type Refusal,
  refusal,
} from "../protocol/web-bot-auth/index.js";

/** Directories kept at once; the oldest goes first. A site sees a few dozen robots. */
export const DIRECTORY_CACHE_ENTRIES = 256;
/** How long a fetched directory is believed: keys rotate over days, not minutes. */
export const DIRECTORY_CACHE_MS = 60 * 60 * 1000;
/** How long a failed fetch is remembered: a broken directory is not fetched per request. */
export const DIRECTORY_FAILURE_CACHE_MS = 60 * 1000;

/** A request a robot signed, and whose signature holds. */
export interface VerifiedBot {
  readonly ok: true;
  /** The key's thumbprint. */
  readonly keyid: string;
  /** The directory the key was found in, or null for a key given to the verifier. */
  readonly directory: string | null;
  /** Whether that directory's response was signed by its keys; false for a key given. */
  readonly directorySigned: boolean;
  /** Seconds since the epoch. */
  readonly expires: number;
}

export type BotVerdict = VerifiedBot | Refusal;

export interface BotVerifierOptions {
  /**
   * The authorities (`host` or `host:port`, lower case) this site answers for. A request whose
   * Host names another is refused (`wrong-authority`): a signature made for another site and
   * replayed here with that site's Host would otherwise verify. Default: any.
   */
  readonly authorities?: readonly string[];
  /** Keys believed without a directory (a site that knows its robots). */
  readonly keys?: readonly PublicJwk[];
  /** Fetch directories from loopback and private addresses, and over plain http. */
  readonly allowPrivateAddresses?: boolean;
  /**
   * Refuse keys from a directory whose response is not signed by the keys it lists
   * (`directory-unsigned`). Default false: most robots publish plain directories.
   */
  readonly requireSignedDirectory?: boolean;
  /** The clock, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
  /** Default {@link DIRECTORY_CACHE_ENTRIES}. */
  readonly cacheEntries?: number;
  /** Default {@link DIRECTORY_CACHE_MS}. */
  readonly cacheMs?: number;
  /** How directories are fetched; default fetchKeyDirectory through the guarded client. */
  readonly fetchDirectory?: (
    url: string,
    options: DirectoryFetchOptions,
  ) => Promise<DirectoryAnswer>;
}

interface CacheEntry {
  readonly until: number;
  readonly answer: Promise<DirectoryAnswer>;
}

export class BotVerifier {
  private readonly known = new Map<string, PublicJwk>();
  private readonly cache = new Map<string, CacheEntry>();
  private readonly now: () => number;
  private readonly entries: number;
  private readonly lifetime: number;
  private readonly fetchDirectory: NonNullable<BotVerifierOptions["fetchDirectory"]>;
  private readonly allowPrivate: boolean;
  private readonly requireSigned: boolean;
  private readonly authorities: ReadonlySet<string> | null;

  constructor(options: BotVerifierOptions = {}) {
    for (const key of options.keys ?? []) this.known.set(jwkThumbprint(key), key);
    this.now = options.now ?? Date.now;
    this.entries = options.cacheEntries ?? DIRECTORY_CACHE_ENTRIES;
    this.lifetime = options.cacheMs ?? DIRECTORY_CACHE_MS;
    this.fetchDirectory = options.fetchDirectory ?? fetchKeyDirectory;
    this.allowPrivate = options.allowPrivateAddresses === true;
    this.requireSigned = options.requireSignedDirectory === true;
    this.authorities =
      options.authorities === undefined
        ? null
        : new Set(options.authorities.map((a) => a.toLowerCase()));
  }

  /** Checks a request described by its method, target URI and fields. */
  async verify(request: MessageRequest): Promise<BotVerdict> {
    const read = readSignature(request, Math.floor(this.now() / 1000));
    if (!read.ok) return read;
    if (this.authorities !== null) {
      const authority = new URL(request.url).host;
      if (!this.authorities.has(authority)) {
        return refusal("wrong-authority", `the request names ${authority}, not this site`);
      }
    }
    let key = this.known.get(read.keyid);
    let directory: string | null = null;
    let directorySigned = false;
    if (key === undefined) {
      if (read.signatureAgent === null) {
        return refusal(
          "no-signature-agent",
          `key ${read.keyid} is not known and no Signature-Agent names a directory`,
        );
      }
      directory = directoryUrl(read.signatureAgent);
      if (directory === null) {
        return refusal("no-signature-agent", "Signature-Agent is not an http(s) URL");
      }
      const answer = await this.directory(directory);
      if (!answer.ok) return answer;
      directorySigned = answer.signed;
      key = answer.directory.keys.find((k) => jwkThumbprint(k) === read.keyid);
      if (key === undefined) {
        return refusal("unknown-key", `key ${read.keyid} is not in ${directory}`);
      }
    }
    if (!verifyWithJwk(key, read.base, read.signature)) {
      return refusal("bad-signature", `the signature by ${read.keyid} does not match the request`);
    }
    return { ok: true, keyid: read.keyid, directory, directorySigned, expires: read.expires };
  }

  /** Checks a request a node:http server received. */
  verifyIncoming(req: IncomingMessage): Promise<BotVerdict> {
    return this.verify(incomingRequest(req));
  }

  private directory(url: string): Promise<DirectoryAnswer> {
    const now = this.now();
    const cached = this.cache.get(url);
    if (cached !== undefined && cached.until > now) return cached.answer;
    this.cache.delete(url);
    while (this.cache.size >= this.entries) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
    // A fetcher given in the options might throw: that is an unreachable directory, not a crash.
    const answer = this.fetchDirectory(url, {
      allowPrivateAddresses: this.allowPrivate,
      requireSigned: this.requireSigned,
      now: this.now,
    }).catch((error: unknown) =>
      refusal(
        "directory-unreachable",
        `${url}: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
    // One fetch serves the requests that arrive while it runs; its answer then lives a while.
    this.cache.set(url, { until: now + this.lifetime, answer });
    void answer.then((result) => {
      if (!result.ok && this.cache.get(url)?.answer === answer) {
        this.cache.set(url, { until: this.now() + DIRECTORY_FAILURE_CACHE_MS, answer });
      }
    });
    return answer;
  }
}

/** A node:http request as RFC 9421 sees it: the target URI from Host and the request line. */
export function incomingRequest(req: IncomingMessage): MessageRequest {
  const tls = (req.socket as Partial<TLSSocket>).encrypted === true;
  const host = req.headers.host ?? "unknown.invalid";
  return {
    method: req.method ?? "GET",
    url: `${tls ? "https" : "http"}://${host}${req.url ?? "/"}`,
    field: (name) => {
      const value = req.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}
