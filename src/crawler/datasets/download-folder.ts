/**
 * The download folder of `heed datasets --download`, written so that nothing outside it is ever
 * touched and nothing in it is lost:
 *
 * - no symbolic link inside the folder is followed: every folder on the way to a file is
 *   checked with `lstat` (and made, one level at a time, when missing), files are opened with
 *   `O_NOFOLLOW`, new files with `O_EXCL`, and the real path of a file's folder is compared with
 *   the one expected right after opening and before a file is put in place;
 * - a finished file is put in place with `link`, which never replaces what is there: a file heed
 *   did not write is never overwritten;
 * - heed's own records (`SHA256SUMS`, `heed-downloads.json`) and the partial files live in
 *   `.heed/`, a name no URL maps to (download-name.ts), so no dataset can overwrite them and no
 *   site can write into them;
 * - several runs may share a folder at once: the records are changed under a lock file, read
 *   again from disk and merged with the one change, then written to a name of the process's own
 *   and renamed into place, so that no run's record is lost to another's; and one URL is
 *   downloaded by one run at a time (see {@link DownloadFolder.whileDownloading}).
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import {
  type FileHandle,
  link,
  lstat,
  mkdir,
  open,
  realpath,
  rename,
  statfs,
  unlink,
} from "node:fs/promises";
import { join, sep } from "node:path";
import { withFileLock } from "../../store/file-lock.js";

/** heed's own folder inside a download folder. */
export const HEED_FOLDER = ".heed";
/** The checksum list, in `sha256sum -c` format, names relative to the download folder. */
export const CHECKSUM_FILE = "SHA256SUMS";
/** What was downloaded from where, with sizes and checksums, as JSON. */
export const RECORD_FILE = "heed-downloads.json";
/** Records kept; a folder with more is refused rather than read without bound. */
export const MAX_RECORDS = 1_000_000;
/**
 * How long a run waits for another run sharing the folder to finish a URL both want: a download
 * stops after DOWNLOAD_TIMEOUT_MS of silence or at its byte cap, so this is only a last bound. A
 * lock whose process has died is taken over at once.
 */
export const URL_LOCK_WAIT_MS = 24 * 60 * 60 * 1000;

export interface DownloadRecord {
  readonly url: string;
  /** Relative to the download folder, `/`-separated. */
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  /** When it was finished (ISO 8601). */
  readonly at: string;
}

export class UnsafePathError extends Error {
  readonly code = "HEED_UNSAFE_PATH";
}

const WRITE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW;
const READ = constants.O_RDONLY | constants.O_NOFOLLOW;

/** A download folder and heed's records in it; one per run (it owns the records in memory). */
export class DownloadFolder {
  private constructor(
    /** The folder's real path: the user named it, so a link in its own path is theirs. */
    readonly root: string,
    private readonly records: Map<string, DownloadRecord>,
  ) {}

  static async open(dir: string): Promise<DownloadFolder> {
    await mkdir(dir, { recursive: true });
    const root = await realpath(dir);
    await refuseOldLayout(root, dir);
    const folder = new DownloadFolder(root, new Map());
    await folder.makeFolders([HEED_FOLDER, "parts"]);
    for (const r of await folder.readRecords()) folder.records.set(r.file, r);
    return folder;
  }

  recordOf(file: string): DownloadRecord | undefined {
    return this.records.get(file);
  }

  /** The records as they are on disk now: another run sharing the folder may have added some. */
  async reload(): Promise<void> {
    this.records.clear();
    for (const r of await this.readRecords()) this.records.set(r.file, r);
  }

  /**
   * Runs `fn` while no other run sharing the folder works on `url` (a lock file beside its part):
   * two runs wanting one URL take turns, and the second then finds it `present`.
   */
  async whileDownloading<T>(url: string, fn: () => Promise<T>): Promise<T> {
    return withFileLock(this.partOf(url).part, fn, {
      timeoutMs: URL_LOCK_WAIT_MS,
      staleMs: URL_LOCK_WAIT_MS,
    });
  }

  /** Absolute path of a `/`-separated name inside the folder (not checked: see {@link prepare}). */
  pathOf(file: string): string {
    return join(this.root, ...file.split("/"));
  }

  /** Path of the partial file of a URL and of its notes, in heed's folder. */
  partOf(url: string): { readonly part: string; readonly meta: string } {
    const id = createHash("sha256").update(url).digest("hex");
    const base = join(this.root, HEED_FOLDER, "parts", id);
    return { part: `${base}.part`, meta: `${base}.json` };
  }

  /** Makes the folders on the way to `file` (no link followed); throws if one is not a folder. */
  async prepare(file: string): Promise<void> {
    await this.makeFolders(file.split("/").slice(0, -1));
  }

  /** What is at `file` now: nothing, a regular file (with size), or something else. */
  async inspect(file: string): Promise<"none" | "other" | { readonly size: number }> {
    const info = await lstat(this.pathOf(file)).catch((error: unknown) => {
      if (isCode(error, "ENOENT") || isCode(error, "ENOTDIR")) return null;
      throw error;
    });
    if (info === null) return "none";
    return info.isFile() ? { size: info.size } : "other";
  }

  /** A new, empty file at an absolute path inside heed's folder (whatever was there is removed). */
  async createFresh(path: string): Promise<FileHandle> {
    await unlink(path).catch((error: unknown) => {
      if (!isCode(error, "ENOENT")) throw error;
    });
    const handle = await open(path, WRITE_NEW, 0o644);
    return this.checked(handle, path);
  }

  /** An existing file opened for appending; refused unless a plain file with one name. */
  async openAppend(path: string): Promise<FileHandle> {
    const handle = await open(path, APPEND);
    const info = await handle.stat();
    if (!info.isFile() || info.nlink !== 1) {
      await handle.close();
      throw new UnsafePathError(`${path} is not a plain file of heed's; not written`);
    }
    return this.checked(handle, path);
  }

  /** SHA-256 and size of a regular file, read without following a link. */
  async hashOf(path: string): Promise<{ readonly sha256: string; readonly bytes: number }> {
    const handle = await open(path, READ);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new UnsafePathError(`${path} is not a regular file`);
      const hash = createHash("sha256");
      let bytes = 0;
      for await (const chunk of handle.createReadStream({ autoClose: false })) {
        hash.update(chunk as Buffer);
        bytes += (chunk as Buffer).byteLength;
      }
      return { sha256: hash.digest("hex"), bytes };
    } finally {
      await handle.close();
    }
  }

  /**
   * Puts a finished part at `file`, never replacing anything there (`link` fails if the name
   * is taken), then removes the part.
   */
  async place(part: string, file: string): Promise<void> {
    await this.prepare(file);
    const target = this.pathOf(file);
    await this.expectParent(target);
    try {
      await link(part, target);
    } catch (error) {
      if (isCode(error, "EEXIST"))
        throw new UnsafePathError(`${file} appeared while downloading; not overwritten`);
      throw error;
    }
    await unlink(part);
  }

  /** Text of a file of heed's, read without following a link. */
  async readOwn(path: string): Promise<string> {
    const handle = await open(path, READ);
    try {
      return await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  }

  /** Removes a file of heed's (a link is removed, not followed); nothing there is fine. */
  async removeOwn(path: string): Promise<void> {
    await unlink(path).catch((error: unknown) => {
      if (!isCode(error, "ENOENT")) throw error;
    });
  }

  /** Size of a regular file at an absolute path; 0 when there is none or it is not one. */
  async sizeOf(path: string): Promise<number> {
    const info = await lstat(path).catch(() => null);
    return info?.isFile() === true ? info.size : 0;
  }

  /** Bytes free for an unprivileged user on the folder's file system. */
  async freeBytes(): Promise<number> {
    const info = await statfs(this.root);
    return Number(info.bavail) * Number(info.bsize);
  }

  /** Adds (or replaces) a record and writes both record files, each to a temporary name first. */
  async record(entry: DownloadRecord): Promise<void> {
    await this.change((records) => records.set(entry.file, entry));
  }

  async forget(file: string): Promise<void> {
    await this.change((records) => records.delete(file));
  }

  /**
   * One change to the records, under the lock: what is on disk is read again (another run may
   * have written since), changed, and written back, so that concurrent runs lose no record.
   */
  private async change(apply: (records: Map<string, DownloadRecord>) => void): Promise<void> {
    await this.makeFolders([HEED_FOLDER]);
    await withFileLock(join(this.root, HEED_FOLDER, RECORD_FILE), async () => {
      await this.reload();
      apply(this.records);
      await this.writeRecords();
    });
  }

  private async writeRecords(): Promise<void> {
    const all = [...this.records.values()].sort((a, b) =>
      a.file < b.file ? -1 : a.file > b.file ? 1 : 0,
    );
    await this.writeOwn(RECORD_FILE, `${JSON.stringify(all, null, 2)}\n`);
    // Names hold no line break nor backslash (download-name.ts), so no escaping is needed.
    await this.writeOwn(CHECKSUM_FILE, all.map((r) => `${r.sha256}  ${r.file}\n`).join(""));
  }

  private async writeOwn(name: string, text: string): Promise<void> {
    await this.makeFolders([HEED_FOLDER]);
    const path = join(this.root, HEED_FOLDER, name);
    // A name of this process's own: another run's temporary file is never the one replaced.
    const temporary = `${path}.${process.pid}.tmp`;
    const handle = await this.createFresh(temporary);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  }

  private async readRecords(): Promise<DownloadRecord[]> {
    const path = join(this.root, HEED_FOLDER, RECORD_FILE);
    let text: string;
    try {
      text = await this.readOwn(path);
    } catch (error) {
      if (isCode(error, "ENOENT")) return [];
      throw error;
    }
    try {
      const value = JSON.parse(text) as unknown;
      if (Array.isArray(value)) return value.slice(0, MAX_RECORDS).filter(isRecord);
    } catch {
      // unreadable: kept as it is until the first download of this run replaces it
    }
    return [];
  }

  /** Makes each folder of `names` under the root, one level at a time, refusing links. */
  private async makeFolders(names: readonly string[]): Promise<void> {
    let path = this.root;
    for (const name of names) {
      path = join(path, name);
      let info = await lstat(path).catch((error: unknown) => {
        if (isCode(error, "ENOENT")) return null;
        throw error;
      });
      if (info === null) {
        await mkdir(path).catch((error: unknown) => {
          if (!isCode(error, "EEXIST")) throw error;
        });
        info = await lstat(path);
      }
      if (info.isSymbolicLink())
        throw new UnsafePathError(`${path} is a symbolic link; heed does not follow links here`);
      if (!info.isDirectory())
        throw new UnsafePathError(`${path} is in the way: a file where a folder is needed`);
    }
  }

  /** Closes and throws if the file's folder is no longer where it should be (swapped for a link). */
  private async checked(handle: FileHandle, path: string): Promise<FileHandle> {
    try {
      await this.expectParent(path);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  }

  private async expectParent(path: string): Promise<void> {
    const parent = path.slice(0, path.lastIndexOf(sep));
    const real = await realpath(parent);
    if (real !== parent || !(real === this.root || real.startsWith(`${this.root}${sep}`)))
      throw new UnsafePathError(`${parent} leads outside the download folder; not written`);
  }
}

/** Raised for a folder written by heed before its files went under DIR/HOST/ and DIR/.heed/. */
export class OldLayoutError extends Error {
  readonly code = "HEED_OLD_DOWNLOAD_LAYOUT";
}

/**
 * heed once kept each file at `DIR/<path of the URL>` and its records beside them, at
 * `DIR/heed-downloads.json` and `DIR/SHA256SUMS`. Those records name files by the old names, which
 * this layout neither reads nor keeps up to date, so such a folder is refused with what to do,
 * rather than half-used. (No file of the new layout is ever at `DIR/heed-downloads.json`: every
 * dataset is under its host's folder.)
 */
async function refuseOldLayout(root: string, dir: string): Promise<void> {
  const old = await lstat(join(root, RECORD_FILE)).catch(() => null);
  if (old === null) return;
  throw new OldLayoutError(
    `${dir} holds downloads in heed's older layout (files at DIR/NAME, records in ` +
      `DIR/${RECORD_FILE} and DIR/${CHECKSUM_FILE}); heed now keeps each file at DIR/HOST/PATH ` +
      `and its records in DIR/${HEED_FOLDER}/, and does not mix the two. Download into a new ` +
      `folder, or, to reuse this one, move the old records away (mkdir ${join(dir, "old-records")} && ` +
      `mv ${join(dir, RECORD_FILE)} ${join(dir, CHECKSUM_FILE)} ${join(dir, "old-records")}/) and ` +
      `run again: the files are downloaded anew under DIR/HOST/, and the old ones stay where they ` +
      `are until you remove them (docs/data-txt.md, "The download folder")`,
  );
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

function isCode(error: unknown, code: string): boolean {
  return (error as { code?: unknown } | null)?.code === code;
}
