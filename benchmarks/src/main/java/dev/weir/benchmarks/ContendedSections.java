package dev.weir.benchmarks;

import static dev.weir.benchmarks.Goals.verdict;
import static dev.weir.benchmarks.Goals.worse;

import dev.weir.benchmarks.Goals.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's two-thread measures beside JMH: the interleaved ratios ({@link ContendedPairs}),
 * which judge the two-thread cell where permits are available because they compare like with like,
 * and the single-acquire latency under contention ({@link AcquireLatency}). Both read their
 * harness's {@code key=value} figures. Stateless.
 */
final class ContendedSections {
  private ContendedSections() {}

  /**
   * Appends the interleaved measure's paragraph and table of ratios, medians with their 95%
   * intervals.
   *
   * @param b where they go
   * @param p the figures of {@link ContendedPairs}
   */
  static void table(StringBuilder b, Map<String, String> p) {
    b.append("Two threads, interleaved (`ContendedPairs`): every limiter of the table, permits ");
    b.append("available, takes turns in slices of ").append(p.get("sliceMillis"));
    b.append(" ms, ").append(p.get("rounds")).append(" rounds; JMH runs one benchmark after ");
    b.append("another, so its two-thread averages compare whichever speeds each met. Median of ");
    b.append("the per-round ratios, with its 95% interval; this judges the two-thread ");
    b.append("available cell.\n\n");
    b.append("| ratio | median | 95% interval |\n|---|---:|---:|\n");
    for (int c = 0; c < ContendedPairs.PEERS_TO; c++) {
      if (c != ContendedPairs.WEIR) {
        String other = ContendedPairs.CONTENDERS[c];
        medianRow(
            b,
            p,
            "weirTo" + ContendedPairs.capitalized(other),
            "Weir / " + Limiters.label(other),
            "%.2f");
      }
    }
    medianRow(b, p, "wovenToFloor", "woven call / " + Limiters.label("floor"), "%.2f");
    for (String peer : Limiters.PEERS) {
      medianRow(
          b,
          p,
          "wovenTo" + ContendedPairs.capitalized(peer),
          "woven call / " + Limiters.label(peer),
          "%.2f");
    }
    medianRow(b, p, "wovenAddsBeyondFloor", "(woven call − plain call) − floor, ns", "%.1f");
    b.append('\n');
  }

  /** A row of a median {@code key} and its interval {@code keyLow} to {@code keyHigh}. */
  private static void medianRow(
      StringBuilder b, Map<String, String> p, String key, String label, String format) {
    Markdown.row(
        b,
        List.of(
            label,
            String.format(Locale.ROOT, format, Double.parseDouble(p.get(key))),
            String.format(Locale.ROOT, format, Double.parseDouble(p.get(key + "Low")))
                + " to "
                + String.format(Locale.ROOT, format, Double.parseDouble(p.get(key + "High")))));
  }

  /**
   * The goals of the two-thread available cell, from the interleaved measure: Weir's core at most
   * the best peer's median and within 1.1× of the floor; the woven call at most the floor + 10 ns
   * beyond the plain call, and below every peer.
   *
   * @param goals where the goals go
   * @param p the figures of {@link ContendedPairs}
   */
  static void judge(Goals goals, Map<String, String> p) {
    String best = Limiters.PEERS[0];
    for (String peer : Limiters.PEERS) { // the best peer is the one Weir's ratio to is highest
      if (Double.parseDouble(p.get("weirTo" + ContendedPairs.capitalized(peer)))
          > Double.parseDouble(p.get("weirTo" + ContendedPairs.capitalized(best)))) {
        best = peer;
      }
    }
    String key = "weirTo" + ContendedPairs.capitalized(best);
    double low = Double.parseDouble(p.get(key + "Low"));
    double high = Double.parseDouble(p.get(key + "High"));
    double floorHigh = Double.parseDouble(p.get("weirToFloorHigh"));
    double floorLow = Double.parseDouble(p.get("weirToFloorLow"));
    goals.add(
        "two threads, permits available, interleaved: Weir's core at most 1.0× the best peer's"
            + " median and within 1.1× of the floor, 95% intervals",
        String.format(
            Locale.ROOT,
            "%.2f× %s (%.2f to %.2f); %.2f× the floor (%.2f to %.2f)",
            Double.parseDouble(p.get(key)),
            best,
            low,
            high,
            Double.parseDouble(p.get("weirToFloor")),
            floorLow,
            floorHigh),
        worse(verdict(low, high, 1.0), verdict(floorLow, floorHigh, 1.1)));
    double beyondLow = Double.parseDouble(p.get("wovenAddsBeyondFloorLow"));
    double beyondHigh = Double.parseDouble(p.get("wovenAddsBeyondFloorHigh"));
    goals.add(
        "two threads, interleaved: a woven call adds at most the floor + 10 ns to the plain call",
        String.format(
            Locale.ROOT,
            "adds the floor %+.1f ns (%+.1f to %+.1f)",
            Double.parseDouble(p.get("wovenAddsBeyondFloor")),
            beyondLow,
            beyondHigh),
        verdict(beyondLow, beyondHigh, 10));
    wovenBelowPeers(goals, p);
  }

  /** The goal of the woven call below every peer's acquire, two threads, interleaved. */
  private static void wovenBelowPeers(Goals goals, Map<String, String> p) {
    Verdict peers = Verdict.MET;
    double worst = 0;
    String worstPeer = "";
    for (String peer : Limiters.PEERS) {
      String k = "wovenTo" + ContendedPairs.capitalized(peer);
      double median = Double.parseDouble(p.get(k));
      if (median > worst) {
        worst = median;
        worstPeer = peer;
      }
      peers =
          worse(
              peers,
              verdict(
                  Double.parseDouble(p.get(k + "Low")),
                  Double.parseDouble(p.get(k + "High")),
                  1 - 1e-9));
    }
    goals.add(
        "and below every peer's acquire",
        String.format(Locale.ROOT, "%.2f× %s, the closest", worst, worstPeer),
        peers);
  }

  /**
   * Appends the single-acquire latency under two-thread contention and judges its goal.
   *
   * @param b where the paragraph and table go
   * @param goals where the goal goes
   * @param p the figures of {@link AcquireLatency}
   */
  static void latency(StringBuilder b, Goals goals, Map<String, String> p) {
    b.append("Single-acquire latency, two threads sharing one limiter, permits available ");
    b.append("(`AcquireLatency`): every call timed between two `nanoTime()` reads into ");
    b.append("HdrHistogram, ").append(p.get("latencyRounds")).append(" rounds of ");
    b.append(p.get("latencySliceMillis")).append(" ms slices per limiter, taking turns; ");
    b.append("nanoseconds. The maximum is the machine's (a thread descheduled mid-call), for ");
    b.append("every row alike.\n\n");
    b.append("| limiter | calls | p50 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|\n");
    String[] rows = new String[AcquireLatency.TIMED.length + 1];
    for (int i = 0; i < AcquireLatency.TIMED.length; i++) {
      rows[i] = ContendedPairs.CONTENDERS[AcquireLatency.TIMED[i]];
    }
    rows[rows.length - 1] = "timer";
    for (String row : rows) {
      String k = "latency." + row + ".";
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %,d | %,d | %,d | %,d |%n",
              Limiters.label(row),
              Long.parseLong(p.get(k + "calls")),
              Long.parseLong(p.get(k + "p50")),
              Long.parseLong(p.get(k + "p99")),
              Long.parseLong(p.get(k + "p999")),
              Long.parseLong(p.get(k + "max"))));
    }
    b.append('\n');
    long weir = Long.parseLong(p.get("latency.weir.p999"));
    long woven = Long.parseLong(p.get("latency.woven.p999"));
    List<String> peers = new ArrayList<>();
    for (String peer : Limiters.PEERS) {
      peers.add(
          String.format(
              Locale.ROOT, "%s %,d", peer, Long.parseLong(p.get("latency." + peer + ".p999"))));
    }
    goals.add(
        "a single acquire under two-thread contention: Weir's p99.9 at most 2 µs",
        String.format(
            Locale.ROOT,
            "core %,d ns, woven call %,d ns (%s ns)",
            weir,
            woven,
            String.join(", ", peers)),
        Math.max(weir, woven) <= 2_000);
  }
}
