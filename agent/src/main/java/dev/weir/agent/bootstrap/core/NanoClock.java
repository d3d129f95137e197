package dev.weir.agent.bootstrap.core;

import java.util.concurrent.locks.LockSupport;

/**
 * The time source of the buckets and the way waiting threads sleep, injected so that tests run on a
 * fake clock and never sleep.
 *
 * <p>Readings are nanoseconds from an arbitrary origin, like {@link System#nanoTime()}: only
 * differences mean anything, and they are computed with wrapping subtraction.
 *
 * <p>Implementations must be thread-safe.
 */
public interface NanoClock {

  /** The JVM's monotonic clock, {@link System#nanoTime()}, with {@link LockSupport#parkNanos}. */
  NanoClock SYSTEM =
      new NanoClock() {
        @Override
        public long nanoTime() {
          return System.nanoTime();
        }

        @Override
        public void parkNanos(long nanos) {
          LockSupport.parkNanos(nanos);
        }
      };

  /**
   * Reads the clock.
   *
   * @return nanoseconds from an arbitrary origin; never blocks
   */
  long nanoTime();

  /**
   * Sleeps for up to {@code nanos} nanoseconds. May return early (spuriously, or because the thread
   * is interrupted); callers loop to a deadline. Must not clear the interrupt flag.
   *
   * @param nanos the longest time to sleep, in nanoseconds; {@code <= 0} returns at once
   */
  void parkNanos(long nanos);
}
