package dev.weir.benchmarks;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The latency of one acquire while two threads share one limiter, permits available: the
 * distribution behind {@link ContendedPairs}' averages. A limiter that wins throughput by taking a
 * thread out of the fight (Resilience4j parks it after a failed CAS) shows here what that costs the
 * call that waited; Weir's back-off spins instead, for under a microsecond.
 *
 * <p>Each contender of {@link ContendedPairs} (the plain method aside) runs in turn, in slices in
 * which two threads call it as fast as they can; every call is timed between two {@link
 * System#nanoTime()} reads, whose own cost (about 25 ns here) is in every figure and shown as
 * {@code timer}. Each thread records into its own HdrHistogram (no allocation, no sharing); the
 * rounds' histograms add up per contender.
 *
 * <p>Prints {@code latency.NAME.QUANTILE=nanoseconds} lines for p50, p99, p99.9 and the maximum,
 * and {@code latency.NAME.calls=count}. Run under {@code -javaagent:} the built agent, as {@link
 * ContendedPairs}.
 */
public final class AcquireLatency {
  /** The contenders timed: every one of {@link ContendedPairs}'s but the plain method. */
  static final int[] TIMED = {
    ContendedPairs.FLOOR, 1, ContendedPairs.WEIR, 3, 4, 5, 6, ContendedPairs.WOVEN
  };

  /** Not a contender: two clock reads back to back, the cost of timing a call. */
  static final int TIMER = -1;

  private static final long HIGHEST = TimeUnit.SECONDS.toNanos(10);

  private final ContendedPairs pairs = new ContendedPairs();

  private volatile long sink;

  /**
   * Times one slice of one contender on two threads.
   *
   * @param contender an index into {@link ContendedPairs#CONTENDERS}, or {@link #TIMER}
   * @param sliceNanos how long both threads call
   * @param into the histogram the slice's calls are added to
   */
  void slice(int contender, long sliceNanos, Histogram into) throws Exception {
    Histogram[] own = {new Histogram(HIGHEST, 3), new Histogram(HIGHEST, 3)};
    ContendedPairs.onTwoThreads(
        id -> {
          Histogram h = own[id];
          long deadline = System.nanoTime() + sliceNanos;
          long x = 0;
          do {
            for (int i = 0; i < 256; i++) {
              long before = System.nanoTime();
              if (contender != TIMER) {
                x += pairs.call(contender, i);
              }
              long end = System.nanoTime();
              h.recordValue(Math.min(end - before, HIGHEST));
            }
          } while (System.nanoTime() < deadline);
          sink = x;
        });
    into.add(own[0]);
    into.add(own[1]);
  }

  /**
   * Times {@code rounds} rounds of every contender in turn, after two rounds of warm-up.
   *
   * @return one histogram per entry of {@link #TIMED}, then the timer's
   */
  Histogram[] measure(int rounds, long sliceNanos) throws Exception {
    int n = TIMED.length + 1;
    Histogram[] all = new Histogram[n];
    for (int c = 0; c < n; c++) {
      all[c] = new Histogram(HIGHEST, 3);
    }
    for (int r = -2; r < rounds; r++) {
      for (int i = 0; i < n; i++) {
        int c = (Math.max(r, 0) + i) % n; // each round starts one later: no fixed neighbours
        Histogram into = r < 0 ? new Histogram(HIGHEST, 3) : all[c];
        slice(c < TIMED.length ? TIMED[c] : TIMER, sliceNanos, into);
      }
    }
    return all;
  }

  /**
   * Measures and prints.
   *
   * @param args rounds (default 10) and milliseconds per slice (default 300)
   * @throws Exception if a thread is interrupted
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    long sliceMillis = args.length > 1 ? Long.parseLong(args[1]) : 300;
    if (!WovenTarget.woven()) {
      throw new IllegalStateException(
          "WovenTarget is not woven: run with -javaagent:agent/target/weir-agent.jar");
    }
    Histogram[] all =
        new AcquireLatency().measure(rounds, TimeUnit.MILLISECONDS.toNanos(sliceMillis));
    System.out.printf(Locale.ROOT, "latencyRounds=%d%n", rounds);
    System.out.printf(Locale.ROOT, "latencySliceMillis=%d%n", sliceMillis);
    for (int c = 0; c < all.length; c++) {
      String name = c < TIMED.length ? ContendedPairs.CONTENDERS[TIMED[c]] : "timer";
      Histogram h = all[c];
      System.out.printf(Locale.ROOT, "latency.%s.calls=%d%n", name, h.getTotalCount());
      System.out.printf(Locale.ROOT, "latency.%s.p50=%d%n", name, h.getValueAtPercentile(50));
      System.out.printf(Locale.ROOT, "latency.%s.p99=%d%n", name, h.getValueAtPercentile(99));
      System.out.printf(Locale.ROOT, "latency.%s.p999=%d%n", name, h.getValueAtPercentile(99.9));
      System.out.printf(Locale.ROOT, "latency.%s.max=%d%n", name, h.getMaxValue());
    }
  }
}
