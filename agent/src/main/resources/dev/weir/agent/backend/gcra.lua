-- Weir's GCRA (ITU-T I.371 virtual scheduling) on one Redis key: GcraBucket.acquire, line for
-- line, on Redis's own clock. One call is atomic (a script runs alone), so the CAS loop of the
-- local core is not needed; everything else is the same arithmetic on the same ticks, with the
-- same settings, passed by the calling JVM with each call.
--
-- KEYS[1]  the bucket's key (weir:{NAME} or weir:{NAME:KEY}, under the key prefix)
-- ARGV[1]  operation: a = acquire, p = probe (retry-after, nothing taken), r = refund (give back
--          the cost), v = view (ticks the state is ahead of now, for AvailablePermits)
-- ARGV[2]  ticks per nanosecond (1..1024): the bucket's time unit
-- ARGV[3]  T, the emission interval, in ticks
-- ARGV[4]  the call's cost, permits * T, in ticks (2^61 = never)
-- ARGV[5]  admitLimit   ARGV[6] freeLimit   ARGV[7] retryBase   ARGV[8] emptyAhead
-- ARGV[9]  clockBackLimit   ARGV[10] burst, capacity * T   ARGV[11] t | p | s (the discipline)
-- ARGV[12] (tests only) now in microseconds, in place of TIME (the expiry, in Redis's own time,
--          then gets a minute more)
--
-- The state is GcraBucket.fullAt, the theoretical arrival time, stored as "S O TPN T BURST":
-- fullAt = S seconds + O ticks, so every number stays an exact Lua double (below 2^53) however
-- late the epoch; TPN, T and BURST are the settings it was written with, for a live change.
-- Answers, in ticks: acquire >= 0 admitted after waiting that long; < 0 limited, admissible after
-- -answer (<= -2^61: never); probe >= 0 retry-after; view >= 0 ahead.
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
local burst = tonumber(ARGV[10])
local discipline = ARGV[11]

local nowS, nowMicros
if ARGV[12] then
  nowS = math.floor(tonumber(ARGV[12]) / 1000000)
  nowMicros = tonumber(ARGV[12]) - nowS * 1000000
else
  local time = redis.call('TIME')
  nowS = tonumber(time[1])
  nowMicros = tonumber(time[2])
end

-- fullAt - now in ticks of `perNano` per nanosecond
local function aheadOf(s, o, perNano)
  return (s - nowS) * 1000000000 * perNano + (o - nowMicros * 1000 * perNano)
end

-- GcraBucket.aheadAfterChange: a state written with other settings, by the live-change rules
local function converted(ahead, oldTpn, oldT, oldBurst)
  local a = math.max(ahead, 0)
  local result
  if discipline == 't' then
    -- permits on hand kept (floor), clamped to the new capacity; none added
    local kept = math.floor((oldBurst - a) * interval / oldT)
    result = burst - math.min(kept, burst)
  elseif discipline == 'p' then
    result = math.ceil(a * interval / oldT) -- the water level kept, rounded up
  else
    -- the last departure keeps its slot; the next leaves one new interval after it
    result = math.ceil((ahead - oldT) * tpn / oldTpn) + interval
  end
  if result <= 0 then
    return 0
  end
  return math.min(result, NEVER)
end

local key = KEYS[1]
local ahead = 0 -- no key: idle (a token bucket full, a leaky bucket drained)
local stored = redis.call('GET', key)
if stored then
  local s, o, oldTpn, oldT, oldBurst =
    string.match(stored, '^(%-?%d+) (%-?%d+) (%d+) (%d+) (%d+)$')
  if not s then
    return redis.error_reply('WEIR_STATE ' .. key .. ' holds no Weir bucket state')
  end
  oldTpn = tonumber(oldTpn)
  ahead = aheadOf(tonumber(s), tonumber(o), oldTpn)
  if oldTpn ~= tpn or tonumber(oldT) ~= interval or tonumber(oldBurst) ~= burst then
    ahead = converted(ahead, oldTpn, tonumber(oldT), tonumber(oldBurst))
  end
end

-- fullAt = now + ahead, written with an expiry of the time until the bucket is idle (never 0)
local function store(newAhead)
  if newAhead <= 0 then
    redis.call('DEL', key)
    return
  end
  local millis = math.ceil(newAhead / (1000000 * tpn))
  if ARGV[12] then
    millis = millis + 60000 -- tests: the state's time is theirs, the expiry Redis's own
  end
  redis.call('SET', key,
    string.format('%d %.0f %d %.0f %.0f', nowS, nowMicros * 1000 * tpn + newAhead, tpn,
      interval, burst),
    'PX', string.format('%d', math.max(millis, 1)))
end

-- GcraBucket.limited: the retry-after beyond the free part
local function limited(needed)
  local retry = needed - retryBase
  if retry >= NEVER or interval >= NEVER then
    return -NEVER
  end
  return -retry
end

if op == 'v' then
  return math.max(ahead, 0)
end
if op == 'r' then
  if stored then
    store(ahead - cost) -- the costs of calls add: taking one away leaves the others'
  end
  return 0
end

local reset = false
if ahead > admitLimit then
  if ahead <= clockBackLimit then
    -- the bucket is just fuller than any call can use
    if op == 'p' then
      return -limited(ahead + cost)
    end
    return limited(ahead + cost)
  end
  -- Redis's clock went back (or a failover reached a server whose clock is behind) by more than
  -- the burst plus the longest wait: take the bucket as empty (GcraBucket.resetAfterClockStep)
  ahead = emptyAhead
  reset = true
end
local needed = math.max(ahead, 0) + cost
if op == 'p' then
  if needed <= retryBase then
    return 0
  end
  return -limited(needed)
end
if needed > admitLimit then
  if reset then
    store(ahead)
  end
  return limited(needed)
end
store(needed)
return math.max(needed - freeLimit, 0)
