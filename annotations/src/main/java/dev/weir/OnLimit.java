package dev.weir;

/**
 * What a limited method does when a call finds no permit: throw at once, or wait a bounded time.
 *
 * <p>Used by {@link TokenBucket#onLimit()} and {@link LeakyBucket#onLimit()}.
 */
public enum OnLimit {
  /** Throw {@link RateLimitedException} at once; the method body does not run. */
  REJECT,

  /**
   * Block the calling thread until a permit is available, up to the annotation's {@code
   * maxWaitMillis}. A call whose wait would exceed that bound is rejected at once with {@link
   * RateLimitedException}: it never waits first to find out. Waiting parks the thread ({@code
   * LockSupport.parkNanos}), so virtual threads do not pin their carrier.
   */
  WAIT
}
