-- Weir's GCRA (ITU-T I.371 virtual scheduling) on Redis keys: GcraBucket.acquire, line for line,
-- on Redis's own clock, and JointCharge for a call that several cluster limits apply to. One call
-- is atomic (a script runs alone), so the CAS loops of the local core are not needed; everything
-- else is the same arithmetic on the same ticks, with the same settings, passed by the calling JVM
-- with each call.
--
-- A bucket's settings are a block of ten arguments, from ARGV[b]:
--   b+0 ticks per nanosecond (1..1024): the bucket's time unit   b+1 T, the emission interval
--   b+2 the call's cost, permits * T, in ticks (2^61 = never)    b+3 admitLimit   b+4 freeLimit
--   b+5 retryBase   b+6 emptyAhead   b+7 clockBackLimit   b+8 burst, capacity * T
--   b+9 t | p | s (the discipline)
--
-- One bucket, KEYS[1] (weir:{NAME} or weir:{NAME:KEY}, under the key prefix):
-- ARGV[1]  operation: a = acquire, p = probe (retry-after, nothing taken), r = refund (give back
--          the cost), v = view (ticks the state is ahead of now, for AvailablePermits); w = the
--          backend's health probe: TIME and a write of KEYS[1] (no other argument)
-- ARGV[2..11] the settings block   ARGV[12] (tests only) now in microseconds, in place of TIME (the
--          expiry, in Redis's own time, then gets a minute more)
-- Answers, in ticks: acquire >= 0 admitted after waiting that long; < 0 limited, admissible after
-- -answer (<= -2^61: never); probe >= 0 retry-after; view >= 0 ahead.
--
-- Several buckets, one per key, all or nothing (JointCharge):
-- ARGV[1]  j = charge the call on every key at one departure, or on none; u = undo such charges
-- ARGV[2]  (j) the earliest departure, nanoseconds from now   ARGV[3] (j) the latest one allowed
--          (-1: none; only the waits are answered, nothing is charged)
-- ARGV[4]  (tests only) now in microseconds; '' for TIME
-- ARGV[5..] one block per key: its ten settings, and for u the two states j answered for it
-- j answers {D, w1..wn, before1, after1, ..., beforen, aftern}: charged on every key at the
-- departure D nanoseconds from now, wi each key's own wait (ns, -1 never), and each key's state
-- before and after its charge; or {-1, w1..wn}: refused by the waits, nothing charged.
--
-- The state is GcraBucket.fullAt, the theoretical arrival time, stored as "S O|TPN T BURST":
-- fullAt = S seconds + O ticks, so every number stays an exact Lua double (below 2^53) however
-- late the epoch; TPN, T and BURST are the settings it was written with, for a live change (a
-- string compare per call; parsed only when they differ).
local op = ARGV[1]
if op == 'w' then
  -- the backend's probe: what every call needs of Redis, its clock (a user or a config that
  -- refuses TIME refuses every call) and a write where calls write, expiring in a second
  redis.call('TIME')
  redis.call('SET', KEYS[1], '1', 'PX', 1000)
  return 0
end
local NEVER = 2 ^ 61
local joint = op == 'j' or op == 'u'
local test = ARGV[12]
if joint then
  test = ARGV[4] ~= '' and ARGV[4] or nil
end

local nowS, nowMicros
if test then
  nowS = math.floor(tonumber(test) / 1000000)
  nowMicros = tonumber(test) - nowS * 1000000
else
  local time = redis.call('TIME')
  nowS = tonumber(time[1])
  nowMicros = tonumber(time[2])
end

-- the settings as stored with a state
local function settingsOf(b)
  return ARGV[b] .. ' ' .. ARGV[b + 1] .. ' ' .. ARGV[b + 8]
end

-- a stored "S O" state: ticks it is ahead of now
local function aheadOf(so, tpn)
  local space = string.find(so, ' ', 1, true)
  local s = space and tonumber(string.sub(so, 1, space - 1))
  local o = space and tonumber(string.sub(so, space + 1))
  if not o then
    return nil
  end
  return (s - nowS) * 1000000000 * tpn + (o - nowMicros * 1000 * tpn)
end

local function corrupt(key)
  error({err = 'WEIR_STATE ' .. key .. ' holds no Weir bucket state'})
end

-- the bucket of block b at key: the ticks its state is ahead of now, in the block's settings;
-- no key: 0, idle (a token bucket full, a leaky bucket drained); and the stored string
local function read(key, b)
  local stored = redis.call('GET', key)
  if not stored then
    return 0, nil
  end
  local bar = string.find(stored, '|', 1, true)
  local tpn = tonumber(ARGV[b])
  local ahead = bar and aheadOf(string.sub(stored, 1, bar - 1), tpn)
  if not ahead then
    corrupt(key)
  end
  local written = string.sub(stored, bar + 1)
  if written == settingsOf(b) then
    return ahead, stored
  end
  -- written with other settings: GcraBucket.aheadAfterChange, by the live-change rules
  local oldTpn, oldT, oldBurst = string.match(written, '^(%d+) (%d+) (%d+)$')
  oldTpn = tonumber(oldTpn)
  oldT = tonumber(oldT)
  oldBurst = tonumber(oldBurst)
  if not oldBurst then
    corrupt(key)
  end
  local a = math.max(aheadOf(string.sub(stored, 1, bar - 1), oldTpn), 0)
  local interval = tonumber(ARGV[b + 1])
  local burst = tonumber(ARGV[b + 8])
  local discipline = ARGV[b + 9]
  if discipline == 't' then
    -- permits on hand kept (floor), clamped to the new capacity; none added
    local kept = math.floor((oldBurst - a) * interval / oldT)
    ahead = burst - math.min(kept, burst)
  elseif discipline == 'p' then
    ahead = math.ceil(a * interval / oldT) -- the water level kept, rounded up
  else
    -- the last departure keeps its slot; the next leaves one new interval after it
    local old = aheadOf(string.sub(stored, 1, bar - 1), oldTpn)
    ahead = math.ceil((old - oldT) * tpn / oldTpn) + interval
  end
  return math.min(math.max(ahead, 0), NEVER), stored
end

-- the state of fullAt = now + ahead, as stored
local function stateOf(b, ahead)
  local tpn = tonumber(ARGV[b])
  return nowS .. ' ' .. string.format('%.0f', nowMicros * 1000 * tpn + ahead)
end

-- fullAt = now + ahead, with an expiry of the time until the bucket is idle again (never 0)
local function write(key, b, ahead)
  if ahead <= 0 then
    redis.call('DEL', key)
    return ''
  end
  local millis = math.ceil(ahead / (1000000 * tonumber(ARGV[b])))
  if test then
    millis = millis + 60000 -- tests: the state's time is theirs, the expiry Redis's own
  end
  local state = stateOf(b, ahead)
  redis.call('SET', key, state .. '|' .. settingsOf(b), 'PX', millis)
  return state
end

-- ticks to nanoseconds, rounded up
local function nanosCeil(ticks, tpn)
  local q = math.floor(ticks / tpn)
  if q * tpn < ticks then
    q = q + 1
  end
  return q
end

if op == 'j' then
  local n = #KEYS
  local departure = tonumber(ARGV[2])
  local reply = {0}
  local aheads = {}
  local never = false
  for i = 1, n do
    local b = 5 + (i - 1) * 10
    local ahead = read(KEYS[i], b)
    if ahead > tonumber(ARGV[b + 7]) then
      ahead = tonumber(ARGV[b + 6]) -- Redis's clock went back: empty, as for one bucket
      write(KEYS[i], b, ahead)
    end
    aheads[i] = ahead
    local needed = math.max(ahead, 0) + tonumber(ARGV[b + 2])
    local wait = -1
    if needed < NEVER and tonumber(ARGV[b + 1]) < NEVER then
      wait = nanosCeil(math.max(needed - tonumber(ARGV[b + 4]), 0), tonumber(ARGV[b]))
      departure = math.max(departure, wait)
    else
      never = true
    end
    reply[i + 1] = wait
  end
  if never or departure > tonumber(ARGV[3]) then
    reply[1] = -1
    return reply
  end
  reply[1] = departure
  for i = 1, n do
    -- JointCharge.chargeAt: as if it arrived at the departure (a shaping bucket: its last permit)
    local b = 5 + (i - 1) * 10
    local cost = tonumber(ARGV[b + 2])
    local x = departure * tonumber(ARGV[b]) + math.min(0, tonumber(ARGV[b + 4]) - cost)
    reply[n + 2 * i] = stateOf(b, aheads[i])
    reply[n + 2 * i + 1] = write(KEYS[i], b, math.max(x, aheads[i]) + cost)
  end
  return reply
end

if op == 'u' then
  -- JointCharge.undo: exact where no later charge stands, or on a bucket where no call waits
  for i = 1, #KEYS do
    local b = 5 + (i - 1) * 12
    local stored = redis.call('GET', KEYS[i])
    local bar = stored and string.find(stored, '|', 1, true)
    -- gone: idle, its slot passed; other settings: a live change keeps the charge (less admitted)
    if bar and string.sub(stored, bar + 1) == settingsOf(b) then
      local tpn = tonumber(ARGV[b])
      local before = aheadOf(ARGV[b + 10], tpn)
      local state = string.sub(stored, 1, bar - 1)
      if state == ARGV[b + 11] then
        write(KEYS[i], b, before)
      elseif ARGV[b + 3] == ARGV[b + 4] then
        local give = aheadOf(ARGV[b + 11], tpn) - math.max(before, 0)
        if give > 0 then
          write(KEYS[i], b, aheadOf(state, tpn) - give)
        end
      end
    end
  end
  return 0
end

local b = 2
local key = KEYS[1]
local interval = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local admitLimit = tonumber(ARGV[5])
local freeLimit = tonumber(ARGV[6])
local retryBase = tonumber(ARGV[7])
local ahead, stored = read(key, b)

if op == 'v' then
  return math.max(ahead, 0)
end

local new = nil -- the new ahead to store, if any
local answer
if op == 'r' then
  if stored then
    new = ahead - cost -- the costs of calls add: taking one away leaves the others'
  end
  answer = 0
else
  if ahead > tonumber(ARGV[9]) then
    -- Redis's clock went back (or a failover reached a server whose clock is behind) by more
    -- than the burst plus the longest wait: the bucket is taken as empty
    -- (GcraBucket.resetAfterClockStep); within that margin it is just fuller than any call can use
    ahead = tonumber(ARGV[8])
    if op == 'a' then
      new = ahead
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
    new = needed
    answer = math.max(needed - freeLimit, 0)
  end
end
if new then
  write(key, b, new)
end
return answer
