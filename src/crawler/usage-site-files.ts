/**
 * A site's /.well-known/tdmrep.json (W3C TDMRep), read once per site and process before its
 * pages are weighed, only by a crawl that collects for AI training or AI input (a crawl for
 * search makes no such request). The fetch itself, under the site's reservation, is the
 * crawler's; this keeps the files and makes concurrent pages of one site wait for the one read.
 */
import type { TdmRepFile } from "../protocol/usage/index.js";

/** Sites whose file is kept; the oldest is dropped past it (a long crawl visits many sites). */
export const MAX_TDMREP_SITES = 10_000;

export const TDMREP_PATH = "/.well-known/tdmrep.json";

export class TdmRepFiles {
  private readonly files = new Map<string, TdmRepFile | null>();
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly read: (origin: string) => Promise<TdmRepFile | null>) {}

  /** Reads the site's file unless it was read; waits for a read under way. Never throws. */
  ensure(origin: string): Promise<void> {
    if (this.files.has(origin)) return Promise.resolve();
    let pending = this.pending.get(origin);
    if (pending === undefined) {
      pending = this.read(origin)
        .catch(() => null)
        .then((file) => {
          if (this.files.size >= MAX_TDMREP_SITES) {
            const oldest = this.files.keys().next().value;
            if (oldest !== undefined) this.files.delete(oldest);
          }
          this.files.set(origin, file);
        })
        .finally(() => this.pending.delete(origin));
      this.pending.set(origin, pending);
    }
    return pending;
  }

  get(origin: string): TdmRepFile | null {
    return this.files.get(origin) ?? null;
  }
}
