package dev.weir.benchmarks;

import dev.weir.RateLimitedException;
import dev.weir.TokenBucket;
import java.util.concurrent.TimeUnit;

/**
 * The methods {@link WovenCallBenchmark} times: the same small body plain, limited with permits
 * always available, and limited with none. Only the agent makes the annotations do anything; {@link
 * #main} checks that it did, for the benchmark's workload test.
 */
public final class WovenTarget {
  private WovenTarget() {}

  /**
   * The body, not limited.
   *
   * @param x an input
   * @return a value computed from it
   */
  public static int plain(int x) {
    return x * 31 + 7;
  }

  /**
   * The body, limited at 1e9 calls a second with a burst of 1e9: always admitted.
   *
   * @param x an input
   * @return a value computed from it
   */
  @TokenBucket(rate = 1e9, capacity = 1_000_000_000L)
  public static int admitted(int x) {
    return x * 31 + 7;
  }

  /**
   * The body under two limits (SPEC "Several limits on one method"), both always admitting: the
   * cost of a call decided by a group against {@link #admitted}'s one limit.
   *
   * @param x any value
   * @return {@code x + 1}
   */
  @TokenBucket(name = "bench-two-a", rate = 1e9, capacity = 1_000_000_000L)
  @TokenBucket(name = "bench-two-b", rate = 1e9, capacity = 1_000_000_000L)
  public static int admittedByTwo(int x) {
    return x + 1;
  }

  /**
   * The body, limited at one call an hour: refused after the first call.
   *
   * @param x an input
   * @return a value computed from it
   * @throws RateLimitedException after the first call, under the agent
   */
  @TokenBucket(rate = 1, per = TimeUnit.HOURS, capacity = 1)
  public static int refused(int x) {
    return x * 31 + 7;
  }

  /**
   * Whether the agent wove this class: {@link #refused} refuses its second call.
   *
   * @return true under the agent
   */
  public static boolean woven() {
    try {
      refused(0);
      refused(0);
      return false;
    } catch (RateLimitedException limited) {
      return true;
    }
  }

  /**
   * Prints what the workload test checks: {@code woven=}, {@code admitted=} (of 100,000 calls) and
   * {@code refused=} (of 100,000 more).
   *
   * @param args none
   */
  public static void main(String[] args) {
    System.out.println("woven=" + woven());
    int admitted = 0;
    for (int i = 0; i < 100_000; i++) {
      admitted(i);
      admitted++;
    }
    int refusedCalls = 0;
    for (int i = 0; i < 100_000; i++) {
      try {
        refused(i);
      } catch (RateLimitedException e) {
        refusedCalls++;
      }
    }
    System.out.println("admitted=" + admitted);
    System.out.println("refused=" + refusedCalls);
  }
}
