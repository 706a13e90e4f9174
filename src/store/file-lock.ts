/**
 * A lock between processes on one file: `<path>.lock`, made with O_EXCL and holding the
 * owner's pid. A lock whose owner has died (no such process) or that is older than `staleMs`
 * is taken over, so a killed writer cannot block the file for good.
 */
import { open, readFile, rm, stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

export const LOCKED_CODE = "HEED_FILE_LOCKED";

export interface FileLockOptions {
  /** Give up after waiting this long (ms); default 10 s. */
  readonly timeoutMs?: number;
  /** A lock older than this (ms) is taken over; default 60 s, far above one update. */
  readonly staleMs?: number;
}

const POLL_MS = 15;

/** Runs `fn` while holding the lock on `path`. */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lockPath = `${path}.lock`;
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const staleMs = options.staleMs ?? 60_000;
  for (;;) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (await abandoned(lockPath, staleMs)) {
      await rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw Object.assign(new Error(`${path} is locked by another process (${lockPath})`), {
        code: LOCKED_CODE,
      });
    }
    await sleep(POLL_MS);
  }
  try {
    return await fn();
  } finally {
    await rm(lockPath, { force: true });
  }
}

async function abandoned(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, "utf8"), stat(lockPath)]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const pid = Number(text);
    // A lock still being written has no pid yet: its owner is alive.
    if (!Number.isInteger(pid) || pid <= 0) return false;
    return !alive(pid);
  } catch {
    return false; // gone already: the next attempt takes it
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
