/**
 * Reading sitemaps from files and URLs: opening them (the guarded client, which follows redirects
 * and checks every hop's address; timeouts),
 * gunzip with node:zlib under the protocol layer's size and ratio caps, following sitemap indexes
 * with depth, count and cycle limits, and discovering a site's sitemaps from its robots.txt.
 * What a sitemap says, and what went wrong fetching it, come out as events, not exceptions.
 */
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import {
  basename,
  dirname,
  isAbsolute,
  join,
  relative,
  resolve as resolvePath,
  sep,
} from "node:path";
import { pipeline, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";
import { parseRobots } from "../protocol/robots/index.js";
import {
  type DiscoveredSitemaps,
  MAX_INDEX_DEPTH,
  MAX_SITEMAPS_FOLLOWED,
  type ParseSitemapOptions,
  parseSitemapBatches,
  type ScopeOptions,
  SITEMAP_CODES,
  type SitemapCode,
  type SitemapEvent,
  type SitemapLimits,
  sitemapScope,
  sitemapsFromRobots,
} from "../protocol/sitemap/index.js";
import { type GuardedResponse, GuardedRequestError, guardedRequest } from "./guarded-request.js";
import type { HttpClient } from "./http-client.js";
import { fetchRobots, robotsUrlFor } from "./robots-fetch.js";
import { deadlineSignal, SITEMAP_DEADLINE_MS } from "./deadline.js";

/** Time allowed for the headers, and between two chunks of the body. */
export const SITEMAP_TIMEOUT_MS = 30_000;
/** Redirects followed when fetching a sitemap (as for robots.txt, DESIGN §3). */
export const MAX_SITEMAP_REDIRECTS = 5;
/** Read size for files: big enough that per-chunk costs vanish, small enough to stay flat. */
const FILE_CHUNK_BYTES = 64 * 1024;

export interface SitemapFetchOptions {
  readonly userAgent?: string;
  /** Time allowed for the headers, and between two chunks of the body. */
  readonly timeoutMs?: number;
  /**
   * Each fetch's total deadline in ms: a sitemap's (default {@link SITEMAP_DEADLINE_MS}), and
   * the robots.txt discovery reads (default 30 s, ./deadline.ts).
   */
  readonly deadlineMs?: number;
  /** Fetch through this client's pools and guard; default heed's shared guarded dispatcher. */
  readonly client?: Pick<HttpClient, "dispatcher" | "userAgent">;
  /** Without `client`: the user named a private or loopback host, so it may be reached. */
  readonly allowPrivateAddresses?: boolean;
}

export type OpenedSitemap =
  | {
      readonly ok: true;
      readonly chunks: AsyncIterable<Uint8Array>;
      /** For URLs, the URL that answered after redirects. */
      readonly finalUrl: string | null;
    }
  | { readonly ok: false; readonly message: string; readonly status: number | null };

export function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

/** A sitemap's bytes, from an http(s) URL or a file path (or file: URL); nothing is thrown. */
export async function openSitemap(
  location: string,
  options: SitemapFetchOptions = {},
): Promise<OpenedSitemap> {
  if (isHttpUrl(location)) return openUrl(location, options);
  const path = location.startsWith("file:") ? fileURLToPath(location) : location;
  try {
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, message: `${location} is not a file`, status: null };
  } catch (error) {
    return { ok: false, message: `cannot read ${location}: ${describe(error)}`, status: null };
  }
  return {
    ok: true,
    chunks: createReadStream(path, { highWaterMark: FILE_CHUNK_BYTES }),
    finalUrl: null,
  };
}

async function openUrl(url: string, options: SitemapFetchOptions): Promise<OpenedSitemap> {
  const timeout = options.timeoutMs ?? SITEMAP_TIMEOUT_MS;
  let response: GuardedResponse;
  try {
    response = await guardedRequest(url, {
      ...(options.client === undefined ? {} : { client: options.client }),
      ...(options.allowPrivateAddresses === true ? { allowPrivateAddresses: true } : {}),
      headers: {
        ...(options.userAgent === undefined ? {} : { "user-agent": options.userAgent }),
        accept: "application/xml, text/xml, text/plain, application/gzip;q=0.9, */*;q=0.5",
      },
      maxRedirects: MAX_SITEMAP_REDIRECTS,
      headersTimeoutMs: timeout,
      bodyTimeoutMs: timeout,
      // Also ends the body's reading: a sitemap sent a byte at a time ends here.
      signal: deadlineSignal(`the sitemap ${url}`, options.deadlineMs ?? SITEMAP_DEADLINE_MS),
    });
  } catch (error) {
    const at = error instanceof GuardedRequestError ? error.url : url;
    return { ok: false, message: `cannot fetch ${at}: ${describe(error)}`, status: null };
  }
  const status = response.status;
  if (status >= 300 && status < 400) {
    await response.body.dump().catch(() => undefined);
    if (response.location === null)
      return { ok: false, message: `${response.url}: ${status} without a Location header`, status };
    return { ok: false, message: `${url}: more than ${MAX_SITEMAP_REDIRECTS} redirects`, status };
  }
  if (status < 200 || status >= 300) {
    await response.body.dump().catch(() => undefined);
    return { ok: false, message: `${response.url}: HTTP ${status}`, status };
  }
  return { ok: true, chunks: response.body, finalUrl: response.url };
}

/** gunzip for `parseSitemap`: node:zlib, streaming; broken data surfaces as an error of the iterable. */
export function gunzipChunks(compressed: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const gunzip = createGunzip({ chunkSize: FILE_CHUNK_BYTES });
  // Errors reach the consumer through `gunzip`, which pipeline destroys with them.
  pipeline(Readable.from(compressed, { objectMode: false }), gunzip, () => undefined);
  return gunzip;
}

export interface ReadSitemapOptions
  extends SitemapLimits, Omit<ScopeOptions, "sitemapUrl">, SitemapFetchOptions {
  /**
   * The URL a local file is served at, for the scope rule and for finding an index's sitemaps
   * beside it. For URLs the URL itself is used (as named, before redirects).
   */
  readonly servedAt?: string;
  /** Opens a location; default `openSitemap`. Tests and the CLI (for `-`, standard input) give their own. */
  readonly open?: (location: string, options: SitemapFetchOptions) => Promise<OpenedSitemap>;
}

/**
 * One sitemap file or URL, gunzipped when its bytes say so, as events (protocol/sitemap
 * `parseSitemap`). A file that cannot be opened gives a fatal `fetch-failed` and the `end`.
 */
export async function* readSitemap(
  location: string,
  options: ReadSitemapOptions = {},
): AsyncGenerator<SitemapEvent, void, undefined> {
  for await (const batch of readSitemapBatches(location, options)) yield* batch;
}

/** {@link readSitemap}'s events in batches (protocol/sitemap `parseSitemapBatches`). */
async function* readSitemapBatches(
  location: string,
  options: ReadSitemapOptions,
): AsyncGenerator<readonly SitemapEvent[], void, undefined> {
  const opened = await (options.open ?? openSitemap)(location, options);
  if (!opened.ok) {
    yield [...failed(opened.message)];
    return;
  }
  const sitemapUrl = isHttpUrl(location) ? location : (options.servedAt ?? null);
  const parseOptions: ParseSitemapOptions = {
    ...pick(options),
    sitemapUrl,
    gunzip: gunzipChunks,
  };
  try {
    yield* parseSitemapBatches(opened.chunks, parseOptions);
  } catch (error) {
    // An I/O error in the middle of the body (a reset connection, a timeout).
    yield [...failed(`reading ${location} failed: ${describe(error)}`)];
  }
}

function pick(options: ReadSitemapOptions): ParseSitemapOptions {
  const out: {
    -readonly [K in keyof ParseSitemapOptions]: ParseSitemapOptions[K];
  } = {};
  if (options.maxUrls !== undefined) out.maxUrls = options.maxUrls;
  if (options.maxBytes !== undefined) out.maxBytes = options.maxBytes;
  if (options.maxRatio !== undefined) out.maxRatio = options.maxRatio;
  if (options.ratioFloorBytes !== undefined) out.ratioFloorBytes = options.ratioFloorBytes;
  if (options.allowAnyPathOnHost !== undefined) out.allowAnyPathOnHost = options.allowAnyPathOnHost;
  if (options.robotsTxtHosts !== undefined) out.robotsTxtHosts = options.robotsTxtHosts;
  return out;
}

function* failed(message: string): Generator<SitemapEvent> {
  const info = SITEMAP_CODES["fetch-failed"];
  yield {
    kind: "diagnostic",
    diagnostic: { line: null, code: "fetch-failed", message, ...info },
  };
  yield {
    kind: "end",
    summary: {
      format: null,
      compressed: false,
      urls: 0,
      sitemaps: 0,
      bytes: 0,
      compressedBytes: null,
      errors: 1,
      warnings: 0,
      stoppedBy: "fetch-failed",
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Following indexes

export interface FollowOptions extends ReadSitemapOptions {
  /** Read the sitemaps an index lists (and theirs, to `maxDepth`). Default true. */
  readonly follow?: boolean;
  /** Deepest level followed: the named file is 0, its index's sitemaps 1. Default 2. */
  readonly maxDepth?: number;
  /** Most files read in one run. Default 50,001. */
  readonly maxSitemaps?: number;
}

/** An event, and the sitemap it came from. */
export type SourcedSitemapEvent = SitemapEvent & {
  /** The file path or URL of the sitemap the event is about. */
  readonly source: string;
  /** 0 for a named sitemap, 1 for one its index lists, and so on. */
  readonly depth: number;
};

interface Job {
  readonly location: string;
  readonly depth: number;
  /** For files: the URL the file is served at, when known. */
  readonly servedAt: string | null;
  /** For files an index lists: the real path of the named index's folder, their only place. */
  readonly folder: string | null;
}

/**
 * The entries of one or more sitemaps, following indexes depth-first in document order. Each
 * file is read to its end before the sitemaps it lists are opened, so that a slow child cannot
 * time out its parent; the list waiting to be read is bounded by the entries a file may hold.
 * A sitemap already read or waiting (a cycle, or a duplicate) is reported and not read again.
 */
export async function* readSitemaps(
  locations: string | readonly string[],
  options: FollowOptions = {},
): AsyncGenerator<SourcedSitemapEvent, void, undefined> {
  const follow = options.follow ?? true;
  const maxDepth = nonNegative("maxDepth", options.maxDepth, MAX_INDEX_DEPTH);
  const maxSitemaps = nonNegative("maxSitemaps", options.maxSitemaps, MAX_SITEMAPS_FOLLOWED);
  const roots = typeof locations === "string" ? [locations] : locations;
  const seen = new Set<string>();
  const stack: Job[] = [];
  for (let i = roots.length - 1; i >= 0; i--) {
    const root = roots[i] as string;
    // A file: URL is read as the path it names, so that an index finds its sitemaps beside it.
    const location = /^file:/i.test(root) ? fileURLToPath(root) : root;
    stack.push({ location, depth: 0, servedAt: options.servedAt ?? null, folder: null });
  }
  for (const job of stack) seen.add(keyOf(job.location));
  let read = 0;
  let capped = false;
  while (stack.length > 0) {
    const job = stack.pop() as Job;
    if (read >= maxSitemaps) {
      if (!capped) {
        capped = true;
        yield note(
          job,
          "too-many-sitemaps",
          null,
          `more than ${maxSitemaps} sitemaps; the rest were not read`,
        );
      }
      continue;
    }
    read++;
    const children: Job[] = [];
    let depthReported = false;
    const fileOptions: ReadSitemapOptions = {
      ...options,
      ...(job.servedAt === null ? {} : { servedAt: job.servedAt }),
    };
    const here = isHttpUrl(job.location) ? job.location : job.servedAt;
    const scope = here === null ? null : sitemapScope({ ...pick(options), sitemapUrl: here });
    for await (const batch of readSitemapBatches(job.location, fileOptions))
      for (const event of batch) {
        yield { ...event, source: job.location, depth: job.depth };
        if (event.kind === "format" && event.format === "sitemapindex" && job.depth > 0)
          yield note(
            job,
            "nested-index",
            null,
            "an index listed by an index; sitemaps.org has no nested indexes (followed all the same)",
          );
        if (event.kind !== "sitemap" || !follow) continue;
        const ref = event.sitemap;
        if (job.depth + 1 > maxDepth) {
          if (!depthReported) {
            depthReported = true;
            yield note(
              job,
              "index-depth",
              ref.line,
              `an index at depth ${job.depth}: its sitemaps are deeper than ${maxDepth} and were not read`,
            );
          }
          continue;
        }
        let url: URL;
        try {
          url = new URL(ref.loc);
        } catch {
          continue; // the reader gives out only absolute URLs
        }
        const why = scope?.sameSite(url) ?? null;
        if (why !== null) {
          yield note(job, "sitemap-other-site", ref.line, `${ref.loc} is ${why}; not read`);
          continue;
        }
        const child = await childJob(job, ref.loc);
        if ("refused" in child) {
          yield note(
            job,
            "sitemap-outside-folder",
            ref.line,
            `${ref.loc}: ${child.refused}; not read`,
          );
          continue;
        }
        const key = keyOf(child.location);
        if (seen.has(key)) {
          yield note(
            job,
            "index-cycle",
            ref.line,
            `${ref.loc} was read or listed already (a cycle or a duplicate); not read again`,
          );
          continue;
        }
        seen.add(key);
        children.push(child);
      }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Job);
  }
}

function note(
  job: Job,
  code: SitemapCode,
  line: number | null,
  message: string,
): SourcedSitemapEvent {
  const info = SITEMAP_CODES[code];
  return {
    kind: "diagnostic",
    diagnostic: { line, code, message, ...info },
    source: job.location,
    depth: job.depth,
  };
}

/**
 * Where to read a sitemap an index lists. From a URL: the URL. From a local file: a file beside
 * it when the index's `servedAt` URL shows where (`https://e.com/maps/a.xml` under
 * `https://e.com/maps/` is `./a.xml`), or else when a file of the same name is there; otherwise
 * the URL. So an index written by `heed sitemap build` reads back from disk. A local child is
 * read only from inside the named index's folder, judged on real paths (a `..%2F` in a `<loc>`
 * and a symbolic link both count): anything else is refused with its reason, and not opened.
 */
async function childJob(parent: Job, loc: string): Promise<Job | { readonly refused: string }> {
  const depth = parent.depth + 1;
  const remote: Job = { location: loc, depth, servedAt: null, folder: null };
  if (isHttpUrl(parent.location) || parent.location === "-") return remote;
  const dir = dirname(parent.location);
  const folder = parent.folder ?? (await realpath(dir).catch(() => null));
  if (folder === null) return { refused: `the folder of ${parent.location} cannot be read` };
  // Under the index's served folder the name is the rest of the URL; else a file of the same name.
  const prefix = parent.servedAt === null ? null : new URL("./", parent.servedAt).href;
  const under = prefix !== null && loc.startsWith(prefix);
  const name = safeDecode(
    under ? loc.slice(prefix.length).replace(/[?#].*$/, "") : basename(new URL(loc).pathname),
  );
  if (name === null || name === "") return remote;
  if (name.split(/[/\\]/).includes(".."))
    return { refused: `its name leads out of the index's folder ${folder}` };
  const path = join(dir, name);
  const real = await realpath(path).catch(() => null);
  const local: Job = { location: path, depth, servedAt: loc, folder };
  // Not there: under the served folder, the file's absence is the finding; else read the URL.
  if (real === null) return under ? local : remote;
  if (!inside(folder, real))
    return { refused: `${path} is a link to a file outside the index's folder ${folder}` };
  return under || (await stat(real)).isFile() ? local : remote;
}

/** Whether the real path `path` is in `folder` or below it. */
function inside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest !== "" && !isAbsolute(rest) && rest.split(sep)[0] !== "..";
}

function keyOf(location: string): string {
  if (isHttpUrl(location)) {
    try {
      const url = new URL(location);
      url.hash = "";
      return url.href;
    } catch {
      return location;
    }
  }
  return `file:${resolvePath(location)}`;
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name}: expected a non-negative integer, got ${String(value)}`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Discovery

export interface SiteSitemaps extends DiscoveredSitemaps {
  readonly robotsUrl: string;
  /** The robots.txt fetch's status code, or null after a network error. */
  readonly robotsStatus: number | null;
}

/**
 * A site's sitemaps: those its robots.txt names (any dialect; REGP's plan too), or
 * `/sitemap.xml` when it names none or cannot be read.
 */
export async function discoverSitemaps(
  site: string,
  options: SitemapFetchOptions = {},
): Promise<SiteSitemaps> {
  const robotsUrl = robotsUrlFor(site);
  const result = await fetchRobots(robotsUrl, {
    ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
    ...(options.client === undefined ? {} : { client: options.client }),
    ...(options.allowPrivateAddresses === true ? { allowPrivateAddresses: true } : {}),
  });
  const policy =
    result.verdict.action === "parse" && result.body !== null ? parseRobots(result.body) : null;
  return { ...sitemapsFromRobots(policy, robotsUrl), robotsUrl, robotsStatus: result.status };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOENT") return "no such file";
    if (code === "EACCES") return "permission denied";
    if (code === "EISDIR") return "it is a directory";
    return typeof code === "string" ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
