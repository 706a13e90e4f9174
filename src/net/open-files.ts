/**
 * The process's open-files limit (`ulimit -n`), and the share of it a crawl's sockets may take.
 *
 * Every socket is an open file. A crawl that kept a keep-alive connection to every site it
 * visited would need one file a site, and under the common default of 1024 its robots.txt
 * requests would fail with EMFILE (issue 28: 2,990 of 10,000 hosts set aside). The limit is
 * read once from /proc/self/limits (Linux); Node has no getrlimit, and spawning `sh -c
 * 'ulimit -n'` would cost a process and a file of its own. Elsewhere the common default is
 * assumed.
 */
import { readFileSync } from "node:fs";

/** Assumed when the limit cannot be read (not Linux): the usual default soft limit. */
export const ASSUMED_OPEN_FILES = 1024;
/**
 * The share of the open-files limit sockets may take by default: the rest is for the store
 * (an SQLite file, its WAL and shared memory, or a Redis connection), the WARC files, the
 * terminal, and Node's own handles (about twenty). 3/4 of 256 leaves 64; of 1024, 256.
 */
export const SOCKET_SHARE = 0.75;
/**
 * The default cap however high the limit: more than this many sites at once gains a polite
 * crawl nothing (each site waits its gap between requests) and costs memory and ports.
 */
export const MAX_DEFAULT_SOCKETS = 4096;
/** The default cap however low the limit: below this a crawl of a few sites would crawl. */
export const MIN_DEFAULT_SOCKETS = 8;

/** The soft limit on open files, from the text of /proc/self/limits; null if absent. */
export function readOpenFilesLimit(limits: string): number | null {
  const line = limits.split("\n").find((text) => text.startsWith("Max open files"));
  const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
  if (soft === undefined || soft === "") return null;
  if (soft === "unlimited") return Number.POSITIVE_INFINITY;
  const value = Number(soft);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

let cached: number | null = null;

/** This process's soft limit on open files; {@link ASSUMED_OPEN_FILES} when it cannot be read. */
export function openFilesLimit(): number {
  if (cached !== null) return cached;
  let limit: number | null = null;
  try {
    limit = readOpenFilesLimit(readFileSync("/proc/self/limits", "utf8"));
  } catch {
    // Not Linux, or no /proc: the usual default.
  }
  cached = limit ?? ASSUMED_OPEN_FILES;
  return cached;
}

/** The socket cap a crawl takes when not told one: a share of the limit, within bounds. */
export function defaultMaxSockets(limit: number = openFilesLimit()): number {
  const share = Math.floor(limit * SOCKET_SHARE);
  return Math.max(MIN_DEFAULT_SOCKETS, Math.min(MAX_DEFAULT_SOCKETS, share));
}

/**
 * The system calls' codes for "no file descriptor left", in this process (EMFILE) or in the
 * whole system (ENFILE): a shortage of this machine, never a site's answer.
 */
export const OPEN_FILES_SHORTAGE_CODES: ReadonlySet<string> = new Set(["EMFILE", "ENFILE"]);
