package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The agent's arguments: the kill switch, the log level, bad arguments. */
class AgentOptionsIT {
  private static final String SCENARIOS = "dev.weir.it.fixtures.Scenarios";

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void killSwitchWeavesNothing(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, "enabled=false", SCENARIOS, "contended", "platform");
    r.assertExit(0);
    assertEquals(64 * 1_000, r.longValue("admitted"), r::toString);
    assertTrue(r.err.contains("is disabled (enabled=false): nothing is woven"), r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void killSwitchAsASystemProperty(String jdk) {
    Result r =
        ForkedJvm.run(
                jdk,
                List.of("-javaagent:" + ForkedJvm.AGENT_JAR, "-Dweir.enabled=false"),
                SCENARIOS,
                "contended",
                "platform")
            .assertExit(0);
    assertEquals(64 * 1_000, r.longValue("admitted"), r::toString);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void logOffPrintsNothing(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, "log=off", SCENARIOS, "burst").assertExit(0);
    assertEquals(20, r.longValue("admitted"));
    assertFalse(r.err.contains("[weir]"), r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void startLineNamesTheVersion(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, SCENARIOS, "burst").assertExit(0);
    assertTrue(
        r.err.matches(
            "(?s).*\\[weir\\] weir \\d+\\.\\d+\\.\\d+\\S* started: no config file;"
                + " @TokenBucket and @LeakyBucket methods are limited as their classes load.*"),
        r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void unknownArgumentsAreReportedByName(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, "enable=false,log=loud", SCENARIOS, "burst").assertExit(0);
    assertTrue(
        r.err.contains(
            "[weir] ERROR unknown agent argument 'enable' (known: config, log, enabled, maxKeys,"
                + " watch, prometheus, summary, drainOnExit), was enable=false"),
        r.err);
    assertTrue(
        r.err.contains("[weir] ERROR agent argument log must be info, debug or off, was 'loud'"),
        r.err);
    assertEquals(20, r.longValue("admitted"), "still limits: a typo never disables a limit");
  }
}
