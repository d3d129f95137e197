package dev.weir.agent.bootstrap.core;

/**
 * Bounded back-off after a lost compare-and-set on a bucket's state: the thread whose CAS failed
 * spins for {@link #SPIN_NANOS} before it reads the state again, so that the thread that won keeps
 * the state's cache line and takes its next permits without moving the line between processors
 * (Anderson, "The Performance of Spin Lock Alternatives for Shared-Memory Multiprocessors", IEEE
 * TPDS 1990; Herlihy and Shavit, "The Art of Multiprocessor Programming", 7.4).
 *
 * <p>Why a fixed, short spin. Two threads that take permits from one bucket as fast as they can
 * spend most of each call moving the line that holds its state; a thread that lost a CAS and
 * retries at once takes the line again and slows both. Spinning lets the winner run alone for a
 * while, as a parked thread would, but the loser returns within about a microsecond where a parked
 * thread takes tens of microseconds (and a system call) to wake. The spin is measured on {@link
 * System#nanoTime()}, not in iterations, as the cost of a spin-wait hint differs tenfold between
 * processors. It neither parks, yields, allocates nor blocks, and a call that never loses a CAS
 * never reaches it: one thread alone pays nothing. {@code benchmarks/} measures the gain ({@code
 * ContendedPairs}) and its cost in single-acquire latency ({@code AcquireLatency}).
 *
 * <p>Thread-safe: stateless.
 */
final class BackOff {
  /**
   * How long a thread that lost a CAS waits before it tries again, in nanoseconds. Long enough for
   * the winner to take several permits alone (about 35 ns each), short enough that a call that lost
   * once still completes within 2 µs.
   */
  static final long SPIN_NANOS = 750;

  private BackOff() {}

  /** Spins for {@link #SPIN_NANOS}, hinting the processor that this is a spin-wait loop. */
  static void afterLostRace() {
    long until = System.nanoTime() + SPIN_NANOS;
    do {
      SpinWait.hint();
    } while (System.nanoTime() - until < 0);
  }
}
