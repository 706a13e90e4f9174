/**
 * The site's modification log (seeds/001 §2: "checking modifications of the server's file
 * system"): the files watched live with @parcel/watcher (one native watch for the tree, not
 * one per file) and compared with the stored snapshot at start-up and at every `rescan`, so
 * that nothing changed while the server was down, or inside directories created in one step,
 * is missed. Every change is in the state file, with its time, before it is acknowledged.
 */
import { lstat } from "node:fs/promises";
import watcher from "@parcel/watcher";
import { diffSnapshots, type ScanOptions, scanTree, urlPathOf } from "./scan.js";
import type { FileStat, LoggedChange, SiteState } from "./state.js";

export interface ModificationLogOptions {
  /** The site's directory, absolute. */
  readonly root: string;
  readonly state: SiteState;
  /** The clock: changes are dated when the log learns of them. */
  readonly now: () => number;
  /** Absolute paths never logged. */
  readonly ignore?: ReadonlySet<string>;
  /** Limits of each scan (default scan.ts's MAX_FILES and MAX_DEPTH). */
  readonly maxFiles?: number;
  readonly maxDepth?: number;
  /** Told of problems (a scan cut short, a watcher error); default: nothing. */
  readonly warn?: (message: string) => void;
}

const LOG_START = "log_start";

export class ModificationLog {
  private snapshot: Map<string, FileStat> = new Map();
  private queue: Promise<void> = Promise.resolve();
  private subscription: watcher.AsyncSubscription | null = null;

  constructor(private readonly options: ModificationLogOptions) {}

  /** When the log began (the first scan of the site, ms), or null before it. */
  get startedAt(): number | null {
    const v = this.options.state.meta(LOG_START);
    return v === null ? null : Number(v);
  }

  /**
   * Compares the tree with the stored snapshot (the first time: takes the snapshot, logging
   * nothing, since a site's existing files are not news), then watches it.
   */
  async start(): Promise<void> {
    this.snapshot = this.options.state.loadSnapshot();
    const first = this.startedAt === null;
    await this.run(() => this.rescanAll(!first));
    if (first) this.options.state.setMeta(LOG_START, String(this.options.now()));
    this.subscription = await watcher.subscribe(this.options.root, (error, events) => {
      if (error !== null) {
        this.options.warn?.(`watcher: ${error.message}; rescanning the whole site`);
        void this.rescan();
        return;
      }
      const paths = new Set(events.map((e) => e.path));
      for (const path of paths) void this.run(() => this.rescanPath(path));
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.unsubscribe();
    this.subscription = null;
    await this.idle();
  }

  /** A full comparison of the tree with the snapshot (at intervals, and after watcher errors). */
  rescan(): Promise<void> {
    return this.run(() => this.rescanAll(true));
  }

  /** Settles when every change seen so far is in the state file. */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Work on the snapshot runs one piece at a time, in order: scans and events never interleave. */
  private run(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work).catch((error: unknown) => {
      this.options.warn?.(`modification log: ${(error as Error).message}`);
    });
    this.queue = next;
    return next;
  }

  private async rescanAll(log: boolean): Promise<void> {
    const scan = await scanTree(this.options.root, this.options.root, this.scanOptions());
    if (scan.cut !== null) {
      // A partial picture would read as deletions of everything not reached: log only news.
      this.options.warn?.(`scan stopped: ${scan.cut}`);
      this.apply(diffSnapshots(this.snapshot, scan.files, "\u0000", this.options.now()), log);
      return;
    }
    this.apply(diffSnapshots(this.snapshot, scan.files, "/", this.options.now()), log);
  }

  /** One watcher event's path: a file, a directory (scanned whole), or something gone. */
  private async rescanPath(absolute: string): Promise<void> {
    if (this.options.ignore?.has(absolute) === true) return;
    const url = urlPathOf(this.options.root, absolute);
    if (url === null) return;
    const now = this.options.now();
    const stat = await lstat(absolute).catch(() => null);
    if (stat?.isDirectory() === true) {
      const scan = await scanTree(this.options.root, absolute, this.scanOptions());
      const changes = diffSnapshots(this.snapshot, scan.files, `${url}/`, now);
      // A file replaced by a directory of the same name is gone.
      if (this.snapshot.has(url)) changes.push({ kind: "Delete", path: url, at: now });
      this.apply(changes, true);
      return;
    }
    const changes: LoggedChange[] = [];
    if (stat?.isFile() === true) {
      const old = this.snapshot.get(url);
      const seen = { size: stat.size, mtimeMs: stat.mtimeMs };
      if (old === undefined) changes.push({ kind: "New", path: url, at: now, stat: seen });
      else if (old.size !== seen.size || old.mtimeMs !== seen.mtimeMs)
        changes.push({ kind: "Change", path: url, at: now, stat: seen });
    } else {
      // Gone (or no longer a file): the path itself, and everything under it if it was a directory.
      if (this.snapshot.has(url)) changes.push({ kind: "Delete", path: url, at: now });
      for (const path of this.snapshot.keys())
        if (path.startsWith(`${url}/`)) changes.push({ kind: "Delete", path, at: now });
    }
    this.apply(changes, true);
  }

  private apply(changes: readonly LoggedChange[], log: boolean): void {
    if (changes.length === 0) return;
    this.options.state.record(changes, log);
    for (const c of changes) {
      if (c.kind === "Delete") this.snapshot.delete(c.path);
      else if (c.stat !== undefined) this.snapshot.set(c.path, c.stat);
    }
  }

  private scanOptions(): ScanOptions {
    const { ignore, maxFiles, maxDepth } = this.options;
    return {
      ...(ignore === undefined ? {} : { ignore }),
      ...(maxFiles === undefined ? {} : { maxFiles }),
      ...(maxDepth === undefined ? {} : { maxDepth }),
    };
  }
}
