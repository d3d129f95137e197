package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A limited method called while a servlet serves a request (SPEC "Legacy web apps"): its {@code
 * RateLimitedException}, bare or wrapped, is answered as a limited request, quietly, unless the
 * response is committed or {@code http.answerLimitedMethods} is off. On Tomcat 9 ({@code
 * javax.servlet}), Tomcat 11 and Jetty 12, each in a forked JVM ({@code fixtures.web.WebScenarios}
 * {@code methods} and {@code late}; the servlets call {@code fixtures.web.Backend}).
 */
class LimitedMethodsIT {
  static Stream<Arguments> containers() {
    return WebLimitsIT.containers();
  }

  /** What the fixture wrote to stderr between its markers {@code --- FROM} and {@code --- TO}. */
  static String between(Result r, String from, String to) {
    String start = "--- " + from + System.lineSeparator();
    int begin = r.err.indexOf(start);
    int end = r.err.indexOf("--- " + to + System.lineSeparator());
    assertTrue(begin >= 0 && end > begin, "markers " + from + ", " + to + "\n" + r);
    return r.err.substring(begin + start.length(), end);
  }

  private static long lines(String text, String containing) {
    return Arrays.stream(text.split("\\R")).filter(l -> l.contains(containing)).count();
  }

  @ParameterizedTest
  @MethodSource("containers")
  void aLimitedMethodInARequestIsA429QuietlyUnlessCommittedOrSwitchedOff(
      String jdk, String container) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "http:",
            "  answerLimitedMethods: true",
            "limits:",
            "  - name: configured",
            "    methods: \"dev.weir.it.fixtures.web.Backend#configured\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
            "  - name: wrapped",
            "    methods: \"dev.weir.it.fixtures.web.Backend#wrapped\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }",
            "  - name: deep",
            "    methods: \"dev.weir.it.fixtures.web.Backend#deep\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }",
            "  - name: late-a",
            "    methods: \"dev.weir.it.fixtures.web.Backend#lateA\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }",
            "  - name: late-b",
            "    methods: \"dev.weir.it.fixtures.web.Backend#lateB\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }",
            "  - name: switched",
            "    methods: \"dev.weir.it.fixtures.web.Backend#switched\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }");
    Result r =
        WebLimitsIT.run(jdk, container, config, "methods", List.of("-Dweb.config=" + config))
            .assertExit(0);
    // a config limit: the answer an http entry gives, on the connection kept alive
    assertEquals("200,200,429,429", r.value("configured"), r.toString());
    assertEquals("429", r.value("limited.status"));
    long retryAfter = r.longValue("limited.retryAfter");
    assertTrue(retryAfter >= 55 && retryAfter <= 60, r.toString());
    assertTrue(r.value("limited.contentType").toLowerCase().startsWith("text/plain"), r.toString());
    assertEquals(
        "rate limited by 'configured': retry after " + retryAfter + " s\\n",
        r.value("limited.body"),
        r.toString());
    // an annotated limit, and exceptions wrapped as servlets and frameworks wrap them
    assertEquals("200,200,429,429", r.value("annotated"), r.toString());
    assertTrue(r.longValue("annotated.retryAfter") >= 55, r.toString());
    assertTrue(r.value("annotated.body").startsWith("rate limited by 'annotated'"), r.toString());
    assertEquals("200,429,429", r.value("wrapped"), "in a ServletException\n" + r);
    assertEquals("200,429,429", r.value("deep"), "three deep\n" + r);
    assertEquals("1", r.value("limited.connects"), "the connection is kept alive\n" + r);
    assertEquals("", between(r, "limited", "committed"), "nothing logged per request\n" + r);
    // committed before the limited call: left to the container, one line per limiter
    for (String which : new String[] {"a", "b"}) {
      String[] answers = r.value("committed." + which).split(",");
      assertEquals("200:partial late " + which + "\\n", answers[0], r.toString());
      for (int i = 1; i < answers.length; i++) {
        assertFalse(
            answers[i].contains("rate limited") || answers[i].startsWith("429"), r.toString());
      }
    }
    String committed = between(r, "committed", "off");
    assertEquals(
        1, lines(committed, "[weir] WARN a RateLimitedException of 'late-a'"), r.toString());
    assertEquals(
        1, lines(committed, "[weir] WARN a RateLimitedException of 'late-b'"), r.toString());
    assertEquals(2, lines(committed, "[weir] WARN"), r.toString());
    // off: as before, the container's 500 (and its log); on again by a reload
    assertEquals("200,429", r.value("switched.on"), r.toString());
    assertEquals(
        "http settings changed: status 429, trustedProxies [], answerLimitedMethods false",
        r.value("reload.off"));
    assertEquals("500,500", r.value("switched.off"), r.toString());
    if (container.startsWith("tomcat")) {
      assertTrue(between(r, "off", "on").contains("RateLimitedException"), r.toString());
    }
    assertEquals(
        "http settings changed: status 429, trustedProxies [], answerLimitedMethods true",
        r.value("reload.on"));
    assertEquals("429,429", r.value("switched.onAgain"), r.toString());
    assertEquals("", between(r, "on", "end").replaceAll("\\[weir\\] config reloaded.*\\R", ""));
  }

  @ParameterizedTest
  @MethodSource("containers")
  void theFirstLimiterAppearingWhileTheContainerServesBringsTheAnswer(
      String jdk, String container) {
    String main =
        container.equals("tomcat9")
            ? "dev.weir.it.fixtures.web.Javax"
            : "dev.weir.it.fixtures.web.Jakarta";
    Result r =
        ForkedJvm.runWithClassPath(
                jdk,
                List.of("-javaagent:" + ForkedJvm.AGENT_JAR), // no config: no limiter at start
                WebLimitsIT.classPath(container),
                main,
                container.startsWith("tomcat") ? "tomcat" : "jetty",
                "late")
            .assertExit(0);
    assertEquals("200,200", r.value("late.before"), r.toString());
    assertEquals("200", r.value("late.first"), "a new bucket is full\n" + r);
    assertEquals("200,429,429", r.value("late.after"), "loaded container classes woven\n" + r);
    assertEquals("1", r.value("late.connects"), r.toString());
    WebLimitsIT.assertQuiet(r);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aLimitWovenBeforeTheServletApiLoadsIsAnsweredOnceTheContainerServes(String jdk) {
    // the gate waits for the servlet API: a JVM that serves no servlet never gets it
    Result r =
        ForkedJvm.runWithClassPath(
                jdk,
                List.of("-javaagent:" + ForkedJvm.AGENT_JAR),
                WebLimitsIT.classPath("tomcat11"),
                "dev.weir.it.fixtures.web.Jakarta",
                "tomcat",
                "early")
            .assertExit(0);
    assertEquals("false", r.value("early.servletApiBefore"), r.toString());
    assertEquals("200,429,429", r.value("early.after"), "one permit taken before\n" + r);
    WebLimitsIT.assertQuiet(r);
  }
}
