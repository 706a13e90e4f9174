/**
 * The frontier's Lua scripts: each runs atomically inside Redis, so crawler processes on many
 * machines sharing one Redis never lease the same URL, and a lease sets the origin's next
 * request moment in the same step.
 *
 * Every key is `prefix .. name`, the prefix being ARGV[1] (see ./keys.ts for the layout). The
 * keys are computed inside the scripts, so they run on one Redis server, or on one cluster slot
 * when the prefix holds a hash tag (`{crawl-1}:`).
 *
 * Moments and scores travel as the strings JavaScript wrote (String(n) round-trips a double);
 * the scripts compare them with tonumber but store the strings as given, so Lua's 14-digit
 * number formatting never touches a stored value.
 */

/** Fixed width of the arrival number that starts a queue member: ties of score sort by it. */
export const SEQ_WIDTH = 15;

/**
 * Every script is defined with one key, the prefix (so that a cluster client sends it to the
 * node owning the prefix's hash slot: every key of the crawl is in that slot), and reads it as
 * ARGV[1], where the scripts had it before.
 */
export const ROUTED = `
table.insert(ARGV, 1, KEYS[1])
`;

export const PRELUDE = `${ROUTED}
local P = ARGV[1]
local COUNTS = P .. 'counts'

-- Keeps the origin's entry in the ready set: due when both a queued URL and the next request
-- are due; absent when nothing is queued. A URL in q: was due at an earlier lease, so the
-- origin waits only for its next request moment.
local function refresh(origin)
  local due
  if redis.call('ZCARD', P .. 'q:' .. origin) > 0 then
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
  redis.call('ZADD', P .. 'ready', due, origin)
end

-- Queues a member: in q: (by priority, then arrival) when due at 'now', else in w: by time.
local function enqueue(origin, member, nb, qs, now)
  if tonumber(nb) <= now then
    redis.call('ZADD', P .. 'q:' .. origin, qs, member)
  else
    redis.call('ZADD', P .. 'w:' .. origin, nb, member)
  end
end

-- Nullable text arrives as '0' (null) or '1' followed by the text.
local function setNullable(key, field, value)
  if string.sub(value, 1, 1) == '1' then
    redis.call('HSET', key, field, string.sub(value, 2))
  end
end
`;

/**
 * add and revisit. ARGV: prefix, 'add' | 'revisit', then 8 strings a URL: url, origin, depth,
 * priority, queue score (-priority), notBefore, referrer and meta (nullable). Returns how many
 * were queued.
 */
export const ADD_BODY = `
-- Queues the URLs of ARGV[first..last], 8 strings each; returns how many were queued.
local function addUrls(revisit, first, last)
  local touched = {}
  local added, requeued = 0, 0
  for i = first, last, 8 do
    local url = ARGV[i]
    local key = P .. 'u:' .. url
    local state = redis.call('HGET', key, 's')
    local origin, seq
    if not state then
      origin = ARGV[i + 1]
      seq = string.format('%0${SEQ_WIDTH}d', redis.call('INCR', P .. 'seq'))
      redis.call('HSET', key, 'o', origin, 'n', seq)
      added = added + 1
    elseif revisit and state == 'd' then
      local v = redis.call('HMGET', key, 'o', 'n')
      origin, seq = v[1], v[2]
      redis.call('HDEL', key, 'r', 'm', 'st', 'why', 'at')
      requeued = requeued + 1
    end
    if origin then
      redis.call('HSET', key, 's', 'q', 'a', '0', 'd', ARGV[i + 2], 'p', ARGV[i + 3],
        'qs', ARGV[i + 4], 'nb', ARGV[i + 5])
      setNullable(key, 'r', ARGV[i + 6])
      setNullable(key, 'm', ARGV[i + 7])
      enqueue(origin, seq .. url, ARGV[i + 5], ARGV[i + 4], 0)
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
 * add and revisit. ARGV: prefix, 'add' | 'revisit', then 8 strings a URL: url, origin, depth,
 * priority, queue score (-priority), notBefore, referrer and meta (nullable). Returns how many
 * were queued.
 */
export const ADD = `${PRELUDE}${ADD_BODY}
return addUrls(ARGV[2] == 'revisit', 3, #ARGV)
`;

/**
 * lease. ARGV: prefix, origin, now, until, nextAt ('' when the caller holds the reservation),
 * lease id, owner ('' for none). Returns null, or url, depth,
 * priority, notBefore, referrer, meta, attempts.
 */
export const LEASE_BODY = `
-- Leases the origin's best due URL: false, or url, depth, priority, notBefore, referrer, meta,
-- attempts. An empty nextAt: the caller holds the site's reservation, which kept the gap.
local function leaseOne(origin, nowArg, untilArg, nextArg, lid, owner)
  local now = tonumber(nowArg)
  local nxt = redis.call('HGET', P .. 'next', origin)
  -- The origin's next request is not due: another fetcher (or machine) just asked it.
  if nextArg ~= '' and nxt and tonumber(nxt) > now then return false end
  local qkey, wkey = P .. 'q:' .. origin, P .. 'w:' .. origin
  -- URLs whose time has come move to q:, where priority orders them. Each URL moves once.
  local due = redis.call('ZRANGEBYSCORE', wkey, '-inf', nowArg)
  for _, member in ipairs(due) do
    local qs = redis.call('HGET', P .. 'u:' .. string.sub(member, ${SEQ_WIDTH + 1}), 'qs')
    redis.call('ZADD', qkey, qs, member)
  end
  if #due > 0 then redis.call('ZREMRANGEBYSCORE', wkey, '-inf', nowArg) end
  local best = redis.call('ZRANGE', qkey, 0, 0)[1]
  if not best then return false end
  redis.call('ZREM', qkey, best)
  local url = string.sub(best, ${SEQ_WIDTH + 1})
  local key = P .. 'u:' .. url
  redis.call('HSET', key, 's', 'l', 'lid', lid, 'until', untilArg)
  if owner ~= '' then redis.call('HSET', key, 'own', owner) end
  redis.call('ZADD', P .. 'leases', untilArg, url)
  redis.call('HINCRBY', COUNTS, 'queued', -1)
  redis.call('HINCRBY', COUNTS, 'leased', 1)
  -- A site's next moment only moves later: one reservation per site, across processes.
  if nextArg ~= '' and (not nxt or tonumber(nxt) < tonumber(nextArg)) then
    redis.call('HSET', P .. 'next', origin, nextArg)
  end
  refresh(origin)
  local entry = redis.call('HMGET', key, 'd', 'p', 'nb', 'r', 'm', 'a')
  table.insert(entry, 1, url)
  return entry
end
`;

/**
 * lease. ARGV: prefix, origin, now, until, nextAt ('' when the caller holds the reservation),
 * lease id, owner ('' for none). Returns null, or url, depth,
 * priority, notBefore, referrer, meta, attempts.
 */
export const LEASE = `${PRELUDE}${LEASE_BODY}
return leaseOne(ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
`;

/**
 * settle. ARGV: prefix, url, lease id, kind, then for done: at, status; skipped and failed:
 * at, reason; retry and defer: notBefore, reason. Returns 1, or 0 when the lease was no longer
 * held (recovered since).
 */
export const SETTLE_BODY = `
-- Ends a lease: 1, or 0 when it was no longer held (recovered since). a and b: at and status
-- (done), at and reason (skipped, failed), notBefore and reason (retry, defer).
local function settleOne(url, lid, kind, a, b)
  local key = P .. 'u:' .. url
  local v = redis.call('HMGET', key, 's', 'lid', 'o', 'n')
  if v[1] ~= 'l' or v[2] ~= lid then return 0 end
  redis.call('ZREM', P .. 'leases', url)
  redis.call('HDEL', key, 'lid', 'until', 'own')
  redis.call('HINCRBY', COUNTS, 'leased', -1)
  if kind == 'retry' or kind == 'defer' then
    redis.call('HSET', key, 's', 'q', 'nb', a, 'why', b)
    if kind == 'retry' then redis.call('HINCRBY', key, 'a', 1) end
    redis.call('ZADD', P .. 'w:' .. v[3], a, v[4] .. url)
    redis.call('HINCRBY', COUNTS, 'queued', 1)
    refresh(v[3])
    return 1
  end
  local states = { done = 'd', skipped = 'k', failed = 'f' }
  redis.call('HSET', key, 's', states[kind], 'at', a)
  if kind == 'done' then
    redis.call('HSET', key, 'st', b)
  else
    redis.call('HSET', key, 'why', b)
  end
  redis.call('HINCRBY', COUNTS, kind, 1)
  return 1
end
`;

/**
 * settle. ARGV: prefix, url, lease id, kind, then for done: at, status; skipped and failed:
 * at, reason; retry and defer: notBefore, reason. Returns 1, or 0 when the lease was no longer
 * held (recovered since).
 */
export const SETTLE = `${PRELUDE}${SETTLE_BODY}
return settleOne(ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
`;

/** recover. ARGV: prefix, now. Returns how many leases went back to the queue. */
export const RECOVER = `${PRELUDE}
local now = tonumber(ARGV[2])
local ended = redis.call('ZRANGEBYSCORE', P .. 'leases', '-inf', '(' .. ARGV[2])
local touched = {}
local count = 0
for _, url in ipairs(ended) do
  local key = P .. 'u:' .. url
  local v = redis.call('HMGET', key, 's', 'o', 'n', 'nb', 'qs')
  if v[1] == 'l' then
    redis.call('HSET', key, 's', 'q')
    redis.call('HDEL', key, 'lid', 'until', 'own')
    enqueue(v[2], v[3] .. url, v[4], v[5], now)
    touched[v[2]] = true
    count = count + 1
  end
end
if #ended > 0 then redis.call('ZREMRANGEBYSCORE', P .. 'leases', '-inf', '(' .. ARGV[2]) end
if count > 0 then
  redis.call('HINCRBY', COUNTS, 'leased', -count)
  redis.call('HINCRBY', COUNTS, 'queued', count)
end
for origin in pairs(touched) do refresh(origin) end
return count
`;

/** setNextAt. ARGV: prefix, origin, at. Only ever later (DESIGN §2). */
export const SET_NEXT = `${PRELUDE}
local nxt = redis.call('HGET', P .. 'next', ARGV[2])
if nxt and tonumber(nxt) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', P .. 'next', ARGV[2], ARGV[3])
refresh(ARGV[2])
return 1
`;
