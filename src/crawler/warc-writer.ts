/**
 * The crawler's content output: WARC 1.1 files (ISO 28500:2017), written with `warcio`.
 *
 * Layout. Each file starts with a `warcinfo` record (software, format, the caller's extra fields);
 * then, per page, three records written together: `request` (reconstructed: `GET path HTTP/1.1`,
 * Host and the headers heed sent), `response` (status line, headers, body), and `metadata`
 * (`application/warc-fields`: the robots.txt rule that allowed the page, the delay kept, the
 * REGP `<srcloc>` it stands for, and the original values of any HTTP headers changed below).
 * The request and metadata records name the response in `WARC-Concurrent-To`. Every record has
 * a `WARC-Record-ID` (`<urn:uuid:…>`), `WARC-Date` (the moment the request started, to the
 * millisecond, as WARC 1.1 allows), `WARC-Block-Digest` and `WARC-Payload-Digest` (`sha256:` and
 * lower-case hex, warcio's default); all but warcinfo have `WARC-Target-URI`.
 *
 * Bodies are stored decoded. The HTTP client undoes Content-Encoding and chunking itself, so the
 * stored response says what its bytes are: `Content-Encoding` and `Transfer-Encoding` are left
 * out, and `Content-Length` is the stored body's length. The values the server sent go to the
 * metadata record (`original-content-encoding`, `original-transfer-encoding`,
 * `original-content-length`), so the archive stays plain standard WARC that any reader replays.
 * The client keeps the first value of each header (names lower-cased), so a repeated header
 * (Set-Cookie) keeps its first value; the reason phrase is the standard one for the status.
 * A body cut at a size limit gets `WARC-Truncated: length` (at the compression-ratio limit,
 * `unspecified`).
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
 */
import { randomUUID } from "node:crypto";
import { mkdir, open, type FileHandle } from "node:fs/promises";
import { STATUS_CODES } from "node:http";
import { join } from "node:path";
import { WARC_1_1, WARCRecord, WARCSerializer } from "warcio";
import type { FetchedPage } from "./crawler.js";

/** Where files rotate by default: 1 GB, the size Heritrix and the IIPC recommend. */
export const DEFAULT_MAX_WARC_BYTES = 1_000_000_000;
/** The stable `code` of errors from bad options. */
export const BAD_WARC_OPTION_CODE = "HEED_BAD_WARC_OPTION";
/** The stable `code` of a write after `close()`. */
export const WARC_CLOSED_CODE = "HEED_WARC_CLOSED";

const WARC_1_1_SPEC =
  "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/";
const DIGEST = { algo: "sha-256", prefix: "sha256:", base32: false } as const;
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
  #queue: Promise<void> = Promise.resolve();

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
    const job = this.#queue.then(() => this.#writePage(page, extra));
    this.#queue = job.catch(() => undefined);
    return job;
  }

  /** Waits for pending writes, then syncs and closes the file. Later writes are refused. */
  async close(): Promise<void> {
    if (this.#closed) return this.#queue;
    this.#closed = true;
    await this.#queue;
    await this.#finishFile();
  }

  async #writePage(page: FetchedPage, extra: WarcPageExtra): Promise<void> {
    if (this.#closed) {
      throw new WarcWriteError(WARC_CLOSED_CODE, `the WARC writer for ${this.dir} is closed`);
    }
    const records = await pageRecords(page, extra, this.#gzip);
    const file = this.#file ?? (await this.#startFile());
    try {
      await writeFully(file.handle, records);
    } catch (error) {
      // What is in the file may end in part of a record: the next page goes to a new file.
      this.#file = null;
      await file.handle.close().catch(() => undefined);
      const why = error instanceof Error ? error.message : String(error);
      throw new WarcWriteError("HEED_WARC_WRITE", `cannot write to ${file.path}: ${why}`, {
        cause: error,
      });
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
        await handle.close().catch(() => undefined);
        throw error;
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

/** The three records of one page, serialized one after another. */
async function pageRecords(
  page: FetchedPage,
  extra: WarcPageExtra,
  gzip: boolean,
): Promise<Uint8Array> {
  const url = new URL(page.url);
  const date = new Date(page.at).toISOString();
  const responseId = recordId();
  const sent = extra.requestHeaders ?? page.requestHeaders ?? {};
  const requestHeaders: [string, string][] = [
    ["Host", url.host],
    ...Object.entries(sent)
      .filter(([name]) => name.toLowerCase() !== "host")
      .map(([name, value]): [string, string] => [headerCase(name), value]),
  ];
  const request = WARCRecord.create({
    url: page.url,
    date,
    type: "request",
    warcVersion: WARC_1_1,
    warcHeaders: { "WARC-Record-ID": recordId(), "WARC-Concurrent-To": responseId },
    statusline: `GET ${url.pathname}${url.search} HTTP/1.1`,
    httpHeaders: requestHeaders,
  });

  const body = page.body ?? new Uint8Array(0);
  const original: [string, string][] = [];
  const responseHeaders: [string, string][] = [];
  for (const [name, value] of Object.entries(page.headers)) {
    const lower = name.toLowerCase();
    if ((DECODED_AWAY as readonly string[]).includes(lower)) {
      original.push([`original-${lower}`, value]);
    } else if (lower === "content-length" && page.body !== null) {
      if (value !== String(body.byteLength)) original.push(["original-content-length", value]);
    } else responseHeaders.push([headerCase(name), value]);
  }
  if (page.body !== null) responseHeaders.push(["Content-Length", String(body.byteLength)]);
  const response = WARCRecord.create(
    {
      url: page.url,
      date,
      type: "response",
      warcVersion: WARC_1_1,
      warcHeaders: {
        "WARC-Record-ID": responseId,
        ...(page.truncated === undefined
          ? {}
          : { "WARC-Truncated": page.truncated === "size" ? "length" : "unspecified" }),
      },
      statusline: `HTTP/1.1 ${page.status} ${STATUS_CODES[page.status] ?? ""}`,
      httpHeaders: responseHeaders,
    },
    [body],
  );

  const fields: [string, string][] = [
    ...(page.rule === null ? [] : [["robots-rule", page.rule] as [string, string]]),
    ["crawl-delay-seconds", String(page.delaySeconds)],
    ...(extra.srcloc === undefined ? [] : [["srcloc", extra.srcloc] as [string, string]]),
    // docs/usage-preferences.md: the page's usage preferences, as the crawl log has them.
    ...(page.usage === undefined ? [] : [["usage-preferences", page.usage] as [string, string]]),
    ...(page.truncated === undefined ? [] : [["truncated", page.truncated] as [string, string]]),
    ...original,
  ];
  const metadata = WARCRecord.create(
    {
      url: page.url,
      date,
      type: "metadata",
      warcVersion: WARC_1_1,
      warcHeaders: { "WARC-Record-ID": recordId(), "WARC-Concurrent-To": responseId },
    },
    [new TextEncoder().encode(fields.map(([k, v]) => `${k}: ${clean(v)}\r\n`).join(""))],
  );

  const parts = [
    await serialize(request, gzip),
    await serialize(response, gzip),
    await serialize(metadata, gzip),
  ];
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
