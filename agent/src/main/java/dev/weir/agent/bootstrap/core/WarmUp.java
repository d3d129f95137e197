package dev.weir.agent.bootstrap.core;

import java.math.BigInteger;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * The warm-up of a token bucket ({@code warmUpMillis}): Guava's {@code SmoothWarmingUp} with cold
 * factor 3, translated into GCRA without "pay later". A cold limiter releases no burst and admits
 * at first at about a third of the rate; the admission interval falls linearly in the permits taken
 * to {@code 1 / rate}; idling makes it cold again.
 *
 * <h2>Design</h2>
 *
 * <p><b>Geometry.</b> With {@code T = 1 / rate}, {@code B = capacity * T} (the bucket's burst) and
 * {@code W} the warm-up period, the bucket holds, above its {@code capacity} tokens, a <em>cold
 * zone</em> of {@code K = W / (2T)} permits, {@code U = K * T = W / 2} in time. The cold level
 * {@code u} ({@code 0..U}, ticks) is how much of it is stored. A permit taken at cold level {@code
 * x} costs Guava's interval {@code f(x) = T * (1 + 2x / U)}: {@code 3T} at the top, {@code T} at
 * the bottom. Taking {@code n} permits from level {@code u} costs the integral, {@code cost = nT +
 * ceil(m * (u + u0) / U)}, where {@code m = min(nT, u)} is the part taken from the cold zone and
 * {@code u0 = u - m} the level left (exact in ticks, rounded against the caller; so one call of 3
 * costs what three calls of 1 do). Draining the whole zone at saturation takes {@code W}, as
 * Guava's from {@code maxPermits} to its threshold. Guava's threshold is Weir's capacity: with
 * {@code capacity = rate * W / 2} both have the same permits, intervals and cool-down.
 *
 * <p><b>Cold calls.</b> A call that finds {@code u > 0} releases no burst: it drains the tokens
 * (its new {@code fullAt} is its departure plus {@code B}) and is admitted when its own {@code
 * cost} has elapsed since the previous departure ({@code fullAt - B}) or, if the limiter has been
 * fully cold since, since the instant it became fully cold. So a waiting call departs {@code cost}
 * after the one before it (first come, first served, as every GCRA call), a new limiter's first
 * call waits its own interval (no pay later: Guava's first call is free and the next one pays for
 * it), and a rejected call's retry-after is the cost still to elapse.
 *
 * <p><b>Cool-down.</b> The cold zone refills at one permit per {@code T} (Guava's {@code W /
 * maxPermits} for cold factor 3) while the bucket is full and has been for {@code Z = max(0, 3T -
 * B)} (so a bucket smaller than one cold interval does not cool while a call's cost elapses); it is
 * frozen while calls wait or the tokens refill, as Guava's stored permits are while a reservation
 * runs. Empty to fully cold takes {@code max(B, 3T) + W / 2} of idling.
 *
 * <p><b>State.</b> Guava's state has two dimensions (stored permits and the next free instant), and
 * no single GCRA instant can hold both: a time-invariant rule on one instant reaches a fixed point
 * for a caller that retries at its retry-after, so its interval could never fall, and one that
 * encodes the coldness in the instant lets a call arriving during another's wait read the state as
 * warmer than it is (a burst on a cold limiter). So the cold zone has its own word, {@link
 * #coldAt}: the instant the zone would be full again, refilling from {@code max(now, fullAt + Z)}:
 * {@code u = U - clamp(coldAt - max(now, fullAt + Z), 0, U)}. The bucket's {@code fullAt} keeps
 * every meaning it has without warm-up (retry-after, give-backs, live changes, clock steps).
 *
 * <p><b>Races.</b> An acquire reads {@code coldAt}, then {@code fullAt}; it CASes {@code fullAt}
 * (retrying as the bucket does), then CASes {@code coldAt} to {@code fullAt' + Z + U - u0} from the
 * value it read, and leaves it if another call changed it meanwhile. A stale {@code coldAt} is
 * never newer than the {@code fullAt} read after it, and {@code coldAt - fullAt} only shrinks as
 * {@code fullAt} moves on, so every reading is as cold as the truth or colder: a race can make a
 * call pay more (the warm-up slows under contention), never less. No lock, no allocation.
 *
 * <p><b>Give-backs.</b> The permits of an interrupted waiter or of a call another limit refused are
 * not given back to a bucket with a warm-up ({@link GcraBucket#giveBack}, {@link GcraBucket#refund}
 * answer false): its slot cost a warm-up charge that {@code fullAt} alone cannot tell, so it is
 * kept, which can only admit less.
 *
 * <h2>Invariants</h2>
 *
 * <ol>
 *   <li>W1: a call admitted on a cold zone ({@code u > 0}) leaves {@code fullAt - now >= B}: no
 *       later call is admitted before its own cost elapsed, so a cold limiter never releases two
 *       calls at once, whatever the threads (guarded by {@code
 *       WarmUpTest.frozenClockColdAdmitsNothingThenOne} and {@code
 *       WarmUpTest.manyThreadsOnAColdLimiterDepartOneCostApart}).
 *   <li>W2: at saturation from cold the waits are the costs {@code f} integrated over each permit,
 *       falling by {@code 2T^2/U} per permit to {@code T} (guarded by {@code
 *       WarmUpTest.guavaTestWarmUpSequence}).
 *   <li>W3: a reading is never warmer than the state written ({@link #level} clamps what no write
 *       produces to cold) (guarded by {@code
 *       WarmUpTest.manyThreadsOnAColdLimiterDepartOneCostApart}).
 *   <li>W4: waiting a limited call's retry-after admits it when nothing else runs (guarded by
 *       {@code WarmUpTest.retryAfterSuffices}).
 *   <li>W5: no arithmetic overflows for rates from 1/hour to 1e9/s and warm-ups up to a day
 *       (guarded by {@code WarmUpTest.extremesStayBounded}).
 * </ol>
 *
 * <p><b>Cluster scope.</b> The script of cluster scope ({@code gcra.lua}) holds the same model on a
 * Redis key: {@code coldAt - fullAt} is stored beside {@code fullAt}, and each method here is there
 * line for line, in doubles exact below 2^53 ({@code ceil(take * sum / U)} by an exact
 * multiply-divide), so both answer alike at the same instants. The key expires once fully cold for
 * {@code 3B}, and a missing key reads as a state idle for long (fully cold, its idle time paying a
 * first call), as this one reads after such an idle (docs/cluster.md says why not as a new one).
 *
 * <p>Thread-safe and lock-free. Only the keyless state of its {@link GcraBucket} warms up (a
 * per-key limit with a warm-up is refused where it is declared).
 */
final class WarmUp {
  private static final AtomicLongFieldUpdater<WarmUp> COLD_AT =
      AtomicLongFieldUpdater.newUpdater(WarmUp.class, "coldAt");

  /** The warm-up period as configured. */
  final long warmUpNanos;

  /** T, ticks. */
  private final long interval;

  /** B, ticks. */
  private final long burst;

  /** U = W / 2: the cold zone, ticks, {@code >= 1}. */
  private final long half;

  /** Z: how long the bucket stays full before the cold zone refills, ticks. */
  private final long lag;

  /** The instant, in the bucket's ticks, at which the cold zone would be full again. */
  volatile long coldAt;

  /**
   * A warm-up, fully cold at {@code nowTicks} (a new limiter is cold and has had no time to pay for
   * its first call).
   */
  WarmUp(long warmUpNanos, long ticksPerNano, long interval, long burst, long nowTicks) {
    this.warmUpNanos = warmUpNanos;
    this.interval = interval;
    this.burst = burst;
    long w =
        warmUpNanos > GcraBucket.NEVER_TICKS / ticksPerNano
            ? GcraBucket.NEVER_TICKS
            : warmUpNanos * ticksPerNano;
    this.half = Math.max(1, w / 2);
    long cold = interval >= GcraBucket.NEVER_TICKS / 3 ? GcraBucket.NEVER_TICKS : 3 * interval;
    this.lag = Math.max(0, cold - burst);
    this.coldAt = nowTicks;
  }

  /**
   * The cold level: ticks of the cold zone stored.
   *
   * @param gap {@code coldAt - fullAt} as read (coldAt first)
   * @param ahead {@code fullAt - now}; {@code -WRAPPED} for an ancient state
   * @return {@code 0..U}
   */
  private long level(long gap, long ahead) {
    long x = refillLeft(gap, ahead);
    return x <= 0 ? half : x >= half ? 0 : half - x;
  }

  /** {@code coldAt - max(now, fullAt + Z)}; a gap no write makes reads as fully cold (W3). */
  private long refillLeft(long gap, long ahead) {
    if (gap < 0 || gap > lag + half) {
      return 0;
    }
    long idle = ahead < 0 ? -ahead : 0;
    return gap - Math.max(idle, lag);
  }

  /**
   * How far ahead of now {@code fullAt} must move for this call: the bucket's own {@code ahead +
   * cost} when warm; for a cold call {@code B} plus its wait. Never blocks, never allocates.
   *
   * @param cold {@link #coldAt}, read before {@code current}
   * @param current {@code fullAt}
   * @param ahead {@code current - now}, {@code <= admitLimit}; {@code -WRAPPED} if ancient
   * @param permits the permits
   * @param cost {@code permits * T}, capped
   * @return ticks, {@code >= 0}
   */
  long needed(long cold, long current, long ahead, long permits, long cost) {
    long gap = cold - current;
    long u = level(gap, ahead);
    if (u == 0) {
      return (ahead > 0 ? ahead : 0) + cost;
    }
    return burst + Math.max(0, coldCost(u, cost) - credit(gap, ahead));
  }

  /**
   * As {@link #needed}, for a call that is limited: the distance whose part beyond {@code B} is its
   * retry-after, long enough to admit it once waited (W4) even when the zone refills meanwhile.
   */
  long retryNeeded(long cold, long current, long ahead, long permits, long cost) {
    long gap = cold - current;
    long u = level(gap, ahead);
    if (u == 0) {
      return (ahead > 0 ? ahead : 0) + cost;
    }
    long wait = coldCost(u, cost) - credit(gap, ahead);
    long x = refillLeft(gap, ahead);
    if (x > 0 && wait > ahead + lag) { // the zone would refill before: wait until fully cold
      long untilCold = gap + ahead; // coldAt - now
      wait = untilCold + coldCost(half, cost);
    }
    return burst + Math.max(0, wait);
  }

  /** Ticks elapsed that count toward a cold call's cost; negative when calls wait before it. */
  private long credit(long gap, long ahead) {
    long sinceDeparture = burst - ahead;
    if (refillLeft(gap, ahead) > 0) {
      return sinceDeparture;
    }
    // fully cold: since the later of the previous departure and the instant it became so
    long g = gap < 0 || gap > lag + half ? 0 : gap;
    return Math.min(sinceDeparture, Math.max(0, -(g + ahead)));
  }

  /** The cost of {@code cost / T} permits taken from cold level {@code u}, ticks, capped. */
  private long coldCost(long u, long cost) {
    long take = Math.min(cost, u);
    long sum = u + (u - take);
    long extra;
    if (take == 0) {
      extra = 0;
    } else if (sum > (Long.MAX_VALUE - half) / take) {
      extra = ceilMulDiv(take, sum, half); // beyond a long: exact all the same
    } else {
      long p = take * sum;
      extra = p / half + (p % half == 0 ? 0 : 1);
    }
    long total = cost + extra;
    return total >= GcraBucket.NEVER_TICKS || total < 0 ? GcraBucket.NEVER_TICKS : total;
  }

  /**
   * {@code ceil(a * b / c)} exactly, for {@code 0 < a <= c} and {@code 0 <= b <= 2c} below 2^61 (a
   * product beyond a long): {@code a * b} is taken bit by bit of {@code a} modulo {@code c}, every
   * partial below {@code 2c}, as {@code gcra.lua}'s {@code mulDiv} does in doubles. No allocation.
   *
   * @return the ceiling, at most {@link GcraBucket#NEVER_TICKS}
   */
  static long ceilMulDiv(long a, long b, long c) {
    long qb = b / c;
    long rb = b % c;
    long q = 0;
    long r = 0;
    for (int bit = 63 - Long.numberOfLeadingZeros(a); bit >= 0; bit--) {
      q <<= 1;
      r <<= 1;
      if (r >= c) {
        q++;
        r -= c;
      }
      if ((a >>> bit & 1) != 0) {
        r += rb;
        if (r >= c) {
          q++;
          r -= c;
        }
      }
    }
    long whole = a * qb + q + (r > 0 ? 1 : 0); // qb <= 2, a < 2^61
    return whole < 0 || whole > GcraBucket.NEVER_TICKS ? GcraBucket.NEVER_TICKS : whole;
  }

  /**
   * Records an admitted call: the cold zone it left, refilling from {@code next + Z}. Left alone if
   * another call wrote meanwhile (that one's reading was colder). Never blocks.
   *
   * @param cold {@link #coldAt} as read for the call
   * @param current {@code fullAt} as read
   * @param ahead {@code current - now} as used
   * @param cost {@code permits * T}
   * @param next the {@code fullAt} the call wrote
   */
  void admitted(long cold, long current, long ahead, long cost, long next) {
    long u = level(cold - current, ahead);
    long left = u - Math.min(cost, u);
    long written = next + lag + (half - left);
    if (written - cold > 0) {
      COLD_AT.compareAndSet(this, cold, written);
    }
  }

  /**
   * The permits a call can take at once: 0 or 1 while cold (no burst), else {@code tokens}.
   *
   * @param ahead {@code fullAt - now}, after {@code cold} was read
   * @param tokens the bucket's tokens on hand
   * @return permits
   */
  long availablePermits(long cold, long current, long ahead, long tokens) {
    if (level(cold - current, ahead) == 0) {
      return tokens;
    }
    return needed(cold, current, ahead, 1, interval) <= burst ? 1 : 0;
  }

  /** U, ticks: the cold zone, as the shared form of the core ({@code gcra.lua}) takes it. */
  long half() {
    return half;
  }

  /** Z, ticks: how long the bucket stays full before the cold zone refills. */
  long lag() {
    return lag;
  }

  /** After a confirmed clock step back: fully cold from {@code fullAt}, no credit. */
  void reset(long fullAt) {
    coldAt = fullAt;
  }

  /**
   * Carries the cold level of {@code from} (the state of a bucket whose rate or capacity changed)
   * into this one, as a fraction of the zone rounded colder; a fully cold state stays fully cold,
   * from now. Not on the acquire path.
   *
   * @param from the old bucket's warm-up
   * @param fromFullAt its {@code fullAt} as claimed
   * @param fromNow now in its ticks
   * @param fullAt this bucket's converted {@code fullAt}
   * @param now now in this bucket's ticks
   */
  void carry(WarmUp from, long fromFullAt, long fromNow, long fullAt, long now) {
    long ahead = fromFullAt - fromNow;
    if (ahead > GcraBucket.WRAPPED) {
      ahead = -GcraBucket.WRAPPED;
    }
    long u = from.level(from.coldAt - fromFullAt, ahead);
    long kept =
        BigInteger.valueOf(u)
            .multiply(BigInteger.valueOf(half))
            .add(BigInteger.valueOf(from.half - 1))
            .divide(BigInteger.valueOf(from.half))
            .min(BigInteger.valueOf(half))
            .longValue();
    long base = fullAt + lag - now > 0 ? fullAt + lag : now;
    coldAt = base + (half - kept);
  }

  /**
   * {@link GcraBucket#acquire(BucketState, long, long, boolean)} on the bucket's own state of a
   * bucket with a warm-up: the cold zone is read before {@code fullAt} (see the races above).
   */
  long acquire(GcraBucket b, long nowNanos, long permits, boolean freshClock) {
    BucketState state = b;
    if (permits > b.capacity()) {
      return GcraBucket.NEVER;
    }
    long now = nowNanos * b.ticksPerNano();
    long cost = b.costTicks(permits);
    WarmUp warm = this; // as GcraBucket.acquire, with the cold zone
    for (; ; ) {
      long cold = warm.coldAt; // before fullAt (see WarmUp, races)
      long current = state.fullAt;
      if (current == GcraBucket.RETIRED) {
        return GcraBucket.STATE_RETIRED;
      }
      long ahead = current - now;
      if (ahead > b.admitLimitTicks()) {
        if (!freshClock) {
          return GcraBucket.STALE_CLOCK;
        }
        if (ahead <= GcraBucket.WRAPPED) {
          // beyond the margin: the clock went back (resetAfterClockStep decides, on a new
          // reading); within it: the bucket is just fuller than any call can use
          return ahead > b.clockBackLimitTicks()
              ? GcraBucket.CLOCK_STEPPED_BACK
              : b.limitedCode(warm.retryNeeded(cold, current, ahead, permits, cost));
        }
        ahead = -GcraBucket.WRAPPED; // idle so long that the tick difference wrapped: full
      }
      long needed = warm.needed(cold, current, ahead, permits, cost);
      if (needed > b.admitLimitTicks()) {
        return b.limitedCode(warm.retryNeeded(cold, current, ahead, permits, cost));
      }
      long next = GcraBucket.liveValue(now + needed);
      if (GcraBucket.casRaw(state, current, next)) {
        warm.admitted(cold, current, ahead, cost, next);
        long wait = needed - b.freeLimitTicks();
        return wait > 0 ? wait : 0;
      }
      BackOff.afterLostRace();
    }
  }
}
