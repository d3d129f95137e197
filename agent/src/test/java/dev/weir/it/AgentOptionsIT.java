package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent's arguments: the kill switch, the log level; an unknown or invalid one stops the JVM
 * before {@code main} with exit code 1 (a typo never silently decides what is limited).
 */
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
  void aMistypedArgumentStopsTheJvmBeforeMainNamingTheKnownOnes(String jdk) {
    assertStopsBeforeMain(
        ForkedJvm.withAgent(jdk, "confg=weir.yaml", PRINTS_FIRST),
        "[weir] ERROR unknown agent argument 'confg' (known: config, log, enabled, maxKeys, watch,"
            + " prometheus, summary, drainOnExit), was confg=weir.yaml",
        "[weir] ERROR " + STOPPING.replace("N", "1"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aBadValueOfEveryKeyStopsTheJvmNamingEach(String jdk) {
    Result r =
        ForkedJvm.withAgent(
            jdk,
            "drainOnExit=soon,summary=-1,prometheus=host:99999,watch=often,maxKeys=-1,"
                + "enabled=maybe,log=loud,config=",
            PRINTS_FIRST);
    assertStopsBeforeMain(
        r,
        "[weir] ERROR agent argument config must be the path of a config file, was ''",
        "[weir] ERROR agent argument log must be info, debug or off, was 'loud'",
        "[weir] ERROR agent argument enabled must be true or false (or yes/no, on/off), was"
            + " 'maybe'",
        "[weir] ERROR agent argument maxKeys must be a whole number from 1 to 2147483647, was '-1'",
        "[weir] ERROR agent argument watch must be true or false (or yes/no, on/off), was 'often'",
        "[weir] ERROR agent argument prometheus must be [HOST:]PORT with a port from 0 to 65535,"
            + " was 'host:99999'",
        "[weir] ERROR agent argument summary must be a whole number from 0 (off) to 2147483647, was"
            + " '-1'",
        "[weir] ERROR agent argument drainOnExit must be a whole number from 0 (off) to"
            + " 9223372036854775807, was 'soon'",
        "[weir] ERROR " + STOPPING.replace("N", "8"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void theKillSwitchDoesNotOverruleABadArgument(String jdk) {
    assertStopsBeforeMain(
        ForkedJvm.withAgent(jdk, "enabled=false,maxKeys=-1", PRINTS_FIRST),
        "[weir] ERROR agent argument maxKeys must be a whole number from 1 to 2147483647, was '-1'",
        "[weir] ERROR " + STOPPING.replace("N", "1"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void logOffDoesNotHideWhyTheJvmStopped(String jdk) {
    assertStopsBeforeMain(
        ForkedJvm.withAgent(jdk, "log=off,enable=false", PRINTS_FIRST),
        "[weir] ERROR unknown agent argument 'enable' (known: config, log, enabled, maxKeys,"
            + " watch, prometheus, summary, drainOnExit), was enable=false",
        "[weir] ERROR " + STOPPING.replace("N", "1"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anArgumentWithoutAValueStopsTheJvm(String jdk) {
    assertStopsBeforeMain(
        ForkedJvm.withAgent(jdk, "config=" + NO_SUCH_FILE + ",enabled", PRINTS_FIRST),
        "[weir] ERROR agent argument 'enabled' must be key=value (jcmd drops '=value' unless the"
            + " options are quoted: JVMTI.agent_load weir-agent.jar '\"key=value,key=value\"')",
        "[weir] ERROR " + STOPPING.replace("N", "1"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aBadSystemPropertyOfAnAgentKeyStopsTheJvmNamingTheProperty(String jdk) {
    Result r =
        ForkedJvm.run(
            jdk, List.of("-javaagent:" + ForkedJvm.AGENT_JAR, "-Dweir.maxKeys=abc"), PRINTS_FIRST);
    assertStopsBeforeMain(
        r,
        "[weir] ERROR -Dweir.maxKeys must be a whole number from 1 to 2147483647, was 'abc'",
        "[weir] ERROR " + STOPPING.replace("N", "1"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void otherWeirPropertiesAreNotTheAgentsToJudge(String jdk) {
    Result r =
        ForkedJvm.run(
                jdk,
                List.of("-javaagent:" + ForkedJvm.AGENT_JAR + "=log=off", "-Dweir.confg=x.yaml"),
                PRINTS_FIRST)
            .assertExit(0);
    assertEquals("ran", r.value("main"), r::toString);
    assertEquals(List.of(), weirLines(r.err));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void blankPairsAreSkipped(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, ",log=debug,,enabled=false,", PRINTS_FIRST).assertExit(0);
    assertEquals("ran", r.value("main"), r::toString);
    List<String> lines = weirLines(r.err);
    assertEquals(1, lines.size(), r::toString);
    assertTrue(
        lines.get(0).endsWith(" is disabled (enabled=false): nothing is woven"), r::toString);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anAgentThatCannotStartStopsTheJvmBeforeMain(String jdk) throws Exception {
    // a damaged jar: the boot tier's initializer is missing, so nothing could be limited
    Path broken = Files.createTempFile("weir-broken", ".jar");
    broken.toFile().deleteOnExit();
    try (ZipFile in = new ZipFile(ForkedJvm.AGENT_JAR);
        ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(broken))) {
      for (ZipEntry e : java.util.Collections.list(in.entries())) {
        if (e.getName().equals("dev/weir/agent/bootstrap/AgentInitializer.class")) {
          continue;
        }
        out.putNextEntry(new ZipEntry(e.getName()));
        in.getInputStream(e).transferTo(out);
        out.closeEntry();
      }
    }
    Result r = ForkedJvm.run(jdk, List.of("-javaagent:" + broken), PRINTS_FIRST).assertExit(1);
    assertFalse(r.out.contains("main=ran"), () -> "main must not run\n" + r);
    List<String> lines = weirLines(r.err);
    assertEquals(1, lines.size(), r::toString);
    assertTrue(
        lines.get(0).startsWith("[weir] ERROR the agent could not start (")
            && lines.get(0).contains("AgentInitializer")
            && lines
                .get(0)
                .endsWith(
                    "); stopping the JVM before main (exit code 1) rather than run it unlimited"),
        r::toString);
  }

  private static final String PRINTS_FIRST = "dev.weir.it.fixtures.PrintsFirst";

  /** The last error line of a start stopped by N bad arguments. */
  private static final String STOPPING =
      "agent arguments: N error(s); stopping the JVM before main (exit code 1)";

  /** A config file that is never read: the arguments stop the JVM first. */
  private static final String NO_SUCH_FILE = "/no/such/weir.yaml";

  /** Exit code 1, {@code main} never ran, and Weir printed exactly {@code expected}. */
  private static void assertStopsBeforeMain(Result r, String... expected) {
    r.assertExit(1);
    assertFalse(r.out.contains("main=ran"), () -> "main must not run\n" + r);
    assertEquals(List.of(expected), weirLines(r.err), r::toString);
  }

  /** The lines Weir printed. */
  private static List<String> weirLines(String err) {
    return Arrays.stream(err.split("\\R")).filter(l -> l.startsWith("[weir]")).toList();
  }
}
