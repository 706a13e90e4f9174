/**
 * What a page handler receives: the page, as plain frozen data, and a context through which it
 * reads the page's HTML, queues more URLs, pushes records to the crawl's items and asks a
 * site's rules. Every way out goes through the crawl's own checks (scope, depth, robots.txt,
 * pacing), and each is bounded, so that a handler cannot make the crawl impolite or unbounded.
 */
import { selectAll, selectOne } from "css-select";
import type { AnyNode, Document, Element } from "domhandler";
import { textContent } from "domutils";
import { parseDocument } from "htmlparser2";
import type { CutReason } from "../../net/http-client.js";
import type { AccessPlan } from "../../protocol/robots/index.js";
import type { Discovery } from "../../store/types.js";
import type { EnqueueRequest, EnqueueResult, FetchedPage, PageHooks } from "../crawler.js";
import type { Verdict } from "../verdict.js";
import { CrawlerError } from "./errors.js";

/** A fetched page as its handler sees it. */
export interface Page {
  readonly url: string;
  readonly status: number;
  /**
   * Response headers, names lower-cased, the first value of each; every line of Content-Usage
   * and Content-Signal (joined with ", ") and of X-Robots-Tag (joined with a line break).
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The media type, lower-cased, without parameters (`text/html`), or null. */
  readonly contentType: string | null;
  /** The decoded body (gzip, br … undone), or null (a 304). */
  readonly body: Uint8Array | null;
  /** When the request started (ms since the epoch). */
  readonly fetchedAt: number;
  /** The robots.txt line that allowed it (`line 4: Allow: /news/`), or why it was open. */
  readonly rule: string | null;
  /** The gap the site's rules asked before this request, in seconds, and kept. */
  readonly delaySeconds: number;
  /** For a sitemap snapshot (REGP `<srcloc>`): the original page it stands for. */
  readonly srcloc: string | null;
  /** How it was found: steps from a seed, how, from which page, with which label. */
  readonly depth: number;
  readonly via: Discovery;
  readonly referrer: string | null;
  readonly label: string | null;
  /** Present when the body was cut at the size or compression-ratio limit. */
  readonly truncated: CutReason | null;
  /** What heed sent besides Host, names lower-cased. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /**
   * The usage preferences that applied to it, as the crawl log records them (JSON text: each
   * category's value and where it was stated, docs/usage-preferences.md), or null: none stated.
   */
  readonly usage: string | null;
}

/** Reading a page's HTML: parsed once, on first use (htmlparser2, domhandler, css-select). */
export interface PageReader {
  /** The body as text (UTF-8), "" without one. */
  text(): string;
  /** The parsed document (a domhandler `Document`). */
  document(): Document;
  /** Elements matching a CSS selector, in document order. */
  select(selector: string, root?: AnyNode | readonly AnyNode[]): Element[];
  selectOne(selector: string, root?: AnyNode | readonly AnyNode[]): Element | null;
  /** The text of a node and its descendants. */
  textOf(node: AnyNode | readonly AnyNode[]): string;
}

/** A site's rules as the crawl reads them now. */
export interface SiteRulesReader {
  /** What robots.txt says of `url` for this robot now: allowed with the deciding line, or why not. */
  check(url: string): Promise<Verdict>;
  /** The gap the site asks before each request to `url`, in seconds. */
  delay(url: string): Promise<number>;
  /** Everything the site's robots.txt asks of this robot at `url` (delays, rates, times …). */
  plan(url: string): Promise<AccessPlan>;
}

export interface EnqueueOptions {
  readonly priority?: number;
  readonly depth?: number;
  readonly label?: string;
}

export interface PageContext extends PageReader {
  /** Aborted when the handler's time is up or the crawl stops (not when the handler ends). */
  readonly signal: AbortSignal;
  /**
   * Queues URLs (absolute, or relative to the page) as links of this page. Each goes through
   * the crawl's scope and depth, the site's robots.txt, and its pacing when fetched; a page
   * marked `nofollow` queues nothing. Says what was queued and what was refused, and why.
   */
  enqueue(
    urls: string | EnqueueRequest | readonly (string | EnqueueRequest)[],
    options?: EnqueueOptions,
  ): Promise<EnqueueResult>;
  /** Adds records (any JSON value) to the crawl's items: `heed export --items` writes them. */
  push(records: unknown): Promise<void>;
  readonly rules: SiteRulesReader;
}

/** URLs one page's handler may queue: as many as heed reads of a page's own links. */
export const MAX_ENQUEUE_PER_PAGE = 50_000;
/** Records one page's handler may push. */
export const MAX_PUSH_PER_PAGE = 10_000;
/** Longest URL a handler may queue (RFC 9110 §4.1 asks senders and recipients for 8000 octets). */
export const MAX_URL_CHARS = 8_000;
/** Longest label. */
export const MAX_LABEL_CHARS = 200;

/** The page as frozen data: a handler that changes it changes nothing else. */
export function pageOf(fetched: FetchedPage): Page {
  const type = fetched.headers["content-type"] ?? null;
  return Object.freeze({
    url: fetched.url,
    status: fetched.status,
    headers: Object.freeze({ ...fetched.headers }),
    contentType: type === null ? null : (type.split(";")[0] ?? "").trim().toLowerCase() || null,
    body: fetched.body,
    fetchedAt: fetched.at,
    rule: fetched.rule,
    delaySeconds: fetched.delaySeconds,
    srcloc: fetched.srcloc ?? null,
    depth: fetched.depth ?? 0,
    via: fetched.via ?? (fetched.depth === 0 ? "seed" : "link"),
    referrer: fetched.referrer ?? null,
    label: fetched.label ?? null,
    truncated: fetched.truncated ?? null,
    requestHeaders: Object.freeze({ ...fetched.requestHeaders }),
    usage: fetched.usage ?? null,
  });
}

export function pageReader(page: Page): PageReader {
  let text: string | null = null;
  let doc: Document | null = null;
  const reader: PageReader = {
    text: () => (text ??= page.body === null ? "" : new TextDecoder().decode(page.body)),
    document: () => (doc ??= parseDocument(reader.text())),
    select: (selector, root) => selectAll(selector, (root ?? reader.document()) as AnyNode),
    selectOne: (selector, root) => selectOne(selector, (root ?? reader.document()) as AnyNode),
    textOf: (node) => textContent(node as AnyNode),
  };
  return reader;
}

/** One item given to `enqueue` (a URL or a request) read and checked; `where` names it. */
function enqueueRequest(item: unknown, where: string, options: EnqueueOptions): EnqueueRequest {
  const request = (typeof item === "string" ? { url: item } : item) as Partial<EnqueueRequest>;
  if (request === null || typeof request !== "object" || typeof request.url !== "string")
    throw new CrawlerError(
      "HEED_BAD_ARGUMENT",
      `${where}: expected a URL or { url }, got ${typeof item}`,
    );
  const priority = request.priority ?? options.priority;
  const depth = request.depth ?? options.depth;
  const label = request.label ?? options.label;
  if (priority !== undefined && (typeof priority !== "number" || !Number.isFinite(priority)))
    throw new CrawlerError(
      "HEED_BAD_ARGUMENT",
      `${where}: priority: expected a finite number, got ${String(priority)}`,
    );
  if (depth !== undefined && (!Number.isSafeInteger(depth) || depth < 0))
    throw new CrawlerError(
      "HEED_BAD_ARGUMENT",
      `${where}: depth: expected a whole number >= 0, got ${String(depth)}`,
    );
  if (label !== undefined && (typeof label !== "string" || label.length > MAX_LABEL_CHARS))
    throw new CrawlerError(
      "HEED_BAD_ARGUMENT",
      `${where}: label: expected text of at most ${MAX_LABEL_CHARS} characters`,
    );
  return {
    url: request.url,
    ...(priority === undefined ? {} : { priority }),
    ...(depth === undefined ? {} : { depth }),
    ...(label === undefined ? {} : { label }),
  };
}

/** A record given to `push` as the JSON text kept; the `i`-th of its call. */
function recordText(record: unknown, i: number): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(record);
  } catch (error) {
    throw new CrawlerError(
      "HEED_BAD_ARGUMENT",
      `push: record ${i} is not JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (text === undefined)
    throw new CrawlerError("HEED_BAD_ARGUMENT", `push: record ${i} is not JSON (${typeof record})`);
  return text;
}

export interface ContextParts {
  readonly page: Page;
  readonly hooks: PageHooks;
  readonly signal: AbortSignal;
  /** Keeps the records (the crawl's items). */
  readonly keep: (texts: readonly string[]) => Promise<void>;
}

/**
 * A page's context, with its bounds, and `close()`: after the handler ends every call fails
 * with `HEED_CONTEXT_CLOSED`; `settled()` waits for the calls the handler did not await, so
 * that the page is settled after what it queued and pushed.
 */
export function pageContext(parts: ContextParts): {
  readonly context: PageContext;
  close(): void;
  settled(): Promise<void>;
  pushed(): number;
} {
  const { page, hooks, signal } = parts;
  let closed = false;
  let queuedCount = 0;
  let pushedCount = 0;
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: () => Promise<T>): Promise<T> => {
    if (closed)
      return Promise.reject(
        new CrawlerError(
          "HEED_CONTEXT_CLOSED",
          `the handler of ${page.url} has ended: its context takes no more calls`,
        ),
      );
    const promise = work();
    pending.add(promise);
    // Handled here too: a call the handler did not await fails without an unhandled rejection.
    const forget = () => pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  };
  const requestsOf = (
    urls: string | EnqueueRequest | readonly (string | EnqueueRequest)[],
    options: EnqueueOptions,
  ): EnqueueRequest[] => {
    const list: readonly unknown[] = Array.isArray(urls) ? urls : [urls];
    if (list.length > MAX_ENQUEUE_PER_PAGE - queuedCount)
      throw new CrawlerError(
        "HEED_TOO_MANY",
        `enqueue: a page may queue at most ${MAX_ENQUEUE_PER_PAGE} URLs; ${page.url} asked for ${queuedCount + list.length}`,
      );
    // Counted once every item is read: a call refused for a bad item queues nothing and spends
    // none of the page's budget.
    const requests = list.map((item, i) =>
      enqueueRequest(item, Array.isArray(urls) ? `enqueue: item ${i}` : "enqueue", options),
    );
    queuedCount += requests.length;
    return requests;
  };
  const verdict = (url: unknown): Promise<Verdict> => {
    if (typeof url !== "string" || url.length > MAX_URL_CHARS)
      return Promise.reject(new CrawlerError("HEED_BAD_ARGUMENT", "rules: expected a URL"));
    let absolute: string;
    try {
      absolute = new URL(url, page.url).href;
    } catch {
      return Promise.reject(
        new CrawlerError("HEED_BAD_ARGUMENT", `rules: not a URL: ${url.slice(0, 200)}`),
      );
    }
    if (!/^https?:/i.test(absolute))
      return Promise.reject(
        new CrawlerError(
          "HEED_BAD_ARGUMENT",
          `rules: not an http(s) URL: ${absolute.slice(0, 200)}`,
        ),
      );
    return track(() => hooks.check(absolute));
  };
  const context: PageContext = {
    ...pageReader(page),
    signal,
    enqueue: (urls, options = {}) =>
      track(async () => {
        // A link too long to be a URL is refused as every other bad URL is, not thrown: a
        // handler passing a page's links through must not fail on one of them.
        const requests = requestsOf(urls, options);
        const tooLong = requests.filter((r) => r.url.length > MAX_URL_CHARS);
        const result = await hooks.enqueue(requests.filter((r) => r.url.length <= MAX_URL_CHARS));
        if (tooLong.length === 0) return result;
        const refused = tooLong.map((r) => ({
          url: r.url,
          reason: `a URL of ${r.url.length} characters, over ${MAX_URL_CHARS}`,
        }));
        return { ...result, refused: [...refused, ...result.refused] };
      }),
    push: (records) =>
      track(async () => {
        const list: readonly unknown[] = Array.isArray(records) ? records : [records];
        if (list.length > MAX_PUSH_PER_PAGE - pushedCount)
          throw new CrawlerError(
            "HEED_TOO_MANY",
            `push: a page may push at most ${MAX_PUSH_PER_PAGE} records; ${page.url} pushed ${pushedCount + list.length}`,
          );
        const texts = list.map((record, i) => recordText(record, i));
        pushedCount += texts.length;
        await parts.keep(texts);
      }),
    rules: {
      check: (url) => verdict(url),
      delay: async (url) => (await verdict(url)).plan.delaySeconds,
      plan: async (url) => (await verdict(url)).plan,
    },
  };
  return {
    context: Object.freeze(context),
    close: () => {
      closed = true;
    },
    settled: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    pushed: () => pushedCount,
  };
}
