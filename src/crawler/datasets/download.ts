/**
 * Downloading a dataset's files politely: each URL asked of robots.txt first (a refused URL is
 * never fetched, whatever data.txt says), each request paced by the site's rules, a file
 * streamed to a part in heed's own folder and put in place when whole. A partial file is
 * resumed with an HTTP Range request (RFC 9110 §14.2), guarded by If-Range with the validator
 * the part was started with, so that a file changed on the server is fetched again from the
 * start rather than spliced. Size and SHA-256 of every finished file are recorded at once.
 *
 * Nothing is lost and nothing outside the folder is written (download-folder.ts): one file name
 * per URL (download-name.ts); a file is `present` only when the records say it came from this
 * URL and its bytes still hash to what was recorded; a file heed did not write, or one changed
 * since, is never overwritten; no link is followed; every file stops at `maxBytes` and every
 * write leaves `minFreeBytes` free on the disk.
 */
import { type GuardedResponse, guardedRequest } from "../../net/guarded-request.js";
import type { HttpClient } from "../../net/http-client.js";
import { DownloadFolder, type DownloadRecord } from "./download-folder.js";
import { localPath } from "./download-name.js";
import type { SiteAccess } from "./site-access.js";
import type { SitePacer } from "./site-pacer.js";

export {
  CHECKSUM_FILE,
  DownloadFolder,
  type DownloadRecord,
  HEED_FOLDER,
  RECORD_FILE,
} from "./download-folder.js";
export { localPath } from "./download-name.js";

/**
 * Bytes one file may have by default (`--max-bytes`): larger files stop there and stay partial,
 * resumable with a higher cap. An endless body from a hostile site ends here.
 */
export const MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024;
/** Space left free on the folder's disk by default; a download stops before it goes below. */
export const MIN_FREE_BYTES = 256 * 1024 * 1024;
/** How often (bytes written) the free space is asked again while a file streams in. */
export const FREE_SPACE_CHECK_BYTES = 8 * 1024 * 1024;
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
  /** Where files go: `<dir>/<host>/<path of the URL>` (download-name.ts). */
  readonly dir: string;
  /** The folder opened once for many downloads (its records are read once); else opened from `dir`. */
  readonly folder?: DownloadFolder;
  readonly client: HttpClient;
  readonly access: SiteAccess;
  readonly pacer: SitePacer;
  readonly onProgress?: (progress: DownloadProgress) => void;
  /** Default {@link MAX_DOWNLOAD_BYTES}. */
  readonly maxBytes?: number;
  /** Default {@link MIN_FREE_BYTES}. */
  readonly minFreeBytes?: number;
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

interface Job {
  readonly url: string;
  readonly file: string;
  readonly folder: DownloadFolder;
  readonly part: string;
  readonly metaPath: string;
  readonly maxBytes: number;
  readonly minFreeBytes: number;
  readonly options: DownloadOptions;
}

export async function downloadFile(url: string, options: DownloadOptions): Promise<DownloadResult> {
  const permission = options.access.check(url);
  if (!permission.allowed)
    return { ok: false, url, file: null, message: `not downloaded: ${permission.why}` };
  const file = localPath(url);
  try {
    const folder = options.folder ?? (await DownloadFolder.open(options.dir));
    // One run at a time per URL, when several share the folder (download-folder.ts).
    return await folder.whileDownloading(url, async () => {
      await folder.prepare(file);
      const there = await folder.inspect(file);
      if (there !== "none") return await whatIsThere(url, file, folder, there);
      const { part, meta: metaPath } = folder.partOf(url);
      return await fetchInto({
        url,
        file,
        folder,
        part,
        metaPath,
        maxBytes: options.maxBytes ?? MAX_DOWNLOAD_BYTES,
        minFreeBytes: options.minFreeBytes ?? MIN_FREE_BYTES,
        options,
      });
    });
  } catch (error) {
    return { ok: false, url, file, message: describe(error) };
  }
}

/** A file already at the name: `present` only if it is this URL's, as recorded, unchanged. */
async function whatIsThere(
  url: string,
  file: string,
  folder: DownloadFolder,
  there: "other" | { readonly size: number },
): Promise<DownloadResult> {
  let record = folder.recordOf(file);
  if (record?.url !== url) {
    // Another run sharing the folder may have downloaded it since this run read the records.
    await folder.reload();
    record = folder.recordOf(file);
  }
  if (there === "other" || record === undefined || record.url !== url) {
    return {
      ok: false,
      url,
      file,
      message: `${file} exists and is not a download of this URL heed recorded; not overwritten`,
    };
  }
  const now = await folder.hashOf(folder.pathOf(file));
  if (now.sha256 !== record.sha256 || now.bytes !== record.bytes) {
    return {
      ok: false,
      url,
      file,
      message: `${file} changed since it was downloaded (${record.at}); not overwritten`,
    };
  }
  return { ok: true, url, file, bytes: now.bytes, sha256: now.sha256, how: "present" };
}

async function fetchInto(job: Job): Promise<DownloadResult> {
  const { url, file, folder, part, metaPath, options } = job;
  let meta = await readMeta(folder, metaPath);
  let offset = meta === null ? 0 : await folder.sizeOf(part);
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
    const skip = async (): Promise<void> => {
      await response.body.dump().catch(() => undefined);
      options.pacer.after();
    };
    if (status === 416 && offset > 0) {
      await skip();
      const total = /^bytes \*\/(\d+)$/.exec(header("content-range") ?? "")?.[1];
      if (total !== undefined && Number(total) === offset) return finish(job, "resumed");
      offset = 0;
      meta = null;
      continue;
    }
    if (status !== 200 && status !== 206) {
      await skip();
      return { ok: false, url, file, message: `the server answered ${status}` };
    }
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header("content-range") ?? "");
    const appending = status === 206 && offset > 0 && range !== null && Number(range[1]) === offset;
    if (status === 206 && !appending) {
      // A range we did not ask for: start again without one.
      await skip();
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
    const refusal = await refuseUpFront(job, start, total);
    if (refusal !== null) {
      await skip();
      return { ok: false, url, file, message: refusal };
    }
    const validator = header("etag") ?? header("last-modified");
    await writeMeta(folder, metaPath, { url, validator });
    const written = await stream(job, response, appending, start, total);
    options.pacer.after();
    if (!written.ok) return { ok: false, url, file, message: written.message };
    if (total !== null && written.received !== total) {
      return {
        ok: false,
        url,
        file,
        message: `got ${written.received} of ${total} bytes; run again to resume`,
      };
    }
    return finish(job, appending ? "resumed" : "downloaded");
  }
  return { ok: false, url, file, message: "the server refused every range; not downloaded" };
}

/** A file announced bigger than the cap, or than the disk has room for, is not started. */
async function refuseUpFront(
  job: Job,
  start: number,
  total: number | null,
): Promise<string | null> {
  if (total === null) return null;
  if (total > job.maxBytes)
    return `${total} bytes, more than ${job.maxBytes} (--max-bytes); not downloaded`;
  const free = await job.folder.freeBytes();
  if (total - start > free - job.minFreeBytes)
    return `${total - start} bytes would leave less than ${job.minFreeBytes} bytes free on the disk; not downloaded`;
  return null;
}

type Streamed =
  | { readonly ok: true; readonly received: number }
  | { readonly ok: false; readonly message: string };

async function stream(
  job: Job,
  response: GuardedResponse,
  appending: boolean,
  start: number,
  total: number | null,
): Promise<Streamed> {
  const { url, file, folder, part, maxBytes, minFreeBytes, options } = job;
  let received = start;
  let sinceCheck = 0;
  // Written chunk by chunk and awaited, so that whatever arrived before a cut is on disk to
  // resume from (a write stream destroyed by the error would drop its queue).
  const handle = appending ? await folder.openAppend(part) : await folder.createFresh(part);
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (received + chunk.byteLength > maxBytes) {
        response.body.destroy();
        return {
          ok: false,
          message: `stopped at ${maxBytes} bytes, the most one file may have (--max-bytes); the part is kept`,
        };
      }
      sinceCheck += chunk.byteLength;
      if (sinceCheck >= FREE_SPACE_CHECK_BYTES || received === start) {
        sinceCheck = 0;
        if ((await folder.freeBytes()) - chunk.byteLength < minFreeBytes) {
          response.body.destroy();
          return {
            ok: false,
            message: `stopped at ${received} bytes: less than ${minFreeBytes} bytes would be left free on the disk; the part is kept`,
          };
        }
      }
      await handle.write(chunk);
      received += chunk.byteLength;
      options.onProgress?.({ url, file, received, total });
    }
  } catch (error) {
    return {
      ok: false,
      message: `interrupted after ${received} bytes (${describe(error)}); run again to resume`,
    };
  } finally {
    await handle.close();
  }
  return { ok: true, received };
}

/**
 * Hashes the whole part, records it, then puts it in place: a crash in between leaves a record
 * and a part, which the next run completes, never a file without its record.
 */
async function finish(job: Job, how: "downloaded" | "resumed"): Promise<DownloadResult> {
  const { url, file, folder, part, metaPath } = job;
  const { sha256, bytes } = await folder.hashOf(part);
  const record: DownloadRecord = { url, file, bytes, sha256, at: new Date().toISOString() };
  await folder.record(record);
  try {
    await folder.place(part, file);
  } catch (error) {
    await folder.forget(file);
    throw error;
  }
  await folder.removeOwn(metaPath);
  return { ok: true, url, file, bytes, sha256, how };
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

async function readMeta(folder: DownloadFolder, path: string): Promise<PartMeta | null> {
  try {
    const value = JSON.parse(await folder.readOwn(path)) as unknown;
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

async function writeMeta(folder: DownloadFolder, path: string, meta: PartMeta): Promise<void> {
  const handle = await folder.createFresh(path);
  try {
    await handle.writeFile(JSON.stringify(meta));
  } finally {
    await handle.close();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
