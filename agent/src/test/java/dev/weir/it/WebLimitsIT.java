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
 * {@code http} entries on real servlet containers, each in a forked JVM with the agent and that
 * container's jars alone: Tomcat 9 ({@code javax.servlet}), Tomcat 11 and Jetty 12 ({@code
 * jakarta.servlet}; Undertow too for {@code WebEntranceIT}), on every JDK of {@code
 * -Dweir.it.jdks}. The web app ({@code fixtures.web.Javax} and {@code fixtures.web.Jakarta}) never
 * mentions Weir; {@code fixtures.web.WebScenarios} is its clients.
 */
class WebLimitsIT {
  private static final String[] CONTAINERS = {"tomcat9", "tomcat11", "jetty12"};

  static Stream<Arguments> containers() {
    return onEveryJdk(CONTAINERS);
  }

  /** Each of {@code values} on each JDK of {@code -Dweir.it.jdks}: arguments (jdk, value). */
  static Stream<Arguments> onEveryJdk(String... values) {
    List<Arguments> all = new ArrayList<>();
    ForkedJvm.jdks()
        .forEach(
            jdk -> {
              for (String value : values) {
                all.add(Arguments.of(jdk, value));
              }
            });
    return all.stream();
  }

  /** The container's jars, from the tests' own class path (Tomcat 9's from its own directory). */
  static String classPath(String container) {
    if (container.equals("tomcat9")) {
      File[] jars = new File(System.getProperty("weir.tomcat9")).listFiles();
      return Arrays.stream(jars).map(File::getPath).collect(Collectors.joining(File.pathSeparator));
    }
    String tests =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> wanted =
        container.equals("tomcat11")
            ? List.of("/org/apache/tomcat/")
            : container.equals("undertow")
                ? List.of(
                    "/io/undertow/",
                    "/org/jboss/",
                    "/org/wildfly/",
                    "/io/smallrye/",
                    "/jakarta/servlet/")
                : List.of("/org/eclipse/jetty/", "/jakarta/servlet/", "/org/slf4j/");
    return Arrays.stream(tests.split(File.pathSeparator))
        .filter(entry -> wanted.stream().anyMatch(w -> entry.replace('\\', '/').contains(w)))
        .collect(Collectors.joining(File.pathSeparator));
  }

  static Result run(String jdk, String container, Path config, String scenario) {
    return run(jdk, container, config, scenario, List.of());
  }

  static Result run(
      String jdk, String container, Path config, String scenario, List<String> options) {
    String main =
        container.equals("tomcat9")
            ? "dev.weir.it.fixtures.web.Javax"
            : "dev.weir.it.fixtures.web.Jakarta";
    List<String> jvm = new ArrayList<>(options);
    jvm.add("-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + config);
    return ForkedJvm.runWithClassPath(
        jdk,
        jvm,
        classPath(container),
        main,
        container.startsWith("tomcat")
            ? "tomcat"
            : container.equals("undertow") ? "undertow" : "jetty",
        scenario);
  }

  /** The server log: a rejection logs nothing, and nothing fails. */
  static void assertQuiet(Result r) {
    assertFalse(r.err.contains("Exception"), r.toString());
    assertFalse(r.err.contains("SEVERE"), r.toString());
    assertTrue(r.err.split("\\R").length < 40, "a log line per request?\n" + r);
  }

  @ParameterizedTest
  @MethodSource("containers")
  void limitsRequestsByPathAndKeyFromConfigAlone(String jdk, String container) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "http:",
            "  trustedProxies: [127.0.0.1]",
            "limits:",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 3 }",
            "  - name: api-total",
            "    http: { paths: \"/api/**\" }",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 8 }",
            "  - name: who",
            "    http: { paths: /who }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }",
            "  - name: quick",
            "    http: { paths: /quick }",
            "    tokenBucket: { rate: 2, capacity: 1 }",
            "  - name: by-header",
            "    http: { paths: \"/h/**\" }",
            "    key: \"header:X-Api-Key\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
            "  - name: by-cookie",
            "    http: { paths: \"/c/**\" }",
            "    key: \"cookie:session\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
            "  - name: by-user",
            "    http: { paths: \"/secure/**\" }",
            "    key: user",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
            "  - name: by-tenant",
            "    http: { paths: \"/p/**\", methods: [POST] }",
            "    key: \"param:tenant\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
            "  - name: forwarded",
            "    http: { paths: \"/fwd/**\" }",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
            "  - name: async",
            "    http: { paths: \"/async/**\" }",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
            "  - name: lambda",
            "    http: { paths: \"/lam/**\" }",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }",
            "  - name: target", // where forwards and async dispatches go: counted by none
            "    http: { paths: \"/target/**\" }",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }");
    Result r = run(jdk, container, config, "suite").assertExit(0);
    // per client, exact, with the answer SPEC gives, the connection kept alive
    assertEquals("200,200,200,429,429", r.value("api.A"), r.toString());
    assertEquals("429", r.value("limited.status"));
    long retryAfter = r.longValue("limited.retryAfter");
    assertTrue(retryAfter >= 55 && retryAfter <= 60, r.toString());
    assertTrue(r.value("limited.contentType").toLowerCase().startsWith("text/plain"), r.toString());
    assertEquals(
        "rate limited by 'api': retry after " + retryAfter + " s\\n", r.value("limited.body"));
    assertEquals("1", r.value("limited.connects"), "the connection is kept alive\n" + r);
    assertEquals("200,200,200,200,200", r.value("other"), "other paths are untouched");
    // behind a trusted proxy each client has its own bucket; the global entry applies too, and a
    // request it limits is charged to no other entry
    assertEquals("200,200,200,429,429", r.value("api.B"), r.toString());
    assertEquals("200,200,429,429,429", r.value("api.C"), r.toString());
    assertEquals("8", r.value("api.granted"), r.toString());
    assertEquals("4", r.value("api.rejected"), r.toString());
    assertEquals("8", r.value("api-total.granted"), r.toString());
    assertEquals("3", r.value("api-total.rejected"), r.toString());
    // X-Forwarded-For: from a trusted proxy its last untrusted hop, from anyone else ignored
    String who = r.value("who");
    assertEquals(r.out.contains("who.skipped=") ? "200,429,200" : "200,429,200,429,200", who, who);
    // waiting Retry-After admits
    assertEquals("1", r.value("quick.retryAfter"));
    assertEquals("200,429,200", r.value("quick"), r.toString());
    // keys; a missing or empty key is not counted
    assertEquals("200,200,429,200,200,200,200,200", r.value("header"), r.toString());
    assertEquals("200,200,429,200,200", r.value("cookie"), r.toString());
    assertEquals("200,200,429,200,200,200", r.value("user"), "the user a filter set\n" + r);
    assertEquals("200,200,429,200,200,200", r.value("param"), r.toString());
    assertTrue(
        r.value("param.served").endsWith("body=tenant=t2&data=hello\\n"),
        "the body is untouched\n" + r);
    // counted once per request, however often dispatched
    assertEquals("200,200,429", r.value("forward"), r.toString());
    assertEquals("200,200,429", r.value("async"), r.toString());
    assertEquals("200,429", r.value("lambda"), "a lambda servlet's hidden class too\n" + r);
    // a limited request never reached the servlet
    long ok =
        Stream.of(
                "api.A", "other", "api.B", "api.C", "who", "quick", "header", "cookie", "user",
                "param", "forward", "async", "lambda")
            .flatMap(key -> Arrays.stream(r.value(key).split(",")))
            .filter("200"::equals)
            .count();
    assertEquals(ok, r.longValue("served"), r.toString());
    // no path trick gets around a limit: each is limited, or refused by the container
    for (String line : r.out.split("\\R")) {
      if (line.startsWith("trick ")) {
        String status = line.substring(line.lastIndexOf('=') + 1);
        assertTrue(status.equals("429") || status.equals("400"), line + "\n" + r);
      }
    }
    assertEquals("429", r.value("trick /api/../api/x"), r.toString());
    assertEquals("429", r.value("trick /%61pi/x"), r.toString());
    assertQuiet(r);
  }

  @ParameterizedTest
  @MethodSource("containers")
  void waitDelaysRequestsInsteadOfRefusingThem(String jdk, String container) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: slow",
            "    http: { paths: \"/slow/**\" }",
            "    tokenBucket: { rate: 5, capacity: 1 }",
            "    onLimit: WAIT");
    Result r = run(jdk, container, config, "wait").assertExit(0);
    assertEquals("200,200,200,200,200,200", r.value("slow"), r.toString());
    // five waits of 200 ms each, on a clock that may run a little fast against ours
    assertTrue(r.longValue("slow.millis") >= 950, r.toString());
    assertEquals("1", r.value("slow.connects"));
    assertQuiet(r);
  }

  @ParameterizedTest
  @MethodSource("containers")
  void entriesComeChangeAndGoByReloadWithoutARestart(String jdk, String container)
      throws IOException {
    Path config = ForkedJvm.configFile("limits: []");
    Result r =
        run(jdk, container, config, "reload", List.of("-Dweb.config=" + config)).assertExit(0);
    assertEquals("200,200,200", r.value("before"), r.toString());
    assertEquals(
        "'api' added: token bucket 1.0/MINUTES capacity 2 permits 1 REJECT; 'lambda' added: token"
            + " bucket 1.0/MINUTES capacity 1 permits 1 REJECT",
        r.value("reload.added"));
    assertEquals("200,200,429", r.value("added"), "the loaded servlets are limited now\n" + r);
    assertEquals("200,200", r.value("lambda.before"), r.toString());
    assertEquals("200,429", r.value("lambda.added"), "containers loaded before: rewoven\n" + r);
    assertEquals(
        "http settings changed: status 418, trustedProxies [], answerLimitedMethods true",
        r.value("reload.status"));
    assertEquals("418", r.value("status"), r.toString());
    assertTrue(r.value("reload.changed").startsWith("'api' changed:"), r.toString());
    assertEquals("200,200,200", r.value("changed"), "a dry run now, the same limiter\n" + r);
    assertEquals(
        "'api' removed; 'lambda' removed; http settings changed: status 429, trustedProxies [],"
            + " answerLimitedMethods true",
        r.value("reload.removed"));
    assertEquals("200,200,200", r.value("removed"), r.toString());
    assertQuiet(r);
  }

  @ParameterizedTest
  @MethodSource("containers")
  void aDryRunAnswersEveryRequestAndCountsWhatItWouldLimit(String jdk, String container)
      throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }",
            "    dryRun: true");
    Result r = run(jdk, container, config, "dryrun").assertExit(0);
    assertEquals("200,200,200,200,200", r.value("api"), r.toString());
    assertEquals("5", r.value("api.granted"));
    assertEquals("4", r.value("api.rejected"));
    assertQuiet(r);
  }

  @ParameterizedTest
  @MethodSource("containers")
  void thirtyTwoKeepAliveClientsForTenSecondsGetExactlyTheirLimit(String jdk, String container)
      throws IOException {
    Path config =
        ForkedJvm.configFile(
            "http:",
            "  trustedProxies: [127.0.0.0/8]",
            "limits:",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 50 }");
    Result r = run(jdk, container, config, "stress").assertExit(0);
    assertEquals("50", r.value("stress.admitted"), "every client exactly 50\n" + r);
    assertEquals("0", r.value("stress.5xx"), r.toString());
    assertEquals("0", r.value("stress.other"), r.toString());
    assertEquals("32", r.value("stress.connects"), "keep-alive throughout\n" + r);
    assertTrue(r.longValue("stress.requests") > 32 * 50, r.toString());
    assertQuiet(r);
  }

  @ParameterizedTest
  @MethodSource("containers")
  void keysAClientChoosesCostABoundedSizeWhateverTheirLength(String jdk, String container)
      throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: by-header",
            "    http: { paths: \"/h/**\" }",
            "    key: \"header:X-Api-Key\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }");
    // 8,000 keys of 7,000 bytes held whole take 56 MB: more than the app's heap
    Result r = run(jdk, container, config, "keyflood", List.of("-Xmx48m")).assertExit(0);
    assertEquals("8000", r.value("flood.admitted"), "each new key has its full bucket\n" + r);
    assertEquals("0", r.value("flood.other"), r.toString());
    assertTrue(r.longValue("flood.usedHeapMb") < 32, r.toString());
    assertQuiet(r);
  }
}
