package dev.weir.benchmarks;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor every benchmark here is judged against: one {@link System#nanoTime()} and one
 * compare-and-set on an {@link AtomicLong}, with the read the CAS needs. Nothing a clock-driven
 * lock-free limiter does can cost less.
 */
final class Floor {
  private Floor() {}

  /**
   * Reads the clock and stores the reading with one CAS.
   *
   * @param state the shared cell
   * @return the value read, so the JIT keeps the work
   */
  static long tick(AtomicLong state) {
    long now = System.nanoTime();
    long seen = state.get();
    state.compareAndSet(seen, now);
    return seen;
  }

  /**
   * Reads the clock and stores the reading, retrying the CAS until it succeeds: what any limiter
   * that must not lose an update pays when another thread changed the cell between its read and its
   * CAS. Alone on the cell, the same work as {@link #tick}.
   *
   * @param state the shared cell
   * @return the value replaced
   */
  static long tickRetrying(AtomicLong state) {
    long now = System.nanoTime();
    for (; ; ) {
      long seen = state.get();
      if (state.compareAndSet(seen, now)) {
        return seen;
      }
    }
  }
}
