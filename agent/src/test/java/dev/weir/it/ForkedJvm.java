package dev.weir.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts a fixture in a new JVM with {@code -javaagent:} the built agent jar, the way users do, on
 * each JDK of {@code -Dweir.it.jdks} (default: the JDK running the tests).
 */
final class ForkedJvm {
  static final String AGENT_JAR = required("weir.agent.jar");
  static final String ANNOTATIONS_JAR = required("weir.annotations.jar");
  static final String FIXTURES = required("weir.fixtures");

  private ForkedJvm() {}

  /** The JDKs to run on, for {@code @MethodSource}. */
  static Stream<String> jdks() {
    String list = System.getProperty("weir.it.jdks", "").trim();
    if (list.isEmpty()) {
      return Stream.of(System.getProperty("java.home"));
    }
    return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty());
  }

  /**
   * Writes a config file, deleted when the tests end.
   *
   * @param lines its lines
   * @return its path
   */
  static Path configFile(String... lines) throws IOException {
    Path file = Files.createTempFile("weir", ".yaml");
    file.toFile().deleteOnExit();
    Files.write(file, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    return file;
  }

  /**
   * Skips the calling test on this JDK unless {@code condition} holds, saying why on the console
   * (where a skipped test's reason would otherwise show only in the XML reports).
   *
   * @param jdk the JDK the test runs on
   * @param condition what the test needs
   * @param why the reason to skip, for the console
   */
  static void assumeOn(String jdk, boolean condition, String why) {
    if (!condition) {
      StackWalker.StackFrame caller =
          StackWalker.getInstance().walk(frames -> frames.skip(1).findFirst()).orElseThrow();
      System.out.println(
          "[SKIPPED] "
              + caller.getClassName().substring(caller.getClassName().lastIndexOf('.') + 1)
              + "."
              + caller.getMethodName()
              + " on "
              + jdk
              + ": "
              + why);
      org.junit.jupiter.api.Assumptions.assumeTrue(false, why);
    }
  }

  /** Runs {@code main} with the agent (argument string {@code agentArgs}, may be null). */
  static Result withAgent(String jdk, String agentArgs, String main, String... args) {
    List<String> jvm = new ArrayList<>();
    jvm.add("-javaagent:" + AGENT_JAR + (agentArgs == null ? "" : "=" + agentArgs));
    return run(jdk, jvm, main, args);
  }

  /** Runs {@code main} with the given JVM options and the fixtures' class path. */
  static Result run(String jdk, List<String> jvmOptions, String main, String... args) {
    return runWithClassPath(jdk, jvmOptions, "", main, args);
  }

  /** Runs {@code main} with the fixtures' class path followed by {@code extraClassPath}. */
  static Result runWithClassPath(
      String jdk, List<String> jvmOptions, String extraClassPath, String main, String... args) {
    List<String> command = new ArrayList<>();
    command.add(jdk + File.separator + "bin" + File.separator + "java");
    command.add("-Xshare:auto");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(
        FIXTURES
            + File.pathSeparator
            + ANNOTATIONS_JAR
            + (extraClassPath.isEmpty() ? "" : File.pathSeparator + extraClassPath));
    command.add(main);
    command.addAll(Arrays.asList(args));
    try {
      Path out = Files.createTempFile("weir-it", ".out");
      Path err = Files.createTempFile("weir-it", ".err");
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("timed out: " + command);
      }
      Result result =
          new Result(
              command,
              process.exitValue(),
              new String(Files.readAllBytes(out), StandardCharsets.UTF_8),
              new String(Files.readAllBytes(err), StandardCharsets.UTF_8));
      Files.delete(out);
      Files.delete(err);
      return result;
    } catch (IOException e) {
      throw new AssertionError("could not start " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String required(String property) {
    String value = System.getProperty(property);
    if (value == null) {
      throw new IllegalStateException(
          "-D" + property + " is not set: run the integration tests with mvn verify");
    }
    return value;
  }

  /** What the forked JVM did. */
  static final class Result {
    final List<String> command;
    final int exitCode;
    final String out;
    final String err;
    final Map<String, String> values = new LinkedHashMap<>();

    Result(List<String> command, int exitCode, String out, String err) {
      this.command = command;
      this.exitCode = exitCode;
      this.out = out;
      this.err = err;
      for (String line : out.split("\\R")) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          values.putIfAbsent(line.substring(0, eq), line.substring(eq + 1));
        }
      }
    }

    String value(String key) {
      String v = values.get(key);
      if (v == null) {
        throw new AssertionError("no '" + key + "' in the output of " + this);
      }
      return v;
    }

    long longValue(String key) {
      return Long.parseLong(value(key));
    }

    /** Every value of {@code key}, in order (for output of a fixture run twice). */
    List<String> all(String key) {
      List<String> found = new ArrayList<>();
      for (String line : out.split("\\R")) {
        if (line.startsWith(key + "=")) {
          found.add(line.substring(key.length() + 1));
        }
      }
      return found;
    }

    /**
     * Checks how a fixture's calls of {@code method} ended, as it printed them: {@code
     * METHOD.admitted}, {@code METHOD.limited} and {@code METHOD.failedClosed}.
     */
    Result assertCalls(String method, int admitted, int limited, int failedClosed) {
      org.junit.jupiter.api.Assertions.assertEquals(
          admitted, longValue(method + ".admitted"), method + " admitted\n" + this);
      org.junit.jupiter.api.Assertions.assertEquals(
          limited, longValue(method + ".limited"), method + " limited\n" + this);
      org.junit.jupiter.api.Assertions.assertEquals(
          failedClosed, longValue(method + ".failedClosed"), method + " failed closed\n" + this);
      return this;
    }

    Result assertExit(int expected) {
      if (exitCode != expected) {
        throw new AssertionError("exit code " + exitCode + ", expected " + expected + ": " + this);
      }
      return this;
    }

    @Override
    public String toString() {
      return String.join(" ", command)
          + "\n--- exit "
          + exitCode
          + "\n--- stdout\n"
          + out
          + "--- stderr\n"
          + err;
    }
  }
}
