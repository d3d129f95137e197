package dev.weir.agent.bootstrap.limit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The waits of one limiter's admitted calls: an HdrHistogram {@link Recorder} that waiting threads
 * record into without a lock, read in intervals into a ring of twelve 5-second slots (the last
 * minute, for percentiles) and into a running total (for the Prometheus histogram). Values are
 * microseconds, rounded up, with two significant digits (1% resolution).
 *
 * <p>Made on a limiter's first wait, so a limiter whose calls never wait holds nothing. {@link
 * #record} is wait-free; the readers synchronize on this object. Thread-safe.
 */
final class WaitStats {
  /** The width of one slot of the window. */
  static final long SLOT_NANOS = 5_000_000_000L;

  /** Slots in the window: one minute. */
  static final int SLOTS = 12;

  private final Recorder recorder = new Recorder(2);
  private final Histogram[] slots = new Histogram[SLOTS];
  private final long[] slotPeriods = new long[SLOTS];
  private final Histogram total = new Histogram(2);
  private Histogram recycled;

  /**
   * Records one admitted call's wait. Wait-free.
   *
   * @param nanos the wait in nanoseconds, {@code >= 1}
   */
  void record(long nanos) {
    recorder.recordValue(Math.max(1, (nanos + 999) / 1_000));
  }

  /** Moves what was recorded since the last call into the slot of {@code nowNanos}. */
  private void collect(long nowNanos) {
    Histogram interval = recorder.getIntervalHistogram(recycled);
    long period = Math.floorDiv(nowNanos, SLOT_NANOS);
    int i = (int) Math.floorMod(period, (long) SLOTS);
    if (slots[i] == null) {
      slots[i] = new Histogram(2);
    }
    if (slotPeriods[i] != period) {
      slots[i].reset();
      slotPeriods[i] = period;
    }
    slots[i].add(interval);
    total.add(interval);
    recycled = interval;
  }

  /**
   * Collects what waiting threads recorded. Called each second by Weir's management thread, so that
   * each wait lands in the slot of the time it was recorded, give or take a second.
   *
   * @param nowNanos the clock's reading
   */
  synchronized void tick(long nowNanos) {
    collect(nowNanos);
  }

  /**
   * The waits of the last minute (twelve 5-second slots, the current one included).
   *
   * @param nowNanos the clock's reading
   * @return {@code {p50, p99, max}} in milliseconds; zeros if no call waited in the last minute
   */
  synchronized double[] lastMinuteMillis(long nowNanos) {
    collect(nowNanos);
    long period = Math.floorDiv(nowNanos, SLOT_NANOS);
    Histogram window = new Histogram(2);
    for (int i = 0; i < SLOTS; i++) {
      if (slots[i] != null && period - slotPeriods[i] < SLOTS) {
        window.add(slots[i]);
      }
    }
    if (window.getTotalCount() == 0) {
      return new double[3];
    }
    return new double[] {
      window.getValueAtPercentile(50) / 1_000.0,
      window.getValueAtPercentile(99) / 1_000.0,
      window.getMaxValue() / 1_000.0
    };
  }

  /**
   * How many waits since the limiter's creation were at most each bound: the cumulative buckets of
   * a Prometheus histogram.
   *
   * @param nowNanos the clock's reading
   * @param boundsSeconds the upper bounds, ascending, in seconds
   * @return one count per bound, then the count of every wait (the {@code +Inf} bucket)
   */
  synchronized long[] cumulativeCounts(long nowNanos, double[] boundsSeconds) {
    collect(nowNanos);
    long[] counts = new long[boundsSeconds.length + 1];
    for (int i = 0; i < boundsSeconds.length; i++) {
      long micros = (long) Math.floor(boundsSeconds[i] * 1e6);
      counts[i] = micros <= 0 ? 0 : total.getCountBetweenValues(0, micros);
    }
    counts[boundsSeconds.length] = total.getTotalCount();
    return counts;
  }
}
