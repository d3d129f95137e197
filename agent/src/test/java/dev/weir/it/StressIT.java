package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weir.it.ForkedJvm.Result;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The concurrency stress on virtual threads, on each JDK that has them (21+). */
class StressIT {
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void virtualThreadsOnTheCoreGetExactlyTheCapacity(String jdk) {
    Result r =
        ForkedJvm.run(
                jdk,
                List.of("-Xbootclasspath/a:" + ForkedJvm.AGENT_JAR),
                "dev.weir.it.fixtures.CoreStress")
            .assertExit(0);
    ForkedJvm.assumeOn(
        jdk, !r.out.contains("skipped="), "no virtual threads (JDK 21 and later have them)");
    assertEquals(100, r.longValue("granted"), r::toString);
    long permits = r.longValue("grantedPermits");
    assertEquals(true, permits <= 100 && permits > 93, r::toString);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void virtualThreadsThroughWovenCodeGetExactlyTheCapacity(String jdk) {
    Result probe = ForkedJvm.run(jdk, List.of(), "dev.weir.it.fixtures.CoreStress", "probe");
    ForkedJvm.assumeOn(
        jdk, !probe.out.contains("skipped="), "no virtual threads (JDK 21 and later have them)");
    Result r =
        ForkedJvm.withAgent(jdk, null, "dev.weir.it.fixtures.Scenarios", "contended", "virtual")
            .assertExit(0);
    assertEquals(100, r.longValue("admitted"), r::toString);
    assertEquals(100, r.longValue("bodyRuns"));
  }
}
