/**
 * Downloading a dataset's files politely: each URL asked of robots.txt first (a refused URL is
 * never fetched, whatever data.txt says), each request paced by the site's rules, a file
 * streamed to `<name>.part` and renamed when whole. A partial file is resumed with an HTTP
 * Range request (RFC 9110 §14.2), guarded by If-Range with the validator the part was started
 * with, so that a file changed on the server is fetched again from the start rather than
 * spliced. Size and SHA-256 of every finished file are returned, and kept by the caller.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { type GuardedResponse, guardedRequest } from "../../net/guarded-request.js";
import type { HttpClient } from "../../net/http-client.js";
import type { SiteAccess } from "./site-access.js";
import type { SitePacer } from "./site-pacer.js";

/** Bytes one file may have; larger files stop there and stay partial (resumable with a higher cap). */
export const MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024 * 1024;
/** Redirects followed for one file, as for robots.txt (DESIGN §3). */
export const MAX_DOWNLOAD_REDIRECTS = 5;
/** Longest silence while waiting for headers or between two chunks of the body. */
export const DOWNLOAD_TIMEOUT_MS = 60_000;

export interface DownloadProgress {
  readonly url: string;
  readonly file: string;
  readonly received: number;
  /** Expected total, when the server says. */
  readonly total: number | null;
}

export interface DownloadOptions {
  /** Where files go: `<dir>/<path of the URL>`. */
  readonly dir: string;
  readonly client: HttpClient;
  readonly access: SiteAccess;
  readonly pacer: SitePacer;
  readonly onProgress?: (progress: DownloadProgress) => void;
  /** Default {@link MAX_DOWNLOAD_BYTES}. */
  readonly maxBytes?: number;
}

export type DownloadResult =
  | {
      readonly ok: true;
      readonly url: string;
      /** Relative to the download folder, `/`-separated. */
      readonly file: string;
      readonly bytes: number;
      readonly sha256: string;
      /** `downloaded`; `resumed` (a partial file was completed); `present` (already whole, not fetched). */
      readonly how: "downloaded" | "resumed" | "present";
    }
  | {
      readonly ok: false;
      readonly url: string;
      readonly file: string | null;
      readonly message: string;
    };

interface PartMeta {
  readonly url: string;
  readonly validator: string | null;
}

export async function downloadFile(url: string, options: DownloadOptions): Promise<DownloadResult> {
  const permission = options.access.check(url);
  if (!permission.allowed)
    return { ok: false, url, file: null, message: `not downloaded: ${permission.why}` };
  const relativePath = localPath(url);
  const target = join(options.dir, ...relativePath.split("/"));
  if (!isInside(options.dir, target)) {
    return {
      ok: false,
      url,
      file: null,
      message: "the URL's path gives no file name inside the folder",
    };
  }
  try {
    const done = await stat(target).catch(() => null);
    if (done?.isFile()) {
      return {
        ok: true,
        url,
        file: relativePath,
        bytes: done.size,
        sha256: await sha256Of(target),
        how: "present",
      };
    }
    await mkdir(dirname(target), { recursive: true });
    return await fetchInto(url, target, relativePath, options);
  } catch (error) {
    return { ok: false, url, file: relativePath, message: describe(error) };
  }
}

async function fetchInto(
  url: string,
  target: string,
  file: string,
  options: DownloadOptions,
): Promise<DownloadResult> {
  const part = `${target}.part`;
  const metaPath = `${target}.part.json`;
  const maxBytes = options.maxBytes ?? MAX_DOWNLOAD_BYTES;
  let meta = await readMeta(metaPath);
  let offset = (await stat(part).catch(() => null))?.size ?? 0;
  if (meta === null || meta.url !== url) {
    offset = 0;
    meta = null;
  }
  // Two rounds at most: a 416 for a part that does not fit the file starts it again once.
  for (let round = 0; round < 2; round++) {
    const answer = await get(url, offset, meta?.validator ?? null, options);
    if (!answer.ok) return { ok: false, url, file, message: answer.message };
    const { response } = answer;
    const status = response.status;
    const header = (name: string): string | null => response.headers[name] ?? null;
    if (status === 416 && offset > 0) {
      await response.body.dump().catch(() => undefined);
      options.pacer.after();
      const total = /^bytes \*\/(\d+)$/.exec(header("content-range") ?? "")?.[1];
      if (total !== undefined && Number(total) === offset)
        return finish(url, part, metaPath, target, file, "resumed");
      await rm(part, { force: true });
      offset = 0;
      meta = null;
      continue;
    }
    if (status !== 200 && status !== 206) {
      await response.body.dump().catch(() => undefined);
      options.pacer.after();
      return { ok: false, url, file, message: `the server answered ${status}` };
    }
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header("content-range") ?? "");
    const appending = status === 206 && offset > 0 && range !== null && Number(range[1]) === offset;
    if (status === 206 && !appending) {
      // A range we did not ask for: start again without one.
      await response.body.dump().catch(() => undefined);
      options.pacer.after();
      await rm(part, { force: true });
      offset = 0;
      meta = null;
      continue;
    }
    const start = appending ? offset : 0;
    const length = header("content-length");
    const total =
      range !== null && range[2] !== "*"
        ? Number(range[2])
        : length !== null && /^\d+$/.test(length)
          ? start + Number(length)
          : null;
    const validator = header("etag") ?? header("last-modified");
    await writeFile(metaPath, JSON.stringify({ url, validator } satisfies PartMeta));
    let received = start;
    // Written chunk by chunk and awaited, so that whatever arrived before a cut is on disk to
    // resume from (a write stream destroyed by the error would drop its queue).
    const handle = await open(part, appending ? "a" : "w");
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        if (received + chunk.byteLength > maxBytes) {
          response.body.destroy();
          options.pacer.after();
          return {
            ok: false,
            url,
            file,
            message: `stopped at ${maxBytes} bytes, the most one file may have; the part is kept`,
          };
        }
        await handle.write(chunk);
        received += chunk.byteLength;
        options.onProgress?.({ url, file, received, total });
      }
    } catch (error) {
      options.pacer.after();
      return {
        ok: false,
        url,
        file,
        message: `interrupted after ${received} bytes (${describe(error)}); run again to resume`,
      };
    } finally {
      await handle.close();
    }
    options.pacer.after();
    if (total !== null && received !== total) {
      return {
        ok: false,
        url,
        file,
        message: `got ${received} of ${total} bytes; run again to resume`,
      };
    }
    return finish(url, part, metaPath, target, file, appending ? "resumed" : "downloaded");
  }
  return { ok: false, url, file, message: "the server refused every range; not downloaded" };
}

async function finish(
  url: string,
  part: string,
  metaPath: string,
  target: string,
  file: string,
  how: "downloaded" | "resumed",
): Promise<DownloadResult> {
  await rename(part, target);
  await rm(metaPath, { force: true });
  const size = (await stat(target)).size;
  return { ok: true, url, file, bytes: size, sha256: await sha256Of(target), how };
}

type Got =
  | { readonly ok: true; readonly response: GuardedResponse }
  | { readonly ok: false; readonly message: string };

/** One GET (redirects followed, each asked of robots.txt and paced); the caller calls `pacer.after()`. */
async function get(
  url: string,
  offset: number,
  validator: string | null,
  options: DownloadOptions,
): Promise<Got> {
  let current = url;
  for (let hop = 0; hop <= MAX_DOWNLOAD_REDIRECTS; hop++) {
    if (hop > 0) {
      const permission = options.access.check(current);
      if (!permission.allowed)
        return { ok: false, message: `redirected to ${current}, ${permission.why}` };
    }
    await options.pacer.before();
    let response: GuardedResponse;
    try {
      // One hop at a time: each hop is asked of robots.txt and paced; the client guards each.
      response = await guardedRequest(current, {
        client: options.client,
        headers: {
          // Byte offsets of a Range are offsets in the encoded body: ask for none.
          "accept-encoding": "identity",
          ...(offset > 0 ? { range: `bytes=${offset}-` } : {}),
          ...(offset > 0 && validator !== null ? { "if-range": validator } : {}),
        },
        headersTimeoutMs: DOWNLOAD_TIMEOUT_MS,
        bodyTimeoutMs: DOWNLOAD_TIMEOUT_MS,
      });
    } catch (error) {
      options.pacer.after();
      return { ok: false, message: describe(error) };
    }
    if (response.location !== null) {
      await response.body.dump().catch(() => undefined);
      options.pacer.after();
      current = response.location;
      continue;
    }
    return { ok: true, response };
  }
  return { ok: false, message: `more than ${MAX_DOWNLOAD_REDIRECTS} redirects` };
}

/** `https://s.example/data/a%20b.csv` → `data/a b.csv`; no segment may climb out or be empty. */
export function localPath(url: string): string {
  const segments = new URL(url).pathname.split("/").slice(1);
  const safe = segments.map((segment, i) => {
    let name = segment;
    try {
      name = decodeURIComponent(segment);
    } catch {
      // kept as written
    }
    name = name.replace(/[\0-\x1f\x7f/\\:*?"<>|]/g, "_");
    if (name === "" && i === segments.length - 1) return "index";
    if (name === "" || name === "." || name === "..") return "_";
    return name;
  });
  return safe.join("/");
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== "..";
}

async function readMeta(path: string): Promise<PartMeta | null> {
  try {
    const value = JSON.parse(await readFile(path, "utf8")) as unknown;
    if (
      typeof value === "object" &&
      value !== null &&
      "url" in value &&
      typeof value.url === "string"
    ) {
      const validator =
        "validator" in value && typeof value.validator === "string" ? value.validator : null;
      return { url: value.url, validator };
    }
  } catch {
    // no meta, or a broken one: start afresh
  }
  return null;
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The name of the checksum list kept in a download folder, in `sha256sum -c` format. */
export const CHECKSUM_FILE = "SHA256SUMS";
/** The list of what was downloaded from where, with sizes and checksums, as JSON. */
export const RECORD_FILE = "heed-downloads.json";

export interface DownloadRecord {
  readonly url: string;
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  /** When it was finished (ISO 8601). */
  readonly at: string;
}

/**
 * Adds finished downloads to the folder's records (replacing older lines for the same file):
 * `SHA256SUMS`, which `sha256sum -c SHA256SUMS` checks, and `heed-downloads.json`. Each file is
 * written to a temporary name and renamed, so that a crash leaves the old record whole.
 */
export async function recordDownloads(
  dir: string,
  finished: readonly DownloadRecord[],
): Promise<void> {
  if (finished.length === 0) return;
  const path = join(dir, RECORD_FILE);
  let records: DownloadRecord[] = [];
  try {
    const value = JSON.parse(await readFile(path, "utf8")) as unknown;
    if (Array.isArray(value)) records = value.filter(isRecord);
  } catch {
    // none yet, or unreadable: started afresh
  }
  const byFile = new Map(records.map((r) => [r.file, r]));
  for (const r of finished) byFile.set(r.file, r);
  const all = [...byFile.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  await writeAtomic(path, `${JSON.stringify(all, null, 2)}\n`);
  await writeAtomic(join(dir, CHECKSUM_FILE), all.map((r) => `${r.sha256}  ${r.file}\n`).join(""));
}

function isRecord(value: unknown): value is DownloadRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.url === "string" &&
    typeof r.file === "string" &&
    typeof r.bytes === "number" &&
    typeof r.sha256 === "string" &&
    typeof r.at === "string"
  );
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
