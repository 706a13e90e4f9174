/**
 * Reading a site's files: the whole tree (or a part of it) as URL paths with their size and
 * modification time, and the changes between two such pictures. The modification log compares
 * a fresh scan with its stored snapshot at start-up and at intervals, because a live watcher
 * cannot see what changed while the server was down, and may miss files created inside
 * directories made in one step (`mkdir -p a/b && touch a/b/c`: the directory exists before the
 * watch on it does).
 */
import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { hiddenName, hiddenRelativePath } from "../hidden-paths.js";
import type { LoggedChange } from "./state.js";
import type { FileStat } from "./state.js";

/** Files one site may hold: beyond this a scan stops and says so (memory: ~200 bytes each). */
export const MAX_FILES = 2_000_000;
/** Directory depth followed: deeper trees are almost always a link loop or a mistake. */
export const MAX_DEPTH = 64;
/** Stats in flight at once within one directory: enough to hide disk latency, few descriptors. */
const STAT_BATCH = 64;

export interface ScanOptions {
  /** Absolute paths never logged (the state file and its journal, when inside the site). */
  readonly ignore?: ReadonlySet<string>;
  /** Default {@link MAX_FILES}. */
  readonly maxFiles?: number;
  /** Default {@link MAX_DEPTH}. */
  readonly maxDepth?: number;
}

export interface ScanResult {
  readonly files: Map<string, FileStat>;
  /** Why the scan stopped early, or null. A partial scan must not be read as deletions. */
  readonly cut: string | null;
}

/**
 * The URL path of a file under `root`: each segment percent-encoded, so that a comma or a
 * space in a name never splits a report's list. Null for paths heed does not publish: hidden
 * ones (../hidden-paths.ts: dot segments, journals, lock files) and paths outside the root.
 */
export function urlPathOf(root: string, file: string): string | null {
  const rel = relative(root, file);
  if (rel === "" || rel.startsWith("..")) return null;
  const segments = rel.split(sep);
  // The hidden-path rule of heed's servers: what they never serve is no news for robots.
  if (hiddenRelativePath(rel) !== null) return null;
  return `/${segments.map(encodeURIComponent).join("/")}`;
}

/** Every published regular file under `dir` (a directory inside `root`, or root itself). */
export async function scanTree(
  root: string,
  dir: string,
  options: ScanOptions = {},
): Promise<ScanResult> {
  const files = new Map<string, FileStat>();
  const maxFiles = options.maxFiles ?? MAX_FILES;
  const maxDepth = options.maxDepth ?? MAX_DEPTH;
  const stack: { path: string; depth: number }[] = [{ path: dir, depth: 0 }];
  while (stack.length > 0) {
    const { path, depth } = stack.pop() as { path: string; depth: number };
    let entries: Dirent[];
    try {
      entries = await readdir(path, { withFileTypes: true });
    } catch {
      continue; // Gone while scanning: its files are deletions, seen as absent.
    }
    const wanted: string[] = [];
    for (const entry of entries) {
      if (hiddenName(entry.name) !== null) continue;
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        if (depth + 1 > maxDepth)
          return { files, cut: `${full} is deeper than ${maxDepth} directories` };
        stack.push({ path: full, depth: depth + 1 });
      } else if (entry.isFile() && options.ignore?.has(full) !== true) wanted.push(full);
      // Symbolic links and special files are not published (see static-files.ts).
    }
    for (let i = 0; i < wanted.length; i += STAT_BATCH) {
      const batch = wanted.slice(i, i + STAT_BATCH);
      const stats = await Promise.all(batch.map((f) => lstat(f).catch(() => null)));
      batch.forEach((f, j) => {
        const s = stats[j];
        const url = urlPathOf(root, f);
        if (s?.isFile() === true && url !== null)
          files.set(url, { size: s.size, mtimeMs: s.mtimeMs });
      });
      if (files.size > maxFiles) return { files, cut: `more than ${maxFiles} files` };
    }
  }
  return { files, cut: null };
}

/**
 * What changed between `before` and `after`, restricted to paths under `prefix` (a URL path
 * ending in `/`, or `/` for all): new paths, paths whose size or time moved, paths gone.
 */
export function diffSnapshots(
  before: ReadonlyMap<string, FileStat>,
  after: ReadonlyMap<string, FileStat>,
  prefix: string,
  at: number,
): LoggedChange[] {
  const out: LoggedChange[] = [];
  for (const [path, stat] of after) {
    const old = before.get(path);
    if (old === undefined) out.push({ kind: "New", path, at, stat });
    else if (old.size !== stat.size || old.mtimeMs !== stat.mtimeMs)
      out.push({ kind: "Change", path, at, stat });
  }
  for (const path of before.keys()) {
    if (path.startsWith(prefix) && !after.has(path)) out.push({ kind: "Delete", path, at });
  }
  return out;
}
