package dev.weir.agent.ops;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code summary=SECONDS}: every SECONDS, one log line per limiter that had calls since the last,
 * with what it granted, rejected and made wait in that time, its p99 wait and its settings now.
 * Runs on the management thread, once a second.
 */
final class Summary implements Runnable {
  private volatile int periodSeconds;
  private int elapsed;
  private final Map<Limiter, long[]> last = new IdentityHashMap<Limiter, long[]>();

  /**
   * Sets the period.
   *
   * @param seconds the period; 0 switches the lines off
   */
  void period(int seconds) {
    periodSeconds = seconds;
  }

  @Override
  public void run() {
    int period = periodSeconds;
    if (period <= 0 || ++elapsed < period) {
      return;
    }
    elapsed = 0;
    Map<Limiter, long[]> now = new IdentityHashMap<Limiter, long[]>();
    for (LimiterRegistry.Slot slot : LimiterRegistry.bucketLimiters()) {
      BucketLimiter l = (BucketLimiter) slot.limiter;
      long[] counts = {l.granted(), l.rejected(), l.waited()};
      now.put(l, counts);
      long[] before = last.get(l);
      if (before == null) {
        before = new long[3];
      }
      long granted = counts[0] - before[0];
      long rejected = counts[1] - before[1];
      long waited = counts[2] - before[2];
      if (granted + rejected == 0) {
        continue;
      }
      AgentLog.info(
          String.format(
              Locale.ROOT,
              "'%s' in the last %d s: %d granted, %d rejected, %d waited (p99 wait %.1f ms);"
                  + " %s",
              l.name(),
              period,
              granted,
              rejected,
              waited,
              l.waitMillisLastMinute()[1],
              l.currentSettings()));
    }
    last.clear();
    last.putAll(now);
  }
}
