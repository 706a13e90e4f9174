/**
 * Reading one sitemap file, whatever its format, as a stream: bytes in (gzip-compressed or not),
 * events out, one entry at a time, in memory that does not grow with the file.
 *
 * The steps: gzip is recognised by its first two bytes (1f 8b, RFC 1952 §2.3.1), not by a name;
 * bytes are counted against the size limit and, when compressed, against the compression ratio;
 * the text is decoded (UTF-8, or what the XML declaration says, with a warning); the first
 * character that is not white space picks the reader: `<` an XML one, anything else a text
 * sitemap. Decompression is injected (`gunzip`), so that this layer does no I/O of its own;
 * src/net/sitemap-fetch.ts passes node:zlib's.
 */
import {
  COMPRESSION_RATIO_FLOOR_BYTES,
  MAX_COMPRESSION_RATIO,
  MAX_SITEMAP_BYTES,
  MAX_SITEMAP_URLS,
} from "./limits.js";
import { type ScopeOptions, sitemapScope } from "./scope.js";
import { Sink } from "./sink.js";
import { TextSitemapReader } from "./text-reader.js";
import type {
  SitemapCode,
  SitemapDiagnostic,
  SitemapEvent,
  SitemapRef,
  SitemapSummary,
  SitemapUrl,
} from "./types.js";
import { XmlSitemapReader } from "./xml-reader.js";

export interface SitemapLimits {
  /** Entries one file may hold; past it reading stops (`too-many-urls`). Default 50,000. */
  readonly maxUrls?: number;
  /** Uncompressed bytes one file may hold; past it reading stops (`too-large`). Default 52,428,800. */
  readonly maxBytes?: number;
  /** Largest uncompressed/compressed ratio before reading stops (`compression-ratio`). Default 100. */
  readonly maxRatio?: number;
  /** The ratio is judged only past this many uncompressed bytes. Default 4 MiB. */
  readonly ratioFloorBytes?: number;
}

export interface ParseSitemapOptions extends SitemapLimits, ScopeOptions {
  /**
   * Decompresses a gzip stream. Without it a compressed file stops with `gzip-unsupported`;
   * `readSitemap` in src/net passes one.
   */
  readonly gunzip?: (compressed: AsyncIterable<Uint8Array>) => AsyncIterable<Uint8Array>;
}

interface Limits {
  readonly maxUrls: number;
  readonly maxBytes: number;
  readonly maxRatio: number;
  readonly ratioFloorBytes: number;
}

/** Options checked at the boundary, with "expected X, got Y"; a wrong limit is a programming error. */
export function readLimits(options: SitemapLimits): Limits {
  return {
    maxUrls: positive("maxUrls", options.maxUrls, MAX_SITEMAP_URLS, true),
    maxBytes: positive("maxBytes", options.maxBytes, MAX_SITEMAP_BYTES, true),
    maxRatio: positive("maxRatio", options.maxRatio, MAX_COMPRESSION_RATIO, false),
    ratioFloorBytes: positive(
      "ratioFloorBytes",
      options.ratioFloorBytes,
      COMPRESSION_RATIO_FLOOR_BYTES,
      true,
    ),
  };
}

function positive(name: string, value: number | undefined, fallback: number, integer: boolean) {
  if (value === undefined) return fallback;
  if (!(value > 0) || (integer && !Number.isSafeInteger(value)) || !Number.isFinite(value))
    throw new RangeError(
      `${name}: expected a positive ${integer ? "integer" : "number"}, got ${String(value)}`,
    );
  return value;
}

// The global TextDecoder (WHATWG Encoding); its type is not global without the DOM library.
type Decoder = InstanceType<typeof TextDecoder>;

// Bytes looked at before the decoder is chosen: room for a BOM and an XML declaration.
const SNIFF_BYTES = 1024;

/**
 * The push-driven core: feed bytes with `push`, finish with `end`, collect events with `take`.
 * Synchronous and pure; `parseSitemap` drives it from an async source.
 */
export class SitemapParser {
  private readonly sink: Sink;
  private readonly maxBytes: number;
  private readonly compressed: boolean;
  private bytesRead = 0;
  private head: Uint8Array[] = [];
  private headLength = 0;
  private decoder: Decoder | null = null;
  private reader: XmlSitemapReader | TextSitemapReader | null = null;
  private leading = "";

  constructor(options: ParseSitemapOptions & { readonly compressed?: boolean } = {}) {
    const limits = readLimits(options);
    this.sink = new Sink({ maxUrls: limits.maxUrls, scope: sitemapScope(options) });
    this.maxBytes = limits.maxBytes;
    this.compressed = options.compressed === true;
  }

  get stopped(): boolean {
    return this.sink.stopped;
  }

  /** Uncompressed bytes taken so far. */
  get bytes(): number {
    return this.bytesRead;
  }

  take(): SitemapEvent[] {
    return this.sink.take();
  }

  /** Stops reading with a fatal finding the driver made (ratio, decompression). */
  fail(code: SitemapCode, message: string): void {
    if (!this.sink.stopped) this.sink.report(code, null, message);
  }

  push(chunk: Uint8Array): void {
    if (this.sink.stopped || chunk.byteLength === 0) return;
    let bytes = chunk;
    const room = this.maxBytes - this.bytesRead;
    const over = bytes.byteLength > room;
    if (over) bytes = bytes.subarray(0, room);
    this.bytesRead += bytes.byteLength;
    if (this.decoder === null) {
      this.head.push(bytes);
      this.headLength += bytes.byteLength;
      if (this.headLength >= SNIFF_BYTES || over) this.startDecoding();
    } else {
      this.text(this.decoder.decode(bytes, { stream: true }));
    }
    if (over && !this.sink.stopped)
      this.sink.report(
        "too-large",
        null,
        `larger than ${this.maxBytes.toLocaleString("en-US")} bytes uncompressed (sitemaps.org: at most 52,428,800, 50 MB); reading stopped there`,
      );
  }

  end(): void {
    if (this.sink.stopped) return;
    if (this.decoder === null) this.startDecoding();
    const rest = this.decoder?.decode() ?? "";
    if (rest !== "") this.text(rest);
    if (this.sink.stopped) return;
    if (this.reader === null) {
      this.sink.report(
        "not-a-sitemap",
        null,
        this.bytesRead === 0 ? "the file is empty" : "the file holds only white space",
      );
      return;
    }
    this.reader.end();
  }

  summary(compressedBytes: number | null): SitemapSummary {
    const s = this.sink;
    return {
      format: s.format,
      compressed: this.compressed,
      urls: s.urls,
      sitemaps: s.sitemaps,
      bytes: this.bytesRead,
      compressedBytes,
      errors: s.errors,
      warnings: s.warnings,
      stoppedBy: s.stoppedBy,
    };
  }

  private startDecoding(): void {
    const head = concat(this.head, this.headLength);
    this.head = [];
    const { decoder, note } = chooseDecoder(head);
    this.decoder = decoder;
    if (note !== null) this.sink.report("not-utf8", 1, note);
    this.text(decoder.decode(head, { stream: true }));
  }

  private text(text: string): void {
    if (text === "" || this.sink.stopped) return;
    if (this.reader !== null) {
      this.reader.write(text);
      return;
    }
    this.leading += text;
    const first = /\S/.exec(this.leading);
    if (first === null) return;
    const all = this.leading;
    this.leading = "";
    this.reader =
      first[0] === "<"
        ? new XmlSitemapReader(this.sink, this.compressed)
        : new TextSitemapReader(this.sink, this.compressed);
    this.reader.write(all);
  }
}

/**
 * The entries of one sitemap, one event at a time. Content never throws: what is odd comes out
 * as `diagnostic` events, a limit as a fatal one, and the last event is always `end`, with the
 * tallies. Only an I/O error of `input` itself is thrown, as it came.
 */
export async function* parseSitemap(
  input: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: ParseSitemapOptions = {},
): AsyncGenerator<SitemapEvent, void, undefined> {
  for await (const batch of parseSitemapBatches(input, options)) yield* batch;
}

/**
 * {@link parseSitemap}'s events in batches, one per chunk read: each step of an async generator
 * costs promises, and 50,000 entries passed one by one through every layer cost more CPU than
 * reading them. For readers inside heed (src/net/sitemap-fetch.ts) that pass events on.
 */
export async function* parseSitemapBatches(
  input: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: ParseSitemapOptions = {},
): AsyncGenerator<readonly SitemapEvent[], void, undefined> {
  const limits = readLimits(options);
  const source = await peek(input, 2);
  const compressed = isGzip(source.head);
  const parser = new SitemapParser({ ...options, compressed });
  let compressedBytes = 0;
  let sourceError: unknown = null;
  const counted = (async function* () {
    try {
      for await (const chunk of source.chunks) {
        compressedBytes += chunk.byteLength;
        yield chunk;
      }
    } catch (error) {
      sourceError = error;
      throw error;
    }
  })();
  let data: AsyncIterable<Uint8Array> = counted;
  if (compressed) {
    if (options.gunzip === undefined) {
      parser.fail(
        "gzip-unsupported",
        "the file is gzip-compressed and no decompressor was given (read it with readSitemap)",
      );
      await source.close();
    } else {
      data = options.gunzip(counted);
    }
  }
  if (!parser.stopped) {
    try {
      for await (const chunk of data) {
        parser.push(chunk);
        if (
          compressed &&
          parser.bytes > limits.ratioFloorBytes &&
          parser.bytes > limits.maxRatio * compressedBytes
        ) {
          parser.fail(
            "compression-ratio",
            `${megabytes(parser.bytes)} uncompressed from ${megabytes(compressedBytes)} compressed, a ratio above ${limits.maxRatio} (a gzip bomb?); reading stopped`,
          );
        }
        const batch = parser.take();
        if (batch.length > 0) yield batch;
        if (parser.stopped) break;
      }
    } catch (error) {
      if (!compressed || error === sourceError) throw error;
      parser.fail(
        "gzip-corrupt",
        `gzip data is broken after ${megabytes(parser.bytes)} uncompressed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  parser.end();
  yield [
    ...parser.take(),
    { kind: "end", summary: parser.summary(compressed ? compressedBytes : null) },
  ];
}

/** Everything a small sitemap holds, read at once from a string or bytes (no gzip). */
export interface SitemapContents {
  readonly urls: readonly SitemapUrl[];
  readonly sitemaps: readonly SitemapRef[];
  readonly diagnostics: readonly SitemapDiagnostic[];
  readonly summary: SitemapSummary;
}

const PIECE = 64 * 1024;

export function parseSitemapText(
  input: string | Uint8Array,
  options: Omit<ParseSitemapOptions, "gunzip"> = {},
): SitemapContents {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const compressed = isGzip(bytes);
  const parser = new SitemapParser({ ...options, compressed });
  if (compressed)
    parser.fail("gzip-unsupported", "the text is gzip-compressed; read it with readSitemap");
  for (let i = 0; i < bytes.byteLength && !parser.stopped; i += PIECE)
    parser.push(bytes.subarray(i, i + PIECE));
  parser.end();
  const urls: SitemapUrl[] = [];
  const sitemaps: SitemapRef[] = [];
  const diagnostics: SitemapDiagnostic[] = [];
  for (const event of parser.take()) {
    if (event.kind === "url") urls.push(event.url);
    else if (event.kind === "sitemap") sitemaps.push(event.sitemap);
    else if (event.kind === "diagnostic") diagnostics.push(event.diagnostic);
  }
  return { urls, sitemaps, diagnostics, summary: parser.summary(null) };
}

/** RFC 1952 §2.3.1: ID1 = 31, ID2 = 139. */
export function isGzip(head: Uint8Array): boolean {
  return head.byteLength >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

interface Peeked {
  readonly head: Uint8Array;
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Lets go of the source when `chunks` will not be read. */
  close(): Promise<void>;
}

/** The first `n` bytes of a source, and the whole source again, read once. */
async function peek(
  input: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  n: number,
): Promise<Peeked> {
  const iterator =
    Symbol.asyncIterator in input
      ? input[Symbol.asyncIterator]()
      : (async function* () {
          yield* input;
        })();
  const first: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length < n) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    first.push(next.value);
    length += next.value.byteLength;
  }
  const head = concat(first, length).subarray(0, n);
  const chunks = (async function* () {
    try {
      yield* first;
      if (done) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      if (!done) await iterator.return?.();
    }
  })();
  return {
    head,
    chunks,
    close: async () => {
      if (!done) await iterator.return?.();
    },
  };
}

/** The decoder for a file's bytes, and a note when it is not UTF-8 (sitemaps.org: "must be UTF-8"). */
function chooseDecoder(head: Uint8Array): { decoder: Decoder; note: string | null } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { decoder: new TextDecoder("utf-8"), note: null };
  if ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe)) {
    const label = head[0] === 0xfe ? "utf-16be" : "utf-16le";
    const decoder = tryDecoder(label);
    if (decoder !== null)
      return { decoder, note: `the file is ${label.toUpperCase()}; sitemaps must be UTF-8` };
  }
  let ascii = "";
  for (let i = 0; i < head.byteLength && i < SNIFF_BYTES; i++)
    ascii += String.fromCharCode(head[i] ?? 0);
  const declared = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(ascii)?.[1];
  if (declared === undefined || /^utf-?8$/i.test(declared))
    return { decoder: new TextDecoder("utf-8"), note: null };
  const decoder = tryDecoder(declared);
  if (decoder === null)
    return {
      decoder: new TextDecoder("utf-8"),
      note: `the file declares encoding="${declared}", which heed cannot decode; read as UTF-8 (sitemaps must be UTF-8)`,
    };
  return {
    decoder,
    note: `the file declares encoding="${declared}"; sitemaps must be UTF-8 (decoded as declared)`,
  };
}

function tryDecoder(label: string): Decoder | null {
  try {
    return new TextDecoder(label);
  } catch {
    return null;
  }
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(length);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function megabytes(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}
