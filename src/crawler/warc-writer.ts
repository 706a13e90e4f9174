/**
 * The crawler's content output: WARC 1.1 files (ISO 28500:2017), written with `warcio`.
 *
 * Layout. Each file starts with a `warcinfo` record (software, format, the caller's extra fields).
 * `write` files one page as three records written together: `request` (reconstructed: `GET path
 * HTTP/1.1`, Host and the headers heed sent), `response` (status line, headers, body), and
 * `metadata` (`application/warc-fields`: the robots.txt rule that allowed the page, the delay
 * kept, the REGP `<srcloc>` it stands for, and the original values of any HTTP headers changed
 * below), the request and metadata naming the response in `WARC-Concurrent-To`.
 * A crawl (`heed crawl --out`) files every exchange instead (`writeExchange`: robots.txt and its
 * redirect hops, sitemaps, pages kept or not, redirects, errors): its request and response records,
 * then a metadata record of what heed did with it (`noteRecord`: the crawl log's outcome and why;
 * `noteKept`: the fields above), naming the response in `WARC-Refers-To`.
 * Every record has a `WARC-Record-ID` (`<urn:uuid:…>`), `WARC-Date` (the moment the request
 * started, to the millisecond, as WARC 1.1 allows), `WARC-Block-Digest` and `WARC-Payload-Digest`
 * (`sha256:` and lower-case hex, warcio's default); all but warcinfo have `WARC-Target-URI`.
 *
 * Bodies of pages are stored decoded (robots.txt as sent, only unchunked). The HTTP client undoes
 * Content-Encoding and chunking itself, so the stored response says what its bytes are: `Content-Encoding` and `Transfer-Encoding` are left
 * out, and `Content-Length` is the stored body's length. The values the server sent go to the
 * metadata record (`original-content-encoding`, `original-transfer-encoding`,
 * `original-content-length`), so the archive stays plain standard WARC that any reader replays.
 * The client keeps the first value of each header (names lower-cased), so a repeated header
 * (Set-Cookie) keeps its first value; the reason phrase is the standard one for the status.
 * A body cut at a size limit gets `WARC-Truncated: length` (at the compression-ratio limit,
 * `unspecified`); so does, `unspecified`, the body of a page left out because its usage
 * preferences refuse the crawl's purpose (the note says `body-withheld`).
 *
 * Files. `<prefix>-<UTC yyyyMMddHHmmssSSS>-<serial>.warc.gz`, one gzip member per record (what
 * WARC tools expect of `.warc.gz`: any record can be read from its offset). A file is closed once
 * it holds `maxBytes` or more; the next page opens a new one. A page's three records never span
 * two files.
 *
 * Crash safety. A page's records are serialized in memory and handed to the file in one write,
 * and the next page waits for it; so a crawl stopped by SIGINT or SIGTERM (the CLI closes the
 * writer) leaves only complete records, and one killed with SIGKILL leaves at most a partial last
 * gzip member at the end of its last file: readers give every record before it. Files are opened
 * with `wx` (create, never append), so a resumed crawl starts a new file and never writes after
 * such a partial member. Closing and rotating call fsync.
 *
 * A write that fails (a full disk: ENOSPC) cuts the file back to the end of its last whole
 * record, syncs and closes it, and the writer takes nothing more: every later write is refused
 * with the same error, so no new file is started on a disk with no room (nor left empty).
 */
import { randomUUID } from "node:crypto";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import { STATUS_CODES } from "node:http";
import { join } from "node:path";
import { WARC_1_1, WARCRecord, WARCSerializer } from "warcio";
import type { Exchange } from "../net/exchange-tap.js";
import type { CrawlRecord } from "../store/types.js";
import type { FetchedPage } from "./crawler.js";

/** Where files rotate by default: 1 GB, the size Heritrix and the IIPC recommend. */
export const DEFAULT_MAX_WARC_BYTES = 1_000_000_000;
/** The stable `code` of errors from bad options. */
export const BAD_WARC_OPTION_CODE = "HEED_BAD_WARC_OPTION";
/** The stable `code` of a write after `close()`. */
export const WARC_CLOSED_CODE = "HEED_WARC_CLOSED";
/** The stable `code` of a write that failed (the writer takes no more after it). */
export const WARC_WRITE_CODE = "HEED_WARC_WRITE";
/** The stable `code` of a write that failed because the disk (or the user's quota) is full. */
export const WARC_NO_SPACE_CODE = "HEED_WARC_NO_SPACE";

const WARC_1_1_SPEC =
  "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/";
const DIGEST = { algo: "sha-256", prefix: "sha256:", base32: false } as const;
/**
 * URLs whose exchanges wait for their crawl-log record. A page's record follows its exchange
 * as soon as it is filed, so only the requests in flight wait; the few URLs the log never names
 * (robots.txt redirect hops) are written once this many are held.
 */
const MAX_HELD_URLS = 1000;
/** Outcomes whose bodies the archive leaves out: the page's usage preferences refuse the crawl. */
const WITHHELD_OUTCOMES: ReadonlySet<string> = new Set(["fetched-usage-refused"]);
/** Headers whose stored value differs from the wire, since the body is stored decoded. */
const DECODED_AWAY = ["content-encoding", "transfer-encoding"] as const;

export interface WarcWriterOptions {
  /** The start of every file name; letters, digits, `.`, `_` and `-`. Default `heed`. */
  readonly prefix?: string;
  /** Close a file once it holds this many bytes or more; default {@link DEFAULT_MAX_WARC_BYTES}. */
  readonly maxBytes?: number;
  /** One gzip member per record, in `.warc.gz` files; default true. False: plain `.warc`. */
  readonly gzip?: boolean;
  /** `software` in each warcinfo record; default `heed`. The CLI sends `heed/<version>`. */
  readonly software?: string;
  /** More warcinfo fields (`operator`, `http-header-user-agent`, `robots` …), in this order. */
  readonly info?: Readonly<Record<string, string>>;
  /** The clock, for file names and warcinfo dates; default `Date.now`. */
  readonly now?: () => number;
}

export interface WarcPageExtra {
  /** REGP: the original URL this page stands for (a sitemap `<srcloc>`). */
  readonly srcloc?: string;
  /** The request headers sent, names lower-cased; default `page.requestHeaders`. */
  readonly requestHeaders?: Readonly<Record<string, string>>;
}

export class WarcWriteError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WarcWriteError";
    this.code = code;
  }
}

interface OpenFile {
  readonly path: string;
  readonly handle: FileHandle;
  bytes: number;
}

/**
 * Owns the WARC file being written in one directory. `write` may be called concurrently: pages
 * are written one after another, in call order.
 */
export class WarcWriter {
  readonly dir: string;
  readonly #prefix: string;
  readonly #maxBytes: number;
  readonly #gzip: boolean;
  readonly #software: string;
  readonly #info: Readonly<Record<string, string>>;
  readonly #now: () => number;
  #file: OpenFile | null = null;
  #serial = 0;
  #closed = false;
  /** The write that failed: every write after it is refused with it. */
  #failure: WarcWriteError | null = null;
  #queue: Promise<void> = Promise.resolve();
  /** Exchanges waiting for the crawl log's record of their URL, in the order they ended. */
  readonly #held = new Map<string, Exchange[]>();
  /** The response of a kept page archived before the log's record of it, for that record's note. */
  readonly #written = new Map<string, string>();

  private constructor(dir: string, options: WarcWriterOptions) {
    this.dir = dir;
    this.#prefix = options.prefix ?? "heed";
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_WARC_BYTES;
    this.#gzip = options.gzip ?? true;
    this.#software = options.software ?? "heed";
    this.#info = options.info ?? {};
    this.#now = options.now ?? Date.now;
  }

  /** Makes `dir` if needed and opens its first new file (so that a bad directory fails here). */
  static async open(dir: string, options: WarcWriterOptions = {}): Promise<WarcWriter> {
    checkOptions(options);
    await mkdir(dir, { recursive: true });
    const writer = new WarcWriter(dir, options);
    await writer.#startFile();
    return writer;
  }

  /** Appends the page's request, response and metadata records; resolves once they are written. */
  write(page: FetchedPage, extra: WarcPageExtra = {}): Promise<void> {
    return this.#enqueue(() => pageRecords(page, extra, this.#gzip));
  }

  #enqueue(records: () => Promise<Uint8Array>): Promise<void> {
    // Refused when asked after close; what was asked before close is written before it ends.
    if (this.#closed)
      return Promise.reject(
        new WarcWriteError(WARC_CLOSED_CODE, `the WARC writer for ${this.dir} is closed`),
      );
    const job = this.#queue.then(() => this.#writeRecords(records));
    this.#queue = job.catch(() => undefined);
    return job;
  }

  /**
   * Holds an exchange until the crawl log says what heed did with its URL (`noteRecord`); then
   * its request and response records are written, followed by a metadata record of what was done.
   */
  writeExchange(exchange: Exchange): Promise<void> {
    const held = this.#held.get(exchange.url);
    if (held !== undefined) held.push(exchange);
    else this.#held.set(exchange.url, [exchange]);
    // A URL the log never names (a robots.txt redirect's hop): written without a note once
    // more are held than requests are ever in flight.
    if (this.#held.size <= MAX_HELD_URLS) return Promise.resolve();
    const [oldest] = this.#held.keys();
    return oldest === undefined ? Promise.resolve() : this.#flush(oldest, null);
  }

  /**
   * The crawl log's record of a request: the exchanges held for its URL are written, then a
   * metadata record of its outcome, why, how it was found and the gaps kept (with what
   * `noteKept` said). A page not kept for the crawl's purpose is archived without its body.
   */
  noteRecord(record: CrawlRecord): Promise<void> {
    return this.#flush(record.url, record);
  }

  /** What heed knew of a page it kept, for the note about its exchange. */
  noteKept(page: FetchedPage, extra: WarcPageExtra = {}): Promise<void> {
    // Written now, not with the log's record: the crawl files the page as done only once its
    // handler (this) has returned, so a crawl killed before then fetches it again, and one
    // killed after finds it archived.
    return this.#flush(page.url, null, keptFields(page, extra));
  }

  #flush(
    url: string,
    record: CrawlRecord | null,
    kept: readonly [string, string][] = [],
  ): Promise<void> {
    const exchanges = this.#held.get(url) ?? [];
    this.#held.delete(url);
    const withhold = record !== null && WITHHELD_OUTCOMES.has(record.outcome);
    const records: WARCRecord[] = [];
    const fields: [string, string][] = record === null ? [] : recordFields(record);
    fields.push(...kept);
    let last = this.#written.get(url) ?? null;
    for (const exchange of exchanges) {
      const made = exchangeRecords(exchange, withhold);
      records.push(...made.records);
      fields.push(...made.fields);
      last = made.refersTo;
    }
    // The log's record follows a kept page's note: it refers to the same response.
    if (record === null && last !== null) this.#written.set(url, last);
    else this.#written.delete(url);
    if (withhold && exchanges.length > 0)
      fields.push(["body-withheld", "usage preferences refuse the crawl's purpose"]);
    const at = record?.at ?? exchanges[0]?.at ?? 0;
    if (fields.length > 0)
      records.push(
        metadataRecord(url, at, fields, last === null ? {} : { "WARC-Refers-To": last }),
      );
    if (records.length === 0) return Promise.resolve();
    return this.#enqueue(() => serializeAll(records, this.#gzip));
  }

  /** Waits for pending writes, then syncs and closes the file. Later writes are refused. */
  async close(): Promise<void> {
    if (this.#closed) return this.#queue;
    // Exchanges the log never named are written now, without a note.
    const last = [...this.#held.keys()].map((url) => this.#flush(url, null));
    this.#written.clear();
    this.#closed = true;
    try {
      await Promise.all(last);
    } finally {
      await this.#queue;
      await this.#finishFile();
    }
  }

  async #writeRecords(serialized: () => Promise<Uint8Array>): Promise<void> {
    if (this.#failure !== null) throw this.#failure;
    const records = await serialized();
    const file = this.#file ?? (await this.#startFile());
    try {
      await writeFully(file.handle, records);
    } catch (error) {
      // The file may end in part of a record: it is cut back to the last whole one, kept.
      this.#file = null;
      const cut = await file.handle.truncate(file.bytes).then(
        () => true,
        () => false,
      );
      await file.handle.sync().catch(() => undefined);
      await file.handle.close().catch(() => undefined);
      this.#failure = writeFailure(file.path, error, cut);
      throw this.#failure;
    }
    file.bytes += records.byteLength;
    if (file.bytes >= this.#maxBytes) await this.#finishFile();
  }

  async #startFile(): Promise<OpenFile> {
    const at = this.#now();
    const ext = this.#gzip ? "warc.gz" : "warc";
    for (;;) {
      const name = `${this.#prefix}-${fileStamp(at)}-${String(this.#serial++).padStart(5, "0")}.${ext}`;
      const path = join(this.dir, name);
      let handle: FileHandle;
      try {
        handle = await open(path, "wx");
      } catch (error) {
        if ((error as { code?: unknown }).code === "EEXIST") continue;
        throw error;
      }
      const file: OpenFile = { path, handle, bytes: 0 };
      try {
        const info = await serialize(this.#warcinfo(name, at), this.#gzip);
        await writeFully(handle, info);
        file.bytes = info.byteLength;
      } catch (error) {
        // A file without its warcinfo record is no WARC file: it is not left behind.
        await handle.close().catch(() => undefined);
        await rm(path, { force: true }).catch(() => undefined);
        this.#failure = writeFailure(path, error, true);
        throw this.#failure;
      }
      this.#file = file;
      return file;
    }
  }

  async #finishFile(): Promise<void> {
    const file = this.#file;
    if (file === null) return;
    this.#file = null;
    try {
      await file.handle.sync();
    } finally {
      await file.handle.close();
    }
  }

  #warcinfo(filename: string, at: number): WARCRecord {
    return WARCRecord.createWARCInfo(
      { filename, date: new Date(at).toISOString(), warcVersion: WARC_1_1 },
      {
        software: clean(this.#software),
        format: "WARC File Format 1.1",
        conformsTo: WARC_1_1_SPEC,
        ...Object.fromEntries(Object.entries(this.#info).map(([k, v]) => [k, clean(v)])),
      },
    );
  }
}

/** Why a write failed, in words naming the file; a full disk (or quota) is said as such. */
function writeFailure(path: string, error: unknown, whole: boolean): WarcWriteError {
  const code = (error as { code?: unknown } | null)?.code;
  const end = whole ? "it ends at its last whole record" : "it may end in part of a record";
  if (code === "ENOSPC" || code === "EDQUOT")
    return new WarcWriteError(
      WARC_NO_SPACE_CODE,
      `cannot write to ${path}: no space left on the device (${code}); ${end}`,
      { cause: error },
    );
  const why = error instanceof Error ? error.message : String(error);
  return new WarcWriteError(WARC_WRITE_CODE, `cannot write to ${path}: ${why}; ${end}`, {
    cause: error,
  });
}

/** The three records of one page, serialized one after another. */
async function pageRecords(
  page: FetchedPage,
  extra: WarcPageExtra,
  gzip: boolean,
): Promise<Uint8Array> {
  const responseId = recordId();
  const answer = responseRecord(
    {
      url: page.url,
      at: page.at,
      status: page.status,
      headers: page.headers,
      body: page.body,
      decoded: true,
      ...(page.truncated === undefined
        ? {}
        : { truncated: page.truncated === "size" ? "length" : "unspecified" }),
    },
    responseId,
  );
  const fields = [...keptFields(page, extra), ...answer.original];
  return serializeAll(
    [
      requestRecord(page.url, page.at, "GET", extra.requestHeaders ?? page.requestHeaders ?? {}, {
        "WARC-Concurrent-To": responseId,
      }),
      answer.record,
      metadataRecord(page.url, page.at, fields, { "WARC-Concurrent-To": responseId }),
    ],
    gzip,
  );
}

/** What heed knew of a page it kept: the rule that allowed it, the gap, its usage preferences. */
function keptFields(page: FetchedPage, extra: WarcPageExtra): [string, string][] {
  return [
    ...(page.rule === null ? [] : [["robots-rule", page.rule] as [string, string]]),
    ["crawl-delay-seconds", String(page.delaySeconds)],
    ...(extra.srcloc === undefined ? [] : [["srcloc", extra.srcloc] as [string, string]]),
    // docs/usage-preferences.md: the page's usage preferences, as the crawl log has them.
    ...(page.usage === undefined ? [] : [["usage-preferences", page.usage] as [string, string]]),
    ...(page.truncated === undefined ? [] : [["truncated", page.truncated] as [string, string]]),
  ];
}

interface ExchangeRecords {
  readonly records: WARCRecord[];
  /** The record a note about the exchange refers to: its response, or its request. */
  readonly refersTo: string;
  /** Facts the records do not show as sent (header values, the error), for the note. */
  readonly fields: [string, string][];
}

/**
 * An exchange's request and response records (the request alone when no answer came).
 * `withhold`: the response without its body, marked truncated (WARC 1.1: `unspecified`).
 */
function exchangeRecords(exchange: Exchange, withhold: boolean): ExchangeRecords {
  const { url, at } = exchange;
  if (exchange.status === null) {
    const id = recordId();
    return {
      records: [
        requestRecord(url, at, exchange.method, exchange.requestHeaders, { "WARC-Record-ID": id }),
      ],
      refersTo: id,
      fields: [["no-answer", exchange.error ?? "unknown"]],
    };
  }
  const responseId = recordId();
  const answer = responseRecord(
    {
      url,
      at,
      status: exchange.status,
      headers: exchange.headers,
      body: withhold && exchange.body !== null ? new Uint8Array(0) : exchange.body,
      decoded: exchange.decoded,
      ...(withhold
        ? { truncated: "unspecified" }
        : exchange.truncated
          ? { truncated: "length" }
          : {}),
    },
    responseId,
  );
  const request = requestRecord(url, at, exchange.method, exchange.requestHeaders, {
    "WARC-Concurrent-To": responseId,
  });
  return { records: [request, answer.record], refersTo: responseId, fields: answer.original };
}

/** The crawl log's record as warc-fields. */
function recordFields(record: CrawlRecord): [string, string][] {
  const optional: [string, string | number | null | undefined][] = [
    ["heed-detail", record.detail],
    ["heed-via", record.via],
    ["heed-canonical", record.canonical],
    ["heed-required-gap-ms", record.requiredGapMs],
    ["heed-gap-ms", record.gapMs],
  ];
  return [
    ["heed-outcome", record.outcome],
    ...optional.flatMap(([name, value]): [string, string][] =>
      value === null || value === undefined ? [] : [[name, String(value)]],
    ),
  ];
}

function requestRecord(
  target: string,
  at: number,
  method: string,
  sent: Readonly<Record<string, string>>,
  warcHeaders: Record<string, string>,
): WARCRecord {
  const url = new URL(target);
  return WARCRecord.create({
    url: target,
    date: new Date(at).toISOString(),
    type: "request",
    warcVersion: WARC_1_1,
    warcHeaders: { "WARC-Record-ID": recordId(), ...warcHeaders },
    statusline: `${method} ${url.pathname}${url.search} HTTP/1.1`,
    httpHeaders: [
      ["Host", url.host],
      ...Object.entries(sent)
        .filter(([name]) => name.toLowerCase() !== "host")
        .map(([name, value]): [string, string] => [headerCase(name), value]),
    ],
  });
}

interface Answer {
  readonly url: string;
  readonly at: number;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
  /** Content-Encoding undone: the stored headers must not claim it. */
  readonly decoded: boolean;
  /** WARC-Truncated (WARC 1.1 §5.13): cut at a length limit, or for another reason. */
  readonly truncated?: "length" | "unspecified";
}

/**
 * The response record, and the header values the stored record does not keep as sent (the body
 * is stored decoded, and always without chunking), for the metadata record.
 */
function responseRecord(
  answer: Answer,
  responseId: string,
): { record: WARCRecord; original: [string, string][] } {
  const body = answer.body ?? new Uint8Array(0);
  const original: [string, string][] = [];
  const headers: [string, string][] = [];
  const dropped: readonly string[] = answer.decoded ? DECODED_AWAY : ["transfer-encoding"];
  for (const [name, value] of Object.entries(answer.headers)) {
    const lower = name.toLowerCase();
    if (dropped.includes(lower)) original.push([`original-${lower}`, value]);
    else if (lower === "content-length" && answer.body !== null) {
      if (value !== String(body.byteLength)) original.push(["original-content-length", value]);
    } else headers.push([headerCase(name), value]);
  }
  if (answer.body !== null) headers.push(["Content-Length", String(body.byteLength)]);
  const record = WARCRecord.create(
    {
      url: answer.url,
      date: new Date(answer.at).toISOString(),
      type: "response",
      warcVersion: WARC_1_1,
      warcHeaders: {
        "WARC-Record-ID": responseId,
        ...(answer.truncated === undefined ? {} : { "WARC-Truncated": answer.truncated }),
      },
      statusline: `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}`,
      httpHeaders: headers,
    },
    [body],
  );
  return { record, original };
}

function metadataRecord(
  url: string,
  at: number,
  fields: readonly (readonly [string, string])[],
  warcHeaders: Record<string, string>,
): WARCRecord {
  return WARCRecord.create(
    {
      url,
      date: new Date(at).toISOString(),
      type: "metadata",
      warcVersion: WARC_1_1,
      warcHeaders: { "WARC-Record-ID": recordId(), ...warcHeaders },
    },
    [new TextEncoder().encode(fields.map(([k, v]) => `${k}: ${clean(v)}\r\n`).join(""))],
  );
}

async function serializeAll(records: readonly WARCRecord[], gzip: boolean): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const record of records) parts.push(await serialize(record, gzip));
  return Buffer.concat(parts);
}

function serialize(record: WARCRecord, gzip: boolean): Promise<Uint8Array> {
  return WARCSerializer.serialize(record, { gzip, digest: DIGEST });
}

/** FileHandle.write may take part of a buffer; this hands over the rest until all is written. */
async function writeFully(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.byteLength) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.byteLength - offset);
    offset += bytesWritten;
  }
}

function recordId(): string {
  return `<urn:uuid:${randomUUID()}>`;
}

/** `content-type` → `Content-Type`: HTTP names are case-insensitive; this is the usual look. */
function headerCase(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => {
    return dash + c.toUpperCase();
  });
}

/** A warc-fields value is one line: control characters become spaces. */
function clean(value: string): string {
  return value.replace(/[\0-\x1f\x7f]+/g, " ").trim();
}

/** `yyyyMMddHHmmssSSS`, UTC: names sort in the order the files were started. */
function fileStamp(at: number): string {
  return new Date(at).toISOString().replace(/[-:T.Z]/g, "");
}

function checkOptions(options: WarcWriterOptions): void {
  const bad = (message: string) => new WarcWriteError(BAD_WARC_OPTION_CODE, message);
  const { prefix, maxBytes } = options;
  if (prefix !== undefined && !/^[A-Za-z0-9._-]+$/.test(prefix)) {
    throw bad(`prefix: expected letters, digits, ".", "_" and "-", got ${JSON.stringify(prefix)}`);
  }
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && maxBytes > 0)) {
    throw bad(`maxBytes: expected a positive whole number, got ${String(maxBytes)}`);
  }
}
