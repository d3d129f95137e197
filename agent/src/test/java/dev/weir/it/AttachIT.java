package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code jcmd PID JVMTI.agent_load weir-agent.jar}: classes loaded before the attach get woven. */
class AttachIT {
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void attachingWeavesClassesAlreadyLoaded(String jdk) throws Exception {
    attachAndCheck(jdk, List.of());
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void attachingAfterADisabledStartWeaves(String jdk) throws Exception {
    attachAndCheck(jdk, List.of("-javaagent:" + ForkedJvm.AGENT_JAR + "=enabled=false"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anAttachWhoseArgumentsCannotBeReadDoesNothing(String jdk) throws Exception {
    List<String> lines = attach(jdk, List.of(), "log=info,enabled");
    assertTrue(lines.contains("after=21"), "nothing woven: " + lines);
    assertEquals(
        List.of(
            "[weir] ERROR agent argument 'enabled' must be key=value (jcmd drops '=value' unless"
                + " the options are quoted: JVMTI.agent_load weir-agent.jar"
                + " '\"key=value,key=value\"')",
            "[weir] ERROR agent arguments: 1 error(s); the attach does nothing"),
        weirLines(lines));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aBadWeirPropertyOfTheTargetRefusesTheAttach(String jdk) throws Exception {
    List<String> lines = attach(jdk, List.of("-Dweir.maxKeys=abc"), "log=info");
    assertTrue(lines.contains("after=21"), "nothing woven: " + lines);
    assertEquals(
        List.of(
            "[weir] ERROR -Dweir.maxKeys must be a whole number from 1 to 2147483647, was 'abc'",
            "[weir] ERROR agent arguments: 1 error(s); the attach does nothing"),
        weirLines(lines));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aFirstAttachWithABadArgumentIsRefusedWholeAndTheCommandSaysWhy(String jdk) throws Exception {
    Path config = ForkedJvm.configFile(ReloadIT.V1);
    try (LiveJvm app = new LiveJvm(jdk, List.of("-XX:+EnableDynamicAgentLoading"))) {
      Result bad =
          app.weir("attach", app.pid, "config=" + config + ",log=off,maxKeys=-1").assertExit(1);
      assertEquals(
          List.of(
              "[weir] ERROR agent argument maxKeys must be a whole number from 1 to 2147483647,"
                  + " was '-1'",
              "[weir] ERROR agent arguments: 1 error(s); the attach does nothing"),
          weirLines(List.of(bad.err.split("\\R"))),
          bad::toString);
      assertEquals("", bad.out, bad::toString);
      assertArrayEquals(new int[] {5, 0, 0}, app.call("save", 5), "its config limit is not set");
      assertArrayEquals(new int[] {12, 0, 0}, app.call("orders", 12), "nothing woven");
      Result noWeir = app.weir("status", app.pid).assertExit(1);
      assertTrue(noWeir.err.contains("runs no Weir agent"), noWeir::toString);

      Result good = app.weir("attach", app.pid, "config=" + config).assertExit(0);
      assertTrue(good.out.contains(" started: 2 limits from " + config), good::toString);
      assertArrayEquals(new int[] {3, 1, 0}, app.call("save", 4), "a later attach still starts");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aSecondAttachWithABadArgumentChangesNothing(String jdk) throws Exception {
    Path first = ForkedJvm.configFile(ReloadIT.V1);
    Path second = ForkedJvm.configFile(ReloadIT.V2);
    try (LiveJvm app =
        LiveJvm.withAgent(jdk, "config=" + first, "-XX:+EnableDynamicAgentLoading")) {
      Result bad =
          app.weir("attach", app.pid, "config=" + second + ",watch=true,summary=abc").assertExit(1);
      assertEquals(
          List.of(
              "[weir] ERROR agent argument summary must be a whole number from 0 (off) to 2147483647,"
                  + " was 'abc'",
              "[weir] ERROR agent arguments: 1 error(s); the attach changes nothing"),
          weirLines(List.of(bad.err.split("\\R"))),
          bad::toString);
      assertEquals("", bad.out, bad::toString);
      String agent = app.send("agent");
      assertTrue(
          agent.contains("succeeded=0 failed=0 file=" + first + " "),
          "no reload tried, the config file stays: " + agent);
      assertArrayEquals(new int[] {3, 1, 0}, app.call("save", 4), "the first file's capacity 3");
      assertArrayEquals(new int[] {3, 0, 0}, app.call("load", 3), "the second file's limit: none");
    }
  }

  /** The lines Weir printed. */
  private static List<String> weirLines(List<String> lines) {
    return lines.stream().filter(l -> l.startsWith("[weir]")).toList();
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void attachingWithAConfigFileAppliesIt(String jdk) throws Exception {
    Path config = Files.createTempFile("weir", ".yaml");
    Files.write(
        config,
        String.join(
                "\n",
                "limits:",
                "  - name: dev.weir.it.fixtures.Scenarios#burst",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 5 }",
                "")
            .getBytes(StandardCharsets.UTF_8));
    try {
      List<String> lines = attach(jdk, List.of(), "config=" + config);
      assertTrue(lines.contains("after=5"), "the override applies to a loaded class: " + lines);
    } finally {
      Files.delete(config);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aBadConfigAtAttachLeavesTheJvmUntouched(String jdk) throws Exception {
    Path config = Files.createTempFile("weir", ".yaml");
    Files.write(config, "limits: nonsense\n".getBytes(StandardCharsets.UTF_8));
    try {
      List<String> lines = attach(jdk, List.of(), "config=" + config);
      assertTrue(lines.contains("after=21"), "nothing woven: " + lines);
      assertTrue(
          lines.contains(
              "[weir] ERROR " + config + ":1: limits must be a list of limits, was 'nonsense'"),
          lines::toString);
      assertTrue(
          lines.contains("[weir] ERROR " + config + ": the attach does nothing"), lines::toString);
    } finally {
      Files.delete(config);
    }
  }

  private static void attachAndCheck(String jdk, List<String> targetOptions) throws Exception {
    List<String> lines = attach(jdk, targetOptions, "log=info");
    assertTrue(lines.contains("before=21"), "unlimited before the attach: " + lines);
    assertTrue(lines.contains("after=20"), "limited after the attach: " + lines);
    assertTrue(lines.contains("fromBytesBefore=3"), lines::toString);
    assertTrue(lines.contains("fromBytesAfter=1"), "a class defined from bytes: " + lines);
    assertTrue(
        lines.stream().anyMatch(l -> l.contains("2 loaded classes woven")),
        "the start line counts the retransformed classes: " + lines);
  }

  /** Starts the target, attaches the agent with {@code agentArgs}, and returns all it printed. */
  private static List<String> attach(String jdk, List<String> targetOptions, String agentArgs)
      throws Exception {
    return attach(jdk, targetOptions, agentArgs, null);
  }

  /**
   * As {@link #attach(String, List, String)}; with {@code generated}, a folder of generated classes
   * the target loads before the attach and calls after it.
   */
  static List<String> attach(
      String jdk, List<String> targetOptions, String agentArgs, Path generated) throws Exception {
    Path go = Files.createTempFile("weir-attach", ".go");
    Files.delete(go);
    List<String> command = new ArrayList<>();
    command.add(jdk + "/bin/java");
    command.addAll(targetOptions);
    command.addAll(
        List.of(
            "-cp",
            ForkedJvm.FIXTURES
                + File.pathSeparator
                + ForkedJvm.ANNOTATIONS_JAR
                + (generated == null ? "" : File.pathSeparator + generated),
            "dev.weir.it.fixtures.AttachTarget",
            go.toString()));
    if (generated != null) {
      command.add("generated");
    }
    Process target = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8))) {
      String pid = null;
      for (String line; pid == null && (line = out.readLine()) != null; ) {
        lines.add(line);
        if (line.startsWith("pid=")) {
          pid = line.substring(4);
        }
      }
      assertTrue(pid != null, "no pid: " + lines);
      Process jcmd =
          new ProcessBuilder(
                  jdk + "/bin/jcmd",
                  pid,
                  "JVMTI.agent_load",
                  ForkedJvm.AGENT_JAR,
                  "\"" + agentArgs + "\"")
              .redirectErrorStream(true)
              .start();
      String jcmdOutput = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(jcmd.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, jcmd.exitValue(), jcmdOutput);
      Files.createFile(go);
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
    } finally {
      assertTrue(target.waitFor(60, TimeUnit.SECONDS), "target did not finish: " + lines);
      Files.deleteIfExists(go);
    }
    assertEquals(0, target.exitValue(), String.join("\n", lines));
    return lines;
  }
}
