package dev.weir.agent.bootstrap.limit;

/**
 * A limiter's stand-in while the JVM shuts down with {@code drainOnExit}: every new call is limited
 * with a retry-after of {@link Long#MAX_VALUE} (never) and counted rejected on the limiter it
 * stands for; calls already waiting in that limiter keep their slots. Thread-safe.
 */
public final class Draining extends Limiter {
  private final Limiter drained;

  public Draining(Limiter drained) {
    super(drained.name(), drained.origin());
    this.drained = drained;
  }

  @Override
  public long acquire() {
    if (drained instanceof BucketLimiter) {
      ((BucketLimiter) drained).rejectedWhileDraining();
    }
    return Long.MAX_VALUE;
  }

  @Override
  public long acquire(String key) {
    return acquire();
  }

  @Override
  public String settings() {
    return drained.settings();
  }
}
