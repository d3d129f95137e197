package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code http} requests that wait in Weir ({@code WAIT}, SHAPING) hold no container thread where
 * the servlet API lets them be suspended, and at most {@code http.maxBlockedThreads} where it does
 * not (SPEC "Legacy web apps"): on Tomcat 11, Jetty 12 and Undertow, each in a forked JVM with the
 * agent and that container's jars alone ({@code fixtures.web.Waits}), on every JDK of {@code
 * -Dweir.it.jdks}.
 */
class WaitingRequestsIT {
  private static final String[] CONTAINERS = {"tomcat", "jetty", "undertow"};

  static Stream<Arguments> containers() {
    return ForkedJvm.jdks()
        .flatMap(jdk -> Arrays.stream(CONTAINERS).map(container -> Arguments.of(jdk, container)));
  }

  private static String classPath(String container) {
    if (!container.equals("undertow")) {
      return WebLimitsIT.classPath(container.equals("tomcat") ? "tomcat11" : "jetty12");
    }
    String tests =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> wanted =
        List.of(
            "/io/undertow/", "/org/jboss/", "/org/wildfly/", "/io/smallrye/", "/jakarta/servlet/");
    return Arrays.stream(tests.split(File.pathSeparator))
        .filter(entry -> wanted.stream().anyMatch(w -> entry.replace('\\', '/').contains(w)))
        .collect(Collectors.joining(File.pathSeparator));
  }

  static Result run(String jdk, String container, Path config, int pool, String... scenario) {
    return run(jdk, container, config, pool, List.of(), scenario);
  }

  static Result run(
      String jdk,
      String container,
      Path config,
      int pool,
      List<String> options,
      String... scenario) {
    List<String> jvm = new ArrayList<>(options);
    if (pool > 0) {
      jvm.add("-Dweb.pool=" + pool);
    }
    jvm.add("-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + config);
    List<String> args = new ArrayList<>(List.of(container));
    args.addAll(Arrays.asList(scenario));
    return ForkedJvm.runWithClassPath(
        jdk,
        jvm,
        classPath(container),
        "dev.weir.it.fixtures.web.Waits",
        args.toArray(new String[0]));
  }

  /**
   * The arrivals at the servlet, in milliseconds after the requests were sent: the k-th never
   * before k intervals (late is allowed, early never).
   */
  private static List<Long> neverEarly(Result r, long intervalMillis) {
    List<Long> arrivals =
        Arrays.stream(r.value("arrivals").split(","))
            .map(Long::parseLong)
            .collect(Collectors.toList());
    for (int k = 0; k < arrivals.size(); k++) {
      assertTrue(arrivals.get(k) >= k * intervalMillis - 1, "arrival " + k + " early\n" + r);
    }
    return arrivals;
  }

  @ParameterizedTest
  @MethodSource("containers")
  void shapedRequestsWaitWithoutThreadsAndLeaveAtTheirRate(String jdk, String container)
      throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    leakyBucket: { rate: 1, capacity: 30, mode: SHAPING }");
    // 30 requests wait on a pool of 10 threads: the unlimited path answers meanwhile
    Result r = run(jdk, container, config, 10, "starve", "30", "6").assertExit(0);
    assertEquals("200", r.value("health.status"), r.toString());
    assertTrue(r.longValue("health.max") < 4_000, "promptly, even on a loaded machine\n" + r);
    assertTrue(r.longValue("api.waitingDuring") >= 20, r.toString());
    // and the shaped requests still reach the servlet at the configured rate: the k-th never
    // before k seconds after they were sent (late is allowed, early never)
    List<Long> arrivals = neverEarly(r, 1000);
    assertEquals(6, arrivals.size(), r.toString());
    assertTrue(arrivals.get(5) < 5000 + 4000, "arrivals come at their slots\n" + r);
    // each counted once, none rejected; resumed by a dispatch of the container's, and answered
    assertTrue(r.longValue("api.granted") >= 6, r.toString());
    assertEquals(0, r.longValue("api.rejected"), r.toString());
    assertTrue(r.longValue("resumed") >= 5, "all but the first were dispatched again\n" + r);
    assertTrue(r.value("resumed.body").endsWith("ok\\n"), "the servlet's answer\n" + r);
    assertEquals(1, r.longValue("threads.weir"), "one timer thread of Weir's\n" + r);
  }

  /**
   * Two shaping entries on one path: each request gets one departure, the slower entry's, charged
   * on both, and still waits without a thread. The slower queue holds 40 for 30 requests: two pool
   * threads that take the slower entry's slots in one order and reach the faster entry in the other
   * cost one of them a slot (a shaper cannot give back a slot a later one stands behind, nor take a
   * slot out of order: SPEC, "calls racing it may be refused that a serial order would have
   * admitted"), which a loaded machine makes likely; a queue of exactly 30 then refused the last.
   */
  @ParameterizedTest
  @MethodSource("containers")
  void twoShapingEntriesReleaseAtTheSlowerRate(String jdk, String container) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    leakyBucket: { rate: 1, capacity: 40, mode: SHAPING }",
            "  - name: api-fast",
            "    http: { paths: \"/api/**\" }",
            "    leakyBucket: { rate: 4, capacity: 160, mode: SHAPING }");
    Result r = run(jdk, container, config, 10, "starve", "30", "6").assertExit(0);
    assertEquals("200", r.value("health.status"), r.toString());
    List<Long> arrivals = neverEarly(r, 1000);
    assertEquals(6, arrivals.size(), r.toString());
    assertEquals(0, r.longValue("api.rejected"), "every one within both queues\n" + r);
    assertTrue(r.longValue("api.waitingDuring") >= 20, "waiting without threads\n" + r);
  }

  @ParameterizedTest
  @MethodSource("containers")
  void aThousandShapedRequestsWaitWhileTheDefaultPoolServesTheRest(String jdk, String container)
      throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    leakyBucket: { rate: 1, capacity: 1000, mode: SHAPING }");
    Result r = run(jdk, container, config, 0, "starve", "1000", "3").assertExit(0);
    assertEquals("200", r.value("health.status"), r.toString());
    System.out.println(
        "[figure] "
            + container
            + " on "
            + jdk
            + ": /health p50 "
            + r.value("health.p50")
            + " ms, max "
            + r.value("health.max")
            + " ms while "
            + r.value("api.waitingDuring")
            + " shaped requests wait");
    assertTrue(r.longValue("api.waitingDuring") >= 950, r.toString());
    assertTrue(r.longValue("health.max") < 4_000, r.toString());
    neverEarly(r, 1000);
  }

  /**
   * Requests a filter answers (a login form's security filter) are charged at the entrance, and no
   * answer leaves before its slot: one the filter gave early is held until it. The filter's work is
   * done when each comes.
   */
  @ParameterizedTest
  @MethodSource("containers")
  void requestsAFilterAnswersAreChargedAtTheEntranceAndNoneIsAnsweredBeforeItsSlot(
      String jdk, String container) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    leakyBucket: { rate: 1, capacity: 5, mode: SHAPING }");
    Result r = run(jdk, container, config, 0, "answered").assertExit(0);
    // one departs at once and four take the next four slots (1 to 4 s away); three more are
    // limited before the filter
    assertEquals(
        "200,200,200,200,200,429/1,429/1,429/1", r.value("answered.statuses"), r.toString());
    List<Long> ok = millis(r.value("answered.okMillis"));
    for (int k = 0; k < ok.size(); k++) {
      assertTrue(ok.get(k) >= k * 1000L - 50, "answer " + k + " before its slot\n" + r);
    }
    assertTrue(ok.get(4) < 4_000 + 4_000, "each at its slot, even on a loaded machine\n" + r);
    assertEquals(0, r.longValue("api.waiting"), "every slot settled\n" + r);
    assertEquals(5, r.longValue("api.granted"), r.toString());
    assertEquals(3, r.longValue("api.rejected"), r.toString());
    assertEquals(5, r.longValue("filtered"), "the limited never reached the filter\n" + r);
    assertEquals(0, r.longValue("arrivals"), r.toString());
    // later ones too: each answer at its slot, the filter's work when each came
    assertEquals("200,200,200", r.value("later.statuses"), r.toString());
    List<Long> later = millis(r.value("later.okMillis"));
    for (int k = 0; k < later.size(); k++) {
      assertTrue(later.get(k) >= k * 1000L - 50, "answer " + k + " before its slot\n" + r);
    }
    assertTrue(millis(r.value("later.filterRuns")).get(2) < 1_000, r.toString());
    assertEquals(0, r.longValue("api.waitingAtEnd"), r.toString());
  }

  private static List<Long> millis(String list) {
    return Arrays.stream(list.split(",")).map(Long::parseLong).collect(Collectors.toList());
  }

  /**
   * A servlet that goes asynchronous itself is suspended before it like any other, and starts its
   * own cycle in the dispatch that resumes the request.
   */
  @ParameterizedTest
  @MethodSource("containers")
  void anAsynchronousServletsWaitingRequestsStartTheirOwnCycleWhenResumed(
      String jdk, String container) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: async",
            "    http: { paths: \"/async/**\" }",
            "    leakyBucket: { rate: 2, capacity: 10, mode: SHAPING }");
    Result r = run(jdk, container, config, 0, "async").assertExit(0);
    for (String answer : r.value("answers").replaceAll("[\\[\\] ]", "").split(",")) {
      assertTrue(answer.startsWith("ok@"), "answered by the servlet's own cycle\n" + r);
    }
    neverEarly(r, 500);
    assertEquals(3, r.value("arrivals").split(",").length, r.toString());
    assertEquals(3, r.longValue("async.granted"), r.toString());
    assertEquals(0, r.longValue("async.waiting"), r.toString());
  }

  /**
   * A request that passed filters waits on its thread, inside them, never suspended and dispatched
   * again (which would skip a filter mapped for {@code REQUEST} only, or follow a wrapper to
   * another path): a filter binding the user to the thread, one buffering the body and wrapping the
   * request, one whose wrapper names a guarded path; each is served as without Weir, at its slot.
   */
  @ParameterizedTest
  @MethodSource("containers")
  void aRequestThatPassedFiltersWaitsInsideThemOnItsThread(String jdk, String container)
      throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: bound",
            "    http: { paths: \"/bound/**\" }",
            "    leakyBucket: { rate: 2, capacity: 10, mode: SHAPING }",
            "  - name: pub",
            "    http: { paths: \"/pub/**\" }",
            "    leakyBucket: { rate: 2, capacity: 10, mode: SHAPING }");
    Result r = run(jdk, container, config, 0, "resumes").assertExit(0);
    assertEquals("200,200,200,200", r.value("bound.first"), r.toString());
    assertEquals("200,200,200", r.value("bound.then"), r.toString());
    assertEquals(0, r.longValue("bound.noUser"), "no servlet ran without its user\n" + r);
    assertEquals(0, r.longValue("bound.outside"), "inside the buffering filter's call\n" + r);
    assertEquals(0, r.longValue("bound.unwrapped"), "with its request wrapper\n" + r);
    assertEquals(0, r.longValue("bound.resumed"), "none dispatched again\n" + r);
    assertTrue(
        r.value("bound.body").endsWith("/BOUND\\n"), "its body through the filter's buffer\n" + r);
    assertEquals("200", r.value("pub.plain"), r.toString());
    assertEquals("200", r.value("pub.renamed"), "served where it was routed\n" + r);
    assertEquals("403", r.value("admin.direct"), r.toString());
    assertEquals(0, r.longValue("admin.served"), "no request reached it unguarded\n" + r);
    assertEquals(0, r.longValue("pub.waiting"), r.toString());
    assertFalse(r.err.contains("[weir] WARN"), r.toString());
  }

  @ParameterizedTest
  @MethodSource("containers")
  void requestsThatCannotBeSuspendedHoldAtMostMaxBlockedThreads(String jdk, String container)
      throws IOException {
    Path config =
        ForkedJvm.configFile(
            "http:",
            "  maxBlockedThreads: 2",
            "limits:",
            "  - name: sync",
            "    http: { paths: \"/sync/**\" }",
            "    leakyBucket: { rate: 1, capacity: 30, mode: SHAPING }");
    Result r = run(jdk, container, config, 10, "blocked").assertExit(0);
    assertTrue(r.value("health").startsWith("200 "), r.toString());
    // one at once, two hold their threads to their slots, three limited at once
    assertEquals(3, r.value("served").split(",").length, r.toString());
    String limited = r.value("limited");
    assertEquals(3, limited.split(",").length, r.toString());
    for (String answer : limited.substring(1, limited.length() - 1).split(", ")) {
      assertTrue(answer.matches("429/[1-3]@\\d+"), answer + "\n" + r);
      assertTrue(Long.parseLong(answer.substring(answer.indexOf('@') + 1)) < 2_000, r.toString());
    }
    assertEquals(3, r.longValue("arrivals"), r.toString());
    assertEquals(3, r.longValue("sync.granted"), r.toString());
    assertEquals(3, r.longValue("sync.rejected"), r.toString());
    assertEquals(2, r.longValue("sync.waited"), r.toString());
  }

  /**
   * A container that ends a waiting request before its slot gets the slot back: Tomcat tells a
   * suspended request that its HTTP/2 stream was reset (over HTTP/1.1 none of the three containers
   * tells a suspended request that its client went away, so there is nothing to give back on).
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void aWaiterWhoseClientResetsItsStreamGivesItsSlotBack(String jdk) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    leakyBucket: { rate: 1, capacity: 30, mode: SHAPING }");
    Result r = run(jdk, "tomcat", config, 10, List.of("-Dweb.h2=true"), "reset").assertExit(0);
    assertEquals("200 HTTP_2", r.value("health"), r.toString());
    assertEquals(2, r.longValue("api.waitingBefore"), r.toString());
    assertEquals(0, r.longValue("api.waitingAfter"), "both gave their slots back\n" + r);
    assertEquals(2, r.longValue("api.rejected"), r.toString());
    assertEquals("200", r.value("next"), r.toString());
    assertEquals(2, r.longValue("arrivals"), "the reset requests never reached the servlet\n" + r);
    // the next request takes the first slot given back, a second after the first request's, not
    // the third second a queue of kept slots would have given it
    long after = r.longValue("next.afterFirst");
    assertTrue(after >= 900 && after < 2_500, r.toString());
  }

  static Stream<String> jdks() {
    return ForkedJvm.jdks();
  }
}
