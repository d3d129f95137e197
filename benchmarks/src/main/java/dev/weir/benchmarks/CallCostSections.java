package dev.weir.benchmarks;

import static dev.weir.benchmarks.Goals.verdict;
import static dev.weir.benchmarks.Goals.worse;

import dev.weir.benchmarks.Goals.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's sections on what a call costs beyond the bare acquire, each from JMH scores: the
 * woven call ({@code WovenCallBenchmark}), the per-key acquire ({@code KeyedAcquireBenchmark}), the
 * counts an operator reads ({@code CountedAcquireBenchmark}), and the HTTP gate ({@code
 * HttpGateBenchmark}, with {@code WebThroughput}'s whole requests). Stateless.
 */
final class CallCostSections {
  private CallCostSections() {}

  /**
   * Appends "Woven call" and judges its goals: the added cost against the floor and the peers, and
   * the rejecting path.
   *
   * @param b where the section goes
   * @param goals where its goals go
   * @param w the woven call's scores
   * @param t1 the one-thread acquire scores, for the peers' acquires
   */
  static void woven(StringBuilder b, Goals goals, Map<String, Score> w, Map<String, Score> t1) {
    Score floor = w.get("floor");
    Score plain = w.get("plain");
    Score admitted = w.get("admitted");
    Score rejecting = w.get("rejecting");
    b.append("## Woven call\n\n");
    b.append("An annotated method beside the same plain method, in a JVM started with the agent ");
    b.append("(`WovenCallBenchmark`), 1 thread, ns/op.\n\n");
    b.append("| call | ns/op |\n|---|---:|\n");
    b.append("| floor: `nanoTime()` + CAS | ").append(floor.text()).append(" |\n");
    b.append("| plain method | ").append(plain.text()).append(" |\n");
    b.append("| woven, permits available | ").append(admitted.text()).append(" |\n");
    b.append("| woven, limited (exception thrown and caught) | ")
        .append(rejecting.text())
        .append(" |\n\n");
    double added = admitted.value() - plain.value();
    double addedLow = added - admitted.error() - plain.error();
    double addedHigh = added + admitted.error() + plain.error();
    goals.add(
        "a woven call adds at most the floor + 10 ns to the plain call",
        String.format(Locale.ROOT, "adds %.1f ns; floor + 10 = %.1f ns", added, floor.value() + 10),
        verdict(addedLow - floor.error(), addedHigh + floor.error(), floor.value() + 10));
    belowPeers(goals, t1, added, addedLow, addedHigh);
    double rejectRatio = rejecting.value() / floor.value();
    goals.add(
        "the rejecting path, exception included, at most 3× the floor",
        String.format(Locale.ROOT, "%.2f×", rejectRatio),
        verdict(
            (rejecting.value() - rejecting.error()) / (floor.value() + floor.error()),
            (rejecting.value() + rejecting.error()) / Math.max(1e-9, floor.value() - floor.error()),
            3));
  }

  /**
   * The goal of the woven call's added cost, ns, below every peer's acquire; the peers' acquires
   * come from {@code PeerAcquireBenchmark}, one thread, permits available.
   */
  private static void belowPeers(
      Goals goals, Map<String, Score> t1, double added, double addedLow, double addedHigh) {
    Verdict peers = Verdict.MET;
    double cheapestPeer = Double.MAX_VALUE;
    String cheapest = "";
    for (String peer : Limiters.PEERS) {
      Score p = t1.get(peer + "/available");
      if (p.value() < cheapestPeer) {
        cheapestPeer = p.value();
        cheapest = peer;
      }
      // less than the peer: the whole interval of (added - peer) below 0
      peers =
          worse(
              peers,
              verdict(addedLow - p.value() - p.error(), addedHigh - p.value() + p.error(), -1e-9));
    }
    goals.add(
        "and less than any peer's acquire",
        String.format(
            Locale.ROOT, "adds %.1f ns; cheapest peer %s %.1f ns", added, cheapest, cheapestPeer),
        peers);
  }

  /**
   * Appends "Per-key acquire": {@code @LimitKey} buckets beside one bucket.
   *
   * @param b where the section goes
   * @param k the keyed acquire's scores
   */
  static void keyed(StringBuilder b, Map<String, Score> k) {
    b.append("## Per-key acquire\n\n");
    b.append(
        "`@LimitKey` buckets beside one bucket, same settings, keys made beforehand and taken ");
    b.append("in turn (`KeyedAcquireBenchmark`), 1 thread, ns/op.\n\n");
    b.append("| plain | one key | 1,000 keys | 1,000,000 keys |\n|---:|---:|---:|---:|\n");
    scoresRow(b, k, "plain", "oneKey", "thousandKeys", "millionKeys");
    b.append('\n');
  }

  /**
   * Appends "What the counts cost" and judges its goal: the counted limiter beside the core alone.
   *
   * @param b where the section goes
   * @param goals where its goal goes
   * @param t1 the one-thread scores, by {@code benchmark/state}
   * @param t2 the two-thread scores, by {@code benchmark/state}
   */
  static void counted(StringBuilder b, Goals goals, Map<String, Score> t1, Map<String, Score> t2) {
    b.append("## What the counts cost\n\n");
    b.append("The limiter woven code calls (a clock read, the core's CAS, and the granted or ");
    b.append("rejected count an operator reads) beside the core alone, counting nothing ");
    b.append("(`CountedAcquireBenchmark`), ns/op.\n\n");
    b.append("| | available, 1 thread | exhausted, 1 thread | available, 2 threads |");
    b.append(" exhausted, 2 threads |\n|---|---:|---:|---:|---:|\n");
    String[] states = {"available", "exhausted", "available", "exhausted"};
    List<Map<String, Score>> runs = List.of(t1, t1, t2, t2);
    for (String[] row :
        new String[][] {
          {"floor", "floor"}, {"core", "core, no counts"}, {"counted", "limiter, counted"}
        }) {
      List<String> cells = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        cells.add(runs.get(c).get(row[0] + "/" + states[c]).text());
      }
      Markdown.row(b, row[1], cells);
    }
    b.append('\n');
    double worst = 0;
    for (int c = 0; c < 2; c++) {
      worst =
          Math.max(
              worst, t1.get("counted/" + states[c]).value() - t1.get("core/" + states[c]).value());
    }
    goals.add(
        "the counts add at most 5 ns to the keyless acquire, one thread",
        String.format(Locale.ROOT, "adds %.1f ns at most", worst),
        worst <= 5);
  }

  /**
   * Appends "HTTP entries": the gate in front of every servlet, then whole requests.
   *
   * @param b where the section goes
   * @param gate the gate's scores
   * @param web {@code WebThroughput}'s output; its lines on each pair are left out
   */
  static void http(StringBuilder b, Map<String, Score> gate, String web) {
    b.append("## HTTP entries\n\n");
    b.append("The gate woven in front of every servlet (`HttpGateBenchmark`), on requests whose ");
    b.append(
        "servlet API methods answer at once, with three entries installed; 1 thread, ns/op.\n\n");
    b.append("| no entries | a path no entry names | admitted (two entries, key client) ");
    b.append("| rejected (429 written) |\n|---:|---:|---:|---:|\n");
    scoresRow(b, gate, "noEntries", "unmatched", "admitted", "rejected");
    b.append('\n');
    b.append("Whole requests on an embedded Tomcat 11 (`WebThroughput`):\n\n");
    for (String line : web.split("\\R")) {
      if (!line.startsWith("pair ")) {
        b.append(line).append('\n');
      }
    }
    b.append('\n');
  }

  /** A table row of the scores of {@code benchmarks}, in that order, as the tables show them. */
  private static void scoresRow(StringBuilder b, Map<String, Score> scores, String... benchmarks) {
    List<String> cells = new ArrayList<>();
    for (String benchmark : benchmarks) {
      cells.add(scores.get(benchmark).text());
    }
    Markdown.row(b, cells);
  }
}
