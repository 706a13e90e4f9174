/**
 * The site side of sitemaps: writing them, split at the limits, gzip-compressed or not, with an
 * index when there is more than one file; and keeping them current one entry at a time, the way
 * seeds/003 §4.1's news site does (Figs. 2-3: releasing news adds an entry, a new comment updates
 * its `<lastmod>`).
 *
 * Every file is written to a temporary name in its directory and renamed into place, so that a
 * reader (a crawler fetching the sitemap while it changes) sees the old file or the new one,
 * never half of one. When a change needs several files (a split), the new sitemaps are put in
 * place first and the index that names them last.
 */
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, copyFile, mkdir, rename, rm, stat } from "node:fs/promises";
import { withFileLock } from "../store/file-lock.js";
import { basename, dirname, join, resolve as resolvePath } from "node:path";
import { type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { gunzipChunks, readSitemap } from "../net/sitemap-fetch.js";
import {
  checkUrlInput,
  formatPriority,
  formatW3cDatetime,
  isGzip,
  MAX_SITEMAP_BYTES,
  MAX_SITEMAP_URLS,
  type PatchField,
  type PatchSpec,
  SITEMAPINDEX_CLOSE,
  SitemapInputError,
  SitemapPatcher,
  SitemapPatchError,
  type SitemapUrlInput,
  type SitemapUrlRecord,
  sitemapElement,
  sitemapIndexOpen,
  sitemapScope,
  URLSET_CLOSE,
  urlElement,
  urlsetOpen,
} from "../protocol/sitemap/index.js";

/** Thrown when a sitemap cannot be written or updated; `code` is stable, `cause` kept. */
export class SitemapWriteError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SitemapWriteError";
    this.code = code;
  }
}

// ---------------------------------------------------------------------------------------------
// One output file

const WRITE_PIECE = 64 * 1024;

/** A file being written under a temporary name: uncompressed bytes counted, gzip optional. */
class OutFile {
  /** Uncompressed bytes written. */
  bytes = 0;
  private pending = "";
  private readonly input: Writable;
  private readonly done: Promise<void>;

  private constructor(
    readonly tmp: string,
    gzip: boolean,
  ) {
    const file = createWriteStream(tmp);
    if (gzip) {
      const gz = createGzip();
      this.input = gz;
      this.done = pipeline(gz, file);
    } else {
      this.input = file;
      // "close", not "finish": it also comes after destroy(), and after the descriptor is closed.
      this.done = new Promise((resolve, reject) => {
        file.on("close", resolve);
        file.on("error", reject);
      });
    }
    // Surfaced by close(); keeps an early failure from being an unhandled rejection meanwhile.
    this.done.catch(() => undefined);
  }

  static create(dir: string, gzip: boolean): OutFile {
    return new OutFile(
      join(dir, `.heed-sitemap-${process.pid}-${randomBytes(6).toString("hex")}.tmp`),
      gzip,
    );
  }

  async write(text: string): Promise<void> {
    this.bytes += Buffer.byteLength(text);
    this.pending += text;
    if (this.pending.length >= WRITE_PIECE) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending === "") return;
    const chunk = this.pending;
    this.pending = "";
    if (!this.input.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const onError = (error: unknown) => reject(error);
        this.input.once("error", onError);
        this.input.once("drain", () => {
          this.input.off("error", onError);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.input.end();
    await this.done;
  }

  /** Closes the file and renames it to `path`, with `mode` when given. */
  async publish(path: string, mode?: number): Promise<void> {
    await this.close();
    if (mode !== undefined) await chmod(this.tmp, mode);
    await rename(this.tmp, path);
  }

  async discard(): Promise<void> {
    this.input.destroy();
    await this.done.catch(() => undefined);
    await rm(this.tmp, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Writing a set of sitemaps

export interface WriteSitemapsOptions {
  /** Directory to write into; made if missing. */
  readonly outDir: string;
  /**
   * The URL `outDir` is served at (`https://www.example.com/`); an index lists its sitemaps
   * under it. Default: the origin of the first entry, i.e. files at the site's root, where
   * sitemaps.org recommends them (a sitemap lists only URLs under its own directory).
   */
  readonly baseUrl?: string;
  /** Write `.xml.gz` files. The index, when there is one, is plain XML. Default false. */
  readonly gzip?: boolean;
  /** Entries a file may hold before the next one starts. Default 50,000 (sitemaps.org). */
  readonly maxUrls?: number;
  /** Uncompressed bytes a file may hold. Default 52,428,800 (sitemaps.org). */
  readonly maxBytes?: number;
  /** File name stem: `sitemap.xml`, or `sitemap-1.xml`, `sitemap-2.xml` … and `sitemap.xml` the index. */
  readonly name?: string;
  /** The clock, for the index's `<lastmod>`; default `() => new Date()`. */
  readonly now?: () => Date;
  /**
   * Hears of an entry that cannot be written; it is skipped. Without it such an entry throws a
   * `SitemapInputError` (code `invalid-entry`).
   */
  readonly onInvalid?: (errors: readonly string[], index: number) => void;
  /**
   * The written files may list any path of `baseUrl`'s host, not only paths under its directory:
   * right when that host's robots.txt names the sitemap (sitemaps.org "Sitemaps & Cross
   * Submits"). Default false: a sitemap lists URLs under its own directory.
   */
  readonly anyPathOnHost?: boolean;
  /**
   * Hears of an entry left out because a reader would drop it or list it twice: another host
   * than the sitemap's (`loc-other-host`), a path outside its directory (`loc-out-of-scope`), a
   * loc already written (`duplicate-loc`). Without it such an entry throws a `SitemapInputError`.
   */
  readonly onRefused?: (refusal: SitemapRefusal, index: number) => void;
}

/** An entry the writer left out, and why; `code` is stable. */
export interface SitemapRefusal {
  readonly code: "loc-other-host" | "loc-out-of-scope" | "duplicate-loc";
  readonly message: string;
}

/**
 * Locs remembered for `duplicate-loc`. Past this many, duplicates are no longer looked for,
 * so that memory stays bounded on a list of any length (some tens of MB at most).
 */
export const MAX_DUPLICATE_CHECKED = 250_000;

/**
 * Why a reader of the sitemap at `base` (a directory URL) would drop `loc`, or null. The reader's
 * own scope rule (protocol/sitemap/scope.ts), so that what heed writes, heed reads.
 */
export function scopeRefusal(
  loc: string,
  base: URL,
  anyPathOnHost: boolean,
): SitemapRefusal | null {
  const url = new URL(loc);
  if (url.origin !== base.origin) {
    return {
      code: "loc-other-host",
      message: `${loc} is on another host than the sitemap (${base.origin}); a sitemap lists URLs of its own host only (docs/sitemaps.md#scope)`,
    };
  }
  const scope = sitemapScope({
    sitemapUrl: new URL("sitemap.xml", base).href,
    allowAnyPathOnHost: anyPathOnHost,
  });
  const why = scope?.check(url) ?? null;
  if (why === null) return null;
  return {
    code: "loc-out-of-scope",
    message: `${loc} is outside ${scope?.prefix ?? base.href}, where the sitemap is served; readers drop it (docs/sitemaps.md#scope)`,
  };
}

export interface WrittenSitemap {
  readonly path: string;
  /** Its URL, when the files were split and an index names them. */
  readonly url: string | null;
  readonly urls: number;
  /** Uncompressed bytes. */
  readonly bytes: number;
}

export interface WriteSitemapsResult {
  /** The file to name in robots.txt (`Sitemap:`): the index, or the only sitemap. */
  readonly root: string;
  readonly sitemaps: readonly WrittenSitemap[];
  /** The index, when the entries needed more than one file. */
  readonly index: { readonly path: string; readonly sitemaps: number } | null;
  readonly urls: number;
  readonly skipped: number;
}

interface Limits {
  readonly maxUrls: number;
  readonly maxBytes: number;
}

function limitsOf(options: { maxUrls?: number; maxBytes?: number }): Limits {
  const maxUrls = options.maxUrls ?? MAX_SITEMAP_URLS;
  const maxBytes = options.maxBytes ?? MAX_SITEMAP_BYTES;
  if (!Number.isSafeInteger(maxUrls) || maxUrls < 1)
    throw new RangeError(`maxUrls: expected a positive integer, got ${String(maxUrls)}`);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1024)
    throw new RangeError(`maxBytes: expected an integer of at least 1024, got ${String(maxBytes)}`);
  return { maxUrls, maxBytes };
}

function stemOf(name: string | undefined): string {
  const stem = name ?? "sitemap";
  if (!/^[A-Za-z0-9._-]+$/.test(stem) || stem.startsWith("."))
    throw new RangeError(`name: expected a file name stem such as "sitemap", got "${stem}"`);
  return stem;
}

/**
 * Writes `entries` as sitemaps in `outDir`: one file while they fit (50,000 URLs, 50 MB, or the
 * limits given), then `NAME-1.xml`, `NAME-2.xml` … and `NAME.xml`, an index of them. Entries are
 * streamed: memory does not grow with their number.
 */
export async function writeSitemaps(
  entries: AsyncIterable<SitemapUrlInput> | Iterable<SitemapUrlInput>,
  options: WriteSitemapsOptions,
): Promise<WriteSitemapsResult> {
  const limits = limitsOf(options);
  const stem = stemOf(options.name);
  const gzip = options.gzip ?? false;
  const ext = gzip ? ".xml.gz" : ".xml";
  const dir = resolvePath(options.outDir);
  await mkdir(dir, { recursive: true });
  const header = urlsetOpen();
  const closing = Buffer.byteLength(URLSET_CLOSE);
  if (Buffer.byteLength(header) + closing >= limits.maxBytes)
    throw new RangeError(`maxBytes: ${limits.maxBytes} leaves no room for a single entry`);

  const parts: { file: OutFile; urls: number }[] = [];
  let current: { file: OutFile; urls: number } | null = null;
  let firstLoc: string | null = null;
  let base: URL | null = null;
  const seen = new Set<string>();
  let urls = 0;
  let skipped = 0;
  let index = 0;
  try {
    for await (const input of entries) {
      const checked = checkUrlInput(input);
      if (!checked.ok) {
        if (options.onInvalid === undefined) throw new SitemapInputError(checked.errors, index);
        options.onInvalid(checked.errors, index);
        skipped++;
        index++;
        continue;
      }
      index++;
      base ??= baseUrlOf(options.baseUrl, checked.value.loc);
      const refusal =
        scopeRefusal(checked.value.loc, base, options.anyPathOnHost ?? false) ??
        duplicateRefusal(checked.value.loc, seen);
      if (refusal !== null) {
        if (options.onRefused === undefined)
          throw new SitemapInputError([refusal.message], index - 1);
        options.onRefused(refusal, index - 1);
        skipped++;
        continue;
      }
      const element = urlElement(checked.value);
      const size = Buffer.byteLength(element);
      if (
        current !== null &&
        (current.urls >= limits.maxUrls || current.file.bytes + size + closing > limits.maxBytes)
      ) {
        await current.file.write(URLSET_CLOSE);
        await current.file.close();
        current = null;
      }
      if (current === null) {
        current = { file: OutFile.create(dir, gzip), urls: 0 };
        parts.push(current);
        await current.file.write(header);
        if (current.file.bytes + size + closing > limits.maxBytes)
          throw new SitemapInputError(
            [`the entry alone is larger than maxBytes (${limits.maxBytes})`],
            index - 1,
          );
      }
      await current.file.write(element);
      current.urls++;
      urls++;
      firstLoc ??= checked.value.loc;
    }
    if (current === null) {
      // No entries: an empty urlset is still a valid sitemap.
      current = { file: OutFile.create(dir, gzip), urls: 0 };
      parts.push(current);
      await current.file.write(header);
    }
    await current.file.write(URLSET_CLOSE);
    await current.file.close();

    if (parts.length === 1) {
      const only = parts[0] as { file: OutFile; urls: number };
      const path = join(dir, `${stem}${ext}`);
      await only.file.publish(path);
      return {
        root: path,
        sitemaps: [{ path, url: null, urls: only.urls, bytes: only.file.bytes }],
        index: null,
        urls,
        skipped,
      };
    }
    if (parts.length > MAX_SITEMAP_URLS)
      throw new SitemapWriteError(
        "too-many-sitemaps",
        `${parts.length} sitemaps; an index lists at most ${MAX_SITEMAP_URLS} (sitemaps.org)`,
      );
    base ??= baseUrlOf(options.baseUrl, firstLoc);
    const lastmod = stamp(options.now ?? (() => new Date()));
    const written: WrittenSitemap[] = [];
    for (const [i, part] of parts.entries()) {
      const fileName = `${stem}-${i + 1}${ext}`;
      const path = join(dir, fileName);
      await part.file.publish(path);
      written.push({
        path,
        url: new URL(fileName, base).href,
        urls: part.urls,
        bytes: part.file.bytes,
      });
    }
    const indexFile = OutFile.create(dir, false);
    await indexFile.write(sitemapIndexOpen());
    for (const s of written) await indexFile.write(sitemapElement({ loc: s.url ?? "", lastmod }));
    await indexFile.write(SITEMAPINDEX_CLOSE);
    const indexPath = join(dir, `${stem}.xml`);
    await indexFile.publish(indexPath);
    return {
      root: indexPath,
      sitemaps: written,
      index: { path: indexPath, sitemaps: written.length },
      urls,
      skipped,
    };
  } catch (error) {
    for (const part of parts) await part.file.discard();
    throw error;
  }
}

function duplicateRefusal(loc: string, seen: Set<string>): SitemapRefusal | null {
  if (seen.has(loc)) {
    return {
      code: "duplicate-loc",
      message: `${loc} is listed already; the later entry is left out`,
    };
  }
  if (seen.size < MAX_DUPLICATE_CHECKED) seen.add(loc);
  return null;
}

function baseUrlOf(baseUrl: string | undefined, firstLoc: string | null): URL {
  if (baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch (error) {
      throw new RangeError(`baseUrl: expected an absolute http(s) URL, got "${baseUrl}"`, {
        cause: error,
      });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new RangeError(`baseUrl: expected an http(s) URL, got "${baseUrl}"`);
    if (!url.pathname.endsWith("/")) url.pathname += "/";
    url.search = "";
    url.hash = "";
    return url;
  }
  if (firstLoc === null)
    throw new RangeError("baseUrl: needed, and there is no entry to take it from");
  return new URL("/", firstLoc);
}

// ---------------------------------------------------------------------------------------------
// Keeping a sitemap current

export interface UpdateSitemapOptions {
  /**
   * The URL the sitemap's directory is served at. Needed only when a full sitemap must become an
   * index (its sitemaps are listed by URL); default: the origin of the entry, i.e. the root.
   */
  readonly baseUrl?: string;
  /** Limits for a file before a new one is started. Defaults: 50,000 URLs, 52,428,800 bytes. */
  readonly maxUrls?: number;
  readonly maxBytes?: number;
  /** The entry may be on any path of the base's host (its robots.txt names the sitemap). */
  readonly anyPathOnHost?: boolean;
  /** Compress new sitemap files; default: as `path` is (by its content, or a `.gz` name). */
  readonly gzip?: boolean;
  /** The clock, for an index's `<lastmod>`; default `() => new Date()`. */
  readonly now?: () => Date;
}

export interface UpdateSitemapResult {
  /** `updated`: the entry was there and changed; `added`: it was not; `unchanged`: nothing to do. */
  readonly action: "updated" | "added" | "unchanged";
  /** The sitemap file that holds the entry now. */
  readonly file: string;
  /** Files made because a sitemap was full (a new sitemap; `path` turned into an index). */
  readonly created: readonly string[];
}

const LOCKS = new Map<string, Promise<unknown>>();

/**
 * Adds an entry to the sitemap at `path`, or changes the entry with the same `loc`: fields given
 * are set, fields given as null are removed, fields left out are kept. `path` may be a urlset or
 * an index (whose sitemaps, files beside it, are searched); it is made if missing. Only the
 * entry's element is rewritten; the rest of the file is copied as it was. A full sitemap is not
 * overfilled: the entry goes to a new sitemap, and a urlset at `path` becomes an index of the
 * old content and the new file, so that robots.txt can keep naming `path`.
 *
 * XML sitemaps only (urlset, index): a text sitemap has no fields to change, and a feed belongs
 * to its own software. An index's sitemaps are looked for beside it, by file name.
 *
 * Updates of the same file are made one after another, within one process (a queue) and
 * between processes (a lock file beside it, see store/file-lock.ts).
 */
export async function updateSitemap(
  path: string,
  update: SitemapUrlInput,
  options: UpdateSitemapOptions = {},
): Promise<UpdateSitemapResult> {
  const key = resolvePath(path);
  const before = LOCKS.get(key) ?? Promise.resolve();
  const run = before.then(async () => {
    await mkdir(dirname(key), { recursive: true }); // where the lock file goes
    return withFileLock(key, () => updateNow(key, update, options));
  });
  const settled = run.catch(() => undefined);
  LOCKS.set(key, settled);
  try {
    return await run;
  } finally {
    if (LOCKS.get(key) === settled) LOCKS.delete(key);
  }
}

interface Change {
  readonly record: SitemapUrlRecord;
  readonly spec: PatchSpec;
}

function changeOf(update: SitemapUrlInput): Change {
  const checked = checkUrlInput(update);
  if (!checked.ok) throw new SitemapInputError(checked.errors, 0);
  const r = checked.value;
  const set: Partial<Record<PatchField, string | null>> = {};
  const has = (field: keyof SitemapUrlInput) => update[field] !== undefined;
  if (has("lastmod")) set.lastmod = r.lastmod;
  if (has("changefreq")) set.changefreq = r.changefreq;
  if (has("priority")) set.priority = r.priority === null ? null : formatPriority(r.priority);
  if (has("type")) set.type = r.type;
  if (has("srcloc")) set.srcloc = r.srcloc;
  return { record: r, spec: { loc: r.loc, set, needsRegp: r.type !== null || r.srcloc !== null } };
}

async function updateNow(
  path: string,
  update: SitemapUrlInput,
  options: UpdateSitemapOptions,
): Promise<UpdateSitemapResult> {
  const limits = limitsOf(options);
  const change = changeOf(update);
  const now = options.now ?? (() => new Date());
  const existing = await fileInfo(path);
  // The file's scope: --base, else the host its entries are on (an index: its sitemaps' folder).
  const scopeBase =
    options.baseUrl !== undefined
      ? baseUrlOf(options.baseUrl, null)
      : existing === null
        ? null
        : await existingBase(path);
  const refusal =
    scopeBase === null
      ? null
      : scopeRefusal(change.record.loc, scopeBase, options.anyPathOnHost ?? false);
  if (refusal !== null)
    throw new SitemapWriteError(refusal.code, `${refusal.message}; ${path} not updated`);
  if (existing === null) {
    const gzip = options.gzip ?? path.endsWith(".gz");
    await mkdir(dirname(path), { recursive: true });
    const out = OutFile.create(dirname(path), gzip);
    try {
      await out.write(urlsetOpen());
      await out.write(urlElement(change.record));
      await out.write(URLSET_CLOSE);
      await out.publish(path);
    } catch (error) {
      await out.discard();
      throw error;
    }
    return { action: "added", file: path, created: [] };
  }
  const format = await sniffFormat(path);
  if (format === "sitemapindex") return updateInIndex(path, change, limits, options, now);
  const attempt = await patchFile(path, change, limits, existing.mode, existing.gzip, true);
  if (attempt.kind === "done") return { action: attempt.action, file: path, created: [] };
  // Full: the old content moves to a new sitemap, the entry to another; `path` becomes their index.
  const dir = dirname(path);
  const { stem, ext } = partName(path);
  const gzip = options.gzip ?? existing.gzip;
  const base = baseUrlOf(options.baseUrl, change.record.loc);
  const names = await freeNames(dir, stem, [ext, gzip ? ".xml.gz" : ".xml"]);
  const oldName = names[0] as string;
  const newName = names[1] as string;
  const oldPath = join(dir, oldName);
  const newPath = join(dir, newName);
  const tmpCopy = join(dir, `.heed-sitemap-${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  await copyFile(path, tmpCopy);
  await rename(tmpCopy, oldPath);
  await writeSingle(newPath, change.record, gzip);
  const lastmod = stamp(now);
  const index = OutFile.create(dir, existing.gzip);
  try {
    await index.write(sitemapIndexOpen());
    await index.write(sitemapElement({ loc: new URL(oldName, base).href, lastmod }));
    await index.write(sitemapElement({ loc: new URL(newName, base).href, lastmod }));
    await index.write(SITEMAPINDEX_CLOSE);
    await index.publish(path, existing.mode);
  } catch (error) {
    await index.discard();
    throw error;
  }
  return { action: "added", file: newPath, created: [oldPath, newPath] };
}

async function updateInIndex(
  indexPath: string,
  change: Change,
  limits: Limits,
  options: UpdateSitemapOptions,
  now: () => Date,
): Promise<UpdateSitemapResult> {
  const dir = dirname(indexPath);
  const children: { loc: string; path: string }[] = [];
  for await (const event of readSitemap(indexPath)) {
    if (event.kind === "sitemap") {
      const name = basename(new URL(event.sitemap.loc).pathname);
      const local = join(dir, safeDecode(name));
      children.push({ loc: event.sitemap.loc, path: local });
    } else if (event.kind === "diagnostic" && event.diagnostic.fatal) {
      throw new SitemapWriteError("unreadable", `${indexPath}: ${event.diagnostic.message}`);
    }
  }
  for (const child of children) {
    if ((await fileInfo(child.path)) === null)
      throw new SitemapWriteError(
        "missing-sitemap",
        `${indexPath} lists ${child.loc}, and there is no ${child.path} to update`,
      );
  }
  const indexInfo = await fileInfo(indexPath);
  const touch = async (loc: string, insert: boolean): Promise<void> => {
    const lastmod = stamp(now);
    const spec: PatchSpec = { loc, set: { lastmod }, needsRegp: false };
    const result = await patchFile(
      indexPath,
      { record: change.record, spec },
      { maxUrls: MAX_SITEMAP_URLS, maxBytes: MAX_SITEMAP_BYTES },
      indexInfo?.mode,
      indexInfo?.gzip ?? false,
      insert,
      sitemapElement({ loc, lastmod }),
    );
    if (result.kind === "full")
      throw new SitemapWriteError(
        "index-full",
        `${indexPath} already lists ${MAX_SITEMAP_URLS} sitemaps`,
      );
  };
  // Where is the entry now?
  for (const child of children) {
    if (!(await holds(child.path, change.record.loc))) continue;
    const info = await fileInfo(child.path);
    const result = await patchFile(
      child.path,
      change,
      limits,
      info?.mode,
      info?.gzip ?? false,
      false,
    );
    const action = result.kind === "done" ? result.action : "unchanged";
    if (action !== "unchanged") await touch(child.loc, false);
    return { action, file: child.path, created: [] };
  }
  // Not there: into the last sitemap while it has room, else a new one.
  const last = children[children.length - 1];
  if (last !== undefined) {
    const info = await fileInfo(last.path);
    const result = await patchFile(
      last.path,
      change,
      limits,
      info?.mode,
      info?.gzip ?? false,
      true,
    );
    if (result.kind === "done") {
      await touch(last.loc, false);
      return { action: result.action, file: last.path, created: [] };
    }
  }
  const gzip = options.gzip ?? (last !== undefined ? last.path.endsWith(".gz") : false);
  const { stem } = partName(indexPath);
  const newName = (await freeNames(dir, stem, [gzip ? ".xml.gz" : ".xml"]))[0] as string;
  const newPath = join(dir, newName);
  const base =
    last !== undefined ? new URL("./", last.loc) : baseUrlOf(options.baseUrl, change.record.loc);
  await writeSingle(newPath, change.record, gzip);
  await touch(new URL(newName, base).href, true);
  return { action: "added", file: newPath, created: [newPath] };
}

type PatchOutcome =
  | { readonly kind: "done"; readonly action: "updated" | "added" | "unchanged" }
  | { readonly kind: "full" };

/**
 * Streams `path` through the patcher into a temporary file and renames it over `path`. When the
 * entry is not there and `insert` is set, it is added before the root's end tag if the file has
 * room; otherwise nothing is written and the answer is `full`.
 */
async function patchFile(
  path: string,
  change: Change,
  limits: Limits,
  mode: number | undefined,
  gzip: boolean,
  insert: boolean,
  element?: string,
): Promise<PatchOutcome> {
  const patcher = new SitemapPatcher(change.spec);
  const out = OutFile.create(dirname(path), gzip);
  try {
    const decoder = new TextDecoder("utf-8");
    for await (const chunk of bytesOf(path, gzip)) {
      const text = patcher.write(decoder.decode(chunk, { stream: true }));
      if (text !== "") await out.write(text);
    }
    const rest = patcher.write(decoder.decode());
    if (rest !== "") await out.write(rest);
    const { text, result } = patcher.finish();
    if (text !== "") await out.write(text);
    let action: "updated" | "added" | "unchanged" = result.changed ? "updated" : "unchanged";
    if (!result.found) {
      if (!insert) {
        await out.discard();
        return { kind: "done", action: "unchanged" };
      }
      const adding =
        element ??
        urlElement(change.record, result.regpPrefix ?? undefined).replace(/^ {2}/gm, result.indent);
      const fits =
        result.entries < limits.maxUrls &&
        out.bytes + Buffer.byteLength(adding) + Buffer.byteLength(result.tail) <= limits.maxBytes;
      if (!fits) {
        await out.discard();
        return { kind: "full" };
      }
      await out.write(adding);
      action = "added";
    } else if (!result.changed) {
      await out.discard();
      return { kind: "done", action: "unchanged" };
    }
    await out.write(result.tail);
    await out.publish(path, mode);
    return { kind: "done", action };
  } catch (error) {
    await out.discard();
    if (error instanceof SitemapPatchError)
      throw new SitemapWriteError(error.code, `${path}: ${error.message}`, { cause: error });
    throw error;
  }
}

/** True when the sitemap at `path` has an entry with this `loc`. */
async function holds(path: string, loc: string): Promise<boolean> {
  for await (const event of readSitemap(path)) {
    if (event.kind === "url" && event.url.loc === loc) return true;
  }
  return false;
}

async function* bytesOf(path: string, gzip: boolean): AsyncGenerator<Uint8Array> {
  const raw = createReadStream(path, { highWaterMark: WRITE_PIECE });
  yield* gzip ? gunzipChunks(raw) : raw;
}

async function writeSingle(path: string, record: SitemapUrlRecord, gzip: boolean): Promise<void> {
  const out = OutFile.create(dirname(path), gzip);
  try {
    await out.write(urlsetOpen());
    await out.write(urlElement(record));
    await out.write(URLSET_CLOSE);
    await out.publish(path);
  } catch (error) {
    await out.discard();
    throw error;
  }
}

async function fileInfo(path: string): Promise<{ mode: number; gzip: boolean } | null> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return null;
    throw new SitemapWriteError("unreadable", `cannot read ${path}`, { cause: error });
  }
  if (!info.isFile()) throw new SitemapWriteError("not-a-file", `${path} is not a file`);
  const head = await firstBytes(path, 2);
  return { mode: info.mode & 0o7777, gzip: isGzip(head) };
}

async function firstBytes(path: string, n: number): Promise<Uint8Array> {
  const stream = createReadStream(path, { start: 0, end: Math.max(0, n - 1) });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Where an existing sitemap's entries say it is served: its first loc's host, or null. */
async function existingBase(path: string): Promise<URL | null> {
  for await (const event of readSitemap(path, { maxUrls: 1 })) {
    if (event.kind === "url") return new URL("/", event.url.loc);
    if (event.kind === "sitemap") return new URL("./", event.sitemap.loc);
  }
  return null;
}

/** The format of an existing sitemap file, from its root element (or text). */
async function sniffFormat(path: string): Promise<string | null> {
  for await (const event of readSitemap(path, { maxUrls: 1 })) {
    if (event.kind === "format") return event.format;
    if (event.kind === "diagnostic" && event.diagnostic.fatal)
      throw new SitemapWriteError(
        event.diagnostic.code,
        `${path}: ${event.diagnostic.message}; not updated`,
      );
  }
  return null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An index's `<lastmod>`: when the sitemap was written, to the second, in UTC. */
function stamp(now: () => Date): string {
  return formatW3cDatetime(Math.floor(now().getTime() / 1000) * 1000);
}

/** `sitemap.xml.gz` → `sitemap` and `.xml.gz`. */
function partName(path: string): { stem: string; ext: string } {
  const name = basename(path);
  const m = /^(.*?)(\.xml\.gz|\.xml|\.txt\.gz|\.txt|\.gz)?$/i.exec(name);
  return { stem: m?.[1] || "sitemap", ext: m?.[2] ?? ".xml" };
}

/** The first unused `STEM-N` names in `dir`, one for each extension given. */
async function freeNames(dir: string, stem: string, exts: readonly string[]): Promise<string[]> {
  const names: string[] = [];
  let n = 1;
  for (const ext of exts) {
    for (; ; n++) {
      const name = `${stem}-${n}${ext}`;
      if ((await fileInfo(join(dir, name)).catch(() => "taken")) === null) {
        names.push(name);
        n++;
        break;
      }
    }
  }
  return names;
}
