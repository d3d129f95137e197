package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.core.BucketState;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The answer to {@link Limiter#reserve}: a call admitted at once, a call limited, or a call that
 * holds a departure slot it has not reached yet, and does not wait for it on its thread (an {@code
 * http} request that is suspended until its slot, see {@code HttpWaits}).
 *
 * <p>A held slot was charged as {@link Limiter#acquire} charges a waiting call, at the same instant
 * and by the same rules; the call is counted waiting ({@code Waiting}) until it ends one of two
 * ways, exactly once whatever races: {@link #admit} at or after its slot (counted granted and
 * waited, its wait recorded), or {@link #abandon} before it (the client went away, the container
 * timed the request out, it could not be suspended): its slot is given back by the rule for
 * interrupted waiters, where no later call holds a slot after it, and it is counted rejected; or
 * {@link #withdraw} before it, when another limit refused the call: given back, counted neither
 * way.
 *
 * <p>A call that several limits apply to holds one reservation for all of them (made by {@link
 * LimitGroup#reserveAll}), which ends on each of them at once; one admitted at once still holds its
 * charges until {@link #admit} (given back exactly by {@link #withdraw}).
 *
 * <p>Thread-safe: {@link #admit}, {@link #abandon} and {@link #withdraw} may race from different
 * threads; the first decides.
 */
public class Reservation {
  /** A call admitted at once. */
  static final Reservation ADMITTED = new Reservation(null, null, null, null, 0, 0, 0, 0);

  private static final int PENDING = 0;
  private static final int ENDED = 1;

  final BucketLimiter limiter;
  final GcraBucket bucket;

  /** The local state the slot was taken from; null for a cluster bucket's slot. */
  final BucketState state;

  /** The key of a per-key state; null for the keyless bucket. */
  final String key;

  /** The clock reading the slot was taken at. */
  final long reservedAtNanos;

  /** The wait {@link GcraBucket#acquire} returned, in the bucket's ticks. */
  final long waitTicks;

  private final long waitNanos;

  /** For a limited call: its retry-after, nanoseconds; 0 otherwise. */
  private final long retryAfterNanos;

  private final AtomicInteger ended = new AtomicInteger(PENDING);

  Reservation(
      BucketLimiter limiter,
      GcraBucket bucket,
      BucketState state,
      String key,
      long reservedAtNanos,
      long waitTicks,
      long waitNanos,
      long retryAfterNanos) {
    this.limiter = limiter;
    this.bucket = bucket;
    this.state = state;
    this.key = key;
    this.reservedAtNanos = reservedAtNanos;
    this.waitTicks = waitTicks;
    this.waitNanos = waitNanos;
    this.retryAfterNanos = retryAfterNanos;
  }

  /**
   * The answer of a call admitted at once, holding nothing.
   *
   * @return the answer
   */
  public static Reservation admittedAtOnce() {
    return ADMITTED;
  }

  /**
   * A limited call's answer.
   *
   * @param retryAfterNanos nanoseconds until the same call would be admitted, {@code > 0}; {@link
   *     Long#MAX_VALUE} for never
   * @return the answer
   */
  public static Reservation limited(long retryAfterNanos) {
    return new Reservation(null, null, null, null, 0, 0, 0, Math.max(1, retryAfterNanos));
  }

  /**
   * Whether the call was limited.
   *
   * @return true if it was limited: it holds nothing
   */
  public boolean isLimited() {
    return retryAfterNanos > 0;
  }

  /**
   * Whether the call holds a slot it has yet to reach.
   *
   * @return true if it must wait {@link #waitNanos()} and then {@link #admit} or {@link #abandon}
   */
  public boolean waits() {
    return waitNanos > 0;
  }

  /**
   * The retry-after of a limited call.
   *
   * @return nanoseconds, {@code > 0}, {@link Long#MAX_VALUE} for never; 0 if it was not limited
   */
  public long retryAfterNanos() {
    return retryAfterNanos;
  }

  /**
   * How long after {@link #reservedAtNanos()} the slot comes.
   *
   * @return nanoseconds, {@code > 0} for a call that {@link #waits()}; 0 otherwise
   */
  public long waitNanos() {
    return waitNanos;
  }

  /**
   * The limiter's clock reading when the slot was taken.
   *
   * @return nanoseconds on the limiter's clock
   */
  public long reservedAtNanos() {
    return reservedAtNanos;
  }

  /**
   * The limiter's clock.
   *
   * @return the clock its slot is counted on; {@link NanoClock#SYSTEM} for an answer that holds
   *     nothing
   */
  public NanoClock clock() {
    return limiter == null ? NanoClock.SYSTEM : limiter.clock();
  }

  /**
   * Ends the wait: the call proceeds, counted granted and waited, the time since its slot was taken
   * recorded as its wait. Call at or after the slot. Never blocks.
   *
   * @return true if this ended it; false if it had ended already (abandoned: do not proceed)
   */
  public boolean admit() {
    if (!holds()) {
      return !isLimited();
    }
    if (!ended.compareAndSet(PENDING, ENDED)) {
      return false;
    }
    admitted();
    return true;
  }

  /**
   * Whether there is anything to end: a slot to reach, or charges to give back.
   *
   * @return for one limit, {@link #waits()}
   */
  boolean holds() {
    return waits();
  }

  /** Counts the slot reached ({@link #admit}). */
  void admitted() {
    limiter.admitReserved(this);
  }

  /** Gives the slot back, counted rejected ({@link #abandon}); returns the retry-after. */
  long abandoned() {
    return limiter.abandonReserved(this);
  }

  /** Gives the slot back, counted neither way ({@link #withdraw}). */
  void withdrawn() {
    limiter.withdrawReserved(this);
  }

  /**
   * Ends the wait before the slot: the slot is given back where no later call holds one after it
   * (the rule for interrupted waiters), and the call is counted rejected. Never blocks.
   *
   * @return the retry-after for the call's answer, nanoseconds {@code >= 1}; {@code -1} if it had
   *     ended already (admitted: it proceeds)
   */
  public long abandon() {
    if (!holds() || !ended.compareAndSet(PENDING, ENDED)) {
      return -1;
    }
    return abandoned();
  }

  /**
   * Ends the wait before the slot for a call another limit refused, so that it is charged by none:
   * the slot is given back as by {@link #abandon}, and the call is counted neither granted nor
   * rejected (it was never admitted here, nor limited here). Never blocks.
   *
   * @return true if this ended it; false if it had ended already
   */
  public boolean withdraw() {
    if (!holds() || !ended.compareAndSet(PENDING, ENDED)) {
      return false;
    }
    withdrawn();
    return true;
  }

  /**
   * Waits on the calling thread until the slot has come by the limiter's clock, then ends the wait
   * with {@link #admit}; interrupted first, ends it with {@link #abandon} (the interrupt status
   * stays set). Returns at once for an answer that holds no slot.
   *
   * @return 0 if the call may proceed; its retry-after, nanoseconds {@code >= 1}, if it was
   *     interrupted (its slot given back) or was limited; {@code -1} if the wait had ended already
   *     by another thread's {@link #abandon}
   */
  public long await() {
    if (!waits()) {
      return retryAfterNanos;
    }
    NanoClock clock = clock();
    long due = reservedAtNanos + waitNanos;
    for (; ; ) {
      long left = due - clock.nanoTime();
      if (left <= 0) {
        return admit() ? 0 : -1;
      }
      clock.parkNanos(left);
      if (Thread.currentThread().isInterrupted()) {
        return abandon();
      }
    }
  }

  /**
   * Whether the wait has ended ({@link #admit} or {@link #abandon}).
   *
   * @return true once ended
   */
  public boolean ended() {
    return ended.get() != PENDING;
  }
}
