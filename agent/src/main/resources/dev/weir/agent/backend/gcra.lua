-- Weir's GCRA (ITU-T I.371 virtual scheduling) on Redis keys: GcraBucket.acquire, line for line,
-- on Redis's own clock, with a token bucket's warm-up (WarmUp), and JointCharge for a call that
-- several cluster limits apply to. One call is atomic (a script runs alone), so the CAS loops of
-- the local core are not needed; everything else is the same arithmetic on the same ticks, with
-- the same settings, passed by the calling JVM with each call.
--
-- A bucket's settings are a block of twelve arguments, from ARGV[b]:
--   b+0 ticks per nanosecond (1..1024): the bucket's time unit   b+1 T, the emission interval
--   b+2 the call's cost, permits * T, in ticks (2^61 = never)    b+3 admitLimit   b+4 freeLimit
--   b+5 retryBase   b+6 emptyAhead   b+7 clockBackLimit   b+8 burst, capacity * T
--   b+9 t | p | s (the discipline)   b+10 U, the warm-up's cold zone (W / 2; 0: no warm-up)
--   b+11 Z, how long the bucket stays full before the cold zone refills
--
-- One bucket, KEYS[1] (weir:{NAME} or weir:{NAME:KEY}, under the key prefix):
-- ARGV[1]  operation: a = acquire, p = probe (retry-after, nothing taken), r = refund (give back
--          the cost; a warm-up keeps it), v = view (ticks the state is ahead of now, for
--          AvailablePermits); w = the backend's health probe: TIME and a write of KEYS[1] (no
--          other argument)
-- ARGV[2..13] the settings block   ARGV[14] (tests only) now in microseconds, in place of TIME (the
--          expiry, in Redis's own time, then gets a minute more)
-- Answers, in ticks: acquire >= 0 admitted after waiting that long; < 0 limited, admissible after
-- -answer (<= -2^61: never); probe >= 0 retry-after; view >= 0 ahead (a cold warm-up answers
-- burst - T when one permit may go at once, else burst).
--
-- Several buckets, one per key, all or nothing (JointCharge; none with a warm-up):
-- ARGV[1]  j = charge the call on every key at one departure, or on none; u = undo such charges
-- ARGV[2]  (j) the earliest departure, nanoseconds from now   ARGV[3] (j) the latest one allowed
--          (-1: none; only the waits are answered, nothing is charged)
-- ARGV[4]  (tests only) now in microseconds; '' for TIME
-- ARGV[5..] one block per key: its twelve settings, and for u the two states j answered for it
-- j answers {D, w1..wn, before1, after1, ..., beforen, aftern}: charged on every key at the
-- departure D nanoseconds from now, wi each key's own wait (ns, -1 never), and each key's state
-- before and after its charge; or {-1, w1..wn}: refused by the waits, nothing charged.
--
-- The state is GcraBucket.fullAt, the theoretical arrival time, stored as "S O|TPN T BURST":
-- fullAt = S seconds + O ticks, so every number stays an exact Lua double (below 2^53) however
-- late the epoch; TPN, T and BURST are the settings it was written with, for a live change (a
-- string compare per call; parsed only when they differ). A bucket with a warm-up stores
-- "S O|TPN T BURST U|G": G = WarmUp.coldAt - fullAt, ticks.
local op = ARGV[1]
if op == 'w' then
  -- the backend's probe: what every call needs of Redis, its clock (a user or a config that
  -- refuses TIME refuses every call) and a write where calls write, expiring in a second
  redis.call('TIME')
  redis.call('SET', KEYS[1], '1', 'PX', 1000)
  return 0
end
local NEVER = 2 ^ 61
local BLOCK = 12
local joint = op == 'j' or op == 'u'
local test = ARGV[14]
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
  local s = ARGV[b] .. ' ' .. ARGV[b + 1] .. ' ' .. ARGV[b + 8]
  if ARGV[b + 10] ~= '0' then
    s = s .. ' ' .. ARGV[b + 10]
  end
  return s
end

-- a stored "S O" state (whole numbers only: Lua's tonumber would take nan, inf and hex): ticks it
-- is ahead of now
local function aheadOf(so, tpn)
  local s, o = string.match(so, '^(%-?%d+) (%-?%d+)$')
  s, o = tonumber(s), tonumber(o)
  if not o or s == math.huge or s == -math.huge or o == math.huge or o == -math.huge then
    return nil
  end
  return (s - nowS) * 1000000000 * tpn + (o - nowMicros * 1000 * tpn)
end

local function corrupt(key)
  error({err = 'WEIR_STATE ' .. key .. ' holds no Weir bucket state'})
end

-- floor(a * b / c) and the remainder, exactly, for integers a, b >= 0 and c > 0 below 2^52 whose
-- quotient is below 2^53: a product of two durations in ticks is beyond a double's 2^53, so a * b
-- is taken bit by bit of a, modulo c (every partial stays below 2c)
local function mulDiv(a, b, c)
  local qb = math.floor(b / c)
  local rb = b - qb * c
  while rb < 0 do
    qb, rb = qb - 1, rb + c
  end
  while rb >= c do
    qb, rb = qb + 1, rb - c
  end
  local q, r, bit, rest = 0, 0, 1, a
  while bit * 2 <= a do
    bit = bit * 2
  end
  while bit >= 1 do
    q, r = 2 * q, 2 * r
    if r >= c then
      q, r = q + 1, r - c
    end
    if rest >= bit then
      rest = rest - bit
      r = r + rb
      if r >= c then
        q, r = q + 1, r - c
      end
    end
    bit = bit / 2
  end
  return a * qb + q, r
end

-- floor and ceiling of v * b / c for a whole v of either sign (mulDiv's bounds on its magnitude)
local function floorMulDiv(v, b, c)
  if v >= 0 then
    return (mulDiv(v, b, c))
  end
  local q, r = mulDiv(-v, b, c)
  return -(r > 0 and q + 1 or q)
end

local function ceilMulDiv(v, b, c)
  if v < 0 then
    return -(mulDiv(-v, b, c))
  end
  local q, r = mulDiv(v, b, c)
  return r > 0 and q + 1 or q
end

-- WarmUp, the cold zone of a token bucket, on w = {half = U, lag = Z, burst = B}, with gap =
-- coldAt - fullAt and ahead = fullAt - now, ticks (WarmUp's Javadoc has the model and its proofs)

-- coldAt - max(now, fullAt + Z); a gap no write makes reads as fully cold (W3)
local function refillLeft(w, gap, ahead)
  if gap < 0 or gap > w.lag + w.half then
    return 0
  end
  return gap - math.max(ahead < 0 and -ahead or 0, w.lag)
end

-- the cold level: ticks of the cold zone stored, 0..U
local function level(w, gap, ahead)
  local x = refillLeft(w, gap, ahead)
  if x <= 0 then
    return w.half
  end
  return x >= w.half and 0 or w.half - x
end

-- ticks elapsed that count toward a cold call's cost; negative when calls wait before it
local function credit(w, gap, ahead)
  local sinceDeparture = w.burst - ahead
  if refillLeft(w, gap, ahead) > 0 then
    return sinceDeparture
  end
  -- fully cold: since the later of the previous departure and the instant it became so
  local g = (gap < 0 or gap > w.lag + w.half) and 0 or gap
  return math.min(sinceDeparture, math.max(0, -(g + ahead)))
end

-- the cost of cost / T permits taken from cold level u: cost + ceil(take * (u + u0) / U), capped
local function coldCost(w, u, cost)
  local take = math.min(cost, u)
  local extra = 0
  if take > 0 then
    local q, r = mulDiv(take, u + (u - take), w.half)
    extra = r > 0 and q + 1 or q
  end
  return math.min(cost + extra, NEVER)
end

-- how far ahead of now fullAt must move for this call (WarmUp.needed)
local function warmNeeded(w, gap, ahead, cost)
  local u = level(w, gap, ahead)
  if u == 0 then
    return math.max(ahead, 0) + cost
  end
  return w.burst + math.max(0, coldCost(w, u, cost) - credit(w, gap, ahead))
end

-- as warmNeeded, for a limited call: long enough to admit it once waited (WarmUp.retryNeeded)
local function warmRetryNeeded(w, gap, ahead, cost)
  local u = level(w, gap, ahead)
  if u == 0 then
    return math.max(ahead, 0) + cost
  end
  local wait = coldCost(w, u, cost) - credit(w, gap, ahead)
  if refillLeft(w, gap, ahead) > 0 and wait > ahead + w.lag then
    wait = gap + ahead + coldCost(w, w.half, cost) -- the zone refills first: wait until fully cold
  end
  return w.burst + math.max(0, wait)
end

-- the gap an admitted call leaves (WarmUp.admitted): its cold zone refilling from fullAt' + Z, or
-- coldAt unchanged where that is later
local function gapAfter(w, gap, ahead, cost, newAhead)
  local u = level(w, gap, ahead)
  local written = w.lag + w.half - (u - math.min(cost, u))
  if written + newAhead > gap + ahead then
    return written
  end
  return gap + ahead - newAhead
end

-- the warm-up of block b (with its burst), or nil
local function warmUpOf(b)
  local half = tonumber(ARGV[b + 10])
  if half == 0 then
    return nil
  end
  return {half = half, lag = tonumber(ARGV[b + 11]), burst = tonumber(ARGV[b + 8])}
end

-- the gap of a state written with other settings (WarmUp.carry): the cold level kept as a
-- fraction of the zone, rounded colder; none before (or a state no write makes): fully cold
local function carriedGap(w, oldHalf, oldT, oldBurst, oldGap, oldAhead)
  local kept = w.half
  if oldHalf and oldHalf > 0 and oldGap then
    local cold = oldT >= NEVER / 3 and NEVER or 3 * oldT
    local old = {half = oldHalf, lag = math.max(0, cold - oldBurst), burst = oldBurst}
    local q, r = mulDiv(level(old, oldGap, oldAhead), w.half, oldHalf)
    kept = math.min(r > 0 and q + 1 or q, w.half)
  end
  return w.lag + (w.half - kept)
end

-- the bucket of block b at key, with its warm-up w (warmUpOf(b), or nil): the ticks its state is ahead of now, in the block's settings;
-- the stored string; a warm-up's gap (nil without one); and whether it was converted from other
-- settings. No key: 0, idle (a token bucket full, a leaky bucket drained); for a warm-up, idle for
-- long (fully cold, its idle time paying a first call, as a local limiter's after idling): a
-- missing key cannot tell a new limiter from one idle past its expiry, and read as new it would
-- refuse forever the calls of a REJECT limit that come further apart than the expiry
local function read(key, b, w)
  local stored = redis.call('GET', key)
  if not stored then
    return w and -NEVER or 0, nil, w and 0, false
  end
  local so, written, g = string.match(stored, '^([^|]*)|([^|]*)|?(%d*)$')
  local tpn = tonumber(ARGV[b])
  local ahead = so and aheadOf(so, tpn)
  if not ahead then
    corrupt(key)
  end
  g = tonumber(g)
  if written == settingsOf(b) then
    local gap = w and (g or 0)
    if gap and gap > w.lag + w.half then
      gap = 0 -- a gap no write makes reads as fully cold (W3), and is not written back
    end
    return ahead, stored, gap, false
  end
  -- written with other settings: GcraBucket.aheadAfterChange, by the live-change rules, exactly
  local oldTpn, oldT, oldBurst, oldHalf = string.match(written, '^(%d+) (%d+) (%d+) ?(%d*)$')
  oldTpn = tonumber(oldTpn)
  oldT = tonumber(oldT)
  oldBurst = tonumber(oldBurst)
  if not oldBurst or oldTpn == 0 or oldT == 0 or oldBurst == math.huge then
    corrupt(key)
  end
  local old = aheadOf(so, oldTpn)
  local a = math.max(old, 0)
  local interval = tonumber(ARGV[b + 1])
  local burst = tonumber(ARGV[b + 8])
  local discipline = ARGV[b + 9]
  if discipline == 't' then
    -- permits on hand kept (floor), clamped to the new capacity; none added
    local kept = floorMulDiv(oldBurst - a, interval, oldT)
    ahead = burst - math.min(kept, burst)
  elseif discipline == 'p' then
    ahead = ceilMulDiv(a, interval, oldT) -- the water level kept, rounded up
  else
    -- the last departure keeps its slot; the next leaves one new interval after it
    ahead = ceilMulDiv(old - oldT, tpn, oldTpn) + interval
  end
  ahead = math.min(math.max(ahead, 0), NEVER)
  local gap = nil
  if w then
    gap = carriedGap(w, tonumber(oldHalf), oldT, oldBurst, g, old)
  end
  return ahead, stored, gap, true
end

-- the state of fullAt = now + ahead, as stored
local function stateOf(b, ahead)
  local tpn = tonumber(ARGV[b])
  return nowS .. ' ' .. string.format('%.0f', nowMicros * 1000 * tpn + ahead)
end

-- fullAt = now + ahead (and a warm-up's gap), with an expiry of the time until the bucket is idle
-- again (never 0); a warm-up's, once it has been fully cold for 3 * burst, the most any call's
-- cold cost can be (a missing key is then a new limiter, cold from its first call)
local function write(key, b, ahead, gap)
  if ahead <= 0 and not gap then
    redis.call('DEL', key)
    return ''
  end
  local idleIn = gap and math.max(ahead, ahead + gap) + 3 * tonumber(ARGV[b + 8]) or ahead
  local millis = math.max(1, math.ceil(idleIn / (1000000 * tonumber(ARGV[b]))))
  if test then
    millis = millis + 60000 -- tests: the state's time is theirs, the expiry Redis's own
  end
  local state = stateOf(b, ahead)
  local text = state .. '|' .. settingsOf(b)
  if gap then
    text = text .. '|' .. string.format('%.0f', gap)
  end
  redis.call('SET', key, text, 'PX', millis)
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
    local b = 5 + (i - 1) * BLOCK
    if warmUpOf(b) then
      error({err = 'WEIR_ARGS ' .. KEYS[i] .. ': a warm-up is not charged jointly'})
    end
    local ahead = read(KEYS[i], b, nil)
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
    local b = 5 + (i - 1) * BLOCK
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
    local b = 5 + (i - 1) * (BLOCK + 2)
    local stored = redis.call('GET', KEYS[i])
    local bar = stored and string.find(stored, '|', 1, true)
    -- gone: idle, its slot passed; other settings: a live change keeps the charge (less admitted)
    if bar and string.sub(stored, bar + 1) == settingsOf(b) then
      local tpn = tonumber(ARGV[b])
      local before = aheadOf(ARGV[b + BLOCK], tpn)
      local state = string.sub(stored, 1, bar - 1)
      if state == ARGV[b + BLOCK + 1] then
        write(KEYS[i], b, before)
      elseif ARGV[b + 3] == ARGV[b + 4] then
        local give = aheadOf(ARGV[b + BLOCK + 1], tpn) - math.max(before, 0)
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
local warm = warmUpOf(b)
local ahead, stored, gap, converted = read(key, b, warm)

if op == 'v' then
  if warm and level(warm, gap, ahead) > 0 then
    -- cold: no burst; one permit at once or none (WarmUp.availablePermits), as the ahead that
    -- GcraBucket.availablePermitsAhead turns into that many permits
    return warmNeeded(warm, gap, ahead, interval) <= warm.burst and warm.burst - interval
      or warm.burst
  end
  return math.max(ahead, 0)
end

local new = nil -- the new ahead to store, if any
local newGap = nil
local answer
if op == 'r' then
  if stored and not warm then
    new = ahead - cost -- the costs of calls add: taking one away leaves the others'
  end
  answer = 0 -- a warm-up keeps what it charged (its cold cost is not in fullAt alone)
else
  if ahead > tonumber(ARGV[9]) then
    -- Redis's clock went back (or a failover reached a server whose clock is behind) by more
    -- than the burst plus the longest wait: the bucket is taken as empty, and a warm-up as fully
    -- cold (GcraBucket.resetAfterClockStep); within that margin it is just fuller than any call
    -- can use
    ahead = tonumber(ARGV[8])
    gap = warm and 0
    if op == 'a' then
      new, newGap = ahead, gap
    end
  end
  local needed = math.max(ahead, 0) + cost
  local retryNeeded = needed
  if warm then
    needed = ahead <= admitLimit and warmNeeded(warm, gap, ahead, cost) or NEVER
    retryNeeded = warmRetryNeeded(warm, gap, ahead, cost)
  end
  local retry = retryNeeded - retryBase -- limited: admissible after this (GcraBucket.limited)
  if retry >= NEVER or interval >= NEVER then
    retry = NEVER
  end
  if op == 'p' then
    answer = 0
    if retryNeeded > retryBase then
      answer = retry
    end
  elseif needed > admitLimit then
    answer = -retry
    if warm and converted and not new then
      -- a live change: its cold level is carried from now, so it is written now, or every retry
      -- would carry it again from its own instant and never find the credit its wait was told
      new, newGap = ahead, gap
    end
  else
    if warm then
      newGap = gapAfter(warm, gap, ahead, cost, needed)
    end
    new = needed
    answer = math.max(needed - freeLimit, 0)
  end
end
if new then
  write(key, b, new, newGap)
end
return answer
