package dev.weir.agent.bootstrap;

import java.util.concurrent.atomic.LongAdder;

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
  private final LongAdder calls = new LongAdder();
  private final LongAdder wouldLimit = new LongAdder();
  private final LongAdder wouldWait = new LongAdder();

  /**
   * Wraps the settings of a real limiter.
   *
   * @param limiter the limiter this dry run stands for
   */
  private final BucketLimiter limiter;

  public DryRunLimiter(BucketLimiter limiter) {
    super(limiter.name(), limiter.origin());
    this.limiter = limiter;
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
    calls.increment();
    count(bucket, clock.nanoTime(), false);
    return ADMITTED;
  }

  /**
   * Admits the call, counting what the real limiter would have done with the bucket of {@code key}.
   * Never blocks.
   *
   * @param key the key
   * @return {@link #ADMITTED}, always
   */
  @Override
  public long acquire(String key) {
    if (key == null) {
      key = "null"; // a toString() that returns null
    }
    calls.increment();
    KeyedBuckets states = limiter.keyedBuckets();
    long now = clock.nanoTime();
    BucketState state = states.state(key, now);
    for (; ; ) {
      if (state == null) {
        wouldLimit.increment();
        return ADMITTED;
      }
      if (count(state, now, true)) {
        return ADMITTED;
      }
      state = states.slowState(key, now);
    }
  }

  /** Runs the bucket for one call and counts the outcome; false if the state was retired. */
  private boolean count(BucketState state, long now, boolean perKey) {
    long result = bucket.acquire(state, now, permits, true, perKey);
    if (result == GcraBucket.STATE_RETIRED) {
      return false;
    }
    if (result == GcraBucket.CLOCK_STEPPED_BACK) {
      bucket.resetAfterClockStep(state, clock.nanoTime(), perKey);
    } else if (result < 0) {
      wouldLimit.increment();
    } else if (result > 0) {
      wouldWait.increment();
    }
    return true;
  }

  @Override
  public void keysMayBeIdentities(String keySource) {
    limiter.keysMayBeIdentities(keySource);
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
        + calls.sum()
        + " calls, "
        + wouldLimit.sum()
        + " would have been limited, "
        + wouldWait.sum()
        + " would have waited";
  }
}
