/**
 * Replies with which a Redis server (or cluster) refuses every write until a person acts: the crawl cannot
 * go on past them, and asking again only spins (tens of thousands of failing calls a second).
 * Anything else (a script's own error, a reply of a wrong type) is left to its caller.
 */
const REFUSALS: readonly (readonly [prefix: string, meaning: string])[] = [
  // maxmemory reached under the noeviction policy.
  ["OOM", "out of memory"],
  // A replica, or a server made one (REPLICAOF) under the crawl.
  ["READONLY", "read-only"],
  // stop-writes-on-bgsave-error after a snapshot that failed (a full or read-only disk).
  ["MISCONF", "cannot save its data"],
  // An ACL user without the rights the store's commands need.
  ["NOPERM", "permission refused"],
  // A cluster asked for keys of several slots in one step (a prefix whose hash tag was lost):
  // asking again gives the same answer.
  ["CROSSSLOT", "keys of several cluster slots in one step"],
];

/** Why the server refuses writes for good, in its own words; null for any other error. */
export function storeRefusal(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  // A transaction's EXECABORT is no refusal of its own: its cause is the queued command's own
  // reply, seen first (every command's error passes here). That cause may pass: a master
  // restarting answers LOADING, a cluster still joining CLUSTERDOWN, and the call is made again.
  const found = REFUSALS.find(([prefix]) => error.message.startsWith(`${prefix} `));
  return found === undefined ? null : `${found[1]}: ${error.message}`;
}
