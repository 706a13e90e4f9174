/**
 * A page's path through Redis in three round trips (a fleet's cost a page): the site's
 * reservation, the lease and the URL's validators in one script call; the reservation's release
 * after the request; the settle with the page's validators, its log line (in the shard's own
 * log, ./log-shards.ts) and its links to sites of the same shard in one more, sent at once with
 * one add a shard for the other links.
 * Each script is the separate steps' Lua (./scripts.ts, ./reservations.ts) run in one call.
 */
import { randomUUID } from "node:crypto";

import { checkRecord } from "../crawl-log.js";
import { checkNewUrls, checkNumber, checkRule } from "../errors.js";
import type { PageStore, PageSteps, ReservedLease } from "../types.js";
import {
  ADD_SLICE,
  addByShard,
  byShard,
  leaseOut,
  outcomeArgs,
  urlArgs,
  type FrontierCommands,
} from "./frontier.js";
import { LOG_LINE_BODY } from "./log-shards.js";
import { pageOut, pageValue, recordIn } from "./records.js";
import { RELEASE_BODY, TAKE_BODY } from "./reservations.js";
import { ADD_BODY, LEASE_BODY, PRELUDE, SETTLE_BODY } from "./scripts.js";
import type { RedisClient, RedisKeys } from "./keys.js";
import type { WriteCounter } from "../write-counter.js";
import { COUNT_WRITE_BODY, wroteCount } from "./write-count.js";

/**
 * leaseReserved. ARGV: prefix, origin, owner, now, gapMs, requests, windowMs, inFlight,
 * reservation id, lease until, lease id. Returns {0, retryAt, why} (refused), {2} (taken, no URL
 * due, given back), or {1, validators JSON or false, url, depth, priority, notBefore, referrer,
 * meta, attempts, the store's write count}.
 */
export const LEASE_RESERVED = `${PRELUDE}${TAKE_BODY}${RELEASE_BODY}${LEASE_BODY}${COUNT_WRITE_BODY}
local origin, owner, now = ARGV[2], ARGV[3], ARGV[4]
local took = takeOne(origin, owner, now, tonumber(ARGV[5]), tonumber(ARGV[6]),
  tonumber(ARGV[7]), tonumber(ARGV[8]), ARGV[9])
if took[1] == 0 then return took end
local entry = leaseOne(origin, now, ARGV[10], '', ARGV[11], owner)
if not entry then
  release(origin, ARGV[9], now, 0, false)
  return { 2 }
end
table.insert(entry, 1, redis.call('HGET', P .. 'pages', entry[1]))
table.insert(entry, 1, 1)
entry[#entry + 1] = countWrite()
return entry
`;

/**
 * settlePage. KEYS: shard part T. ARGV: shard part T, url, lease id, kind, the
 * outcome's two strings (as SETTLE), the page's URL ('' none), its validators JSON, its revisit
 * moment ('' none), the log record JSON ('' none), then 7 strings a link of the same shard (as
 * ADD). Returns SETTLE's answer and the shard's write count.
 */
export const SETTLE_PAGE = `${PRELUDE}${ADD_BODY}${SETTLE_BODY}${COUNT_WRITE_BODY}${LOG_LINE_BODY}
local url = ARGV[2]
if #ARGV >= 11 then addUrls(false, 11, #ARGV) end
if ARGV[10] ~= '' then logLine(ARGV[10]) end
if ARGV[7] ~= '' then
  redis.call('HSET', P .. 'pages', ARGV[7], ARGV[8])
  if ARGV[9] == '' then
    redis.call('ZREM', P .. 'revisits', ARGV[7])
  else
    redis.call('ZADD', P .. 'revisits', ARGV[9], ARGV[7])
  end
end
return { settleOne(url, ARGV[3], ARGV[4], ARGV[5]), countWrite() }
`;

export interface PageStepCommands {
  heedLeaseReserved(...argv: string[]): Promise<(string | number | null)[]>;
  heedSettlePage(...argv: string[]): Promise<[number, number]>;
}

export function definePageStepCommands(client: RedisClient): void {
  client.defineCommand("heedLeaseReserved", { lua: LEASE_RESERVED, numberOfKeys: 1 });
  client.defineCommand("heedSettlePage", { lua: SETTLE_PAGE, numberOfKeys: 1 });
}

export function redisPageSteps(
  client: RedisClient & PageStepCommands & FrontierCommands,
  keys: RedisKeys,
  pages: PageStore,
  counter: WriteCounter,
): PageSteps {
  const T = keys.site;
  return {
    async leaseReserved(origin, owner, now, rule, leaseMs): Promise<ReservedLease> {
      checkNumber("now", now);
      checkNumber("leaseMs", leaseMs);
      checkRule(rule);
      const id = randomUUID();
      const leaseId = randomUUID();
      const at = Math.floor(now);
      const until = at + leaseMs;
      const reply = await client.heedLeaseReserved(
        T(origin),
        origin,
        owner,
        String(at),
        String(Math.ceil(rule.gapMs)),
        String(rule.rate?.requests ?? 0),
        String(Math.ceil(rule.rate?.windowMs ?? 0)),
        String(rule.inFlight),
        id,
        String(until),
        leaseId,
      );
      const [kind, second, third, ...rest] = reply;
      if (String(kind) === "0") {
        const why = third === "rate" ? "rate" : third === "in-flight" ? "in-flight" : "gap";
        return { granted: false, retryAt: Number(second), why };
      }
      if (String(kind) === "2") return { granted: true, id, lease: null };
      // Before the URL is fetched: a store that went back stops the crawl here.
      wroteCount(counter, rest.pop(), T(origin));
      const lease = leaseOut([third ?? null, ...rest].map(text), origin, leaseId, until);
      const validators = typeof second === "string" ? pageOut(lease.entry.url, second) : null;
      return { granted: true, id, lease, validators };
    },

    async settle(lease, outcome, writes) {
      const [moment, detail] = outcomeArgs(outcome);
      checkNumber("outcome time", Number(moment));
      const links = writes.links ?? [];
      checkNewUrls(links);
      if (writes.record !== undefined) checkRecord(writes.record);
      const own = T(lease.entry.origin);
      const shards = byShard(links, keys);
      // A script call blocks the server while it runs: links past one slice go apart.
      const mine = shards.get(own) ?? [];
      shards.delete(own);
      if (mine.length > ADD_SLICE) shards.set(own, mine.slice(ADD_SLICE));
      // A page kept under another site's shard (a redirect's end) is written apart.
      const page = writes.page;
      const pageHere = page !== undefined && keys.pages(page.url) === `${own}pages`;
      const record = writes.record === undefined ? "" : recordIn(writes.record);
      const argv = [
        own,
        lease.entry.url,
        lease.id,
        outcome.kind,
        moment,
        detail,
        pageHere ? page.url : "",
        pageHere ? pageValue(page) : "",
        pageHere && (page.revisitAt ?? null) !== null ? String(page.revisitAt) : "",
        record,
      ];
      for (const entry of mine.slice(0, ADD_SLICE)) argv.push(...urlArgs(entry));
      // One call a shard, all at once: the same round trip on one server, and on a cluster
      // each shard's call goes to its own master.
      await Promise.all([
        addByShard(client, shards, "add"),
        client.heedSettlePage(...argv).then(([, count]) => wroteCount(counter, count, own)),
        page === undefined || pageHere ? null : pages.put(page),
      ]);
    },
  };
}

function text(value: string | number | null): string | null {
  return value === null ? null : String(value);
}
