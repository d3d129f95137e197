package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.core.BucketState;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.KeyedBuckets;
import dev.weir.agent.bootstrap.core.NanoClock;

/**
 * The waits of one {@link BucketLimiter}'s calls for the slots their bucket gave them ({@code
 * WAIT}, SHAPING). A call parks ({@link NanoClock#parkNanos}) in a loop until its deadline, so
 * virtual threads do not pin, and counts forward clock time only, so a clock that steps back while
 * it waits never lengthens the wait. A waiter that is interrupted keeps its interrupt flag and is
 * limited; its slot goes back by the rule of {@link GiveBackList} (a cluster bucket's slot stays
 * taken: less is admitted, never more). A slot a {@link Reservation} holds ends here too, reached
 * or given back. What happens is counted in the limiter's {@link CallCounts}.
 *
 * <p>Thread-safe; a wait blocks its thread until the slot, or until it is interrupted.
 */
final class SlotWaits {
  private final NanoClock clock;

  /** Permits per call. */
  private final long permits;

  private final CallCounts counts;
  private final GiveBackList giveBacks;

  /**
   * The waits of one limiter.
   *
   * @param clock the limiter's clock
   * @param permits permits per call, {@code >= 1}
   * @param counts the limiter's counts
   */
  SlotWaits(NanoClock clock, long permits, CallCounts counts) {
    this.clock = clock;
    this.permits = permits;
    this.counts = counts;
    this.giveBacks = new GiveBackList(permits);
  }

  /**
   * Parks until the call's slot, counted as a wait. Blocks.
   *
   * @param b the bucket the slot was taken from
   * @param state the local state the slot was taken from; null for a cluster bucket's slot
   * @param keyed the limiter's per-key states, if {@code key} is given
   * @param key the key of a per-key state; null for the keyless bucket
   * @param now the clock reading the slot was taken at, nanoseconds
   * @param waitTicks the wait the bucket answered, in its ticks, {@code > 0}
   * @return {@link Limiter#ADMITTED}; or, interrupted, {@code ~retryAfterNanos}
   */
  long await(
      GcraBucket b, BucketState state, KeyedBuckets keyed, String key, long now, long waitTicks) {
    // a call that waits is Weir's own work until it leaves: what the wait runs of the JDK (the
    // park, the histogram's arrays, a give-back) charges no config limit, and none need refuse it
    int[] section = CallDepth.enterWeir();
    try {
      return awaitOwn(b, state, keyed, key, now, waitTicks);
    } finally {
      section[0]--;
    }
  }

  private long awaitOwn(
      GcraBucket b, BucketState state, KeyedBuckets keyed, String key, long now, long waitTicks) {
    long wait = b.toNanosCeil(waitTicks);
    long remaining = wait;
    long last = now;
    counts.startWait();
    try {
      for (; ; ) {
        long reading = clock.nanoTime();
        long progress = reading - last;
        last = reading;
        if (progress > 0) {
          remaining -= progress;
        }
        if (remaining <= 0) {
          counts.admitAfterWait(wait - remaining);
          return Limiter.ADMITTED;
        }
        clock.parkNanos(remaining);
        if (Thread.currentThread().isInterrupted()) {
          counts.reject();
          if (state == null) {
            // a cluster bucket's slot stays taken (less is admitted, never more)
            return ~Math.max(remaining, 1);
          }
          giveBacks.giveBack(state, b.slotEnd(now, waitTicks), clock.nanoTime(), keyed, key);
          return ~b.probeRetryAfterNanos(state, clock.nanoTime(), permits);
        }
      }
    } finally {
      counts.endWait();
    }
  }

  /**
   * Counts a held slot reached ({@link Reservation#admit}): granted and waited, the time since it
   * was taken (forward clock time only) recorded as its wait. Never blocks.
   *
   * @param r the reservation, {@link Reservation#waits()}
   */
  void admitHeld(Reservation r) {
    long spent = Math.max(0, clock.nanoTime() - r.reservedAtNanos);
    counts.endWait();
    counts.admitAfterWait(spent);
  }

  /**
   * Gives a held slot back before it came, by the rule for interrupted waiters, counting it no
   * longer waiting (and nothing else). Never blocks beyond the give-back list's lock.
   *
   * @param r the reservation, {@link Reservation#waits()}
   * @param keyed the limiter's per-key states, if the reservation has a key
   * @return the retry-after for the call's answer, nanoseconds {@code >= 1}
   */
  long withdrawHeld(Reservation r, KeyedBuckets keyed) {
    try {
      long now = clock.nanoTime();
      if (r.state == null) {
        // a cluster bucket's slot stays taken (less is admitted, never more)
        return Math.max(1, r.waitNanos() - Math.max(0, now - r.reservedAtNanos));
      }
      long slotEnd = r.bucket.slotEnd(r.reservedAtNanos, r.waitTicks);
      giveBacks.giveBack(r.state, slotEnd, clock.nanoTime(), keyed, r.key);
      return Math.max(1, r.bucket.probeRetryAfterNanos(r.state, clock.nanoTime(), permits));
    } finally {
      counts.endWait();
    }
  }
}
