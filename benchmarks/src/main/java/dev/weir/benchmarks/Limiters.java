package dev.weir.benchmarks;

/** The limiters the report compares, by the names the benchmarks give them. Stateless. */
final class Limiters {
  /** The peers Weir's core is compared with, by their benchmark names. */
  static final String[] PEERS = {"bucket4j", "guava", "resilience4j", "failsafe"};

  private Limiters() {}

  /**
   * How the tables name a limiter.
   *
   * @param row a benchmark name: {@code floor}, {@code weir}, a peer, {@code woven} or {@code
   *     timer}
   * @return its label, Markdown
   */
  static String label(String row) {
    switch (row) {
      case "floor":
        return "floor: `nanoTime()` + `AtomicLong` CAS";
      case "floorRetrying":
        return "floor, retrying a failed CAS (as a limiter must)";
      case "weir":
        return "**Weir** core";
      case "bucket4j":
        return "Bucket4j 8.14 (lock-free)";
      case "guava":
        return "Guava 33.8 `RateLimiter`";
      case "resilience4j":
        return "Resilience4j 2.4 `AtomicRateLimiter`";
      case "woven":
        return "**Weir**, woven call (annotated method)";
      case "timer":
        return "two `nanoTime()` reads alone (the timing's own cost)";
      default:
        return "Failsafe 3.3 `RateLimiter`";
    }
  }
}
