package dev.weir.agent.bootstrap;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A limiter rolled out in dry run: it runs its bucket as the real limiter would, counts the calls
 * it would have limited or made wait, and lets every call through at once. Operators read the
 * counts in a log line before they switch the limit on.
 *
 * <p>Thread-safe.
 */
public final class DryRunLimiter extends Limiter {
  private final GcraBucket bucket;
  private final long permits;
  private final NanoClock clock;
  private final String settings;
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong wouldLimit = new AtomicLong();
  private final AtomicLong wouldWait = new AtomicLong();

  /**
   * Wraps the settings of a real limiter.
   *
   * @param limiter the limiter this dry run stands for
   */
  public DryRunLimiter(BucketLimiter limiter) {
    super(limiter.name(), limiter.origin());
    this.bucket = limiter.bucket();
    this.permits = limiter.permits();
    this.clock = limiter.clock();
    this.settings = limiter.settings() + " (dry run)";
  }

  /**
   * Admits the call, counting what the real limiter would have done. Never blocks.
   *
   * @return {@link #ADMITTED}, always
   */
  @Override
  public long acquire() {
    calls.incrementAndGet();
    long result = bucket.acquire(clock.nanoTime(), permits, true);
    if (result == GcraBucket.CLOCK_STEPPED_BACK) {
      bucket.resetAfterClockStep(clock.nanoTime());
    } else if (result < 0) {
      wouldLimit.incrementAndGet();
    } else if (result > 0) {
      wouldWait.incrementAndGet();
    }
    return ADMITTED;
  }

  @Override
  public String settings() {
    return settings;
  }

  /**
   * The counts so far, for the periodic log line.
   *
   * @return for example {@code 'db-writes' (dry run): 1200 calls, 85 would have been limited, 0
   *     would have waited}
   */
  public String report() {
    return "'"
        + name()
        + "' (dry run): "
        + calls.get()
        + " calls, "
        + wouldLimit.get()
        + " would have been limited, "
        + wouldWait.get()
        + " would have waited";
  }
}
