/**
 * What this machine last saw of a crawl store: the crawl's identity and the highest write count
 * its `heed crawl` processes saw (store/write-counter.ts), in one small file per store under
 * the user's state directory (`$XDG_STATE_HOME/heed/stores/`, else `~/.local/state/heed/stores/`).
 * A copy of the count kept in the store itself would go back with it; this one does not. A new
 * run compares it with the store's count: lower means the store went back while no process of
 * this machine ran (a Redis restored from an older snapshot, an older copy of the SQLite file).
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_REDIS_PREFIX, isRedisSpec } from "../store/open.js";
import { shown } from "../store/shown-spec.js";

export interface StoreMark {
  /** The crawl's identity in the store (a store reused for another crawl has another). */
  readonly identity: string;
  /** The highest write count seen. */
  readonly writes: number;
}

/** The mark file of a store spec, as `--store` gives it, relative paths from `cwd`. */
export function markPath(spec: string, cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  // A Redis store is its URL (without password) and prefix; a file is its absolute path.
  const store = isRedisSpec(spec)
    ? shown(spec.includes("#") ? spec : `${spec}#${DEFAULT_REDIS_PREFIX}`)
    : resolve(cwd, spec);
  const state = env["XDG_STATE_HOME"] || join(homedir(), ".local", "state");
  const name = createHash("sha256").update(store).digest("hex").slice(0, 32);
  return join(state, "heed", "stores", `${name}.json`);
}

/** The mark, or null when none was kept (or it cannot be read: then nothing is known). */
export async function readMark(path: string): Promise<StoreMark | null> {
  try {
    const value: unknown = JSON.parse(await readFile(path, "utf8"));
    if (typeof value !== "object" || value === null) return null;
    const { identity, writes } = value as Record<string, unknown>;
    return typeof identity === "string" && typeof writes === "number" ? { identity, writes } : null;
  } catch {
    return null;
  }
}

/**
 * Keeps `mark`: the higher of it and the kept one for the same crawl (processes of this machine
 * write in turn), or `mark` itself when `replace` (a store accepted as it is now).
 */
export async function keepMark(path: string, mark: StoreMark, replace = false): Promise<void> {
  const kept = replace ? null : await readMark(path);
  if (kept !== null && kept.identity === mark.identity && kept.writes >= mark.writes) return;
  await mkdir(join(path, ".."), { recursive: true });
  await writeMark(path, mark);
}

/**
 * Writes marks to `path` as a running crawl sees its count grow: the directory made at the first
 * write, each mark written without reading the kept one back. Processes of this machine sharing
 * the store see its count within a tick of each other, so a mark one of them writes is at most
 * a tick behind the highest: what the tick already allows. A few file operations a tick fewer,
 * in every process, every tick.
 */
export function markWriter(path: string): (mark: StoreMark) => Promise<void> {
  let made = false;
  return async (mark) => {
    if (!made) await mkdir(join(path, ".."), { recursive: true });
    made = true;
    await writeMark(path, mark);
  };
}

async function writeMark(path: string, mark: StoreMark): Promise<void> {
  // Whole or not at all: a process killed mid-write leaves the last mark, not half of one.
  const partial = `${path}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(mark)}\n`);
  await rename(partial, path);
}
