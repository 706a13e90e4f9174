/**
 * How long a ready site stays out of other processes' reach, in every store sharing a crawl
 * between processes (Redis, a cluster, one SQLite file). Both end early at the visit's own step
 * in the store; these are the fallbacks should that step never come.
 */

/**
 * How long an origin handed out by `claimReady` is held back from other processes, should the
 * visit never write to the store about it (its reservation, lease or next moment set its
 * place again at once): a visit reaches one of them within a robots.txt or sitemap exchange.
 */
export const CLAIM_HOLD_MS = 10_000;

/**
 * A site whose requests in flight reach its cap leaves the ready set until one ends, so that
 * other processes do not ask for it and get refused. Should the release never come (a process
 * stopped mid-request and not yet found dead), the site is ready again after this long, and a
 * process asking for it is refused "in-flight" as before: longer than a request takes, shorter
 * than a lease (LEASE_MS, 3 minutes).
 */
export const FULL_HOLD_MS = 60_000;
