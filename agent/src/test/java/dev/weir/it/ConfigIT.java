package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Limits from the config file alone, on a program that never mentions Weir. */
class ConfigIT {
  private static final String LEGACY = "dev.weir.it.fixtures.Legacy";

  private static Path config(String yaml) throws IOException {
    return ForkedJvm.configFile(yaml);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void patternsLimitUnannotatedMethods(String jdk) throws IOException {
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: saves",
                "    methods: \"dev.weir.it.fixtures.Legacy#save(java.lang.String)\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
                "  - name: loads",
                "    methods: [\"dev.weir.it.fixtures.Leg*#lo*\", \"dev.weir.it.fixtures.Legacy$Inner#run\"]",
                "    leakyBucket: { rate: 1, per: HOURS, capacity: 2, mode: POLICING }",
                ""));
    Result r = ForkedJvm.withAgent(jdk, "config=" + file, LEGACY).assertExit(0);
    assertEquals(3, r.longValue("saveString"), r::toString);
    assertEquals("saves", r.value("saveString.limiter"));
    assertEquals(10, r.longValue("saveInt"), "the parameter types select the overload");
    assertEquals(2, r.longValue("load"));
    assertEquals(0, r.longValue("innerRun"), "one bucket for both patterns of 'loads'");
    assertEquals(3 + 10 + 2, r.longValue("bodyRuns"), "limited calls never run the body");
    assertTrue(r.err.contains("started: 2 limits from " + file + " (saves, loads)"), r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void subtypesAndJdkClassesAreLimited(String jdk) throws IOException {
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: sinks",
                "    methods: \"dev.weir.it.fixtures.Legacy$Sink+#write\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 4 }",
                "  - name: tags",
                "    methods: \"java.util.Locale#toLanguageTag\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }",
                "  - name: timestamps",
                "    methods: \"java.sql.Timestamp#getNanos()\"",
                "    leakyBucket: { rate: 1, per: HOURS, capacity: 3, mode: POLICING }",
                ""));
    Result r = ForkedJvm.withAgent(jdk, "config=" + file, LEGACY, "subtypes").assertExit(0);
    assertEquals(4, r.longValue("fileSink"), "a subtype two levels below the interface: " + r);
    assertEquals(0, r.longValue("lateSink"), "loaded late, sharing the bucket 'sinks'");
    assertEquals("sinks", r.value("lateSink.limiter"));
    assertEquals(2, r.longValue("languageTag"), "a java.base class loaded before the agent");
    assertEquals(3, r.longValue("timestamp"), "a class of the named module java.sql");
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aCallNestedInAnotherOfTheSameLimiterIsChargedOnce(String jdk) throws IOException {
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: repositories",
                "    methods:",
                "      - \"dev.weir.it.fixtures.Legacy$Repository+#save\"",
                "      - \"dev.weir.it.fixtures.Legacy$JdbcRepository#size\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 4 }",
                "    key: 0",
                "  - name: locals",
                "    methods: \"java.lang.ThreadLocal#get\"",
                "    tokenBucket: { rate: 1 }",
                "  - name: bursts",
                "    methods: \"dev.weir.it.fixtures.Scenarios#burst\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }",
                ""));
    Result r = ForkedJvm.withAgent(jdk, "config=" + file, LEGACY, "nesting").assertExit(0);
    assertEquals(4, r.longValue("pooled"), "a proxy and its delegate: one permit a call\n" + r);
    assertEquals(4, r.longValue("audited"), "an override calling super: one permit a call");
    assertEquals(4, r.longValue("failing"), "admitted calls that then throw");
    assertEquals(0, r.longValue("afterFailures"), "same key 'f': the failures left the limiter");
    // the unlimited saveString, saveInt and load run 30 bodies first
    assertEquals(30 + 4 + 4 + 4, r.longValue("bodyRuns"), "limited calls never run the body");
    assertEquals(4, r.longValue("size"), "no parameter 0: one bucket for its calls");
    assertTrue(
        r.err.contains(
            "[weir] WARN dev.weir.it.fixtures.Legacy$JdbcRepository#size() matches 'repositories'"
                + " (config: dev.weir.it.fixtures.Legacy$JdbcRepository#size) but has no parameter"
                + " 0 to key by: its calls share one bucket of 'repositories'"),
        r.err);
    assertEquals(10, r.longValue("threadLocal"), "Weir's own ThreadLocal is never limited");
    assertTrue(
        r.err.contains(
            "[weir] ERROR "
                + file
                + ":8: the pattern java.lang.ThreadLocal#get of 'locals' matched "),
        r.err);
    assertTrue(
        r.err.contains(
            "Weir cannot limit; " // JDK 25 adds get(Thread): one method or two
                + (r.err.contains("ThreadLocal#get(java.lang.Thread)")
                    ? "they run unlimited: java.lang.ThreadLocal#get() and"
                        + " java.lang.ThreadLocal#get(java.lang.Thread) ("
                    : "it runs unlimited: java.lang.ThreadLocal#get() (")
                + "java.lang is the JVM's own machinery (classes, strings, threads), which"
                + " Weir's limiting, weaving and logging run on)"),
        r.err);
    assertFalse(r.err.contains("java.lang.ThreadLocal#get of 'locals' has matched no"), r.err);
    assertEquals(
        2, r.longValue("burst"), "the pattern's limit adds to the annotation's: 2 of its 20");
    assertFalse(r.err.contains("the annotation's is ignored"), r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void jdkClassesAreLimitedWithoutHangingTheStartAndJavaLangIsRefused(String jdk)
      throws IOException {
    // weaving a class the weaver uses once raced the weaver's own initialisation (a start-up
    // deadlock on JDK 17, or a weaver broken for the JVM's life); the collections and joiners Weir
    // uses are limitable now (Weir's own work passes free), java.lang never
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: lists",
                "    methods: \"java.util.LinkedList#add(java.lang.Object)\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 4 }",
                "  - name: joins",
                "    methods: \"java.util.StringJoiner#add\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
                "  - name: processes",
                "    methods: \"java.lang.Process+#waitFor()\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
                "  - name: builders",
                "    methods: \"java.lang.AbstractStringBuilder+#append(java.lang.String)\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }",
                "  - name: arrays", // every ArrayList.add of the JVM: counted, never limited
                "    methods: \"java.util.ArrayList#add(java.lang.Object)\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }",
                "    dryRun: true",
                ""));
    for (int run = 0; run < 3; run++) {
      Result r = ForkedJvm.withAgent(jdk, "config=" + file, LEGACY, "jdk").assertExit(0);
      assertEquals(4, r.longValue("linkedListAdd"), r::toString);
      assertEquals(3, r.longValue("joinerAdd"), "Weir joins strings too, in its own work" + r);
      // one line for the pattern, not one per method: the class, its two subclasses
      assertTrue(
          r.err.contains(
              "the pattern java.lang.AbstractStringBuilder+#append(java.lang.String) of"
                  + " 'builders' matched 3 methods that Weir cannot limit; they run unlimited: "),
          r.err);
      assertTrue(r.err.contains("(java.lang is the JVM's own machinery"), r.err);
      assertEquals(1, r.err.split("'builders'", -1).length - 1, r.err);
      assertFalse(r.err.contains("'joins' matched"), "no refusal: " + r.err);
      assertFalse(r.err.contains("'arrays' matched"), "no refusal: " + r.err);
      assertFalse(r.err.contains("Exception"), r.err);
      assertTrue(
          r.err.contains(
              "the pattern java.lang.Process+#waitFor() of 'processes' has matched no"
                  + " method yet"),
          "an abstract method alone is no match: " + r.err);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void limitsOnTheJdkClassesWeirWritesAndWeavesWithNeverChargeWeir(String jdk) throws IOException {
    // limiting the writers under System.err once killed the JVM in premain ("processing of
    // -javaagent failed"), and limiting WeakHashMap made every later class load unwoven
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: writers",
                "    methods: [\"java.io.BufferedWriter#write\", \"java.io.PrintStream#println\"]",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }",
                "  - name: maps",
                "    methods: \"java.util.WeakHashMap#get\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }",
                "  - name: runnables",
                "    methods: \"dev.weir.it.fixtures.Legacy$Sink+#write\"",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }",
                ""));
    Result r =
        ForkedJvm.withAgent(jdk, "config=" + file + ",log=debug", "dev.weir.it.fixtures.QuietApp")
            .assertExit(0);
    assertTrue(r.err.contains("started: 3 limits from"), r.err);
    assertTrue(
        r.err.contains("invalid @TokenBucket on dev.weir.it.fixtures.QuietApp#invalid()"), r.err);
    assertFalse(r.err.contains("could not weave"), r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anHttpEntryInAJvmWithoutAServletContainerIsReported(String jdk) throws IOException {
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: api",
                "    http: { paths: \"/api/**\" }",
                "    tokenBucket: { rate: 10 }",
                ""));
    Result r = ForkedJvm.withAgent(jdk, "config=" + file, LEGACY).assertExit(0);
    assertTrue(
        r.err.contains(
            file + ":2: the http entry 'api' has reached no request yet: no servlet container"),
        r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anEntryWithoutMethodsOverridesTheAnnotatedLimiterOfItsName(String jdk) throws IOException {
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: dev.weir.it.fixtures.Scenarios#burst",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 4 }",
                ""));
    Result r = ForkedJvm.withAgent(jdk, "config=" + file, LEGACY).assertExit(0);
    assertEquals(4, r.longValue("burst"), "capacity 4 from the file, not 20 from the annotation");
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void dryRunLimitsNothingAndCountsWhatItWouldHaveLimited(String jdk) throws IOException {
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: loads",
                "    methods: dev.weir.it.fixtures.Legacy#load",
                "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
                "    dryRun: true",
                ""));
    Result r = ForkedJvm.withAgent(jdk, "config=" + file, LEGACY).assertExit(0);
    assertEquals(10, r.longValue("load"), r::toString);
    assertTrue(
        r.err.contains(
            "[weir] 'loads' (dry run): 10 calls, 7 would have been limited, 0 would"
                + " have waited"),
        r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aPatternThatMatchesNothingAndAnUnclaimedOverrideAreWarnedAtShutdown(String jdk)
      throws IOException {
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: typo",
                "    methods: \"dev.weir.it.fixtures.Legacy#sav\"",
                "    tokenBucket: { rate: 1 }",
                "  - name: nobody",
                "    tokenBucket: { rate: 1 }",
                ""));
    Result r = ForkedJvm.withAgent(jdk, "config=" + file, LEGACY).assertExit(0);
    assertTrue(
        r.err.contains(
            "[weir] WARN "
                + file
                + ":2: the pattern dev.weir.it.fixtures.Legacy#sav of 'typo' has matched no method"
                + " yet"),
        r.err);
    assertTrue(
        r.err.contains(
            "[weir] WARN "
                + file
                + ":5: 'nobody' overrides an annotated limiter, but no annotated method of that"
                + " name has loaded yet"),
        r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aBadConfigStopsTheJvmBeforeMainWithEveryError(String jdk) throws IOException {
    Path file =
        config(
            String.join(
                "\n",
                "limits:",
                "  - name: a",
                "    methods: dev.weir.it.fixtures.Legacy",
                "    tokenBucket: { rate: -3 }",
                "  - name: b",
                "    leakyBucket: { rate: 1, mode: SIDEWAYS }",
                ""));
    Result r = ForkedJvm.withAgent(jdk, "log=off,config=" + file, LEGACY);
    r.assertExit(1);
    assertFalse(r.out.contains("load="), "main must not run: " + r.out);
    assertTrue(
        r.err.contains(
            "[weir] ERROR "
                + file
                + ":3: limits[0].methods must be a method pattern like com.example.Type#method,"
                + " was 'dev.weir.it.fixtures.Legacy'"),
        r.err);
    assertTrue(
        r.err.contains(
            "[weir] ERROR "
                + file
                + ":4: limits[0].tokenBucket.rate must be > 0 and finite, was -3"),
        r.err);
    assertTrue(
        r.err.contains(
            "[weir] ERROR "
                + file
                + ":6: limits[1].leakyBucket.mode must be one of SHAPING, POLICING, was SIDEWAYS"),
        r.err);
    assertTrue(
        r.err.contains(
            "[weir] ERROR " + file + ": 3 error(s); stopping the JVM before main (exit code 1)"),
        r.err);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aMissingConfigFileStopsTheJvm(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, "config=/no/such/weir.yaml", LEGACY);
    r.assertExit(1);
    assertTrue(
        r.err.contains("[weir] ERROR /no/such/weir.yaml: cannot read the config file ("), r.err);
  }
}
