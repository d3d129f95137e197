-- Weir's GCRA (ITU-T I.371 virtual scheduling) on one Redis key: GcraBucket.acquire, line for
-- line, on Redis's own clock. One call is atomic (a script runs alone), so the CAS loop of the
-- local core is not needed; everything else is the same arithmetic on the same ticks, with the
-- same settings, passed by the calling JVM with each call.
--
-- KEYS[1]  the bucket's key (weir:{NAME} or weir:{NAME:KEY}, under the key prefix)
-- ARGV[1]  operation: a = acquire, p = probe (retry-after, nothing taken), r = refund (give back
--          the cost), v = view (ticks the state is ahead of now, for AvailablePermits); w = the
--          backend's health probe: TIME and a write of KEYS[1] (no other argument)
-- ARGV[2]  ticks per nanosecond (1..1024): the bucket's time unit
-- ARGV[3]  T, the emission interval, in ticks
-- ARGV[4]  the call's cost, permits * T, in ticks (2^61 = never)
-- ARGV[5]  admitLimit   ARGV[6] freeLimit   ARGV[7] retryBase   ARGV[8] emptyAhead
-- ARGV[9]  clockBackLimit   ARGV[10] burst, capacity * T   ARGV[11] t | p | s (the discipline)
-- ARGV[12] (tests only) now in microseconds, in place of TIME (the expiry, in Redis's own time,
--          then gets a minute more)
--
-- The state is GcraBucket.fullAt, the theoretical arrival time, stored as "S O|TPN T BURST":
-- fullAt = S seconds + O ticks, so every number stays an exact Lua double (below 2^53) however
-- late the epoch; TPN, T and BURST are the settings it was written with, for a live change (a
-- string compare per call; parsed only when they differ). Straight-line code, no closures: the
-- script runs once per acquire.
-- Answers, in ticks: acquire >= 0 admitted after waiting that long; < 0 limited, admissible after
-- -answer (<= -2^61: never); probe >= 0 retry-after; view >= 0 ahead.
local key = KEYS[1]
if ARGV[1] == 'w' then
  -- the backend's probe: what every call needs of Redis, its clock (a user or a config that
  -- refuses TIME refuses every call) and a write where calls write, expiring in a second
  redis.call('TIME')
  redis.call('SET', key, '1', 'PX', 1000)
  return 0
end
local NEVER = 2 ^ 61
local op = ARGV[1]
local tpn = tonumber(ARGV[2])
local interval = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local admitLimit = tonumber(ARGV[5])
local freeLimit = tonumber(ARGV[6])
local retryBase = tonumber(ARGV[7])
local emptyAhead = tonumber(ARGV[8])
local clockBackLimit = tonumber(ARGV[9])
local settings = ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. ARGV[10]

local nowS, nowMicros
if ARGV[12] then
  nowS = math.floor(tonumber(ARGV[12]) / 1000000)
  nowMicros = tonumber(ARGV[12]) - nowS * 1000000
else
  local time = redis.call('TIME')
  nowS = tonumber(time[1])
  nowMicros = tonumber(time[2])
end
local nowO = nowMicros * 1000 * tpn -- now = nowS seconds + nowO ticks

-- ahead: fullAt - now, in ticks; no key: idle (a token bucket full, a leaky bucket drained)
local ahead = 0
local stored = redis.call('GET', key)
if stored then
  local bar = string.find(stored, '|', 1, true)
  local space = bar and string.find(stored, ' ', 1, true)
  local s = space and tonumber(string.sub(stored, 1, space - 1))
  local o = space and tonumber(string.sub(stored, space + 1, bar - 1))
  if not o then
    return redis.error_reply('WEIR_STATE ' .. key .. ' holds no Weir bucket state')
  end
  local written = string.sub(stored, bar + 1)
  if written == settings then
    ahead = (s - nowS) * 1000000000 * tpn + (o - nowO)
  else
    -- written with other settings: GcraBucket.aheadAfterChange, by the live-change rules
    local oldTpn, oldT, oldBurst = string.match(written, '^(%d+) (%d+) (%d+)$')
    oldTpn = tonumber(oldTpn)
    oldT = tonumber(oldT)
    oldBurst = tonumber(oldBurst)
    if not oldBurst then
      return redis.error_reply('WEIR_STATE ' .. key .. ' holds no Weir bucket state')
    end
    local old = (s - nowS) * 1000000000 * oldTpn + (o - nowMicros * 1000 * oldTpn)
    local a = math.max(old, 0)
    local burst = tonumber(ARGV[10])
    if ARGV[11] == 't' then
      -- permits on hand kept (floor), clamped to the new capacity; none added
      local kept = math.floor((oldBurst - a) * interval / oldT)
      ahead = burst - math.min(kept, burst)
    elseif ARGV[11] == 'p' then
      ahead = math.ceil(a * interval / oldT) -- the water level kept, rounded up
    else
      -- the last departure keeps its slot; the next leaves one new interval after it
      ahead = math.ceil((old - oldT) * tpn / oldTpn) + interval
    end
    ahead = math.min(math.max(ahead, 0), NEVER)
  end
end

if op == 'v' then
  return math.max(ahead, 0)
end

local write = nil -- the new ahead to store, if any
local answer
if op == 'r' then
  if stored then
    write = ahead - cost -- the costs of calls add: taking one away leaves the others'
  end
  answer = 0
else
  if ahead > clockBackLimit then
    -- Redis's clock went back (or a failover reached a server whose clock is behind) by more
    -- than the burst plus the longest wait: the bucket is taken as empty
    -- (GcraBucket.resetAfterClockStep); within that margin it is just fuller than any call can use
    ahead = emptyAhead
    if op == 'a' then
      write = ahead
    end
  end
  local needed = math.max(ahead, 0) + cost
  local retry = needed - retryBase -- limited: admissible after this (GcraBucket.limited)
  if retry >= NEVER or interval >= NEVER then
    retry = NEVER
  end
  if op == 'p' then
    answer = 0
    if needed > retryBase then
      answer = retry
    end
  elseif needed > admitLimit then
    answer = -retry
  else
    write = needed
    answer = math.max(needed - freeLimit, 0)
  end
end

-- fullAt = now + write, with an expiry of the time until the bucket is idle again (never 0)
if write then
  if write <= 0 then
    redis.call('DEL', key)
  else
    local millis = math.ceil(write / (1000000 * tpn))
    if ARGV[12] then
      millis = millis + 60000 -- tests: the state's time is theirs, the expiry Redis's own
    end
    redis.call('SET', key, nowS .. ' ' .. string.format('%.0f', nowO + write) .. '|' .. settings,
      'PX', millis)
  end
end
return answer
