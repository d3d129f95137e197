package dev.weir.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The report reads every result file and judges each goal from the figures it was given. */
class ReportTest {
  private static String report() throws Exception {
    return new Report(results()).write();
  }

  private static Path results() throws URISyntaxException {
    return Paths.get(ReportTest.class.getResource("/results/peers-t1.csv").toURI()).getParent();
  }

  @Test
  void judgesEachGoalFromTheFigures() throws Exception {
    String md = report();
    assertContains(
        md, "| Weir's core at most 1.1× the floor in every cell | worst cell 1.23× | **missed** |");
    assertContains(
        md,
        "| Weir's core ahead of every peer in every cell (error bars apart) | ahead in all 16 comparisons | met |");
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
        "| start-up at most 1.5× an empty agent with ten config patterns | 1.70× | **missed** |");
    assertContains(md, "| at most 96 bytes per live key | 65.8 bytes | met |");
    assertContains(md, "| shaping p99 deviation at most 1 ms | 85 µs (Guava 631 µs) | met |");
    assertContains(
        md,
        "| gaps between 0.5 and 1.5 ms, p1 to p99 (as the issue's Guava figure, 0.12 to 1.84 ms) |"
            + " 0.96 to 1.05 ms (Guava 0.09 to 1.90 ms) | met |");
    assertContains(
        md,
        "| every gap, min to max, between 0.5 and 1.5 ms | 0.86 to 1.13 ms (Guava 0.00 to 2.07 ms)"
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
  }

  @Test
  void aPeerWithinTheErrorBarsIsNotCountedAsBeaten() throws Exception {
    Path dir = java.nio.file.Files.createTempDirectory("report");
    for (String f :
        new String[] {
          "peers-t1.csv",
          "peers-t2.csv",
          "woven.csv",
          "keyed.csv",
          "startup.md",
          "memory.txt",
          "shaping.txt"
        }) {
      String text = java.nio.file.Files.readString(results().resolve(f));
      if (f.equals("peers-t1.csv")) {
        text =
            text.replace(
                "resilience4j\",\"avgt\",1,8,35.0,1.0", "resilience4j\",\"avgt\",1,8,21.5,1.0");
      }
      java.nio.file.Files.writeString(dir.resolve(f), text);
    }
    String md = new Report(dir).write();
    assertContains(md, "not clearly ahead of resilience4j (available, 1 thread(s))");
  }

  private static void assertContains(String text, String expected) {
    assertTrue(text.contains(expected), "missing: " + expected + "\nin:\n" + text);
  }
}
