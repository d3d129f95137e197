package dev.weir.agent.bootstrap.limit;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counts an operator reads of one limiter's calls, since the limiter was created: calls, not
 * permits. Granted: calls admitted, at once or after waiting; rejected: calls limited (a call
 * answered by a fallback, or interrupted while waiting, included); waited: calls admitted after
 * waiting, and the time they waited (nanoseconds, with their distribution in {@link WaitStats});
 * waiting: calls waiting now. In a dry run every call is granted, and the calls the bucket would
 * have limited or made wait are counted rejected or waited too.
 *
 * <p>Granted and rejected are {@link CallCounter}s: a call adds to its thread's own cell with no
 * atomic instruction, and allocates nothing but a thread's first cell, so the admitted path stays
 * as cheap as an unshared field; the waits, on the slow path, are {@link LongAdder}s, and the
 * {@link WaitStats} are made on the first wait. Thread-safe.
 */
final class CallCounts {
  private final CallCounter granted = new CallCounter();
  private final CallCounter rejected = new CallCounter();
  private final LongAdder waited = new LongAdder();
  private final LongAdder waitNanos = new LongAdder();
  private final AtomicInteger waiting = new AtomicInteger();

  /** The waits of admitted calls; null until the first. */
  private volatile WaitStats waits;

  /** Counts a call admitted at once. Allocates only on a thread's first call. */
  void admit() {
    granted.increment();
  }

  /** Takes back a call this thread counted admitted: its permits were refunded. */
  void refund() {
    granted.decrement();
  }

  /** Counts a call limited. */
  void reject() {
    rejected.increment();
  }

  /**
   * Counts a call of a dry run, which is admitted whatever the bucket answered.
   *
   * @param answer the bucket's answer ({@link dev.weir.agent.bootstrap.core.GcraBucket#acquire}):
   *     {@code < 0} it would have been limited, {@code > 0} it would have waited
   */
  void admitDryRun(long answer) {
    granted.increment();
    if (answer < 0) {
      rejected.increment();
    } else if (answer > 0) {
      waited.increment();
    }
  }

  /** A call starts to wait (or holds a slot, {@link Reservation}). */
  void startWait() {
    waiting.incrementAndGet();
  }

  /** A call that waited is admitted, limited or gone; counted apart. */
  void endWait() {
    waiting.decrementAndGet();
  }

  /**
   * Counts a call admitted after waiting.
   *
   * @param spentNanos how long it waited, nanoseconds {@code >= 0}
   */
  void admitAfterWait(long spentNanos) {
    granted.increment();
    waited.increment();
    waitNanos.add(spentNanos);
    waitStats().record(spentNanos);
  }

  private WaitStats waitStats() {
    WaitStats w = waits;
    if (w == null) {
      synchronized (this) {
        w = waits;
        if (w == null) {
          waits = w = new WaitStats();
        }
      }
    }
    return w;
  }

  /**
   * Collects the waits recorded since the last tick into the window of the last minute, and lets go
   * of the count cells of threads gone. Called once a second by Weir's management thread.
   *
   * @param nowNanos the limiter's clock reading
   */
  void tick(long nowNanos) {
    granted.sum(); // folds the cells of threads gone
    rejected.sum();
    WaitStats w = waits;
    if (w != null) {
      w.tick(nowNanos);
    }
  }

  /**
   * Calls granted.
   *
   * @return calls
   */
  long granted() {
    return granted.sum();
  }

  /**
   * Calls rejected.
   *
   * @return calls
   */
  long rejected() {
    return rejected.sum();
  }

  /**
   * Calls admitted after waiting.
   *
   * @return calls
   */
  long waited() {
    return waited.sum();
  }

  /**
   * The time admitted calls spent waiting.
   *
   * @return nanoseconds
   */
  long totalWaitNanos() {
    return waitNanos.sum();
  }

  /**
   * Calls waiting now.
   *
   * @return calls, {@code >= 0}
   */
  int waiting() {
    return waiting.get();
  }

  /**
   * The waits of admitted calls in the last minute.
   *
   * @param nowNanos the limiter's clock reading
   * @return {@code {p50, p99, max}} in milliseconds; zeros if no call waited then
   */
  double[] waitMillisLastMinute(long nowNanos) {
    WaitStats w = waits;
    return w == null ? new double[3] : w.lastMinuteMillis(nowNanos);
  }

  /**
   * How many waits were at most each bound, for a Prometheus histogram.
   *
   * @param nowNanos the limiter's clock reading
   * @param boundsSeconds the upper bounds, ascending, in seconds
   * @return one cumulative count per bound, then the count of all
   */
  long[] waitCounts(long nowNanos, double[] boundsSeconds) {
    WaitStats w = waits;
    return w == null
        ? new long[boundsSeconds.length + 1]
        : w.cumulativeCounts(nowNanos, boundsSeconds);
  }

  /**
   * The counts in one line, for the periodic log lines.
   *
   * @param name the limiter's name
   * @param dryRun whether the limiter is in a dry run
   * @return for example {@code 'db-writes' (dry run): 1200 calls, 85 would have been limited, 0
   *     would have waited}
   */
  String report(String name, boolean dryRun) {
    if (dryRun) {
      return "'"
          + name
          + "' (dry run): "
          + granted()
          + " calls, "
          + rejected()
          + " would have been limited, "
          + waited()
          + " would have waited";
    }
    return "'"
        + name
        + "': "
        + granted()
        + " granted, "
        + rejected()
        + " rejected, "
        + waited()
        + " waited";
  }
}
