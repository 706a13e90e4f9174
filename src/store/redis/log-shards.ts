/**
 * The crawl log in Redis: one list a shard (`T log`, ./keys.ts), so that a page's log line goes
 * into its settle script, in its site's slot, on a cluster as on one server. Each line is the
 * store's time in µs (`TIME` on the shard's server, 16 digits) and a space before the record's
 * JSON; readers merge the shards by that stamp, the order the lines were written. A log begun
 * before the shards (`P log`, no stamps) is read first.
 */
import { checkBatch, checkRecord } from "../crawl-log.js";
import { checkCount } from "../errors.js";
import type { CrawlLog, CrawlRecord } from "../types.js";
import { ROUTED } from "./scripts.js";
import { recordIn, recordOut } from "./records.js";
import type { RedisClient, RedisKeys } from "./keys.js";

/**
 * Lua: `logLine(line)` appends a record's JSON to the shard's log, stamped with the server's
 * time. Needs `P`, the shard part (PRELUDE's, or ROUTED's ARGV[1]).
 */
export const LOG_LINE_BODY = `
local function logLine(line)
  local t = redis.call('TIME')
  redis.call('RPUSH', P .. 'log', string.format('%s%06d ', t[1], tonumber(t[2])) .. line)
end
`;

/** heedLogLine. KEYS: shard part T. ARGV: the record's JSON. */
const LOG_LINE = `${ROUTED}
local P = ARGV[1]
${LOG_LINE_BODY}
logLine(ARGV[2])
`;

interface LogCommands {
  heedLogLine(shard: string, line: string): Promise<unknown>;
}

/** Lines read from one list at a time: memory of a read, not its result. */
const READ_CHUNK = 1000;

interface Line {
  readonly stamp: number;
  readonly json: string;
}

/** A stored line: its stamp (0 for a line of the log before shards) and its JSON. */
function lineOut(text: string): Line {
  if (text.startsWith("{")) return { stamp: 0, json: text };
  const space = text.indexOf(" ");
  return { stamp: Number(text.slice(0, space)), json: text.slice(space + 1) };
}

/** One list in a merged read: the lines read and not yet handed out. */
interface Source {
  readonly key: string;
  /** The list position after the last line read. */
  next: number;
  lines: Line[];
  /** The first line of `lines` not handed out. */
  head: number;
  /** The last read came short: nothing more there, as of that read. */
  ended: boolean;
}

/** A read through every shard's list at once, at merged position `at`. */
interface Merge {
  at: number;
  readonly sources: Source[];
}

export function redisCrawlLog(client: RedisClient, keys: RedisKeys): CrawlLog {
  client.defineCommand("heedLogLine", { lua: LOG_LINE, numberOfKeys: 1 });
  const commands = client as RedisClient & LogCommands;
  // The log before shards first: its lines were all written before any stamped one.
  const lists = [keys.legacyLog, ...keys.shards.map((T) => `${T}log`)];
  const start = (): Merge => ({
    at: 0,
    sources: lists.map((key) => ({ key, next: 0, lines: [], head: 0, ended: false })),
  });
  // Where `list` last ended, so that reading on from there (a page after a page, a feed
  // following the crawl) costs what it reads, not the offset. Lines are only ever added at a
  // list's tail, stamped later than every line on the same server.
  let last: Merge | null = null;

  const spent = (source: Source) => source.head >= source.lines.length && !source.ended;

  /** Refills each list whose lines are all handed out, `chunk` lines each, all at once. */
  async function refill(merge: Merge, chunk: number): Promise<void> {
    await Promise.all(
      merge.sources.map(async (source) => {
        if (!spent(source)) return;
        const rows = await client.lrange(source.key, source.next, source.next + chunk - 1);
        source.next += rows.length;
        source.lines = rows.map(lineOut);
        source.head = 0;
        source.ended = rows.length < chunk;
      }),
    );
  }

  /** Up to `limit` lines on from where `merge` stands, least stamp first. */
  async function take(merge: Merge, limit: number): Promise<string[]> {
    const chunk = Math.min(limit, READ_CHUNK);
    const out: string[] = [];
    while (out.length < limit) {
      if (merge.sources.some(spent)) await refill(merge, chunk);
      let best: Source | null = null;
      let bestStamp = Infinity;
      for (const source of merge.sources) {
        const stamp = source.lines[source.head]?.stamp;
        // On a tie the earlier list: the same order at every read.
        if (stamp !== undefined && stamp < bestStamp) [best, bestStamp] = [source, stamp];
      }
      const line = best?.lines[best.head];
      if (best === null || line === undefined) break;
      out.push(line.json);
      best.head++;
    }
    merge.at += out.length;
    return out;
  }

  /** A read standing at merged position `offset`: where `list` ended, or skipped to. */
  async function mergeAt(offset: number): Promise<Merge> {
    const previous = last;
    // Taken, not shared: two reads at once each go their own way.
    last = null;
    if (previous !== null && previous.at === offset) {
      // Lists that had ended may have grown since.
      for (const source of previous.sources) source.ended = false;
      return previous;
    }
    const merge = start();
    for (let left = offset; left > 0;) {
      const skipped = await take(merge, Math.min(left, READ_CHUNK));
      if (skipped.length === 0) break;
      left -= skipped.length;
    }
    return merge;
  }

  return {
    async append(record) {
      checkRecord(record);
      await commands.heedLogLine(keys.site(record.origin), recordIn(record));
    },
    async list(limit, offset) {
      checkCount("limit", limit);
      checkCount("offset", offset);
      if (limit === 0) return [];
      const merge = await mergeAt(offset);
      const lines = await take(merge, limit);
      last = merge;
      return lines.map(recordOut);
    },
    async *scan(batch): AsyncGenerator<readonly CrawlRecord[]> {
      checkBatch(batch);
      const merge = start();
      for (;;) {
        const lines = await take(merge, batch);
        if (lines.length > 0) yield lines.map(recordOut);
        if (lines.length < batch) {
          // A `list` from the end of the log reads on from here.
          last = merge;
          return;
        }
      }
    },
    async count() {
      const lengths = await Promise.all(lists.map((key) => client.llen(key)));
      return lengths.reduce((sum, n) => sum + n, 0);
    },
  };
}
