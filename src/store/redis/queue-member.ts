/**
 * A queued URL in Redis is one packed string, a member of its site's queue (./keys.ts), and
 * nothing more: a full hash for every URL in the queue cost about 440 bytes a URL. These Lua
 * functions pack and unpack it inside the scripts (./scripts.ts).
 *
 * The member: the site's arrival number as {@link SEQ_BYTES} bytes, big-endian (so equal
 * priorities sort oldest first, Redis comparing members bytewise), then the text
 * `depth,attempts,priority,notBefore,referrer,metaLength,full`, a space, the meta, and the URL:
 * only its path when it starts with the origin and a slash (`full` empty), else whole
 * (`full` = f). An empty number is 0; an empty referrer (a number in `r:<origin>`) or meta
 * length is null. Numbers keep the text JavaScript wrote.
 *
 * The dedup: each URL ever added to a site is a 52-bit number from its SHA-1 (exact in Lua's
 * doubles and in an intset), in one of the site's buckets. The buckets split one at a time as
 * the site grows (linear hashing), so each stays under the intset limit: 8 bytes a URL.
 */

/** Bytes of the arrival number that starts a member: 2^48 arrivals a site. */
export const SEQ_BYTES = 6;

/**
 * URLs a dedup bucket holds on average before the next bucket splits. Redis keeps a set of
 * integers as a compact intset up to `set-max-intset-entries` (512 by default); a bucket not
 * split yet in a round holds up to twice the average, so 200 keeps nearly all under 512.
 */
export const BUCKET_LOAD = 200;

export const MEMBER_LUA = `
local function seqBytes(n)
  local out = {}
  for i = ${SEQ_BYTES}, 1, -1 do
    out[i] = string.char(n % 256)
    n = math.floor(n / 256)
  end
  return table.concat(out)
end

local function seqOf(member)
  local n = 0
  for i = 1, ${SEQ_BYTES} do n = n * 256 + string.byte(member, i) end
  return n
end

-- The score of priority p: -p, written from p's own text.
local function negate(p)
  if string.sub(p, 1, 1) == '-' then return string.sub(p, 2) end
  return '-' .. p
end

local function blankZero(v)
  if v == '0' then return '' end
  return v
end

local function zeroBlank(v)
  if v == '' then return '0' end
  return v
end

-- m: seq (number), url, d, a, p, nb (texts), ref and meta (texts or nil).
local function packMember(m, origin)
  local path, full = m.url, 'f'
  if string.sub(m.url, 1, #origin + 1) == origin .. '/' then
    path, full = string.sub(m.url, #origin + 1), ''
  end
  local meta, length = '', ''
  if m.meta then meta, length = m.meta, tostring(#m.meta) end
  return seqBytes(m.seq) .. blankZero(m.d) .. ',' .. blankZero(m.a) .. ',' .. blankZero(m.p) ..
    ',' .. blankZero(m.nb) .. ',' .. (m.ref or '') .. ',' .. length .. ',' .. full .. ' ' ..
    meta .. path
end

local function unpackMember(member, origin)
  local space = string.find(member, ' ', ${SEQ_BYTES + 1}, true)
  local f = {}
  for field in string.gmatch(string.sub(member, ${SEQ_BYTES + 1}, space - 1) .. ',', '([^,]*),') do
    f[#f + 1] = field
  end
  local m = { seq = seqOf(member), d = zeroBlank(f[1]), a = zeroBlank(f[2]),
    p = zeroBlank(f[3]), nb = zeroBlank(f[4]) }
  if f[5] ~= '' then m.ref = f[5] end
  local rest = string.sub(member, space + 1)
  if f[6] ~= '' then
    local length = tonumber(f[6])
    m.meta = string.sub(rest, 1, length)
    rest = string.sub(rest, length + 1)
  end
  if f[7] == 'f' then m.url = rest else m.url = origin .. rest end
  return m
end

local function bucketKey(origin, b)
  return P .. 'h:' .. origin .. ' ' .. string.format('%.0f', b)
end

-- Splits the site's bucket sp in two (linear hashing): its numbers of the next level's other
-- half move to bucket sp + 2^L.
local function splitBucket(origin, site, level, sp)
  local span = 2 ^ level
  local from, to = bucketKey(origin, sp), bucketKey(origin, sp + span)
  local moving = {}
  for _, digest in ipairs(redis.call('SMEMBERS', from)) do
    if tonumber(digest) % (span * 2) ~= sp then moving[#moving + 1] = digest end
  end
  if #moving > 0 then
    redis.call('SREM', from, unpack(moving))
    redis.call('SADD', to, unpack(moving))
  end
  sp = sp + 1
  if sp == span then level, sp = level + 1, 0 end
  redis.call('HSET', P .. 's:' .. origin, 'L', level, 'sp', sp)
end

-- Remembers the URL in its site's dedup buckets: true when it was not there before.
local function remember(origin, url)
  local digest = tonumber(string.sub(redis.sha1hex(url), 1, 13), 16)
  local site = P .. 's:' .. origin
  local state = redis.call('HMGET', site, 'L', 'sp')
  local level, sp = tonumber(state[1] or '0'), tonumber(state[2] or '0')
  local span = 2 ^ level
  local b = digest % span
  if b < sp then b = digest % (span * 2) end
  if redis.call('SADD', bucketKey(origin, b), string.format('%.0f', digest)) == 0 then
    return false
  end
  if redis.call('HINCRBY', site, 'c', 1) > ${BUCKET_LOAD} * (span + sp) then
    splitBucket(origin, site, level, sp)
  end
  return true
end

-- The number of a referrer in the site's r: hash (number → URL, and '>' URL → number): each
-- referrer is kept once, however many links it gave.
local function referrerOf(origin, nullable)
  if string.sub(nullable, 1, 1) ~= '1' then return nil end
  local url = string.sub(nullable, 2)
  local refs = P .. 'r:' .. origin
  local known = redis.call('HGET', refs, '>' .. url)
  if known then return known end
  local n = tostring(redis.call('HINCRBY', P .. 's:' .. origin, 'rn', 1))
  redis.call('HSET', refs, n, url, '>' .. url, n)
  return n
end
`;
