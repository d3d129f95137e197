package dev.weir.agent.bootstrap.limit;

/**
 * A limiter's stand-in while the JVM shuts down with {@code drainOnExit}: every new call is limited
 * with a retry-after of {@link Long#MAX_VALUE} (never) and counted rejected on the limiter it
 * stands for (for a {@link LimitGroup}, on each of its limits, which the refusal names); calls
 * already waiting in that limiter keep their slots. Thread-safe.
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
    } else if (drained instanceof LimitGroup) {
      ((LimitGroup) drained).refusedWhileDraining();
    }
    return Long.MAX_VALUE;
  }

  /**
   * The limiter this one stands for.
   *
   * @return it
   */
  Limiter drained() {
    return drained;
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
