package dev.weir.benchmarks;

import static dev.weir.benchmarks.Goals.verdict;
import static dev.weir.benchmarks.Goals.worse;

import dev.weir.benchmarks.Goals.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section "Acquire cost": one non-blocking acquire of every limiter beside the floor
 * ({@code PeerAcquireBenchmark}), one and two threads, permits available and exhausted; Weir's
 * ratio to the floor cell by cell, the two-thread cells by level where they fall into two, the
 * interleaved two-thread measure ({@link ContendedSections#table}), and the goals of Weir's core
 * within 1.1× of the floor and ahead of every peer. Stateless.
 */
final class AcquireSection {
  /** The table's rows, by benchmark name. */
  private static final String[] ROWS = {
    "floor", "floorRetrying", "weir", "bucket4j", "guava", "resilience4j", "failsafe"
  };

  /** The state of each of the table's four columns; the first two are one thread, then two. */
  private static final String[] STATES = {"available", "exhausted", "available", "exhausted"};

  private AcquireSection() {}

  /**
   * Appends the section and judges its goals.
   *
   * @param b where the section goes
   * @param goals where its goals go
   * @param t1 the one-thread scores, by {@code limiter/state}
   * @param t2 the two-thread scores, by {@code limiter/state}
   * @param pairs the interleaved measure's {@code key=value} figures ({@link ContendedPairs})
   */
  static void write(
      StringBuilder b,
      Goals goals,
      Map<String, Score> t1,
      Map<String, Score> t2,
      Map<String, String> pairs) {
    List<Map<String, Score>> runs = List.of(t1, t1, t2, t2);
    acquireTable(b, runs);
    double worst = 0;
    String worstCell = "";
    Verdict floorVerdict = Verdict.MET;
    // the two-thread available cell is judged by the interleaved measure, which pairs like with
    // like (see ContendedSections); the JMH averages of that cell are shown, not judged
    Ratio paired =
        new Ratio(
            Double.parseDouble(pairs.get("weirToFloorLow")),
            Double.parseDouble(pairs.get("weirToFloorHigh")),
            "");
    List<String> toFloor = new ArrayList<>();
    List<String> toRetrying = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      Score weir = runs.get(c).get("weir/" + STATES[c]);
      Ratio ratio = Ratio.of(weir, runs.get(c).get("floor/" + STATES[c]));
      Ratio judged = c == 2 ? paired : ratio;
      if (judged.high() > worst) {
        worst = judged.high();
        worstCell = cell(c) + (c == 2 ? ", interleaved" : "");
      }
      floorVerdict = worse(floorVerdict, verdict(judged.low(), judged.high(), 1.1));
      toFloor.add(ratio.text());
      toRetrying.add(Ratio.of(weir, runs.get(c).get("floorRetrying/" + STATES[c])).text());
    }
    Markdown.row(b, "Weir / floor", toFloor);
    Markdown.row(b, "Weir / retrying floor", toRetrying);
    b.append('\n');
    levels(b, t2);
    ContendedSections.table(b, pairs);
    goals.add(
        "Weir's core at most 1.1× the floor in every cell",
        String.format(
            Locale.ROOT,
            "worst cell %.2f× (%s); two threads, available, interleaved: %.2f×, %.2f to %.2f",
            worst,
            worstCell,
            Double.parseDouble(pairs.get("weirToFloor")),
            paired.low(),
            paired.high()),
        floorVerdict);
    peersGoal(goals, runs, pairs);
  }

  /** The acquire table's title, text, header and a row per limiter, of its ns/op. */
  private static void acquireTable(StringBuilder b, List<Map<String, Score>> runs) {
    b.append("## Acquire cost\n\n");
    b.append("One non-blocking acquire of one permit, ns/op (`PeerAcquireBenchmark`). ");
    b.append("Available: every call admitted. Exhausted: every call refused. ");
    b.append("Two threads share one limiter.\n\n");
    b.append("| limiter | available, 1 thread | exhausted, 1 thread | available, 2 threads |");
    b.append(" exhausted, 2 threads |\n|---|---:|---:|---:|---:|\n");
    for (String row : ROWS) {
      List<String> cells = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        cells.add(runs.get(c).get(row + "/" + STATES[c]).text());
      }
      Markdown.row(b, Limiters.label(row), cells);
    }
  }

  /** The name of the acquire table's column {@code c}, as the goals name it. */
  private static String cell(int c) {
    return STATES[c] + ", " + (c < 2 ? 1 : 2) + " thread(s)";
  }

  /**
   * The goal of Weir's core ahead of every peer in every cell of the acquire table: by the error
   * bars of the JMH averages, and by the interleaved measure's interval in the two-thread available
   * cell.
   */
  private static void peersGoal(
      Goals goals, List<Map<String, Score>> runs, Map<String, String> pairs) {
    List<String> behind = new ArrayList<>();
    List<String> unsettled = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      Score weir = runs.get(c).get("weir/" + STATES[c]);
      String cell = cell(c);
      for (String peer : Limiters.PEERS) {
        Score p = runs.get(c).get(peer + "/" + STATES[c]);
        // interleaved (as above) in the two-thread available cell: its ratio's interval
        String key = "weirTo" + ContendedPairs.capitalized(peer);
        double low = c == 2 ? Double.parseDouble(pairs.get(key + "Low")) : weir.best() / p.worst();
        double high =
            c == 2 ? Double.parseDouble(pairs.get(key + "High")) : weir.worst() / p.best();
        if (low >= 1) {
          behind.add(peer + " (" + cell + ")");
        } else if (!(high < 1)) { // an unknown (NaN) bound settles nothing
          unsettled.add(peer + " (" + cell + ")");
        }
      }
    }
    goals.add(
        "Weir's core ahead of every peer in every cell (error bars or levels apart)",
        behind.isEmpty() && unsettled.isEmpty()
            ? "ahead in all 16 comparisons"
            : (behind.isEmpty() ? "" : "behind " + String.join(", ", behind))
                + (behind.isEmpty() || unsettled.isEmpty() ? "" : "; ")
                + (unsettled.isEmpty()
                    ? ""
                    : "not clearly ahead of " + String.join(", ", unsettled)),
        !behind.isEmpty() ? Verdict.MISSED : unsettled.isEmpty() ? Verdict.MET : Verdict.OPEN);
  }

  /** The two-thread cells by level, where any limiter's iterations fall into two. */
  private static void levels(StringBuilder b, Map<String, Score> t2) {
    boolean any = false;
    for (Score score : t2.values()) {
      any |= score.levels().size() > 1;
    }
    if (!any) {
      return;
    }
    b.append("Two threads, by level: the median of the iterations at each level, with how many ");
    b.append("iterations ran at it. Each benchmark switched between the levels within its forks; ");
    b.append("Weir is compared with the floor level by level (see `Report`).\n\n");
    b.append("| limiter | available, 2 threads | exhausted, 2 threads |\n|---|---:|---:|\n");
    for (String row : ROWS) {
      List<String> columns = new ArrayList<>();
      for (int c = 2; c < 4; c++) {
        List<String> cells = new ArrayList<>();
        for (double[] level : t2.get(row + "/" + STATES[c]).levels()) {
          cells.add(String.format(Locale.ROOT, "%.1f (%d)", Score.median(level), level.length));
        }
        columns.add(String.join(" · ", cells));
      }
      Markdown.row(b, Limiters.label(row), columns);
    }
    b.append('\n');
  }
}
