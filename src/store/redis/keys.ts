/**
 * The Redis key layout. Every key starts with the store's prefix P; two crawls with different
 * prefixes share a server without seeing each other.
 *
 * Each site belongs to one of {@link SHARDS} shards (by a hash of its origin, {@link shardOf}),
 * and every key of a site, and the shard's own few keys, start with the shard's part
 * T = P + `{tag}`: one hash slot a shard, so a Redis Cluster spreads one crawl over its
 * masters and every script touches one slot. A prefix holding its own hash tag (`{crawl}:`)
 * keeps the whole crawl in that tag's slot.
 *
 * | key                | type   | holds                                                          |
 * |--------------------|--------|----------------------------------------------------------------|
 * | T ql:<origin> <p>  | list   | the site's queued URLs of priority p, due, in arrival order:   |
 * |                    |        | each one packed member (./queue-member.ts); nothing else       |
 * |                    |        | holds a queued URL                                             |
 * | T qp:<origin>      | zset   | the priorities with a list: member p, score -p                 |
 * | T qz:<origin>      | zset   | queued URLs due again after a wait, a retry or a recovered     |
 * |                    |        | lease: score -p, member as in ql (arrival number first)        |
 * | T w:<origin>       | zset   | queued URLs waiting for their notBefore: score notBefore       |
 * | T h:<origin> <b>   | set    | the site's URLs ever added, in any state, as 52-bit SHA-1      |
 * |                    |        | numbers: the dedup; buckets split (linear hashing) so each     |
 * |                    |        | stays a compact intset (under set-max-intset-entries)          |
 * | T s:<origin>       | hash   | the site's arrival counter n, bucket level L and split sp,     |
 * |                    |        | URL count c, referrer counter rn                               |
 * | T r:<origin>       | hash   | referrer number → URL, and `>`URL → number: each referrer once |
 * | T u:<url>          | hash   | a URL leased or settled: s (l d k f), and while leased o       |
 * |                    |        | origin, q its queue member, lid, until, own                    |
 * | T ready            | zset   | the shard's origins with a queued URL: score = when ready      |
 * | T next             | hash   | origin → when its next request is due (politeness)             |
 * | T leases           | zset   | the shard's leased URLs: score = lease end, for recover        |
 * | T counts           | hash   | the shard's queued, leased, done, skipped, failed              |
 * | T robots:<origin>  | hash   | the cached robots.txt; bodies as bytes                         |
 * | T pages            | hash   | url → page validators as JSON (revisitAt absent when null)     |
 * | T revisits         | zset   | pages with a revisit moment: score = revisitAt, member url     |
 * | T …                |        | the reservations' keys (./reservations.ts)                     |
 * | T writes           | string | the shard's count of leases and page settles (./write-count.ts)  |
 * | T held             | string | set with the crawl's identity: a shard without it lost its data |
 * | T log              | list   | the shard's crawl records, in order of appending: the store's  |
 * |                    |        | time in µs, a space, the record as JSON (canonical, via,       |
 * |                    |        | requiredGapMs, gapMs, waitedMs and usage absent when null);    |
 * |                    |        | read merged by time (./log-shards.ts)                          |
 * | P log              | list   | a crawl's records from before the shards, JSON, read first     |
 * | P datasets         | hash   | `<agent> <origin>` → that host's dataset catalog as JSON       |
 * | P items            | list   | records page handlers pushed, JSON texts, in order of appending|
 * | P procs, identity, | …      | the crawl's processes and identity (./reservations.ts)         |
 * | seeds              |        |                                                                |
 */
import type { Cluster, Redis } from "ioredis";

/**
 * Shards a crawl's sites are spread over. Each is one hash slot; the shard-wide questions
 * (which sites are ready, the counts, ended leases) ask every shard, so few: 8 spread over a
 * 3-master cluster as 3, 2 and 3.
 */
export const SHARDS = 8;

/**
 * Each shard's hash tag, chosen so that their slots fall in the eight equal parts of the 16384
 * slots (653, 3020, 4930, 7203, 8981, 11163, 13621, 14917): a cluster whose masters hold equal
 * ranges of slots gets shards on every master.
 */
const TAGS = ["s0.10", "s1.40", "s2.53", "s3.21", "s4.3", "s5.20", "s6.11", "s7.3"] as const;

/** The shard of a site (an origin, or a reservation key that starts with one): FNV-1a, 32 bits. */
export function shardOf(site: string): number {
  const end = site.indexOf(" ");
  const origin = end < 0 ? site : site.slice(0, end);
  let hash = 0x811c9dc5;
  for (let i = 0; i < origin.length; i++) {
    hash ^= origin.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % SHARDS;
}

/** The origin a URL's keys go with; the URL itself when it does not parse. */
export function urlSite(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export function redisKeys(prefix: string) {
  const shard = (n: number): string => `${prefix}{${TAGS[n] ?? TAGS[0]}}`;
  /** Every shard's key part T, in shard order. */
  const shards = Array.from({ length: SHARDS }, (_, n) => shard(n));
  return {
    prefix,
    shards,
    /** The key part T of a site's shard. */
    site: (site: string) => shard(shardOf(site)),
    robots: (origin: string) => `${shard(shardOf(origin))}robots:${origin}`,
    pages: (url: string) => `${shard(shardOf(urlSite(url)))}pages`,
    /** The crawl log of a crawl begun before the log had shards (./log-shards.ts). */
    legacyLog: `${prefix}log`,
    datasets: `${prefix}datasets`,
    items: `${prefix}items`,
    procs: `${prefix}procs`,
    identity: `${prefix}identity`,
    seeds: `${prefix}seeds`,
    /** Keys only the layout before shards wrote: a prefix holding them is refused. */
    older: [`${prefix}seq`, `${prefix}counts`, `${prefix}ready`],
  } as const;
}

export type RedisKeys = ReturnType<typeof redisKeys>;

/** A connection to one Redis server, or to a Redis Cluster (every script within one slot). */
export type RedisClient = Redis | Cluster;
