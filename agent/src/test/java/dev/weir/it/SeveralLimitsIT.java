package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Several limits on one method under the real agent jar, on each JDK of {@code -Dweir.it.jdks}:
 * repeated annotations, two shaping limits (one departure, the slower one's rate), eight threads on
 * two limits sharing a method (one shared with another method: exact totals), and config patterns
 * that meet on a method or reach an annotated one.
 */
class SeveralLimitsIT {
  private static final String MAIN = "dev.weir.it.fixtures.SeveralLimits";
  private static final long MS = 1_000_000L;

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void repeatedAnnotationsBothApply(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, MAIN, "annotations").assertExit(0);
    assertEquals(5, r.longValue("admitted"), r::toString);
    assertEquals("it-per-second", r.value("limiter"));
    long retry = r.longValue("retryAfterNanos");
    assertTrue(retry > 0 && retry <= 100 * MS, "retry-after " + retry);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void twoShapingLimitsReleaseAtTheSlowerRate(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, MAIN, "shaping").assertExit(0);
    assertEquals(0, r.longValue("limited"), "a 600 ms wait fits both queues: " + r);
    for (int k = 0; k < 4; k++) {
      long departure = r.longValue("departure" + k);
      assertTrue(departure >= k * 200 * MS - 5 * MS, "departure " + k + " early: " + departure);
      assertTrue(departure <= k * 200 * MS + 1_000 * MS, "departure " + k + " late: " + departure);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void eightThreadsOnTwoLimitsGiveExactTotals(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, MAIN, "stress").assertExit(0);
    long both = r.longValue("bothAdmitted");
    long shared = r.longValue("sharedAdmitted");
    assertEquals(100, both + shared, "the shared limit admitted exactly its capacity: " + r);
    assertTrue(both <= 60, "the own limit never beyond its capacity: " + both);
    assertEquals(16_000 - 100, r.longValue("refused"), "every other call refused");
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void configPatternsAddUp(String jdk) throws IOException {
    Path file = Files.createTempFile("weir-several", ".yaml");
    Files.write(
        file,
        String.join(
                "\n",
                "limits:",
                "  - name: it-cfg-first",
                "    methods: \"dev.weir.it.fixtures.SeveralLimits#send\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 5 }",
                "  - name: it-cfg-second",
                "    methods: \"dev.weir.it.fixtures.SeveralLimits#se*\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
                "  - name: it-cfg-extra",
                "    methods: \"dev.weir.it.fixtures.SeveralLimits#annotatedAndConfigured\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }",
                "")
            .getBytes("UTF-8"));
    try {
      Result r = ForkedJvm.withAgent(jdk, "config=" + file, MAIN, "config").assertExit(0);
      assertEquals(3, r.longValue("send"), "both patterns apply; recursion charged once: " + r);
      assertEquals(2, r.longValue("annotatedAndConfigured"), "the config limit adds to it");
      assertEquals("it-cfg-extra", r.value("annotatedAndConfigured.limiter"));
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
