/**
 * This machine ran out of open files (EMFILE, ENFILE) while asking a site: the site gave no
 * answer and is not judged by it. Its request waits a moment and is made again, not counted
 * as one of the URL's attempts, and the crawl says once what happened and what to do.
 */
import type { PageResult } from "../net/http-client.js";
import type { CrawlStore, Lease } from "../store/types.js";

/** The parts of a run this file uses; named here so the run's own file need not be imported. */
interface RunParts {
  emit(event: { readonly type: "notice"; readonly message: string }): void;
  readonly store: CrawlStore;
  now(): number;
}

/**
 * How long a site waits before it is asked again: the socket cap has come down to the sockets
 * open when the shortage came (net/socket-budget.ts), and idle ones close within this.
 */
export const OPEN_FILES_PAUSE_MS = 2_000;

/** What the crawl says, once a run. */
export const OPEN_FILES_NOTICE =
  "too many open files: the sites asked wait and are asked again; raise the limit " +
  "(ulimit -n) or lower --max-sockets (docs/crawler.md)";

/** Why a site waits, in its `waiting` event and its deferred URLs. */
export const OPEN_FILES_WAIT = "too many open files here: asked again shortly";

const told = new WeakSet<object>();

/** Says {@link OPEN_FILES_NOTICE} the first time a run meets the shortage. */
export function tellOpenFilesShortage(run: Pick<RunParts, "emit">): void {
  if (told.has(run)) return;
  told.add(run);
  run.emit({ type: "notice", message: OPEN_FILES_NOTICE });
}

/**
 * A page request that failed for want of open files: the URL goes back to the queue for
 * {@link OPEN_FILES_PAUSE_MS}, its attempts unchanged, and nothing is logged against the site.
 * True when it was such a failure (and is dealt with).
 */
export async function deferForOpenFiles(
  run: RunParts,
  lease: Lease,
  result: PageResult,
): Promise<boolean> {
  if (result.kind !== "error" || result.code !== "local") return false;
  tellOpenFilesShortage(run);
  await run.store.frontier.settle(lease, {
    kind: "defer",
    reason: OPEN_FILES_WAIT,
    notBefore: run.now() + OPEN_FILES_PAUSE_MS,
  });
  return true;
}
