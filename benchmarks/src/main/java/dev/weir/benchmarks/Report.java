package dev.weir.benchmarks;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code BENCHMARKS.md} from the results that {@code benchmarks/run.sh} leaves in one
 * folder: JMH's JSON files, the start-up table, and the {@code key=value} output of {@link
 * KeyMemory} and {@link ShapingAccuracy}. Every figure comes from that one run; the goals of the
 * benchmark issue are judged from them, with the error bars: a goal is met when the whole error
 * interval meets it, missed when the whole interval misses it, and otherwise not settled.
 *
 * <p>Two threads sharing one CAS word run at one of two speeds on a small VM, and switch between
 * them within a fork, every limiter and the floor alike (the cost of moving a cache line between
 * the two virtual CPUs depends on where the host places them). An average then mostly measures how
 * long a benchmark happened to run at each speed. Where a benchmark's iterations fall into two such
 * levels ({@link Score#levels()}), the report gives each level's median, and compares Weir to the
 * floor level by level. Those comparisons are shown; the two-thread cell where the CAS is contended
 * (permits available) is judged by {@link ContendedPairs}, which interleaves the floor and Weir in
 * short slices and so compares like with like.
 */
public final class Report {
  private final Path dir;
  private final StringBuilder md = new StringBuilder();
  private final List<String[]> goals = new ArrayList<>();
  private String jdk = "unknown";
  private String jmhVersion = "unknown";

  Report(Path dir) {
    this.dir = dir;
  }

  /**
   * Prints the report to standard output.
   *
   * @param args the results folder
   * @throws IOException if a result file cannot be read
   */
  public static void main(String[] args) throws IOException {
    System.out.print(new Report(Paths.get(args[0])).write());
  }

  /**
   * Two levels are told apart when sorted iterations step up by at least this factor from one to
   * the next; the two speeds of a shared cache line differ by about 1.7 times on the reference VM,
   * and iterations within one level by a few percent.
   */
  static final double LEVEL_STEP = 1.3;

  /** Each level holds at least this many iterations, so one stray iteration is not a level. */
  static final int MIN_LEVEL = 2;

  /**
   * One JMH score.
   *
   * @param value the average, ns/op
   * @param error its 99.9% error, ns/op
   * @param iterations every measured iteration of every fork, ns/op
   */
  record Score(double value, double error, double[] iterations) {
    String text() {
      return Double.isNaN(error)
          ? String.format(Locale.ROOT, "%.1f ± ?", value)
          : String.format(Locale.ROOT, "%.1f ± %.1f", value, error);
    }

    /**
     * The iterations in levels: two when, sorted, they step up at one place by at least {@link
     * #LEVEL_STEP} with at least {@link #MIN_LEVEL} on each side (split at the widest step), else
     * one.
     *
     * @return the levels, lowest first, each sorted
     */
    List<double[]> levels() {
      double[] sorted = iterations.clone();
      Arrays.sort(sorted);
      int split = -1;
      double widest = LEVEL_STEP;
      for (int i = MIN_LEVEL; i <= sorted.length - MIN_LEVEL; i++) {
        double step = sorted[i] / sorted[i - 1];
        if (step >= widest) {
          widest = step;
          split = i;
        }
      }
      return split < 0
          ? List.of(sorted)
          : List.of(
              Arrays.copyOfRange(sorted, 0, split),
              Arrays.copyOfRange(sorted, split, sorted.length));
    }

    /** The best this score can be: its lowest level's median, or the average less its error. */
    double best() {
      List<double[]> levels = levels();
      return levels.size() > 1 ? median(levels.get(0)) : value - error;
    }

    /** The worst this score can be: its highest level's median, or the average plus its error. */
    double worst() {
      List<double[]> levels = levels();
      return levels.size() > 1 ? median(levels.get(levels.size() - 1)) : value + error;
    }
  }

  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** A verdict: met, missed, or not settled by the error bars. */
  enum Verdict {
    MET("met"),
    MISSED("**missed**"),
    OPEN("**not settled** (the error bars straddle the goal; repeat the run)");

    final String text;

    Verdict(String text) {
      this.text = text;
    }
  }

  /**
   * Weir's ratio to the floor in one cell.
   *
   * @param low the least the ratio can be
   * @param high the most it can be
   * @param text how the table shows it
   */
  record Ratio(double low, double high, String text) {
    static Ratio of(Score weir, Score floor) {
      List<double[]> w = weir.levels();
      List<double[]> f = floor.levels();
      if (w.size() == 1 && f.size() == 1) {
        double low = (weir.value() - weir.error()) / (floor.value() + floor.error());
        double high = (weir.value() + weir.error()) / Math.max(1e-9, floor.value() - floor.error());
        return new Ratio(
            low, high, String.format(Locale.ROOT, "%.2f", weir.value() / floor.value()));
      }
      if (w.size() == 2 && f.size() == 2) {
        double lower = median(w.get(0)) / median(f.get(0));
        double upper = median(w.get(1)) / median(f.get(1));
        // the goal holds at every level: bound the worse level by its iterations' extremes
        double low = 0;
        double high = 0;
        for (int i = 0; i < 2; i++) {
          double[] wl = w.get(i);
          double[] fl = f.get(i);
          low = Math.max(low, wl[0] / fl[fl.length - 1]);
          high = Math.max(high, wl[wl.length - 1] / fl[0]);
        }
        return new Ratio(
            low, high, String.format(Locale.ROOT, "%.2f / %.2f by level", lower, upper));
      }
      // one split in two levels, the other not: bound the ratio by each score's best and worst
      // (its extreme level medians)
      double low = weir.best() / floor.worst();
      double high = weir.worst() / floor.best();
      return new Ratio(
          low, high, String.format(Locale.ROOT, "%.2f to %.2f (levels differ)", low, high));
    }
  }

  String write() throws IOException {
    Map<String, Score> t1 = jmh("peers-t1.json");
    Map<String, Score> t2 = jmh("peers-t2.json");
    Map<String, Score> woven = jmh("woven.json");
    Map<String, Score> keyed = jmh("keyed.json");
    Map<String, Score> counted1 = jmh("counted-t1.json");
    Map<String, Score> counted2 = jmh("counted-t2.json");
    Map<String, String> memory = values("memory.txt");
    Map<String, String> shaping = values("shaping.txt");
    Map<String, String> contended = values("contended.txt");
    Map<String, String> latency = values("latency.txt");
    String startup = Files.readString(dir.resolve("startup.md"), StandardCharsets.UTF_8);
    Map<String, Score> gate = jmh("http-gate.json");
    String web = Files.readString(dir.resolve("web.txt"), StandardCharsets.UTF_8);

    StringBuilder body = new StringBuilder();
    acquire(body, t1, t2, contended);
    latency(body, latency);
    woven(body, woven, t1);
    wovenContended(contended);
    keyed(body, keyed);
    counted(body, counted1, counted2);
    startup(body, startup);
    memory(body, memory);
    shaping(body, shaping);
    http(body, gate, web);
    redis(body);

    md.append("# Weir benchmarks\n\n");
    md.append("All figures below come from one run of `benchmarks/run.sh` on ")
        .append(LocalDate.now())
        .append(".\n\n");
    md.append("- Machine: ").append(cpu()).append(", ");
    md.append(Runtime.getRuntime().availableProcessors()).append(" cores, ");
    md.append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version"));
    md.append("\n- JDK: ").append(jdk);
    md.append("\n- JMH ")
        .append(jmhVersion)
        .append("; ns/op are averages with their 99.9% error.\n\n");
    md.append("## Goals\n\n| goal | figure | met? |\n|---|---|---|\n");
    for (String[] g : goals) {
      md.append("| ").append(g[0]).append(" | ").append(g[1]).append(" | ").append(g[2]);
      md.append(" |\n");
    }
    md.append('\n').append(body);
    return md.toString();
  }

  private static final String[] PEERS = {"bucket4j", "guava", "resilience4j", "failsafe"};

  private void acquire(
      StringBuilder b, Map<String, Score> t1, Map<String, Score> t2, Map<String, String> pairs) {
    String[] rows = {
      "floor", "floorRetrying", "weir", "bucket4j", "guava", "resilience4j", "failsafe"
    };
    List<Map<String, Score>> runs = List.of(t1, t1, t2, t2);
    String[] states = {"available", "exhausted", "available", "exhausted"};
    acquireTable(b, rows, runs, states);
    b.append("| Weir / floor");
    double worst = 0;
    String worstCell = "";
    Verdict floorVerdict = Verdict.MET;
    // the two-thread available cell is judged by the interleaved measure, which pairs like with
    // like (see contended()); the JMH averages of that cell are shown, not judged
    Ratio paired =
        new Ratio(
            Double.parseDouble(pairs.get("weirToFloorLow")),
            Double.parseDouble(pairs.get("weirToFloorHigh")),
            "");
    for (int c = 0; c < 4; c++) {
      Ratio ratio =
          Ratio.of(runs.get(c).get("weir/" + states[c]), runs.get(c).get("floor/" + states[c]));
      Ratio judged = c == 2 ? paired : ratio;
      if (judged.high() > worst) {
        worst = judged.high();
        worstCell = cell(states, c) + (c == 2 ? ", interleaved" : "");
      }
      floorVerdict = worse(floorVerdict, verdict(judged.low(), judged.high(), 1.1));
      b.append(" | ").append(ratio.text());
    }
    b.append(" |\n| Weir / retrying floor");
    for (int c = 0; c < 4; c++) {
      b.append(" | ")
          .append(
              Ratio.of(
                      runs.get(c).get("weir/" + states[c]),
                      runs.get(c).get("floorRetrying/" + states[c]))
                  .text());
    }
    b.append(" |\n\n");
    levels(b, rows, t2, states);
    contended(b, pairs);
    goal(
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
    peersGoal(runs, states, pairs);
  }

  /** The acquire table's title, text, header and a row per limiter, of its ns/op. */
  private static void acquireTable(
      StringBuilder b, String[] rows, List<Map<String, Score>> runs, String[] states) {
    b.append("## Acquire cost\n\n");
    b.append("One non-blocking acquire of one permit, ns/op (`PeerAcquireBenchmark`). ");
    b.append("Available: every call admitted. Exhausted: every call refused. ");
    b.append("Two threads share one limiter.\n\n");
    b.append("| limiter | available, 1 thread | exhausted, 1 thread | available, 2 threads |");
    b.append(" exhausted, 2 threads |\n|---|---:|---:|---:|---:|\n");
    for (String row : rows) {
      b.append("| ").append(label(row));
      for (int c = 0; c < 4; c++) {
        b.append(" | ").append(runs.get(c).get(row + "/" + states[c]).text());
      }
      b.append(" |\n");
    }
  }

  /** The name of the acquire table's column {@code c}, as the goals name it. */
  private static String cell(String[] states, int c) {
    return states[c] + ", " + (c < 2 ? 1 : 2) + " thread(s)";
  }

  /**
   * The goal of Weir's core ahead of every peer in every cell of the acquire table: by the error
   * bars of the JMH averages, and by the interleaved measure's interval in the two-thread available
   * cell.
   */
  private void peersGoal(
      List<Map<String, Score>> runs, String[] states, Map<String, String> pairs) {
    List<String> behind = new ArrayList<>();
    List<String> unsettled = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      Score weir = runs.get(c).get("weir/" + states[c]);
      String cell = cell(states, c);
      for (String peer : PEERS) {
        Score p = runs.get(c).get(peer + "/" + states[c]);
        // interleaved (as above) in the two-thread available cell: its ratio's interval
        double low =
            c == 2
                ? Double.parseDouble(pairs.get("weirTo" + ContendedPairs.capitalized(peer) + "Low"))
                : weir.best() / p.worst();
        double high =
            c == 2
                ? Double.parseDouble(
                    pairs.get("weirTo" + ContendedPairs.capitalized(peer) + "High"))
                : weir.worst() / p.best();
        if (low >= 1) {
          behind.add(peer + " (" + cell + ")");
        } else if (!(high < 1)) { // an unknown (NaN) bound settles nothing
          unsettled.add(peer + " (" + cell + ")");
        }
      }
    }
    goal(
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
  private static void levels(
      StringBuilder b, String[] rows, Map<String, Score> t2, String[] states) {
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
    for (String row : rows) {
      b.append("| ").append(label(row));
      for (int c = 2; c < 4; c++) {
        List<String> cells = new ArrayList<>();
        for (double[] level : t2.get(row + "/" + states[c]).levels()) {
          cells.add(String.format(Locale.ROOT, "%.1f (%d)", median(level), level.length));
        }
        b.append(" | ").append(String.join(" · ", cells));
      }
      b.append(" |\n");
    }
    b.append('\n');
  }

  /** The interleaved two-thread measure ({@link ContendedPairs}). */
  private static void contended(StringBuilder b, Map<String, String> p) {
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
            b, p, "weirTo" + ContendedPairs.capitalized(other), "Weir / " + label(other), "%.2f");
      }
    }
    medianRow(b, p, "wovenToFloor", "woven call / " + label("floor"), "%.2f");
    for (String peer : PEERS) {
      medianRow(
          b,
          p,
          "wovenTo" + ContendedPairs.capitalized(peer),
          "woven call / " + label(peer),
          "%.2f");
    }
    medianRow(b, p, "wovenAddsBeyondFloor", "(woven call − plain call) − floor, ns", "%.1f");
    b.append('\n');
  }

  private static void medianRow(
      StringBuilder b, Map<String, String> p, String key, String label, String format) {
    b.append("| ").append(label).append(" | ");
    b.append(String.format(Locale.ROOT, format, Double.parseDouble(p.get(key))));
    b.append(" | ");
    b.append(String.format(Locale.ROOT, format, Double.parseDouble(p.get(key + "Low"))));
    b.append(" to ");
    b.append(String.format(Locale.ROOT, format, Double.parseDouble(p.get(key + "High"))));
    b.append(" |\n");
  }

  /**
   * The goals of the two-thread available cell, from the interleaved measure: Weir's core at most
   * the best peer's median and within 1.1× of the floor; the woven call at most the floor + 10 ns
   * beyond the plain call, and below every peer.
   */
  private void wovenContended(Map<String, String> p) {
    String best = PEERS[0];
    for (String peer : PEERS) { // the best peer is the one Weir's ratio to is highest
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
    goal(
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
    goal(
        "two threads, interleaved: a woven call adds at most the floor + 10 ns to the plain call",
        String.format(
            Locale.ROOT,
            "adds the floor %+.1f ns (%+.1f to %+.1f)",
            Double.parseDouble(p.get("wovenAddsBeyondFloor")),
            beyondLow,
            beyondHigh),
        verdict(beyondLow, beyondHigh, 10));
    wovenBelowPeers(p);
  }

  /** The goal of the woven call below every peer's acquire, two threads, interleaved. */
  private void wovenBelowPeers(Map<String, String> p) {
    Verdict peers = Verdict.MET;
    double worst = 0;
    String worstPeer = "";
    for (String peer : PEERS) {
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
    goal(
        "and below every peer's acquire",
        String.format(Locale.ROOT, "%.2f× %s, the closest", worst, worstPeer),
        peers);
  }

  /** Single-acquire latency under two-thread contention ({@link AcquireLatency}). */
  private void latency(StringBuilder b, Map<String, String> p) {
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
              label(row),
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
    for (String peer : PEERS) {
      peers.add(
          String.format(
              Locale.ROOT, "%s %,d", peer, Long.parseLong(p.get("latency." + peer + ".p999"))));
    }
    goal(
        "a single acquire under two-thread contention: Weir's p99.9 at most 2 µs",
        String.format(
            Locale.ROOT,
            "core %,d ns, woven call %,d ns (%s ns)",
            weir,
            woven,
            String.join(", ", peers)),
        Math.max(weir, woven) <= 2_000);
  }

  private void woven(StringBuilder b, Map<String, Score> w, Map<String, Score> t1) {
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
    goal(
        "a woven call adds at most the floor + 10 ns to the plain call",
        String.format(Locale.ROOT, "adds %.1f ns; floor + 10 = %.1f ns", added, floor.value() + 10),
        verdict(addedLow - floor.error(), addedHigh + floor.error(), floor.value() + 10));
    // the peers' acquires come from PeerAcquireBenchmark, one thread, permits available
    Verdict peers = Verdict.MET;
    double cheapestPeer = Double.MAX_VALUE;
    String cheapest = "";
    for (String peer : PEERS) {
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
    goal(
        "and less than any peer's acquire",
        String.format(
            Locale.ROOT, "adds %.1f ns; cheapest peer %s %.1f ns", added, cheapest, cheapestPeer),
        peers);
    double rejectRatio = rejecting.value() / floor.value();
    goal(
        "the rejecting path, exception included, at most 3× the floor",
        String.format(Locale.ROOT, "%.2f×", rejectRatio),
        verdict(
            (rejecting.value() - rejecting.error()) / (floor.value() + floor.error()),
            (rejecting.value() + rejecting.error()) / Math.max(1e-9, floor.value() - floor.error()),
            3));
  }

  private void keyed(StringBuilder b, Map<String, Score> k) {
    b.append("## Per-key acquire\n\n");
    b.append(
        "`@LimitKey` buckets beside one bucket, same settings, keys made beforehand and taken ");
    b.append("in turn (`KeyedAcquireBenchmark`), 1 thread, ns/op.\n\n");
    b.append("| plain | one key | 1,000 keys | 1,000,000 keys |\n|---:|---:|---:|---:|\n| ");
    b.append(k.get("plain").text()).append(" | ").append(k.get("oneKey").text()).append(" | ");
    b.append(k.get("thousandKeys").text()).append(" | ").append(k.get("millionKeys").text());
    b.append(" |\n\n");
  }

  private void http(StringBuilder b, Map<String, Score> gate, String web) {
    b.append("## HTTP entries\n\n");
    b.append("The gate woven in front of every servlet (`HttpGateBenchmark`), on requests whose ");
    b.append(
        "servlet API methods answer at once, with three entries installed; 1 thread, ns/op.\n\n");
    b.append("| no entries | a path no entry names | admitted (two entries, key client) ");
    b.append("| rejected (429 written) |\n|---:|---:|---:|---:|\n| ");
    b.append(gate.get("noEntries").text()).append(" | ").append(gate.get("unmatched").text());
    b.append(" | ").append(gate.get("admitted").text()).append(" | ");
    b.append(gate.get("rejected").text()).append(" |\n\n");
    b.append("Whole requests on an embedded Tomcat 11 (`WebThroughput`):\n\n");
    for (String line : web.split("\\R")) {
      if (!line.startsWith("pair ")) {
        b.append(line).append('\n');
      }
    }
    b.append('\n');
  }

  /** One cell of {@code RedisThroughput}: acquires per second, p50 and p99 in microseconds. */
  record Cell(double opsPerSecond, double p50, double p99) {
    Cell with(Cell other) { // two JVMs at once: their acquires add, the worse latency shows
      return new Cell(
          opsPerSecond + other.opsPerSecond, Math.max(p50, other.p50), Math.max(p99, other.p99));
    }
  }

  /** {@code redis MODE THREADS OPS P50 P99} lines, by {@code MODE/THREADS}. */
  private Map<String, Cell> redisCells(String file) throws IOException {
    Map<String, Cell> cells = new LinkedHashMap<>();
    for (String line : Files.readAllLines(dir.resolve(file), StandardCharsets.UTF_8)) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 6 && f[0].equals("redis")) {
        cells.put(
            f[1] + "/" + f[2],
            new Cell(Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5])));
      }
    }
    return cells;
  }

  private void redis(StringBuilder b) throws IOException {
    Map<String, Cell> one = redisCells("redis.txt");
    Map<String, Cell> first = redisCells("redis-jvm1.txt");
    Map<String, Cell> second = redisCells("redis-jvm2.txt");
    b.append("## Cluster scope (Redis)\n\n");
    b.append("A `scope: cluster` limit's woven call (one `EVALSHA` of the core's GCRA each) ");
    b.append("against a `redis-server` on this machine, beside Bucket4j's Redis backend ");
    b.append("(compare-and-swap: a `GET`, then a CAS script, on the JVM's clock) over the same ");
    b.append("client, Jedis, and a plain `PING`; every bucket large enough that nothing is ");
    b.append("limited; 5 s per cell after 1 s of warm-up (`RedisThroughput`). Two JVMs run ");
    b.append(
        "their cells at the same instants: acquires/s add, latencies are the worse JVM's.\n\n");
    b.append("| | threads per JVM | acquires/s | p50 µs | p99 µs |\n|---|---:|---:|---:|---:|\n");
    String[][] rows = {
      {"PING", "ping"}, {"Weir", "weir"}, {"Bucket4j", "bucket4j"},
    };
    for (String[] row : rows) {
      for (String t : new String[] {"1", "8"}) {
        redisRow(b, row[0] + ", one JVM", t, one.get(row[1] + "/" + t));
      }
    }
    for (String[] row : new String[][] {rows[1], rows[2]}) {
      for (String t : new String[] {"1", "8"}) {
        String key = row[1] + "/" + t;
        redisRow(b, row[0] + ", two JVMs", t, first.get(key).with(second.get(key)));
      }
    }
    b.append('\n');
    Cell w1 = one.get("weir/1");
    Cell w8 = one.get("weir/8");
    Cell b1 = one.get("bucket4j/1");
    Cell b8 = one.get("bucket4j/8");
    Cell p1 = one.get("ping/1");
    Cell p8 = one.get("ping/8");
    double r1 = w1.opsPerSecond() / b1.opsPerSecond();
    double r8 = w8.opsPerSecond() / b8.opsPerSecond();
    goal(
        "a cluster acquire, 1 thread: at least Bucket4j's Redis backend's throughput",
        String.format(Locale.ROOT, "%.2f× Bucket4j's", r1),
        r1 >= 1.0);
    goal(
        "a cluster acquire, 8 threads: at least 3× Bucket4j's throughput",
        String.format(Locale.ROOT, "%.2f× Bucket4j's", r8),
        r8 >= 3.0);
    double q1 = w1.p99() / p1.p99();
    double q8 = w8.p99() / p8.p99();
    goal(
        "a cluster acquire's p99 at most 2× a PING's, 1 and 8 threads",
        String.format(Locale.ROOT, "%.2f× and %.2f×", q1, q8),
        Math.max(q1, q8) <= 2.0);
  }

  private static void redisRow(StringBuilder b, String what, String threads, Cell c) {
    b.append(
        String.format(
            Locale.ROOT,
            "| %s | %s | %,.0f | %.0f | %.0f |%n",
            what,
            threads,
            c.opsPerSecond(),
            c.p50(),
            c.p99()));
  }

  private void counted(StringBuilder b, Map<String, Score> t1, Map<String, Score> t2) {
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
      b.append("| ").append(row[1]);
      for (int c = 0; c < 4; c++) {
        b.append(" | ").append(runs.get(c).get(row[0] + "/" + states[c]).text());
      }
      b.append(" |\n");
    }
    b.append('\n');
    double worst = 0;
    for (int c = 0; c < 2; c++) {
      worst =
          Math.max(
              worst, t1.get("counted/" + states[c]).value() - t1.get("core/" + states[c]).value());
    }
    goal(
        "the counts add at most 5 ns to the keyless acquire, one thread",
        String.format(Locale.ROOT, "adds %.1f ns at most", worst),
        worst <= 5);
  }

  private void startup(StringBuilder b, String table) {
    b.append("## Start-up\n\n");
    b.append("A program loading 5,000 classes from a jar, started with an agent that does ");
    b.append("nothing and with Weir, in pairs of whole-process runs back to back, in a rotating ");
    b.append("order; the ratio is the median of the pairs' ratios, with its 95% interval ");
    b.append("(`benchmarks/startup/run.sh`).\n\n");
    b.append(table.strip()).append("\n\n");
    double none = Double.NaN;
    double ten = Double.NaN;
    String noneInterval = "?";
    String tenInterval = "?";
    for (String line : table.split("\n")) {
      String[] cells = line.split("\\|"); // "", name, median ms, ratio, interval
      if (line.startsWith("| Weir, no config")) {
        none = Double.parseDouble(cells[3].trim());
        noneInterval = cells[4].trim();
      } else if (line.startsWith("| Weir, ten patterns")) {
        ten = Double.parseDouble(cells[3].trim());
        tenInterval = cells[4].trim();
      }
    }
    goal(
        "start-up at most 1.10× an empty agent with no config (median of the pairs' ratios)",
        String.format(Locale.ROOT, "%.2f× (95%%: %s)", none, noneInterval),
        intervalVerdict(noneInterval, 1.10));
    goal(
        "start-up at most 1.35× an empty agent with ten config patterns (median of the pairs'"
            + " ratios)",
        String.format(Locale.ROOT, "%.2f× (95%%: %s)", ten, tenInterval),
        intervalVerdict(tenInterval, 1.35));
  }

  /** A goal "at most {@code limit}" judged on an interval written {@code "LOW to HIGH"}. */
  static Verdict intervalVerdict(String interval, double limit) {
    String[] bounds = interval.split(" to ");
    try {
      return verdict(Double.parseDouble(bounds[0]), Double.parseDouble(bounds[1]), limit);
    } catch (RuntimeException unreadable) {
      return Verdict.OPEN;
    }
  }

  private void memory(StringBuilder b, Map<String, String> m) {
    double live = Double.parseDouble(m.get("liveBytesPerKey"));
    b.append("## Per-key memory\n\n");
    b.append("Heap after full collections, beside the key strings, at 1,000,000 keys ");
    b.append("(`KeyMemory`).\n\n| | bytes |\n|---|---:|\n");
    b.append("| per live key | ").append(m.get("liveBytesPerKey")).append(" |\n");
    b.append("| all keys, once idle and swept | ").append(m.get("idleBytesLeft")).append(" |\n");
    b.append("| per key of a bare `ConcurrentHashMap<String, long[]>`, for scale | ");
    b.append(m.get("baselineBytesPerKey")).append(" |\n\n");
    goal(
        "at most 96 bytes per live key",
        String.format(Locale.ROOT, "%.1f bytes", live),
        live <= 96);
  }

  private void shaping(StringBuilder b, Map<String, String> s) {
    shapingTable(b, s);
    interruptedWaiters(b, s);
    long p99 = Long.parseLong(s.get("weir.deviationP99Micros"));
    long p1Gap = Long.parseLong(s.get("weir.gapP1Micros"));
    long p99Gap = Long.parseLong(s.get("weir.gapP99Micros"));
    long min = Long.parseLong(s.get("weir.gapMinMicros"));
    long max = Long.parseLong(s.get("weir.gapMaxMicros"));
    goal(
        "shaping p99 deviation at most 1 ms",
        p99 + " µs (Guava " + s.get("guava.deviationP99Micros") + " µs)",
        p99 <= 1000);
    goal(
        "gaps between 0.5 and 1.5 ms, p1 to p99 (as the issue's Guava figure, 0.12 to 1.84 ms)",
        String.format(
            Locale.ROOT,
            "%.2f to %.2f ms (Guava %.2f to %.2f ms)",
            p1Gap / 1000.0,
            p99Gap / 1000.0,
            Long.parseLong(s.get("guava.gapP1Micros")) / 1000.0,
            Long.parseLong(s.get("guava.gapP99Micros")) / 1000.0),
        p1Gap >= 500 && p99Gap <= 1500);
    goal(
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

  /** The shaping section's title, text and table of departures (`ShapingAccuracy`). */
  private static void shapingTable(StringBuilder b, Map<String, String> s) {
    b.append("## Shaping accuracy\n\n");
    b.append("Departures of a limiter at 1,000 calls/s with 8 threads calling as fast as they ");
    b.append("can, against the ideal schedule `first + k × 1 ms`, over 5,000 departures ");
    b.append("(`ShapingAccuracy`), microseconds.\n\n");
    b.append("| limiter | deviation p50 | p99 | max | gap p1 | p50 | p99 | min | max |\n");
    b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (String name : new String[] {"weir", "guava", "floor"}) {
      b.append("| ")
          .append(
              switch (name) {
                case "weir" -> "Weir, leaky bucket SHAPING";
                case "guava" -> "Guava acquire()";
                default -> "floor: the ideal schedule, each thread parking until its slot";
              });
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
        b.append(" | ").append(s.get(name + "." + key));
      }
      b.append(" |\n");
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

  private void goal(String goal, String figure, boolean met) {
    goal(goal, figure, met ? Verdict.MET : Verdict.MISSED);
  }

  /**
   * A goal "at most {@code limit}" judged on an interval: met when all of it is at most the limit,
   * missed when all of it is above, otherwise (or when a bound is unknown, NaN) not settled.
   */
  static Verdict verdict(double low, double high, double limit) {
    if (high <= limit) {
      return Verdict.MET;
    }
    return low > limit ? Verdict.MISSED : Verdict.OPEN;
  }

  /** The worse of two verdicts: missed, then not settled, then met. */
  static Verdict worse(Verdict a, Verdict b) {
    return a == Verdict.MISSED || b == Verdict.MISSED
        ? Verdict.MISSED
        : a == Verdict.OPEN || b == Verdict.OPEN ? Verdict.OPEN : Verdict.MET;
  }

  private void goal(String goal, String figure, Verdict verdict) {
    goals.add(new String[] {goal, figure, verdict.text});
  }

  private static String label(String row) {
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

  /**
   * JMH JSON: benchmark method (and {@code /state} where the benchmark has one) to score. Notes the
   * JDK and JMH version the benchmarks ran on.
   */
  private Map<String, Score> jmh(String file) throws IOException {
    Map<String, Score> scores = new LinkedHashMap<>();
    JsonArray results =
        JsonParser.parseString(Files.readString(dir.resolve(file), StandardCharsets.UTF_8))
            .getAsJsonArray();
    for (JsonElement element : results) {
      JsonObject result = element.getAsJsonObject();
      String benchmark = result.get("benchmark").getAsString();
      String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
      JsonObject params = result.getAsJsonObject("params");
      String key =
          params != null && params.has("state")
              ? method + "/" + params.get("state").getAsString()
              : method;
      JsonObject metric = result.getAsJsonObject("primaryMetric");
      List<Double> iterations = new ArrayList<>();
      for (JsonElement fork : metric.getAsJsonArray("rawData")) {
        for (JsonElement iteration : fork.getAsJsonArray()) {
          iterations.add(iteration.getAsDouble());
        }
      }
      scores.put(
          key,
          new Score(
              number(metric.get("score")),
              number(metric.get("scoreError")),
              iterations.stream().mapToDouble(Double::doubleValue).toArray()));
      jdk = result.get("vmName").getAsString() + " " + result.get("vmVersion").getAsString();
      jmhVersion = result.get("jmhVersion").getAsString();
    }
    return scores;
  }

  /**
   * JMH writes "NaN" (a string) for an error it cannot compute, with a single fork say: unknown, so
   * no goal is settled by it.
   */
  private static double number(JsonElement value) {
    return value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber()
        ? value.getAsDouble()
        : Double.NaN;
  }

  private Map<String, String> values(String file) throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    for (String line : Files.readAllLines(dir.resolve(file), StandardCharsets.UTF_8)) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        values.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return values;
  }

  private static String cpu() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return System.getProperty("os.arch");
  }
}
