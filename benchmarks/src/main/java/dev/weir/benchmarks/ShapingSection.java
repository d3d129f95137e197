package dev.weir.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section "Shaping accuracy": departures of a shaping limiter against the ideal
 * schedule ({@link ShapingAccuracy}), beside Guava and a parking floor, the paragraph on
 * interrupted waiters ({@link InterruptedWaiters}), and the goals of deviation and gaps. Reads one
 * {@code key=value} file, microseconds. Stateless.
 */
final class ShapingSection {
  private ShapingSection() {}

  /**
   * Appends the section and judges its goals.
   *
   * @param b where the section goes
   * @param goals where its goals go
   * @param s the figures, {@code limiter.key=value}
   */
  static void write(StringBuilder b, Goals goals, Map<String, String> s) {
    table(b, s);
    interruptedWaiters(b, s);
    long p99 = Long.parseLong(s.get("weir.deviationP99Micros"));
    long p1Gap = Long.parseLong(s.get("weir.gapP1Micros"));
    long p99Gap = Long.parseLong(s.get("weir.gapP99Micros"));
    long min = Long.parseLong(s.get("weir.gapMinMicros"));
    long max = Long.parseLong(s.get("weir.gapMaxMicros"));
    goals.add(
        "shaping p99 deviation at most 1 ms",
        p99 + " µs (Guava " + s.get("guava.deviationP99Micros") + " µs)",
        p99 <= 1000);
    goals.add(
        "gaps between 0.5 and 1.5 ms, p1 to p99 (as the issue's Guava figure, 0.12 to 1.84 ms)",
        String.format(
            Locale.ROOT,
            "%.2f to %.2f ms (Guava %.2f to %.2f ms)",
            p1Gap / 1000.0,
            p99Gap / 1000.0,
            Long.parseLong(s.get("guava.gapP1Micros")) / 1000.0,
            Long.parseLong(s.get("guava.gapP99Micros")) / 1000.0),
        p1Gap >= 500 && p99Gap <= 1500);
    goals.add(
        "every gap, min to max, between 0.5 and 1.5 ms",
        String.format(
            Locale.ROOT,
            "%.2f to %.2f ms (Guava %.2f to %.2f ms; the parking floor %.2f to %.2f ms)",
            min / 1000.0,
            max / 1000.0,
            Long.parseLong(s.get("guava.gapMinMicros")) / 1000.0,
            Long.parseLong(s.get("guava.gapMaxMicros")) / 1000.0,
            Long.parseLong(s.get("floor.gapMinMicros")) / 1000.0,
            Long.parseLong(s.get("floor.gapMaxMicros")) / 1000.0),
        min >= 500 && max <= 1500);
  }

  /** The section's title, text and table of departures (`ShapingAccuracy`). */
  private static void table(StringBuilder b, Map<String, String> s) {
    b.append("## Shaping accuracy\n\n");
    b.append("Departures of a limiter at 1,000 calls/s with 8 threads calling as fast as they ");
    b.append("can, against the ideal schedule `first + k × 1 ms`, over 5,000 departures ");
    b.append("(`ShapingAccuracy`), microseconds.\n\n");
    b.append("| limiter | deviation p50 | p99 | max | gap p1 | p50 | p99 | min | max |\n");
    b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (String name : new String[] {"weir", "guava", "floor"}) {
      List<String> cells = new ArrayList<>();
      for (String key :
          new String[] {
            "deviationP50Micros",
            "deviationP99Micros",
            "deviationMaxMicros",
            "gapP1Micros",
            "gapP50Micros",
            "gapP99Micros",
            "gapMinMicros",
            "gapMaxMicros"
          }) {
        cells.add(s.get(name + "." + key));
      }
      Markdown.row(
          b,
          switch (name) {
            case "weir" -> "Weir, leaky bucket SHAPING";
            case "guava" -> "Guava acquire()";
            default -> "floor: the ideal schedule, each thread parking until its slot";
          },
          cells);
    }
    b.append('\n');
  }

  /** The paragraph on interrupted waiters (`InterruptedWaiters`), where they were measured. */
  private static void interruptedWaiters(StringBuilder b, Map<String, String> s) {
    String interrupted = s.get("interrupted.admittedPerSecond");
    if (interrupted != null) {
      b.append("Interrupted waiters (`InterruptedWaiters`): 64 threads call through a shaping ");
      b.append("leaky bucket of ")
          .append(InterruptedWaiters.RATE)
          .append(" calls/s while one thread interrupts a random caller ")
          .append(InterruptedWaiters.INTERRUPTS_PER_SECOND)
          .append(" times a second: ")
          .append(interrupted)
          .append(" calls/s admitted, ")
          .append(
              String.format(
                  Locale.ROOT,
                  "%.1f%%",
                  100 * Double.parseDouble(s.get("interrupted.shareOfRate"))))
          .append(" of the rate. A waiter interrupted with later calls queued behind it leaves ");
      b.append("its slot unused (their slots were fixed when they arrived); its slot goes back ");
      b.append("once no later call holds one after it.\n\n");
    }
  }
}
