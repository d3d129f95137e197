package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Type+#m} limits every call of {@code m} on an instance of the type, wherever the code is
 * declared: {@code Operated$Inheriting} is a {@code Sink} whose {@code write} and final {@code
 * flush} are {@code Operated$Base}'s, which is no sink; {@code Operated$NotASink} runs the same
 * code and is never charged. At start-up with the ancestor loaded first (by the other subclass),
 * after a reload that brings or removes the patterns once the classes are loaded, and after an
 * attach; with {@code -Xverify:all}. Rates are 1 an hour: counts are exact.
 */
class InheritedIT {
  private static final String SINK = "dev.weir.it.fixtures.Operated$Sink";

  static final String[] SINKS =
      ReloadIT.file(
          "  - name: sink-writes",
          "    methods: \"" + SINK + "+#write\"",
          "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
          "  - name: sink-flushes",
          "    methods: \"" + SINK + "+#flush\"",
          "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }");

  static final String[] NONE =
      ReloadIT.file(
          "  - name: legacy-saves",
          "    methods: \"dev.weir.it.fixtures.Operated$Legacy#save\"",
          "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }");

  private static final String INHERITED_WRITE =
      "dev.weir.it.fixtures.Operated$Inheriting#write() (inherited from"
          + " dev.weir.it.fixtures.Operated$Base)";

  private static final String INHERITED_FLUSH =
      "dev.weir.it.fixtures.Operated$Inheriting#flush() (inherited from"
          + " dev.weir.it.fixtures.Operated$Base)";

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void inheritedImplementationsAreLimitedForInstancesOfTheTypeAlone(String jdk) throws Exception {
    Path config = ForkedJvm.configFile(SINKS);
    try (LiveJvm app = LiveJvm.withAgent(jdk, "config=" + config, "-Xverify:all")) {
      // the other subclass loads Base first, before any sink exists
      assertArrayEquals(new int[] {5, 0, 0}, app.call("other-write", 5));
      assertArrayEquals(new int[] {3, 2, 0}, app.call("sink-write", 5), "an override takes it");
      assertArrayEquals(new int[] {5, 0, 0}, app.call("other-write", 5), "no sink: free");
      // flush is final: Base's own flush is woven again for sinks, on a thread of Weir's
      awaitMethods(app, "sink-flushes", INHERITED_FLUSH);
      assertArrayEquals(new int[] {2, 2, 0}, app.call("sink-flush", 4));
      assertArrayEquals(new int[] {5, 0, 0}, app.call("other-flush", 5));
      String methods = app.weir("methods", app.pid, "sink-writes").assertExit(0).out;
      assertTrue(
          methods.contains(
              "sink-writes (token bucket)\n  limits 1 method:\n    " + INHERITED_WRITE),
          methods);
      assertFalse(app.err().contains("could not"), app.err());
      assertFalse(app.err().contains("Error"), app.err());
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aReloadReachesTheImplementationsOfLoadedClassesAndRemovingItFreesThem(String jdk)
      throws Exception {
    Path config = ForkedJvm.configFile(NONE);
    try (LiveJvm app = LiveJvm.withAgent(jdk, "config=" + config, "-Xverify:all")) {
      assertArrayEquals(new int[] {5, 0, 0}, app.call("sink-write", 5), "no pattern yet");
      assertArrayEquals(new int[] {5, 0, 0}, app.call("other-write", 5));
      ReloadIT.write(config, SINKS);
      app.weir("reload", app.pid).assertExit(0);
      // loaded classes gain no method: Base's write and flush are limited in place, for sinks
      assertArrayEquals(new int[] {3, 2, 0}, app.call("sink-write", 5));
      assertArrayEquals(new int[] {5, 0, 0}, app.call("other-write", 5));
      assertArrayEquals(new int[] {2, 1, 0}, app.call("sink-flush", 3));
      ReloadIT.write(config, NONE);
      app.weir("reload", app.pid).assertExit(0);
      assertArrayEquals(new int[] {5, 0, 0}, app.call("sink-write", 5), "removed: free again");
      assertFalse(app.err().contains("could not"), app.err());
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aClassThatGainedAnOverrideAtLoadKeepsItAcrossReloads(String jdk) throws Exception {
    Path config = ForkedJvm.configFile(SINKS);
    try (LiveJvm app = LiveJvm.withAgent(jdk, "config=" + config, "-Xverify:all")) {
      assertArrayEquals(new int[] {3, 2, 0}, app.call("sink-write", 5));
      ReloadIT.write(config, NONE);
      app.weir("reload", app.pid).assertExit(0);
      // its override stays (a loaded class cannot lose a method) and only calls super now
      assertArrayEquals(new int[] {5, 0, 0}, app.call("sink-write", 5));
      // the MBeans follow the reload at the management thread's next tick
      awaitMethodsOutput(
          app,
          out -> out.contains("legacy-saves (token bucket)\n  limits 0") && !out.contains("sink-"),
          "nothing left of sink-writes");
      ReloadIT.write(config, SINKS);
      app.weir("reload", app.pid).assertExit(0);
      assertArrayEquals(new int[] {3, 2, 0}, app.call("sink-write", 5), "limited again");
      assertFalse(app.err().contains("could not"), app.err());
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anAttachReachesTheImplementationsOfLoadedClasses(String jdk) throws Exception {
    Path config = ForkedJvm.configFile(SINKS);
    try (LiveJvm app = new LiveJvm(jdk, List.of("-XX:+EnableDynamicAgentLoading"))) {
      assertArrayEquals(new int[] {5, 0, 0}, app.call("sink-write", 5), "no agent yet");
      assertArrayEquals(new int[] {5, 0, 0}, app.call("other-write", 5));
      app.weir("attach", app.pid, "config=" + config).assertExit(0);
      assertArrayEquals(new int[] {3, 2, 0}, app.call("sink-write", 5));
      assertArrayEquals(new int[] {5, 0, 0}, app.call("other-write", 5));
      awaitMethods(app, "sink-writes", INHERITED_WRITE); // its MBean comes at the next tick
    }
  }

  /** Waits up to 10 s for {@code methods PID} to print what {@code wanted} accepts. */
  private static void awaitMethodsOutput(
      LiveJvm app, java.util.function.Predicate<String> wanted, String what)
      throws InterruptedException {
    String out = "";
    for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline; ) {
      out = app.weir("methods", app.pid).out;
      if (wanted.test(out)) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(what + ":\n" + out);
  }

  /** Waits up to 10 s for {@code methods PID LIMITER} to list {@code method}. */
  private static void awaitMethods(LiveJvm app, String limiter, String method)
      throws InterruptedException {
    String out = "";
    for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline; ) {
      out = app.weir("methods", app.pid, limiter).out;
      if (out.contains(method)) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("'" + limiter + "' does not list " + method + ":\n" + out);
  }
}
