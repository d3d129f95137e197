package dev.weir.agent.bootstrap;

/**
 * A limiter over one {@link GcraBucket}: the clock read, the decision, and the wait to a deadline
 * for {@code WAIT} and {@code SHAPING}.
 *
 * <p>Waiting parks ({@link NanoClock#parkNanos}) in a loop until the deadline, so virtual threads
 * do not pin. A waiter that is interrupted keeps its interrupt flag, gives its slot back when no
 * later call holds a slot after it, and reports the interruption so that the woven code throws
 * {@code RateLimitedException} with an {@link InterruptedException} as its cause.
 *
 * <p>Thread-safe; the admitted path allocates nothing.
 */
public final class BucketLimiter extends Limiter {
  private final GcraBucket bucket;
  private final long permits;
  private final NanoClock clock;
  private final String settings;

  /**
   * Creates a limiter.
   *
   * @param name the limiter's name
   * @param origin where it was declared, for messages
   * @param bucket the bucket
   * @param permits permits per call, {@code 1..bucket.capacity()}
   * @param clock the time source the bucket was created with
   */
  public BucketLimiter(
      String name, String origin, GcraBucket bucket, long permits, NanoClock clock) {
    super(name, origin);
    this.bucket = bucket;
    this.permits = permits;
    this.clock = clock;
    this.settings = describe(bucket, permits);
  }

  @Override
  public long acquire() {
    long now = clock.nanoTime();
    long result = bucket.acquire(now, permits, false);
    if (result == 0) {
      return ADMITTED;
    }
    return notAtOnce(now, result);
  }

  private long notAtOnce(long now, long result) {
    if (result == GcraBucket.STALE_CLOCK) {
      now = clock.nanoTime();
      result = bucket.acquire(now, permits, true);
      if (result == GcraBucket.CLOCK_STEPPED_BACK) {
        bucket.resetAfterClockStep(clock.nanoTime());
        now = clock.nanoTime();
        result = bucket.acquire(now, permits, true);
        if (result == GcraBucket.CLOCK_STEPPED_BACK) {
          // readings that keep jumping back and forth: refuse this call rather than spin
          return bucket.intervalNanos();
        }
      }
      if (result == 0) {
        return ADMITTED;
      }
    }
    if (result < 0) {
      return bucket.retryAfterNanos(result);
    }
    return await(now, result);
  }

  /**
   * Parks until the call's slot. The wait counts forward clock time only, so a clock that steps
   * back while a call waits never lengthens that wait.
   */
  private long await(long now, long waitTicks) {
    long remaining = bucket.toNanosCeil(waitTicks);
    long last = now;
    for (; ; ) {
      long reading = clock.nanoTime();
      long progress = reading - last;
      last = reading;
      if (progress > 0) {
        remaining -= progress;
      }
      if (remaining <= 0) {
        return ADMITTED;
      }
      clock.parkNanos(remaining);
      if (Thread.currentThread().isInterrupted()) {
        bucket.giveBack(now, waitTicks, permits);
        return ~bucket.probeRetryAfterNanos(clock.nanoTime(), permits);
      }
    }
  }

  /**
   * Permits per call.
   *
   * @return permits, {@code >= 1}
   */
  public long permits() {
    return permits;
  }

  /**
   * The time source.
   *
   * @return the clock
   */
  public NanoClock clock() {
    return clock;
  }

  /**
   * The bucket, for diagnostics and tests.
   *
   * @return the bucket
   */
  public GcraBucket bucket() {
    return bucket;
  }

  @Override
  public String settings() {
    return settings;
  }

  private static String describe(GcraBucket bucket, long permits) {
    StringBuilder s =
        new StringBuilder(bucket.discipline().description())
            .append(' ')
            .append(bucket.rate())
            .append('/')
            .append(bucket.per())
            .append(" capacity ")
            .append(bucket.capacity());
    if (bucket.discipline() == Discipline.TOKEN_BUCKET) {
      s.append(" permits ").append(permits);
    }
    s.append(bucket.waitOnLimit() ? " WAIT" : " REJECT");
    long maxWait = bucket.maxWaitNanos();
    if (maxWait != Long.MAX_VALUE
        && (bucket.waitOnLimit() || bucket.discipline() == Discipline.SHAPING)) {
      s.append(" maxWait ").append(maxWait / 1_000_000L).append(" ms");
    }
    return s.toString();
  }
}
