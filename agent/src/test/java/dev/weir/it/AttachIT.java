package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    List<String> lines = attach(jdk, List.of(), "enabled");
    assertTrue(lines.contains("after=21"), "nothing woven: " + lines);
    assertTrue(
        lines.stream().anyMatch(l -> l.contains("the attach does nothing: its arguments")),
        lines::toString);
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
