package dev.weir.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The report reads every result file and judges each goal from the figures it was given. */
class ReportTest {
  private static String report() throws Exception {
    return new Report(results()).write();
  }

  private static Path results() throws URISyntaxException {
    return Paths.get(ReportTest.class.getResource("/results/peers-t1.json").toURI()).getParent();
  }

  @Test
  void showsWhatHttpEntriesCostARequest() throws Exception {
    String md = report();
    assertContains(md, "## HTTP entries");
    assertContains(md, "| 1.5 ± 1.1 | 141.5 ± 1360.4 | 719.1 ± 8483.5 | 232.0 ± 111.8 |");
    assertContains(
        md,
        "requests/s with an http entry / with none, in one JVM under the agent, 20 rounds of 500 ms"
            + " slices taking turns: median 0.943, 95% interval 0.724 to 1.113");
    assertFalse(md.contains("pair 1:"), "the pairs one by one stay in web.txt");
  }

  @Test
  void showsClusterScopeBesideBucket4jAndPing() throws Exception {
    String md = report();
    assertContains(md, "## Cluster scope (Redis)");
    assertContains(md, "| Weir, one JVM | 8 | 31,751 | 217 | 706 |");
    assertContains(md, "| Weir, two JVMs | 8 | 31,500 | 420 | 1500 |");
    assertContains(
        md,
        "| a cluster acquire, 8 threads: at least 3× Bucket4j's throughput | 5.80× Bucket4j's | met |");
    assertContains(
        md,
        "| a cluster acquire's p99 at most 2× a PING's, 1 and 8 threads | 1.49× and 1.55× | met |");
  }

  @Test
  void judgesTheTwoThreadCellAndTheWovenCallInterleaved() throws Exception {
    String md = report();
    assertContains(
        md,
        "| two threads, permits available, interleaved: Weir's core at most 1.0× the best peer's"
            + " median and within 1.1× of the floor, 95% intervals | 0.66× resilience4j (0.60 to"
            + " 0.70); 1.02× the floor (0.98 to 1.06) | met |");
    assertContains(
        md,
        "| two threads, interleaved: a woven call adds at most the floor + 10 ns to the plain call"
            + " | adds the floor +5.0 ns (+2.0 to +8.5) | met |");
    assertContains(
        md, "| and below every peer's acquire | 0.72× resilience4j, the closest | met |");
    assertContains(md, "| (woven call − plain call) − floor, ns | 5.0 | 2.0 to 8.5 |");
    assertContains(
        md, "| woven call / Resilience4j 2.4 `AtomicRateLimiter` | 0.72 | 0.65 to 0.78 |");
  }

  @Test
  void showsEachLimitersSingleAcquireLatency() throws Exception {
    String md = report();
    assertContains(
        md,
        "| Resilience4j 2.4 `AtomicRateLimiter` | 7,561,984 | 70 | 140 | 13,319 | 12,173,311 |");
    assertContains(md, "| **Weir** core | 10,138,112 | 60 | 1,472 | 1,543 | 20,824,063 |");
    assertContains(md, "10 rounds of 300 ms slices per limiter");
    assertContains(
        md,
        "| a single acquire under two-thread contention: Weir's p99.9 at most 2 µs | core 1,543 ns,"
            + " woven call 1,523 ns (bucket4j 17,455, guava 1,883, resilience4j 13,319, failsafe"
            + " 2,395 ns) | met |");
  }

  @Test
  void aStartUpIntervalStraddlingItsGoalLeavesItOpen() {
    assertEquals(Goals.Verdict.MET, Goals.intervalVerdict("1.02 to 1.09", 1.10));
    assertEquals(Goals.Verdict.OPEN, Goals.intervalVerdict("1.00 to 1.23", 1.10));
    assertEquals(Goals.Verdict.MISSED, Goals.intervalVerdict("1.11 to 1.23", 1.10));
    assertEquals(Goals.Verdict.OPEN, Goals.intervalVerdict("?", 1.10));
  }

  @Test
  void aLatencyTailBeyondTwoMicrosecondsMissesItsGoal() throws Exception {
    Path dir = copyWith("none", results -> {});
    Path latency = dir.resolve("latency.txt");
    String text = Files.readString(latency);
    assertTrue(text.contains("latency.woven.p999=1523\n"));
    Files.writeString(
        latency, text.replace("latency.woven.p999=1523\n", "latency.woven.p999=2001\n"));
    assertContains(
        new Report(dir).write(),
        "woven call 2,001 ns (bucket4j 17,455, guava 1,883, resilience4j 13,319, failsafe 2,395"
            + " ns) | **missed** |");
  }

  @Test
  void judgesEachGoalFromTheFigures() throws Exception {
    String md = report();
    assertContains(
        md,
        "| the counts add at most 5 ns to the keyless acquire, one thread | adds 1.7 ns at most | met |");
    assertContains(md, "| limiter, counted | 35.0 ± ");
    assertContains(
        md,
        "| Weir's core at most 1.1× the floor in every cell | worst cell 1.24× (exhausted, 2"
            + " thread(s)); two threads, available, interleaved: 1.02×, 0.98 to 1.06 | **missed** |");
    assertContains(
        md,
        "| Weir's core ahead of every peer in every cell (error bars or levels apart) | ahead in all 16 comparisons | met |");
    assertContains(
        md,
        "| a woven call adds at most the floor + 10 ns to the plain call | adds 23.5 ns; floor + 10 = 30.0 ns | met |");
    assertContains(
        md,
        "| and less than any peer's acquire | adds 23.5 ns; cheapest peer resilience4j 35.0 ns | met |");
    assertContains(
        md,
        "| the rejecting path, exception included, at most 3× the floor | 3.50× | **missed** |");
    assertContains(
        md,
        "| start-up at most 1.10× an empty agent with no config (median of the pairs' ratios) |"
            + " 1.14× (95%: 1.11 to 1.19) | **missed** |");
    assertContains(
        md,
        "| start-up at most 1.35× an empty agent with ten config patterns (median of the pairs'"
            + " ratios) | 1.70× (95%: 1.61 to 1.77) | **missed** |");
    assertContains(md, "| at most 96 bytes per live key | 65.8 bytes | met |");
    assertContains(md, "| shaping p99 deviation at most 1 ms | 85 µs (Guava 631 µs) | met |");
    assertContains(
        md,
        "interrupts a random caller 88 times a second: 413.2 calls/s admitted, 82.6% of the rate.");
    assertContains(
        md,
        "| gaps between 0.5 and 1.5 ms, p1 to p99 (as the issue's Guava figure, 0.12 to 1.84 ms) |"
            + " 0.96 to 1.05 ms (Guava 0.09 to 1.90 ms) | met |");
    assertContains(
        md,
        "| every gap, min to max, between 0.5 and 1.5 ms | 0.86 to 1.13 ms (Guava 0.00 to 2.07 ms;"
            + " the parking floor 0.04 to 1.98 ms)"
            + " | met |");
  }

  @Test
  void tablesCarryEveryCell() throws Exception {
    String md = report();
    assertContains(md, "| **Weir** core | 21.0 ± 0.2 | 21.5 ± 0.2 | 21.0 ± 0.2 | 24.5 ± 0.2 |");
    assertContains(md, "| Weir / floor | 1.05 | 1.08 | 1.05 | 1.23 |");
    assertContains(md, "| woven, limited (exception thrown and caught) | 70.0 ± 2.0 |");
    assertContains(md, "| 30.0 ± 0.5 | 32.0 ± 1.0 | 40.0 ± 2.0 | 80.0 ± 3.0 |");
    assertContains(md, "| Weir, ten patterns (one matches) | 623 | 1.70 |");
    assertContains(md, "| Guava acquire() | 249 | 631 | 1375 | 94 | 991 | 1900 | 0 | 2071 |");
    assertContains(
        md,
        "| floor: the ideal schedule, each thread parking until its slot | 25 | 80 | 1020 | 960 | 999"
            + " | 1048 | 40 | 1980 |");
  }

  @Test
  void aPeerWithinTheErrorBarsIsNotCountedAsBeaten() throws Exception {
    Path dir =
        copyWith(
            "peers-t1.json",
            results -> {
              JsonObject metric = find(results, "resilience4j", "available");
              metric.addProperty("score", 21.5);
              metric.addProperty("scoreError", 1.0);
            });
    String md = new Report(dir).write();
    assertContains(md, "not clearly ahead of resilience4j (available, 1 thread(s))");
  }

  @Test
  void errorBarsThatStraddleTheGoalLeaveItOpen() throws Exception {
    Path dir =
        copyWith(
            "peers-t2.json",
            results -> {
              JsonObject metric = find(results, "weir", "exhausted");
              metric.addProperty("score", 21.0);
              metric.addProperty("scoreError", 2.0); // 19.0 to 23.0 against a floor of 19.9 ± 0.2
            });
    assertContains(
        new Report(dir).write(),
        "| Weir's core at most 1.1× the floor in every cell | worst cell 1.16× (exhausted, 2"
            + " thread(s)); two threads, available, interleaved: 1.02×, 0.98 to 1.06 | **not"
            + " settled**");
  }

  @Test
  void twoLevelsAreComparedLevelByLevel() throws Exception {
    Path dir =
        copyWith(
            "peers-t2.json",
            results -> {
              // the floor mostly fast, Weir half slow: 1.18 on average, 0.96 and 1.08 by level
              raw(find(results, "floor", "available"), 54, 55, 53, 54, 54, 91, 92, 91);
              raw(find(results, "weir", "available"), 52, 98, 53, 97, 52, 99, 98, 52);
              find(results, "floor", "available").addProperty("score", 63.5);
              find(results, "weir", "available").addProperty("score", 75.1);
              weirExhaustedAsTheFloor(results);
            });
    String md = new Report(dir).write();
    assertContains(md, "| Weir / floor | 1.05 | 1.08 | 0.96 / 1.08 by level | 1.00 |");
    // the worst cell is now one-thread exhausted: (21.5 + 0.2) / (20.0 - 0.1)
    assertContains(
        md,
        "| Weir's core at most 1.1× the floor in every cell | worst cell 1.09× (exhausted, 1"
            + " thread(s)); two threads, available, interleaved: 1.02×, 0.98 to 1.06 | met |");
    assertContains(md, "| **Weir** core | 52.0 (4) · 98.0 (4) | 20.0 (8) |");
    assertContains(
        md, "| floor: `nanoTime()` + `AtomicLong` CAS | 54.0 (5) · 91.0 (3) | 20.0 (8) |");

    Path slower =
        copyWith(
            "peers-t2.json",
            results -> {
              raw(find(results, "floor", "available"), 54, 55, 53, 54, 54, 55, 91, 92, 91);
              raw(find(results, "weir", "available"), 52, 110, 53, 111, 52, 112, 53);
              weirExhaustedAsTheFloor(results);
            });
    String slowerMd = new Report(slower).write();
    assertContains(slowerMd, "| 0.97 / 1.22 by level |");
    // shown, not judged: the interleaved measure judges that cell
    assertContains(
        slowerMd,
        "| Weir's core at most 1.1× the floor in every cell | worst cell 1.09× (exhausted, 1"
            + " thread(s)); two threads, available, interleaved: 1.02×, 0.98 to 1.06 | met |");
  }

  @Test
  void theInterleavedMeasureJudgesTheContendedCell() throws Exception {
    String straddling =
        new Report(withContended("weirToFloorHigh=1.060", "weirToFloorHigh=1.150")).write();
    assertContains(
        straddling,
        "| worst cell 1.15× (available, 2 thread(s), interleaved); two threads, available,"
            + " interleaved: 1.02×, 0.98 to 1.15 | **not settled**");
    String above =
        new Report(
                withContended(
                    "weirToFloor=1.020", "weirToFloor=1.150",
                    "weirToFloorLow=0.980", "weirToFloorLow=1.120",
                    "weirToFloorHigh=1.060", "weirToFloorHigh=1.200"))
            .write();
    assertContains(above, "interleaved: 1.15×, 1.12 to 1.20 | **missed** |");
    assertContains(
        above, "| Weir / floor: `nanoTime()` + `AtomicLong` CAS | 1.15 | 1.12 to 1.20 |");
    String r4j =
        new Report(withContended("weirToResilience4jHigh=0.700", "weirToResilience4jHigh=1.050"))
            .write();
    assertContains(
        r4j, "not clearly ahead of resilience4j (available, 2 thread(s)) | **not settled**");
    String behind =
        new Report(
                withContended(
                    "weirToResilience4jLow=0.600", "weirToResilience4jLow=1.010",
                    "weirToResilience4jHigh=0.700", "weirToResilience4jHigh=1.050"))
            .write();
    assertContains(behind, "behind resilience4j (available, 2 thread(s)) | **missed**");
  }

  @Test
  void levelsThatDifferBoundTheRatioByTheirExtremeMedians() throws Exception {
    Path dir =
        copyWith(
            "peers-t2.json",
            results -> {
              raw(find(results, "floor", "exhausted"), 97, 93, 98, 98, 55, 56, 57, 59);
              JsonObject weir = find(results, "weir", "exhausted");
              weir.addProperty("score", 27.0);
              weir.addProperty("scoreError", 0.5);
              raw(weir, 27, 27, 27, 27, 27, 27, 27, 27);
            });
    // (27.0 - 0.5) / 97.5 to (27.0 + 0.5) / 56.5: the floor's upper and lower level medians
    assertContains(new Report(dir).write(), "| 0.27 to 0.49 (levels differ) |");
  }

  @Test
  void anUnknownJmhErrorSettlesNoComparison() throws Exception {
    Path dir =
        copyWith(
            "peers-t1.json",
            results -> find(results, "weir", "available").addProperty("scoreError", "NaN"));
    String md = new Report(dir).write();
    assertContains(md, "| **Weir** core | 21.0 ± ? |");
    assertContains(md, "not clearly ahead of bucket4j (available, 1 thread(s))");
    assertTrue(!md.contains("ahead in all 16 comparisons"), md);
  }

  @Test
  void anUnknownBoundSettlesNothing() {
    assertEquals(Goals.Verdict.OPEN, Goals.verdict(Double.NaN, Double.NaN, 1.1));
    assertEquals(Goals.Verdict.OPEN, Goals.verdict(0.9, Double.NaN, 1.1));
    assertEquals(Goals.Verdict.MET, Goals.verdict(0.9, 1.1, 1.1));
    assertEquals(Goals.Verdict.MISSED, Goals.verdict(1.11, 1.2, 1.1));
  }

  @Test
  void oneStrayIterationIsNotALevel() {
    Score score = new Score(60, 5, new double[] {54, 55, 53, 54, 54, 91, 92, 91});
    assertEquals(2, score.levels().size());
    Score stray = new Score(60, 5, new double[] {54, 55, 53, 54, 54, 55, 92});
    assertEquals(1, stray.levels().size(), "one iteration makes no level");
    Score two = new Score(60, 5, new double[] {54, 55, 53, 54, 54, 101, 100});
    assertEquals(2, two.levels().size(), "two iterations do");
    Score close = new Score(60, 5, new double[] {54, 55, 53, 64, 65, 66});
    assertEquals(1, close.levels().size(), "a step under 1.3x is noise, not a level");
  }

  /** A copy of the fixture results with one JSON file changed. */
  private static Path copyWith(String file, Consumer<JsonArray> change) throws Exception {
    Path dir = Files.createTempDirectory("report");
    try (var files = Files.list(results())) {
      for (Path f : files.toList()) {
        String text = Files.readString(f);
        if (f.getFileName().toString().equals(file)) {
          JsonArray results = JsonParser.parseString(text).getAsJsonArray();
          change.accept(results);
          text = results.toString();
        }
        Files.writeString(dir.resolve(f.getFileName()), text);
      }
    }
    return dir;
  }

  /**
   * A copy of the fixture results where the two-thread exhausted cell meets the goal, and lines of
   * the interleaved measure are replaced (old line, new line, ...).
   */
  private static Path withContended(String... oldThenNew) throws Exception {
    Path dir = copyWith("peers-t2.json", ReportTest::weirExhaustedAsTheFloor);
    Path target = dir.resolve("contended.txt");
    String text = Files.readString(target);
    for (int i = 0; i < oldThenNew.length; i += 2) {
      assertTrue(text.contains(oldThenNew[i] + "\n"), oldThenNew[i]);
      text = text.replace(oldThenNew[i] + "\n", oldThenNew[i + 1] + "\n");
    }
    Files.writeString(target, text);
    return dir;
  }

  /** Weir's two-thread exhausted cell at the floor's 20 ns, so that it meets the goal. */
  private static void weirExhaustedAsTheFloor(JsonArray results) {
    JsonObject exhausted = find(results, "weir", "exhausted");
    exhausted.addProperty("score", 20.0);
    raw(exhausted, 20, 20, 20, 20, 20, 20, 20, 20);
  }

  private static JsonObject find(JsonArray results, String method, String state) {
    for (JsonElement e : results) {
      JsonObject o = e.getAsJsonObject();
      if (o.get("benchmark").getAsString().endsWith("." + method)
          && o.getAsJsonObject("params").get("state").getAsString().equals(state)) {
        return o.getAsJsonObject("primaryMetric");
      }
    }
    throw new AssertionError(method + "/" + state);
  }

  private static void raw(JsonObject metric, double... iterations) {
    JsonArray fork = new JsonArray();
    for (double i : iterations) {
      fork.add(i);
    }
    JsonArray forks = new JsonArray();
    forks.add(fork);
    metric.add("rawData", forks);
  }

  private static void assertContains(String text, String expected) {
    assertTrue(text.contains(expected), "missing: " + expected + "\nin:\n" + text);
  }
}
