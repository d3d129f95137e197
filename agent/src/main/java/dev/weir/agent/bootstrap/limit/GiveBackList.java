package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.core.BucketState;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.KeyedBuckets;
import java.util.ArrayList;

/**
 * The give-back of one limiter's interrupted waiters (a {@code WAIT} call, a SHAPING queue): a
 * waiter interrupted before its slot gives the slot back when no later call holds a slot after it
 * ({@link GcraBucket#giveBack}); otherwise the slot is kept here as a hole, and given back once the
 * calls after it have given theirs back (interrupted too) and it is the last again. So waiters
 * interrupted head first, as {@code shutdownNow()} may do, lose no slot (guarded by {@code
 * BucketLimiterTest.slotsOfWaitersInterruptedHeadFirstAllGoBackOnceTheLastHas}).
 *
 * <p>A hole whose slot has passed is forgotten (giving it back would change nothing), and so is one
 * whose state a live change retired (its CAS can no longer succeed). Slots and holes are in their
 * bucket's ticks. The list is made on the first hole; only interrupted waiters come here, so the
 * acquire path never does.
 *
 * <p>Thread-safe: under this object's lock.
 */
final class GiveBackList {
  /** Permits per call of the limiter: the size of each slot. */
  private final long permits;

  /** Slots not given back yet; null until the first. Guarded by {@code this}. */
  private ArrayList<Hole> holes;

  /** A slot not given back: its state, and where it ends and starts, in its bucket's ticks. */
  private static final class Hole {
    final BucketState state;
    final long end;
    final long start;

    Hole(BucketState state, long end, long start) {
      this.state = state;
      this.end = end;
      this.start = start;
    }
  }

  /**
   * Creates the list of one limiter.
   *
   * @param permits permits per call, {@code >= 1}
   */
  GiveBackList(long permits) {
    this.permits = permits;
  }

  /**
   * Gives an interrupted waiter's slot back, or keeps it as a hole (see the class comment); with
   * it, the holes that are the last again. A per-key state's idle instant moves earlier, to no
   * earlier than the first slot given back, and its table learns of it ({@link
   * KeyedBuckets#gaveBack}). Never blocks beyond this list's lock.
   *
   * @param state the state the slot was taken from
   * @param slotEnd where the slot ends, in its bucket's ticks
   * @param nowNanos the clock's reading
   * @param keyed the per-key states {@code state} is one of; null for the keyless bucket
   * @param key the key of {@code state}; null for the keyless bucket
   */
  void giveBack(BucketState state, long slotEnd, long nowNanos, KeyedBuckets keyed, String key) {
    GcraBucket b = state.bucket;
    long start = b.slotStart(slotEnd, permits);
    synchronized (this) {
      if (!b.giveBack(state, slotEnd, start)) {
        keep(state, slotEnd, start, nowNanos);
        return;
      }
      start = giveBackHolesBefore(state, start);
    }
    if (key != null) {
      keyed.gaveBack(key, Math.min(nowNanos, b.nanosAtOrBefore(start, nowNanos)));
    }
  }

  /** Keeps a slot as a hole, forgetting the holes that can no longer go back. Under the lock. */
  private void keep(BucketState state, long slotEnd, long start, long nowNanos) {
    if (holes == null) {
      holes = new ArrayList<Hole>();
    }
    for (int i = holes.size() - 1; i >= 0; i--) {
      Hole hole = holes.get(i);
      if (hole.state.bucket.isOver(hole.end, nowNanos) || hole.state.fullAt == GcraBucket.RETIRED) {
        holes.remove(i);
      }
    }
    holes.add(new Hole(state, slotEnd, start));
  }

  /**
   * Gives back the holes of {@code state} that are the last again, once the slot that started at
   * {@code start} went back: the one that ends there, then the one before it, and so on. Under the
   * lock.
   *
   * @return where the earliest slot given back starts, in ticks
   */
  private long giveBackHolesBefore(BucketState state, long start) {
    GcraBucket b = state.bucket;
    for (boolean more = holes != null; more; ) {
      more = false;
      for (int i = 0; i < holes.size(); i++) {
        Hole hole = holes.get(i);
        if (hole.state == state && hole.end == start && b.giveBack(state, hole.end, hole.start)) {
          start = hole.start;
          holes.remove(i);
          more = true;
          break;
        }
      }
    }
    return start;
  }
}
