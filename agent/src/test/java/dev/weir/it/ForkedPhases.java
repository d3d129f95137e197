package dev.weir.it;

import dev.weir.it.ForkedJvm.Result;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;

/**
 * A fixture that runs many phases in one forked JVM, reported as one test per phase: one JVM per
 * JDK of {@code -Dweir.it.jdks} (started when its container runs), so each phase passes or fails on
 * its own and a failure shows which phase, with the fixture's whole output.
 */
final class ForkedPhases {
  private ForkedPhases() {}

  /** The checks of one phase of the fixture's output. */
  interface Check {
    void check(Result r, String phase) throws Throwable;
  }

  /**
   * @param run starts the fixture on a JDK
   * @param checks each phase, in the fixture's order, and its check
   * @param name the name a phase's test shows, from the phase and the fixture's output
   * @return one container per JDK, one test per phase
   */
  static Stream<DynamicContainer> perJdk(
      Function<String, Result> run,
      Map<String, Check> checks,
      BiFunction<Result, String, String> name) {
    return ForkedJvm.jdks()
        .map(
            jdk ->
                DynamicContainer.dynamicContainer(
                    jdk, Stream.of(jdk).flatMap(j -> tests(run.apply(j), checks, name))));
  }

  /** The log's test and each phase's, on one run of the fixture. */
  private static Stream<DynamicTest> tests(
      Result r, Map<String, Check> checks, BiFunction<Result, String, String> name) {
    DynamicTest log =
        DynamicTest.dynamicTest(
            "the agent's log: no error", () -> check(r, "log", ForkedPhases::noError));
    return Stream.concat(
        Stream.of(log),
        checks.entrySet().stream()
            .map(
                c ->
                    DynamicTest.dynamicTest(
                        name.apply(r, c.getKey()), () -> check(r, c.getKey(), c.getValue()))));
  }

  private static void noError(Result r, String phase) {
    for (String line : r.err.split("\\R")) {
      if (line.startsWith("[weir] ERROR")) {
        throw new AssertionError("the agent reported an error: " + line);
      }
    }
  }

  private static void check(Result r, String phase, Check check) throws Throwable {
    r.assertExit(0);
    try {
      check.check(r, phase);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + r, e);
    }
  }
}
