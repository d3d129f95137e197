package dev.weir.agent.bootstrap.core;

import java.math.BigInteger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * The bucket core: the Generic Cell Rate Algorithm (GCRA, ITU-T I.371 "virtual scheduling"; the
 * token bucket of RFC 2697 is the same meter) on one {@code volatile long}, shared by the token
 * bucket and both forms of the leaky bucket.
 *
 * <h2>Design</h2>
 *
 * <p>The state is {@link #fullAt}: GCRA's theoretical arrival time, the instant at which the token
 * bucket would be full again (equivalently, at which a leaky bucket would have drained). A call
 * needing {@code n} permits at time {@code now} moves it to {@code max(fullAt, now) + n * T}, where
 * {@code T} is the emission interval ({@code 1 / rate}). It is admitted if the distance it then
 * reaches ahead of {@code now} is within {@link #admitLimit}; it waits for the part of that
 * distance beyond {@link #freeLimit}. The three disciplines differ only in these two limits:
 *
 * <ul>
 *   <li>token bucket and leaky POLICING: free = capacity * T (a full bucket serves a burst of
 *       capacity at once); admit = free, plus the wait bound with {@code WAIT};
 *   <li>leaky SHAPING: free = T (every call after the first waits for its slot); admit = T + the
 *       queue bound {@code min((capacity - 1) * T, maxWait)}, or T + maxWait with {@code WAIT}.
 * </ul>
 *
 * <p><b>Time unit.</b> Time is counted in ticks of {@code 1 / ticksPerNano} nanoseconds, chosen so
 * that the emission interval is a whole number of ticks: 3e8 permits/s has T = 10/3 ns, which is
 * exactly 10 ticks of 1/3 ns, so long-run counts are exact (a whole-nanosecond interval rounded up
 * would admit 250,000,000 a second instead of 300,000,000). An interval with no exact
 * representation within {@link #MAX_TICKS_PER_NANO} ticks per nanosecond is rounded up to a tick
 * fine enough to keep the rate within 2^-32 of the request where the tick allows, against the
 * caller: the bucket may admit a hair less than asked, never more. Clock readings are multiplied
 * into ticks with wrapping arithmetic and compared only by difference, like {@link
 * System#nanoTime()} itself.
 *
 * <p><b>Saturation.</b> Every duration in ticks is capped at {@link #NEVER_TICKS} (2^61), which
 * means "never": an interval that long (rates below about one per 73 years) makes every limited
 * call's retry-after {@link Long#MAX_VALUE}. Sums of two capped values stay below 2^62, so no
 * arithmetic on the acquire path can overflow.
 *
 * <p><b>Clock.</b> The caller reads the clock once, before the CAS loop; a retry reuses that
 * reading, which can only make the bucket look fuller (under-admission, never over-admission). A
 * reading that puts {@code fullAt} more than {@link #admitLimit} ahead can be a stale read, the
 * clock stepping back, or an idle period so long that the tick difference wrapped. The first is
 * answered with {@link #STALE_CLOCK}: the caller reads the clock again and retries with {@code
 * freshClock}. With a fresh reading, a distance beyond {@link #WRAPPED} is an ancient {@code
 * fullAt} (the bucket is full), and a distance beyond {@code admitLimit + max(admitLimit, 1 s)} is
 * the clock going back by more than the burst plus the longest wait: {@link #CLOCK_STEPPED_BACK}.
 * The caller then reads the clock a third time and calls {@link #resetAfterClockStep}, which takes
 * the bucket as empty ({@code fullAt = now + min(capacity * T, admitLimit)}) if that newest reading
 * still agrees, so no call is admitted beyond what it held and calls pass again within capacity /
 * rate, rather than once the clock has caught up. A stale reading is taken for a step back only if
 * its thread stalls for over a second after each of two clock reads; {@code System.nanoTime()} does
 * not go back on the JVMs Weir supports, so the reset exists for broken clocks. No limiter driven
 * by a clock can do better than its clock: one that keeps jumping back and forth by more than the
 * margin earns up to a burst per jump forward, as any idle period would. With an unbounded wait (a
 * leaky bucket with {@code WAIT} and no {@code maxWaitMillis}) the margin is unbounded too, as a
 * long queue and a step back look alike: there a step back costs new callers a wait as long as the
 * step. The one ambiguity left is an idle time between 3/4 and all of 2^64 ticks (156 to 208 days
 * at 1024 ticks per nanosecond, over 400 years at one), which reads as a step back or a partly full
 * bucket: under-admission for at most capacity / rate, never over-admission.
 *
 * <p><b>Contention.</b> A call whose CAS lost to another thread's spins for {@link
 * BackOff#SPIN_NANOS} before it reads the state again (see {@link BackOff}): the winner keeps the
 * state's cache line for its next calls, which is what makes two threads on one bucket faster than
 * a bare CAS retried at once. A retry reuses the caller's reading, as above.
 *
 * <p>The acquire path allocates nothing, takes no lock, never parks and logs nothing.
 *
 * <h2>Invariants</h2>
 *
 * <ol>
 *   <li>I1: after any successful CAS by an admitted call, {@code fullAt - now <= admitLimit} for
 *       the {@code now} that call used (guarded by {@code GcraBucketTest} and {@code
 *       GcraBucketStressTest.neverOverAdmits}).
 *   <li>I2: {@code fullAt} grows by exactly {@code n * T} per admitted {@code n} permits while the
 *       bucket is busy, and never decreases except on a confirmed clock step back (guarded by
 *       {@code GcraBucketTest.highRateCountsAreExact} and {@code GcraBucketTest.clockStepBack*}).
 *   <li>I3: on a clock that does not move, at most {@code capacity} permits are admitted without
 *       waiting, whatever the number of threads (guarded by {@code
 *       GcraBucketStressTest.frozenClockGrantsExactlyCapacity}).
 *   <li>I4: an acquire of more permits than the capacity returns {@link #NEVER} and leaves the
 *       state unchanged (guarded by {@code GcraBucketTest.morePermitsThanCapacity*}).
 *   <li>I5: advancing the clock by {@link #retryAfterNanos(long)} of a limited call lets the same
 *       call through when nothing else runs (guarded by {@code
 *       GcraBucketTest.waitingRetryAfterAlwaysSuffices}).
 * </ol>
 *
 * <p>Thread-safe and lock-free. Configuration is final; a live change builds a new bucket ({@link
 * #reshaped}) and moves the state into it ({@link #takeOver}), retiring the old one.
 *
 * <p><b>Warm-up.</b> A token bucket with {@code warmUpMillis} keeps a cold zone above its capacity
 * in a second word ({@link WarmUp}, which says why one word cannot hold it): a call on the cold
 * zone moves {@code fullAt} by its warm-up cost instead of {@code n * T} (I2 holds once warm) and
 * admits at most one call at once (I3 with capacity 1 while cold); I1, I4 and I5 hold as they are.
 */
public final class GcraBucket extends BucketState {

  /** Durations in ticks at or beyond this (2^61) mean "never". */
  public static final long NEVER_TICKS = 1L << 61;

  /** A distance ahead beyond this (2^62) on a fresh clock reading is a wrapped, ancient state. */
  static final long WRAPPED = 1L << 62;

  /** The finest tick: 1/1024 ns. */
  static final long MAX_TICKS_PER_NANO = 1024;

  /** Result of {@link #acquire}: limited, and no wait would ever admit the call. */
  public static final long NEVER = Long.MIN_VALUE;

  /** Result of {@link #acquire}: read the clock again and retry with {@code freshClock = true}. */
  public static final long STALE_CLOCK = Long.MIN_VALUE + 1;

  /**
   * Result of {@link #acquire} with a fresh reading: the clock went back by more than the margin;
   * call {@link #resetAfterClockStep} with a new reading, then retry.
   */
  public static final long CLOCK_STEPPED_BACK = Long.MIN_VALUE + 2;

  /**
   * Result of the per-key acquire: the state was retired (dropped as idle, or moved to a new table)
   * and is no longer the key's; look the key up again.
   */
  public static final long STATE_RETIRED = Long.MIN_VALUE + 3;

  /** Result of {@link #retireIfIdle}: the state was retired already, by another. */
  static final long ALREADY_RETIRED = -1;

  /**
   * The value of {@code fullAt} that marks a state retired: a per-key state dropped as idle or
   * moved to a new table, or any state whose bucket a live change replaced. A live state never
   * holds it: a write that would produce it writes one tick later instead (against the caller).
   */
  public static final long RETIRED = Long.MIN_VALUE;

  private static final AtomicLongFieldUpdater<BucketState> FULL_AT =
      AtomicLongFieldUpdater.newUpdater(BucketState.class, "fullAt");

  private final Discipline discipline;
  private final double rate;
  private final TimeUnit per;
  private final long capacity;
  private final boolean waitOnLimit;
  private final long maxWaitNanos;

  /** Ticks per nanosecond (1..1024). */
  private final long ticksPerNano;

  /** The emission interval T in ticks (1..NEVER_TICKS). */
  private final long interval;

  /** The largest permit count whose cost {@code permits * interval} is below NEVER_TICKS. */
  private final long exactPermits;

  /** capacity * T, capped: how far ahead a full burst puts fullAt. */
  private final long burst;

  /** A call is admitted when it puts fullAt at most this far ahead of now. */
  private final long admitLimit;

  /** A call waits for the part of its distance ahead beyond this. */
  private final long freeLimit;

  /** A limited call's retry-after is its distance ahead beyond this. */
  private final long retryBase;

  /** fullAt - now when the bucket is taken as empty after the clock stepped back. */
  private final long emptyAhead;

  /** A fresh reading that puts fullAt further ahead than this means the clock stepped back. */
  private final long clockBackLimit;

  /** The longest wait a call may take, nanoseconds rounded down: {@link JointCharge}'s bound. */
  final long waitBoundNanos;

  /** The warm-up of a token bucket's keyless state ({@code warmUpMillis}); null for none. */
  private final WarmUp warmUp;

  private GcraBucket(
      Discipline discipline,
      double rate,
      TimeUnit per,
      long capacity,
      boolean waitOnLimit,
      long maxWaitNanos,
      long nowNanos,
      long backlogTicks,
      long warmUpNanos) {
    this.discipline = discipline;
    this.rate = rate;
    this.per = per;
    this.capacity = capacity;
    this.waitOnLimit = waitOnLimit;
    this.maxWaitNanos = maxWaitNanos;

    long[] t = emissionInterval(rate, per);
    this.ticksPerNano = t[0];
    this.interval = t[1];
    this.exactPermits = (NEVER_TICKS - 1) / interval;
    this.burst = cost(capacity);
    long maxWait = cap(saturatedMultiply(maxWaitNanos, ticksPerNano));
    if (discipline == Discipline.SHAPING) {
      long queue = Math.min(cost(capacity - 1), maxWait);
      this.freeLimit = interval;
      this.retryBase = cap(interval + queue);
      this.admitLimit = waitOnLimit ? cap(interval + maxWait) : retryBase;
    } else {
      this.freeLimit = burst;
      this.retryBase = burst;
      this.admitLimit = waitOnLimit ? cap(burst + maxWait) : burst;
    }
    this.emptyAhead = Math.min(burst, admitLimit);
    this.clockBackLimit =
        Math.max(admitLimit, backlogTicks)
            + Math.max(admitLimit, cap(1_000_000_000L * ticksPerNano));
    this.waitBoundNanos = (admitLimit - freeLimit) / ticksPerNano;
    this.fullAt = nowNanos * ticksPerNano; // full (a leaky bucket: empty) at creation
    this.warmUp =
        warmUpNanos > 0 && discipline == Discipline.TOKEN_BUCKET
            ? new WarmUp(warmUpNanos, ticksPerNano, interval, burst, fullAt)
            : null;
  }

  /**
   * Creates a bucket, full (a leaky bucket: empty) at {@code nowNanos}.
   *
   * @param discipline token bucket, leaky policing or leaky shaping
   * @param rate permits per {@code per}; finite and {@code > 0}
   * @param per the unit of {@code rate}
   * @param capacity the burst (token bucket) or queue size (leaky bucket), in permits, {@code >= 1}
   * @param waitOnLimit true for {@code OnLimit.WAIT}: a call may wait up to {@code maxWaitNanos}
   * @param maxWaitNanos the longest wait in nanoseconds, {@code >= 0}; {@link Long#MAX_VALUE} for
   *     no bound beyond the capacity
   * @param nowNanos the clock's reading now
   * @return a new bucket
   * @throws IllegalArgumentException if a value is out of range (the agent validates annotations
   *     and config before they get here, so this signals a bug)
   */
  public static GcraBucket create(
      Discipline discipline,
      double rate,
      TimeUnit per,
      long capacity,
      boolean waitOnLimit,
      long maxWaitNanos,
      long nowNanos) {
    return create(discipline, rate, per, capacity, waitOnLimit, maxWaitNanos, 0, nowNanos);
  }

  /**
   * As {@link #create(Discipline, double, TimeUnit, long, boolean, long, long)}, with a warm-up
   * ({@link WarmUp}): a token bucket with {@code warmUpNanos > 0} starts cold.
   *
   * @param warmUpNanos the warm-up period in nanoseconds, {@code >= 0}; 0 for none (ignored by a
   *     leaky bucket)
   * @return a new bucket
   * @throws IllegalArgumentException if a value is out of range
   */
  public static GcraBucket create(
      Discipline discipline,
      double rate,
      TimeUnit per,
      long capacity,
      boolean waitOnLimit,
      long maxWaitNanos,
      long warmUpNanos,
      long nowNanos) {
    if (discipline == null || per == null || warmUpNanos < 0) {
      throw new IllegalArgumentException("discipline and per are required, warmUpNanos >= 0");
    }
    // the rules of LimitRules; the rate's with no unit, as a bucket takes any rate its exact
    // arithmetic can hold (one too small per second is the callers' to refuse)
    String broken = LimitRules.rate(rate, null);
    if (broken != null) {
      throw new IllegalArgumentException("rate " + broken);
    }
    broken = LimitRules.liveCapacity(capacity, 1);
    if (broken != null) {
      throw new IllegalArgumentException("capacity " + broken);
    }
    // a wait's rule is the same in any unit
    broken = LimitRules.maxWaitMillis(maxWaitNanos, String.valueOf(maxWaitNanos));
    if (broken != null) {
      throw new IllegalArgumentException("maxWaitNanos " + broken);
    }
    return new GcraBucket(
        discipline, rate, per, capacity, waitOnLimit, maxWaitNanos, nowNanos, 0, warmUpNanos);
  }

  /**
   * A bucket for a live change of this one: the same discipline, {@code onLimit} and wait bound,
   * with a new rate and capacity. Its own state is not set: {@link #takeOver} moves this bucket's
   * state into it. Its clock-step margin is widened by the longest backlog a state of this bucket
   * can carry over (a water level above a lowered capacity, say), so that a backlog is never taken
   * for the clock stepping back.
   *
   * @param newRate permits per {@code newPer}; finite and {@code > 0}
   * @param newPer the unit of {@code newRate}
   * @param newCapacity permits, {@code >= 1}
   * @return the new bucket
   * @throws IllegalArgumentException if a value is out of range
   */
  public GcraBucket reshaped(double newRate, TimeUnit newPer, long newCapacity) {
    long warm = warmUpNanos();
    GcraBucket shape =
        create(discipline, newRate, newPer, newCapacity, waitOnLimit, maxWaitNanos, warm, 0);
    long backlog = shape.aheadAfterChange(this, admitLimit);
    return new GcraBucket(
        discipline, newRate, newPer, newCapacity, waitOnLimit, maxWaitNanos, 0, backlog, warm);
  }

  /**
   * Retires this bucket's own state (a keyless bucket's) and writes it, converted by the
   * live-change rules at {@code nowNanos}, into {@code next}, made by {@link #reshaped}. Calls that
   * were on this bucket find it retired ({@link #STATE_RETIRED}) and move to {@code next} once the
   * caller has published it. Never blocks.
   *
   * @param next the new bucket, not yet published
   * @param nowNanos the instant of the change
   */
  public void takeOver(GcraBucket next, long nowNanos) {
    long value = claim(this);
    next.fullAt = next.converted(this, value, nowNanos);
    next.carryWarmUp(this, value, nowNanos);
  }

  /**
   * Carries on the state of a bucket that keeps it (the limiter a config override moves calls away
   * from), converted by the live-change rules at {@code nowNanos}. Called before this bucket takes
   * any call. Never blocks.
   *
   * @param from the bucket whose state this one carries on
   * @param nowNanos the instant of the move
   */
  public void continueFrom(GcraBucket from, long nowNanos) {
    long value = from.fullAt;
    if (value != RETIRED) {
      fullAt = converted(from, value, nowNanos);
      carryWarmUp(from, value, nowNanos);
    }
  }

  /** The cold level of {@code from}'s keyless state, carried into this bucket's (see WarmUp). */
  private void carryWarmUp(GcraBucket from, long value, long nowNanos) {
    if (warmUp != null && from.warmUp != null && value != RETIRED) {
      warmUp.carry(
          from.warmUp, value, nowNanos * from.ticksPerNano, fullAt, nowNanos * ticksPerNano);
    }
  }

  /**
   * A state's value converted from {@code from}'s settings to this bucket's, by the live-change
   * rules at {@code nowNanos} (docs/operations.md, "Live changes and reloads"):
   *
   * <ul>
   *   <li>token bucket: the permits on hand are kept, clamped to the new capacity (a debt of
   *       waiting calls is kept in permits); raising the capacity adds none; the new rate refills
   *       from {@code nowNanos};
   *   <li>leaky POLICING: the water level, in calls, is kept and drains at the new rate;
   *   <li>leaky SHAPING: the last admitted call keeps its departure slot; the next leaves one new
   *       emission interval after it.
   * </ul>
   *
   * Fractions are rounded against the caller (fewer permits, a higher level, a later slot).
   *
   * @param from the bucket the value belongs to (same discipline)
   * @param value its value; {@link #RETIRED} converts to an idle state
   * @param nowNanos the instant of the change
   * @return the value in this bucket's ticks
   */
  long converted(GcraBucket from, long value, long nowNanos) {
    long ahead = value == RETIRED ? -WRAPPED : value - nowNanos * from.ticksPerNano;
    if (ahead > WRAPPED) {
      ahead = -WRAPPED; // ancient: idle
    }
    return live(nowNanos * ticksPerNano + aheadAfterChange(from, ahead));
  }

  /**
   * How far ahead of now a state of {@code from} that is {@code ahead} ticks ahead is, in this
   * bucket's ticks, after a live change (see {@link #converted}).
   *
   * @return ticks, {@code 0..NEVER_TICKS}
   */
  private long aheadAfterChange(GcraBucket from, long ahead) {
    BigInteger a = BigInteger.valueOf(Math.max(ahead, 0));
    BigInteger oldT = BigInteger.valueOf(from.interval);
    BigInteger newT = BigInteger.valueOf(interval);
    BigInteger result;
    if (discipline == Discipline.TOKEN_BUCKET) {
      // permits on hand, in units of the old interval; negative: a debt of waiting calls
      BigInteger onHand = BigInteger.valueOf(from.burst).subtract(a);
      BigInteger[] qr = onHand.multiply(newT).divideAndRemainder(oldT);
      BigInteger kept = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0]; // floor
      result = BigInteger.valueOf(burst).subtract(kept.min(BigInteger.valueOf(burst)));
    } else if (discipline == Discipline.POLICING) {
      BigInteger[] qr = a.multiply(newT).divideAndRemainder(oldT);
      result = qr[1].signum() > 0 ? qr[0].add(BigInteger.ONE) : qr[0]; // ceiling
    } else {
      // the last departure, ahead of now (negative: past), in new ticks, rounded later
      BigInteger lastDeparture =
          BigInteger.valueOf(ahead).subtract(oldT).multiply(BigInteger.valueOf(ticksPerNano));
      BigInteger tpn = BigInteger.valueOf(from.ticksPerNano);
      BigInteger[] qr = lastDeparture.divideAndRemainder(tpn);
      BigInteger ceil = qr[1].signum() > 0 ? qr[0].add(BigInteger.ONE) : qr[0];
      result = ceil.add(newT);
    }
    if (result.signum() <= 0) {
      return 0;
    }
    return result.compareTo(BigInteger.valueOf(NEVER_TICKS)) >= 0
        ? NEVER_TICKS
        : result.longValue();
  }

  /**
   * The rate in permits per second, whatever {@link #per()} is.
   *
   * @return permits per second
   */
  public double permitsPerSecond() {
    return perSecond(rate, per);
  }

  /**
   * A rate in permits per second, the one conversion for every comparison of rates: a rate given
   * per second is returned as it is, so writing back the value read changes nothing.
   *
   * @param rate permits per {@code per}
   * @param per its unit
   * @return permits per second
   */
  public static double perSecond(double rate, TimeUnit per) {
    return per == TimeUnit.SECONDS ? rate : rate * 1e9 / per.toNanos(1);
  }

  /**
   * Takes {@code permits} permits at {@code nowNanos}, or reports why not. Never blocks.
   *
   * @param nowNanos the clock's reading, taken once by the caller before this call
   * @param permits permits to take, {@code >= 1}
   * @param freshClock false on the first try; true when retrying after {@link #STALE_CLOCK} with a
   *     new reading
   * @return {@code >= 0}: admitted, after waiting that many ticks (0: proceed now; convert with
   *     {@link #toNanosCeil(long)}); {@link #STALE_CLOCK}: read the clock again and retry; {@link
   *     #CLOCK_STEPPED_BACK}: see {@link #resetAfterClockStep}; {@link #NEVER}: limited, and never
   *     admissible (more permits than the capacity, or an interval of "never"); any other negative
   *     value: limited, admissible at once after {@code -result} ticks (see {@link
   *     #retryAfterNanos(long)})
   */
  public long acquire(long nowNanos, long permits, boolean freshClock) {
    return acquire(this, nowNanos, permits, freshClock);
  }

  /**
   * {@link #acquire(long, long, boolean)} on a per-key state. Never blocks.
   *
   * @param state a state made by {@link #newState(long)}
   * @param nowNanos the clock's reading, taken once by the caller before this call
   * @param permits permits to take, {@code >= 1}
   * @param freshClock as for {@link #acquire(long, long, boolean)}
   * @return as {@link #acquire(long, long, boolean)}, or {@link #STATE_RETIRED}: the state is no
   *     longer the key's, nothing was taken; look the key up again
   */
  public long acquire(BucketState state, long nowNanos, long permits, boolean freshClock) {
    if (warmUp != null && state == this) {
      return warmUp.acquire(this, nowNanos, permits, freshClock); // per-key states do not warm up
    }
    if (permits > capacity) {
      return NEVER;
    }
    long now = nowNanos * ticksPerNano;
    long cost = cost(permits);
    for (; ; ) {
      long current = state.fullAt;
      if (current == RETIRED) {
        return STATE_RETIRED;
      }
      long ahead = current - now;
      if (ahead > admitLimit) {
        if (!freshClock) {
          return STALE_CLOCK;
        }
        if (ahead <= WRAPPED) {
          // beyond the margin: the clock went back (resetAfterClockStep decides, on a new
          // reading); within it: the bucket is just fuller than any call can use
          return ahead > clockBackLimit ? CLOCK_STEPPED_BACK : limited(ahead + cost);
        }
        ahead = 0; // idle so long that the tick difference wrapped: full
      }
      long needed = (ahead > 0 ? ahead : 0) + cost;
      if (needed > admitLimit) {
        return limited(needed);
      }
      long next = live(now + needed);
      if (FULL_AT.compareAndSet(state, current, next)) {
        long wait = needed - freeLimit;
        return wait > 0 ? wait : 0;
      }
      BackOff.afterLostRace();
    }
  }

  /** {@link #limited}, for the warm-up's acquire. */
  long limitedCode(long needed) {
    return limited(needed);
  }

  /** {@link #live}, for the warm-up's acquire. */
  static long liveValue(long fullAt) {
    return live(fullAt);
  }

  /** Compares and sets a state's {@code fullAt} as written (the caller made it live). */
  static boolean casRaw(BucketState state, long expected, long next) {
    return FULL_AT.compareAndSet(state, expected, next);
  }

  /**
   * A new per-key state, full (a leaky bucket: empty) at {@code nowNanos}: the same as this
   * bucket's state at its creation.
   *
   * @param nowNanos the clock's reading
   * @return a state for {@link #acquire(BucketState, long, long, boolean)}
   */
  BucketState newState(long nowNanos) {
    return new BucketState(live(nowNanos * ticksPerNano), this);
  }

  /**
   * Marks a per-key state retired if it is idle at {@code nowNanos} (full again: a token bucket
   * full, a leaky bucket drained), so that dropping it is unobservable: a new state made now would
   * be the same. Never blocks.
   *
   * @param state the state
   * @param nowNanos a fresh reading of the clock
   * @return 0 if this call retired the state (its caller removes it); {@link #ALREADY_RETIRED} if
   *     it was retired before (by a sweep, or claimed by a move); otherwise the ticks until it may
   *     be idle, {@code >= 1} ({@link #NEVER_TICKS} if it cannot be told: the clock went back)
   */
  long retireIfIdle(BucketState state, long nowNanos) {
    long now = nowNanos * ticksPerNano;
    for (; ; ) {
      long current = state.fullAt;
      if (current == RETIRED) {
        return ALREADY_RETIRED;
      }
      long ahead = untilIdle(current, now);
      if (ahead > 0) {
        return ahead;
      }
      if (FULL_AT.compareAndSet(state, current, RETIRED)) {
        return 0;
      }
    }
  }

  /**
   * As {@link #retireIfIdle}, without retiring: the ticks until the state may be idle.
   *
   * @param state the state
   * @param nowNanos the clock's reading
   * @return {@code >= 1} as {@link #retireIfIdle} gives it; 0 if it is idle now or retired
   */
  long ticksUntilIdle(BucketState state, long nowNanos) {
    long current = state.fullAt;
    return current == RETIRED ? 0 : untilIdle(current, nowNanos * ticksPerNano);
  }

  /**
   * Ticks from {@code now} until a state holding {@code fullAt} is idle: 0 if it is idle (or
   * wrapped, ancient); {@link #NEVER_TICKS} if it cannot be told (the clock went back).
   */
  private long untilIdle(long fullAt, long now) {
    long ahead = fullAt - now;
    if (ahead <= 0 || ahead > WRAPPED) {
      return 0;
    }
    return ahead > clockBackLimit ? NEVER_TICKS : ahead;
  }

  /**
   * Claims a per-key state for a move: marks it retired and returns the value it held, so that a
   * copy made from that value continues it exactly. Never blocks.
   *
   * @param state the state
   * @return the value it held; {@link #RETIRED} if it was retired already
   */
  static long claim(BucketState state) {
    for (; ; ) {
      long current = state.fullAt;
      if (current == RETIRED || FULL_AT.compareAndSet(state, current, RETIRED)) {
        return current;
      }
    }
  }

  /**
   * Moves a live per-key state at least as far ahead as {@code fullAt} (wrapping order): the
   * conservative merge of two states of one key. Never blocks.
   *
   * @param state a live state
   * @param fullAt the other state's value
   */
  static void atLeast(BucketState state, long fullAt) {
    for (; ; ) {
      long current = state.fullAt;
      if (current == RETIRED || fullAt - current <= 0) {
        return;
      }
      if (FULL_AT.compareAndSet(state, current, fullAt)) {
        return;
      }
    }
  }

  /**
   * The ticks per nanosecond, for converting {@link #retireIfIdle} results.
   *
   * @return {@code 1..1024}
   */
  long ticksPerNano() {
    return ticksPerNano;
  }

  /** A per-key value that is never the marker: one tick later, against the caller. */
  private static long live(long fullAt) {
    return fullAt == RETIRED ? fullAt + 1 : fullAt;
  }

  /**
   * Takes the bucket as empty after {@link #acquire} reported {@link #CLOCK_STEPPED_BACK}, if a
   * reading taken immediately before this call still puts {@code fullAt} beyond the margin. The
   * bucket then holds nothing, so no call is admitted beyond what it held, and calls pass again
   * within capacity / rate of the new time. Never blocks.
   *
   * @param nowNanos a reading taken immediately before this call
   * @return true if the bucket was reset
   */
  public boolean resetAfterClockStep(long nowNanos) {
    return resetAfterClockStep(this, nowNanos);
  }

  /** {@link #resetAfterClockStep(long)} on any state; a retired one is left alone. */
  public boolean resetAfterClockStep(BucketState state, long nowNanos) {
    long now = nowNanos * ticksPerNano;
    long current = state.fullAt;
    long ahead = current - now;
    if (current == RETIRED) {
      return false;
    }
    if (ahead > clockBackLimit
        && ahead <= WRAPPED
        && FULL_AT.compareAndSet(state, current, live(now + emptyAhead))) {
      if (state == this && warmUp != null) {
        warmUp.reset(live(now + emptyAhead)); // cold again: no warmth is trusted across a step
      }
      return true;
    }
    return false;
  }

  private long limited(long needed) {
    long retry = needed - retryBase;
    return retry >= NEVER_TICKS || interval == NEVER_TICKS ? NEVER : -retry;
  }

  /**
   * Returns the permits of an admitted call that will not proceed (its waiting thread was
   * interrupted), where no later call depends on them: only if no call has taken a slot after it.
   *
   * @param nowNanos the reading the call passed to {@link #acquire}
   * @param waitTicks the wait {@link #acquire} returned, {@code > 0}
   * @param permits the permits the call took
   * @return true if the permits went back to the bucket; false if a later call holds a slot after
   *     them (they are then lost, which can only under-admit)
   */
  public boolean giveBack(long nowNanos, long waitTicks, long permits) {
    long end = slotEnd(nowNanos, waitTicks);
    return giveBack(this, end, slotStart(end, permits));
  }

  /**
   * The end of the slot an admitted waiter holds: the {@code fullAt} its acquire wrote (before the
   * per-key marker's adjustment).
   *
   * @param nowNanos the reading the call passed to {@link #acquire}
   * @param waitTicks the wait {@link #acquire} returned
   * @return ticks
   */
  public long slotEnd(long nowNanos, long waitTicks) {
    return nowNanos * ticksPerNano + waitTicks + freeLimit;
  }

  /**
   * The start of a slot of {@code permits} permits ending at {@code slotEnd}: what {@code fullAt}
   * was before the call took it, had no later call come.
   *
   * @param slotEnd from {@link #slotEnd}
   * @param permits the permits the call took
   * @return ticks
   */
  public long slotStart(long slotEnd, long permits) {
    return slotEnd - cost(permits);
  }

  /**
   * Gives a slot back if it is the last one taken: {@code fullAt} moves from its end back to its
   * start only if no call has taken a slot after it. Never blocks.
   *
   * @param state the state
   * @param slotEnd from {@link #slotEnd}
   * @param slotStart from {@link #slotStart}
   * @return true if the slot went back
   */
  public boolean giveBack(BucketState state, long slotEnd, long slotStart) {
    if (state == this && warmUp != null) {
      return false; // a cold slot cost more than slotStart tells: kept (less admitted, never more)
    }
    // as acquire wrote them
    return FULL_AT.compareAndSet(state, live(slotEnd), live(slotStart));
  }

  /**
   * Gives back {@code permits} permits taken a moment ago by an acquire that admitted at once:
   * {@code fullAt} moves back by their cost, whatever calls came since (the costs of calls add, so
   * taking one away leaves the others' as if it had never been taken). A state retired meanwhile
   * keeps the permits: less is admitted, never more. Never blocks.
   *
   * @param state the state the permits were taken from
   * @param permits the permits taken
   * @return true if they went back
   */
  public boolean refund(BucketState state, long permits) {
    if (state == this && warmUp != null) {
      return false; // as giveBack: a warm-up keeps what it charged
    }
    long cost = cost(permits);
    for (; ; ) {
      long current = state.fullAt;
      if (current == RETIRED) {
        return false;
      }
      if (FULL_AT.compareAndSet(state, current, live(current - cost))) {
        return true;
      }
    }
  }

  /**
   * An instant in ticks as a clock reading, rounded down: no later than the instant.
   *
   * @param ticks an instant in this bucket's ticks (wrapping, like the clock)
   * @param nowNanos a clock reading near it
   * @return nanoseconds on the clock
   */
  public long nanosAtOrBefore(long ticks, long nowNanos) {
    long ahead = ticks - nowNanos * ticksPerNano;
    return nowNanos + (ticksPerNano == 1 ? ahead : Math.floorDiv(ahead, ticksPerNano));
  }

  /**
   * Whether a slot ending at {@code slotEnd} has ended by {@code nowNanos}: giving it back then
   * would change nothing.
   *
   * @param slotEnd from {@link #slotEnd}
   * @param nowNanos the clock's reading
   * @return true if it is over
   */
  public boolean isOver(long slotEnd, long nowNanos) {
    return slotEnd - nowNanos * ticksPerNano <= 0;
  }

  /**
   * How long until a call of {@code permits} permits would be admitted at once (for shaping:
   * admitted into the queue), without taking anything. Never blocks.
   *
   * @param nowNanos the clock's reading
   * @param permits permits the call would take
   * @return nanoseconds, {@code >= 0}; {@link Long#MAX_VALUE} for never
   */
  public long probeRetryAfterNanos(long nowNanos, long permits) {
    return probeRetryAfterNanos(this, nowNanos, permits);
  }

  /**
   * {@link #probeRetryAfterNanos(long, long)} on a per-key state (a retired one reads as idle).
   *
   * @param state the state
   * @param nowNanos the clock's reading
   * @param permits permits the call would take
   * @return nanoseconds, {@code >= 0}; {@link Long#MAX_VALUE} for never
   */
  public long probeRetryAfterNanos(BucketState state, long nowNanos, long permits) {
    if (permits > capacity) {
      return Long.MAX_VALUE;
    }
    WarmUp warm = state == this ? warmUp : null;
    long cold = warm == null ? 0 : warm.coldAt;
    long current = state.fullAt;
    long ahead = current == RETIRED ? 0 : current - nowNanos * ticksPerNano;
    if (warm != null && current != RETIRED) {
      long needed =
          warm.retryNeeded(
              cold, current, ahead > WRAPPED ? -WRAPPED : ahead, permits, cost(permits));
      return needed <= retryBase ? 0 : retryAfterNanos(limited(needed));
    }
    if (ahead < 0 || ahead > WRAPPED) {
      ahead = 0;
    }
    long needed = ahead + cost(permits);
    return needed <= retryBase ? 0 : retryAfterNanos(limited(needed));
  }

  /**
   * This bucket's settings in ticks, as the shared form of this core (the Redis script of cluster
   * scope) takes them with each call, so that it does the same arithmetic on the same ticks.
   *
   * @param permits the permits of one call, {@code >= 1}
   * @return {@code {ticksPerNano, interval, cost of permits, admitLimit, freeLimit, retryBase,
   *     emptyAhead, clockBackLimit, burst, U, Z}}, each in ticks but the first ({@link
   *     #NEVER_TICKS} means never); {@code U} and {@code Z} are the warm-up's cold zone and lag
   *     ({@link WarmUp}), 0 for none
   */
  public long[] sharedSettings(long permits) {
    return new long[] {
      ticksPerNano,
      interval,
      cost(permits),
      admitLimit,
      freeLimit,
      retryBase,
      emptyAhead,
      clockBackLimit,
      burst,
      warmUp == null ? 0 : warmUp.half(),
      warmUp == null ? 0 : warmUp.lag()
    };
  }

  /**
   * Whether the shared form of this core computes exactly what this bucket does: it keeps its
   * numbers in IEEE doubles (Redis's Lua), exact below 2^53, so every finite duration it handles
   * must stay below 2^52 ticks (52 days at one tick per nanosecond, 73 minutes at 1024), and with a
   * warm-up, whose sums are longer, below 2^50 (13 days; 18 minutes at 1024), the warm-up's half
   * zone plus its lag included (so a warm-up of up to about 26 days). A duration of "never" ({@link
   * #NEVER_TICKS}) is exact.
   *
   * @param permits the permits of one call
   * @return null if exact; otherwise what is too long, in words
   */
  public String sharedProblem(long permits) {
    int bits = warmUp == null ? 52 : 50;
    long limit = 1L << bits;
    String tick =
        " s in ticks of 1/" + ticksPerNano + " ns) is beyond what a cluster bucket counts";
    if (warmUp != null && warmUp.half() + warmUp.lag() >= limit) {
      return "its warm-up (" + warmUp.warmUpNanos / 1_000_000_000L + tick + " exactly (2^50 ticks)";
    }
    long[] ticks = {cost(permits), admitLimit, burst};
    for (long t : ticks) {
      if (t >= limit && t != NEVER_TICKS) {
        return "its burst plus longest wait ("
            + toNanosCeil(Math.max(admitLimit, burst)) / 1_000_000_000L
            + tick
            + " exactly (2^"
            + bits
            + " ticks"
            + (warmUp == null ? ")" : " with a warm-up)");
      }
    }
    return null;
  }

  /**
   * The permits a state that is {@code ahead} ticks ahead of now holds: {@link #availablePermits}
   * for a state read elsewhere (cluster scope).
   *
   * @param ahead ticks, {@code >= 0}
   * @return permits, {@code 0..capacity}
   */
  public long availablePermitsAhead(long ahead) {
    if (ahead <= 0) {
      return capacity;
    }
    return ahead >= burst ? 0 : Math.min(capacity, (burst - ahead) / interval);
  }

  /**
   * The permits the bucket holds now: tokens of a token bucket, free places of a leaky bucket.
   * Never blocks.
   *
   * @param nowNanos the clock's reading
   * @return permits, {@code 0..capacity}
   */
  public long availablePermits(long nowNanos) {
    long cold = warmUp == null ? 0 : warmUp.coldAt;
    long current = fullAt;
    long ahead = current - nowNanos * ticksPerNano;
    long tokens = availablePermitsAhead(ahead > WRAPPED ? 0 : ahead);
    return warmUp == null || current == RETIRED
        ? tokens
        : warmUp.availablePermits(cold, current, ahead > WRAPPED ? -WRAPPED : ahead, tokens);
  }

  /**
   * Converts a duration in this bucket's ticks to nanoseconds, rounding up (a caller that waits the
   * result has waited long enough).
   *
   * @param ticks a duration in ticks, {@code >= 0}
   * @return nanoseconds; {@link Long#MAX_VALUE} for a duration of "never"
   */
  public long toNanosCeil(long ticks) {
    if (ticks >= NEVER_TICKS) {
      return Long.MAX_VALUE;
    }
    return ticksPerNano == 1 ? ticks : (ticks + ticksPerNano - 1) / ticksPerNano;
  }

  /**
   * One emission interval, {@code 1 / rate}, in nanoseconds rounded up.
   *
   * @return nanoseconds, {@code >= 1}; {@link Long#MAX_VALUE} for an interval of "never"
   */
  public long intervalNanos() {
    return toNanosCeil(interval);
  }

  /**
   * The retry-after of a limited result of {@link #acquire}.
   *
   * @param result a negative result of {@link #acquire} other than {@link #STALE_CLOCK}
   * @return nanoseconds until the same call would be admitted at once, {@code >= 1}; {@link
   *     Long#MAX_VALUE} for {@link #NEVER}
   */
  public long retryAfterNanos(long result) {
    return result == NEVER ? Long.MAX_VALUE : toNanosCeil(-result);
  }

  /**
   * The warm-up period.
   *
   * @return nanoseconds; 0 for none
   */
  public long warmUpNanos() {
    return warmUp == null ? 0 : warmUp.warmUpNanos;
  }

  /**
   * The discipline.
   *
   * @return token bucket, leaky policing or leaky shaping
   */
  public Discipline discipline() {
    return discipline;
  }

  /**
   * The capacity.
   *
   * @return the burst or queue size in permits
   */
  public long capacity() {
    return capacity;
  }

  /**
   * The rate as configured.
   *
   * @return permits per {@link #per()}
   */
  public double rate() {
    return rate;
  }

  /**
   * The unit of {@link #rate()}.
   *
   * @return the time unit
   */
  public TimeUnit per() {
    return per;
  }

  /**
   * Whether a limited call waits (up to {@link #maxWaitNanos()}) instead of being rejected.
   *
   * @return true for {@code OnLimit.WAIT}
   */
  public boolean waitOnLimit() {
    return waitOnLimit;
  }

  /**
   * The longest wait.
   *
   * @return nanoseconds; {@link Long#MAX_VALUE} for no bound
   */
  public long maxWaitNanos() {
    return maxWaitNanos;
  }

  /**
   * The emission interval, for tests and diagnostics.
   *
   * @return {@code {ticksPerNano, intervalTicks}}
   */
  long[] intervalTicks() {
    return new long[] {ticksPerNano, interval};
  }

  private long cost(long permits) {
    return permits <= exactPermits ? permits * interval : NEVER_TICKS;
  }

  /** {@link EmissionInterval#of}, where the tests of the bucket look for it. */
  static long[] emissionInterval(double rate, TimeUnit per) {
    return EmissionInterval.of(rate, per);
  }

  private static long cap(long ticks) {
    return ticks >= NEVER_TICKS || ticks < 0 ? NEVER_TICKS : ticks;
  }

  private static long saturatedMultiply(long a, long b) {
    if (a == 0 || b == 0) {
      return 0;
    }
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }

  // ---- for JointCharge: several limits on one call, all or nothing ----

  /** The part of a call's distance ahead that it does not wait for, in ticks. */
  long freeLimitTicks() {
    return freeLimit;
  }

  /** How far ahead of now an admitted call may put {@code fullAt}, in ticks. */
  long admitLimitTicks() {
    return admitLimit;
  }

  /** The cost of {@code permits} permits in ticks, capped at {@link #NEVER_TICKS}. */
  long costTicks(long permits) {
    return cost(permits);
  }

  /** Compares and sets a state's {@code fullAt}, never to the retired marker. */
  static boolean casFullAt(BucketState state, long expected, long next) {
    return FULL_AT.compareAndSet(state, expected, live(next));
  }

  /** A fresh reading that puts fullAt further ahead than this means the clock stepped back. */
  long clockBackLimitTicks() {
    return clockBackLimit;
  }

  /** The emission interval in ticks. */
  long intervalTicksOnly() {
    return interval;
  }
}
