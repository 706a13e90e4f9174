/**
 * The frontier's Lua scripts: each runs atomically inside Redis, so crawler processes on many
 * machines sharing one Redis never lease the same URL, and a lease sets the origin's next
 * request moment in the same step.
 *
 * Every key is `T .. name`, T being the shard's part of the keys (ARGV[1]; see ./keys.ts for
 * the layout): a script touches one shard, so one cluster slot.
 *
 * Moments and scores travel as the strings JavaScript wrote (String(n) round-trips a double);
 * the scripts compare them with tonumber but store the strings as given, so Lua's 14-digit
 * number formatting never touches a stored value.
 */
import { MEMBER_LUA, SEQ_BYTES } from "./queue-member.js";
import { COUNT_WRITE_BODY } from "./write-count.js";

/**
 * Every script is defined with one key, its shard's part T (./keys.ts), so that a cluster
 * client sends it to the node owning that shard's hash slot, where every key it touches is:
 * each is T followed by a name. The script reads T as ARGV[1], where the scripts had it before.
 */
export const ROUTED = `
table.insert(ARGV, 1, KEYS[1])
`;

export const PRELUDE = `${ROUTED}
local P = ARGV[1]
local COUNTS = P .. 'counts'

-- A queued URL is one packed member (./queue-member.ts): the arrival number as ${SEQ_BYTES}
-- bytes, then 'depth,attempts,priority,notBefore,referrer,metaLength,full' and a space, then the
-- meta and the URL (its path alone when it starts with the origin and a slash). Empty fields
-- are 0 (null for referrer and meta).
${MEMBER_LUA}

-- The site has a due queued URL (in a priority list, or due again in qz).
local function hasDue(origin)
  return redis.call('EXISTS', P .. 'qp:' .. origin) == 1 or redis.call('EXISTS', P .. 'qz:' .. origin) == 1
end

-- Keeps the origin's entry in the ready set: due when both a queued URL and the next request
-- are due; absent when nothing is queued. A due URL was due at an earlier lease, so the
-- origin waits only for its next request moment.
local function refresh(origin)
  local due
  if hasDue(origin) then
    due = '0'
  else
    local first = redis.call('ZRANGE', P .. 'w:' .. origin, 0, 0, 'WITHSCORES')
    if #first == 0 then
      redis.call('ZREM', P .. 'ready', origin)
      return
    end
    due = first[2]
  end
  local nxt = redis.call('HGET', P .. 'next', origin)
  if nxt and tonumber(nxt) > tonumber(due) then due = nxt end
  -- A site holding every request in flight its reservation lets (./reservations.ts) is not
  -- ready until one ends: processes sharing the store would only race for it.
  local full = redis.call('HGET', P .. 'full', origin)
  if full and tonumber(full) > tonumber(due) then due = full end
  redis.call('ZADD', P .. 'ready', due, origin)
end

-- Queues a member: due at 'now' in qz (by priority, then arrival), else in w: by time. A fresh
-- URL (fresh true) goes to the end of its priority's list instead: the newest arrival.
local function enqueue(origin, member, now, fresh)
  local m = unpackMember(member, origin)
  if tonumber(m.nb) > now then
    redis.call('ZADD', P .. 'w:' .. origin, m.nb, member)
  elseif fresh then
    redis.call('RPUSH', P .. 'ql:' .. origin .. ' ' .. m.p, member)
    redis.call('ZADD', P .. 'qp:' .. origin, negate(m.p), m.p)
  else
    redis.call('ZADD', P .. 'qz:' .. origin, negate(m.p), member)
  end
end
`;

/**
 * add and revisit. ARGV: shard part T, 'add' | 'revisit', then 7 strings a URL: url, origin,
 * depth, priority, notBefore, referrer and meta (nullable). Returns how many were queued.
 */
export const ADD_BODY = `
-- Queues the URLs of ARGV[first..last], 7 strings each; returns how many were queued.
local function addUrls(revisit, first, last)
  local touched = {}
  local added, requeued = 0, 0
  for i = first, last, 7 do
    local url, origin = ARGV[i], ARGV[i + 1]
    local queue = false
    if remember(origin, url) then
      added, queue = added + 1, true
    elseif revisit and redis.call('HGET', P .. 'u:' .. url, 's') == 'd' then
      redis.call('DEL', P .. 'u:' .. url)
      requeued, queue = requeued + 1, true
    end
    if queue then
      local m = { seq = redis.call('HINCRBY', P .. 's:' .. origin, 'n', 1), url = url,
        d = ARGV[i + 2], a = '0', p = ARGV[i + 3], nb = ARGV[i + 4],
        ref = referrerOf(origin, ARGV[i + 5]) }
      if string.sub(ARGV[i + 6], 1, 1) == '1' then m.meta = string.sub(ARGV[i + 6], 2) end
      enqueue(origin, packMember(m, origin), 0, true)
      touched[origin] = true
    end
  end
  if added + requeued > 0 then redis.call('HINCRBY', COUNTS, 'queued', added + requeued) end
  if requeued > 0 then redis.call('HINCRBY', COUNTS, 'done', -requeued) end
  for origin in pairs(touched) do refresh(origin) end
  return added + requeued
end
`;

/**
 * add and revisit. ARGV: shard part T, 'add' | 'revisit', then 7 strings a URL: url, origin,
 * depth, priority, notBefore, referrer and meta (nullable). Returns how many were queued.
 */
export const ADD = `${PRELUDE}${ADD_BODY}
return addUrls(ARGV[2] == 'revisit', 3, #ARGV)
`;

/**
 * lease. ARGV: shard part T, origin, now, until, nextAt ('' when the caller holds the
 * reservation), lease id, owner ('' for none). Returns null, or url, depth, priority,
 * notBefore, referrer, meta, attempts.
 */
export const LEASE_BODY = `
-- Takes the site's best due member out of its queue (highest priority, then oldest): the head
-- of the best priority's list, or of qz; nil when none is due.
local function takeBest(origin)
  local again = redis.call('ZRANGE', P .. 'qz:' .. origin, 0, 0, 'WITHSCORES')
  local best = redis.call('ZRANGE', P .. 'qp:' .. origin, 0, 0, 'WITHSCORES')
  local list, listed = nil, false
  if #best > 0 then
    list = P .. 'ql:' .. origin .. ' ' .. best[1]
    listed = redis.call('LINDEX', list, 0)
  end
  if #again == 0 and not listed then return nil end
  if listed and (#again == 0 or tonumber(best[2]) < tonumber(again[2]) or
      (tonumber(best[2]) == tonumber(again[2]) and seqOf(listed) < seqOf(again[1]))) then
    redis.call('LPOP', list)
    if redis.call('EXISTS', list) == 0 then redis.call('ZREM', P .. 'qp:' .. origin, best[1]) end
    return listed
  end
  redis.call('ZREM', P .. 'qz:' .. origin, again[1])
  return again[1]
end

-- Leases the origin's best due URL: false, or url, depth, priority, notBefore, referrer, meta,
-- attempts. An empty nextAt: the caller holds the site's reservation, which kept the gap.
local function leaseOne(origin, nowArg, untilArg, nextArg, lid, owner)
  local now = tonumber(nowArg)
  local nxt = redis.call('HGET', P .. 'next', origin)
  -- The origin's next request is not due: another fetcher (or machine) just asked it.
  if nextArg ~= '' and nxt and tonumber(nxt) > now then return false end
  local wkey = P .. 'w:' .. origin
  -- URLs whose time has come move to qz:, where priority orders them. Each URL moves once.
  local due = redis.call('ZRANGEBYSCORE', wkey, '-inf', nowArg)
  for _, member in ipairs(due) do enqueue(origin, member, now, false) end
  if #due > 0 then redis.call('ZREMRANGEBYSCORE', wkey, '-inf', nowArg) end
  local best = takeBest(origin)
  if not best then return false end
  local m = unpackMember(best, origin)
  local key = P .. 'u:' .. m.url
  redis.call('HSET', key, 's', 'l', 'o', origin, 'q', best, 'lid', lid, 'until', untilArg)
  if owner ~= '' then redis.call('HSET', key, 'own', owner) end
  redis.call('ZADD', P .. 'leases', untilArg, m.url)
  redis.call('HINCRBY', COUNTS, 'queued', -1)
  redis.call('HINCRBY', COUNTS, 'leased', 1)
  -- A site's next moment only moves later: one reservation per site, across processes.
  if nextArg ~= '' and (not nxt or tonumber(nxt) < tonumber(nextArg)) then
    redis.call('HSET', P .. 'next', origin, nextArg)
  end
  refresh(origin)
  local referrer = false
  if m.ref then referrer = redis.call('HGET', P .. 'r:' .. origin, m.ref) end
  return { m.url, m.d, m.p, m.nb, referrer, m.meta or false, m.a }
end
`;

/**
 * lease. ARGV: shard part T, origin, now, until, nextAt ('' when the caller holds the
 * reservation), lease id, owner ('' for none). Returns null, or url, depth, priority,
 * notBefore, referrer, meta, attempts, the shard's write count.
 */
export const LEASE = `${PRELUDE}${LEASE_BODY}${COUNT_WRITE_BODY}
local entry = leaseOne(ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
if not entry then return false end
entry[#entry + 1] = countWrite()
return entry
`;

/**
 * settle. ARGV: shard part T, url, lease id, kind, then for done: at, status; skipped and
 * failed: at, reason; retry and defer: notBefore, reason. Returns 1, or 0 when the lease was no
 * longer held (recovered since).
 */
export const SETTLE_BODY = `
-- Ends a lease: 1, or 0 when it was no longer held (recovered since). a: at (done, skipped,
-- failed) or notBefore (retry, defer). The status or reason is the log's to keep.
local function settleOne(url, lid, kind, a)
  local key = P .. 'u:' .. url
  local v = redis.call('HMGET', key, 's', 'lid', 'o', 'q')
  if v[1] ~= 'l' or v[2] ~= lid then return 0 end
  redis.call('ZREM', P .. 'leases', url)
  redis.call('DEL', key)
  redis.call('HINCRBY', COUNTS, 'leased', -1)
  if kind == 'retry' or kind == 'defer' then
    local m = unpackMember(v[4], v[3])
    m.nb = a
    if kind == 'retry' then m.a = tostring(tonumber(m.a) + 1) end
    redis.call('ZADD', P .. 'w:' .. v[3], a, packMember(m, v[3]))
    redis.call('HINCRBY', COUNTS, 'queued', 1)
    refresh(v[3])
    return 1
  end
  local states = { done = 'd', skipped = 'k', failed = 'f' }
  redis.call('HSET', key, 's', states[kind])
  redis.call('HINCRBY', COUNTS, kind, 1)
  return 1
end
`;

/**
 * settle. ARGV: shard part T, url, lease id, kind, then for done: at, status; skipped and
 * failed: at, reason; retry and defer: notBefore, reason. Returns 1, or 0 when the lease was no
 * longer held (recovered since), and the shard's write count.
 */
export const SETTLE = `${PRELUDE}${SETTLE_BODY}${COUNT_WRITE_BODY}
return { settleOne(ARGV[2], ARGV[3], ARGV[4], ARGV[5]), countWrite() }
`;

/** The lease of a URL given back to the queue (a lease ended or its process died). */
export const REQUEUE_BODY = `
-- Puts the leased URL back in its queue, due at 'now' or later: 1, or 0 when not leased.
local function requeue(url, now, owner)
  local key = P .. 'u:' .. url
  local v = redis.call('HMGET', key, 's', 'o', 'q', 'own')
  if v[1] ~= 'l' or (owner and v[4] ~= owner) then return 0 end
  redis.call('DEL', key)
  redis.call('ZREM', P .. 'leases', url)
  enqueue(v[2], v[3], now, false)
  refresh(v[2])
  return 1
end
`;

/** recover. ARGV: shard part T, now. Returns how many leases went back to the queue. */
export const RECOVER = `${PRELUDE}${REQUEUE_BODY}
local now = tonumber(ARGV[2])
local ended = redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', '(' .. ARGV[2])
local count = 0
for _, url in ipairs(ended) do count = count + requeue(url, now, nil) end
if #ended > 0 then redis.call('ZREMRANGEBYSCORE', P .. 'leases', '-inf', '(' .. ARGV[2]) end
if count > 0 then
  redis.call('HINCRBY', COUNTS, 'leased', -count)
  redis.call('HINCRBY', COUNTS, 'queued', count)
end
return count
`;

/** setNextAt. ARGV: shard part T, origin, at. Only ever later (DESIGN §2). */
export const SET_NEXT = `${PRELUDE}
local nxt = redis.call('HGET', P .. 'next', ARGV[2])
if nxt and tonumber(nxt) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', P .. 'next', ARGV[2], ARGV[3])
refresh(ARGV[2])
return 1
`;

/**
 * ready. KEYS: every shard's part T; ARGV: max score, how many a shard. Each shard's first
 * origins of its ready set up to that score, as origin, score pairs, shard after shard. On one
 * server only: it reads several slots, which a cluster refuses (there each shard is asked
 * apart).
 */
export const READY = `
local out = {}
for _, T in ipairs(KEYS) do
  local due = redis.call('ZRANGEBYSCORE', T .. 'ready', '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[2])
  for _, v in ipairs(due) do out[#out + 1] = v end
end
return out
`;

/**
 * claimReady. KEYS: shards' parts T, in the order to look; ARGV: now, limit, the moment the
 * claimed are held back until, then the origins to pass over. Takes each shard's due origins
 * soonest first until `limit` are claimed: a claimed origin's score moves to the hold moment,
 * so that no other process is handed it (its visit's next write in the store sets its score
 * again, ./scripts.ts refresh). Returns the claimed origins, then the moment to look again:
 * now when the limit was reached, else the soonest score of the rest ('' when none is queued).
 */
export const CLAIM_READY = `
local now, limit, hold = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local skip, skipped = {}, 0
for i = 4, #ARGV do skip[ARGV[i]] = true; skipped = skipped + 1 end
local out = {}
for _, T in ipairs(KEYS) do
  if #out == limit then break end
  local due = redis.call('ZRANGEBYSCORE', T .. 'ready', '-inf', now, 'LIMIT', 0, limit - #out + skipped)
  for _, origin in ipairs(due) do
    if #out < limit and not skip[origin] then
      redis.call('ZADD', T .. 'ready', hold, origin)
      out[#out + 1] = origin
      skip[origin] = true
    end
  end
end
if #out == limit then
  out[#out + 1] = now
  return out
end
local soonest = false
for _, T in ipairs(KEYS) do
  local first = redis.call('ZRANGE', T .. 'ready', 0, skipped + #out, 'WITHSCORES')
  for i = 1, #first, 2 do
    if not skip[first[i]] then
      if not soonest or tonumber(first[i + 1]) < tonumber(soonest) then soonest = first[i + 1] end
      break
    end
  end
end
out[#out + 1] = soonest or ''
return out
`;
