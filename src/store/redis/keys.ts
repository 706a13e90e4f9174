/**
 * The Redis key layout. Every key starts with the store's prefix P; two crawls with different
 * prefixes share a server without seeing each other.
 *
 * | key             | type   | holds                                                                  |
 * |-----------------|--------|------------------------------------------------------------------------|
 * | P u:<url>       | hash   | one URL in any state: its existence is the dedup. s (q l d k f: queued, |
 * |                 |        | leased, done, skipped, failed), o origin, n arrival number, d depth,  |
 * |                 |        | p priority, qs queue score (-p), nb notBefore, a attempts, r referrer |
 * |                 |        | and m meta (absent when null), lid and until while leased, st status, |
 * |                 |        | why reason, at settled at                                              |
 * | P q:<origin>    | zset   | queued URLs already due: score -priority, member arrival number + url |
 * |                 |        | (fixed width, so equal priorities come out oldest first)              |
 * | P w:<origin>    | zset   | queued URLs waiting for their notBefore: score notBefore, same member |
 * | P ready         | zset   | origins with a queued URL: score = when the origin is ready           |
 * | P next          | hash   | origin → when its next request is due (politeness)                    |
 * | P leases        | zset   | leased URLs: score = lease end, for recover                           |
 * | P counts        | hash   | queued, leased, done, skipped, failed                                 |
 * | P seq           | string | the last arrival number                                               |
 * | P robots:<orig> | hash   | the cached robots.txt; bodies as bytes                                |
 * | P host:<orig>   | string | host state of older versions: no longer read or written (pacing is in  |
 * |                 |        | the reservation keys of ./reservations.ts)                            |
 * | P log           | list   | crawl records as JSON, in order of appending; canonical, via,         |
 * |                 |        | requiredGapMs, gapMs, waitedMs and usage absent when null             |
 * | P pages         | hash   | url → page validators as JSON (revisitAt absent when null)            |
 * | P revisits      | zset   | pages with a revisit moment: score = revisitAt, member url            |
 * | P datasets      | hash   | `<agent> <origin>` → that host's dataset catalog as JSON              |
 * | P items         | list   | records page handlers pushed, JSON texts, in order of appending      |
 */
import type { Cluster, Redis } from "ioredis";

export function redisKeys(prefix: string) {
  return {
    url: (url: string) => `${prefix}u:${url}`,
    ready: `${prefix}ready`,
    next: `${prefix}next`,
    counts: `${prefix}counts`,
    robots: (origin: string) => `${prefix}robots:${origin}`,
    log: `${prefix}log`,
    pages: `${prefix}pages`,
    revisits: `${prefix}revisits`,
    datasets: `${prefix}datasets`,
    items: `${prefix}items`,
  } as const;
}

export type RedisKeys = ReturnType<typeof redisKeys>;

/** A connection to one Redis server, or to a Redis Cluster (every key of a crawl in one slot). */
export type RedisClient = Redis | Cluster;
