/**
 * ioredis's words when a cluster call ran out of redirections ("Too many Cluster redirections.
 * Last error: ReplyError: MOVED 653 127.0.0.1:7001"), said as what happened to the cluster.
 */
const GAVE_UP = "Too many Cluster redirections";

/** What went wrong, for a person; null when `message` is not a cluster call giving up. */
export function clusterGaveUp(message: string): string | null {
  if (!message.startsWith(GAVE_UP)) return null;
  const last = /Last error: (?:\w*Error: )?(.*)$/s.exec(message)?.[1]?.trim() ?? "";
  // A slot sent back and forth to a master that never answers: the master is gone.
  const moved = /^MOVED (\d+) (\S+)/.exec(last);
  if (moved !== null)
    return `the cluster's master for slot ${moved[1]}, ${moved[2]}, does not answer`;
  if (last.startsWith("CLUSTERDOWN"))
    return `the cluster is down (${last}): a master has not joined again`;
  return last === "" ? "the cluster does not answer" : `the cluster does not answer (${last})`;
}
