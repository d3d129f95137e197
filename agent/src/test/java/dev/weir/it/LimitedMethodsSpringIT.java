package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Spring Boot 3 app ({@code fixtures.spring.Shop}, on Undertow, Spring Boot's default logging)
 * whose controller method and a service it calls are limited from the config file: a limited
 * request is a 429 with {@code Retry-After}, and nothing in the app's log, where without Weir's
 * answer it is a 500 ({@code {"status":500,...}}) and an ERROR with the exception. One forked JVM
 * per JDK.
 */
class LimitedMethodsSpringIT {
  /**
   * Spring Boot's jars and Undertow's, from the tests' class path (they bring no servlet container
   * of the other tests: Spring Boot's Tomcat is excluded, so Spring Boot starts Undertow).
   */
  static String classPath() {
    return classPath(false);
  }

  /**
   * {@link #classPath()}, with Spring Security's jars or without them (with them on the class path,
   * Spring Boot guards every path).
   */
  static String classPath(boolean security) {
    String tests =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> wanted =
        List.of(
            "/org/springframework/",
            "/ch/qos/logback/",
            "/org/apache/logging/log4j/",
            "/org/slf4j/slf4j-api/",
            "/org/slf4j/jul-to-slf4j/",
            "/jakarta/annotation/",
            "/jakarta/servlet/",
            "/org/yaml/",
            "/com/fasterxml/",
            "/io/micrometer/",
            "/io/undertow/",
            "/org/jboss/",
            "/org/wildfly/",
            "/io/smallrye/");
    return Arrays.stream(tests.split(File.pathSeparator))
        .filter(entry -> wanted.stream().anyMatch(w -> entry.replace('\\', '/').contains(w)))
        .filter(
            entry ->
                security
                    || !entry.replace('\\', '/').contains("/org/springframework/security/")
                        && !entry.contains("spring-boot-starter-security"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** What the app wrote to stdout between the markers {@code --- FROM} and {@code --- TO}. */
  static String between(Result r, String from, String to) {
    String start = "--- " + from + System.lineSeparator();
    int begin = r.out.indexOf(start);
    int end = r.out.indexOf("--- " + to + System.lineSeparator());
    assertTrue(begin >= 0 && end > begin, "markers " + from + ", " + to + "\n" + r);
    return r.out.substring(begin + start.length(), end);
  }

  /** The app's log lines among {@code text}: all but the scenario's own {@code key=value}. */
  static List<String> logged(String text) {
    return Arrays.stream(text.split("\\R"))
        .filter(line -> !line.isEmpty() && !line.matches("[a-zA-Z.]+=.*"))
        .collect(Collectors.toList());
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aLimitedControllerOrServiceIsA429AndNothingInTheLog(String jdk) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "http:",
            "  answerLimitedMethods: true",
            "limits:",
            "  - name: orders",
            "    methods: \"dev.weir.it.fixtures.spring.Orders#list\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
            "  - name: stock",
            "    methods: \"dev.weir.it.fixtures.spring.Stock#count\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }",
            "  - name: switched",
            "    methods: \"dev.weir.it.fixtures.spring.Orders#switched\"",
            "    tokenBucket: { rate: 1, per: MINUTES, capacity: 1 }");
    Result r =
        ForkedJvm.runWithClassPath(
                jdk,
                List.of(
                    "-Dweb.config=" + config,
                    "-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + config),
                classPath(),
                "dev.weir.it.fixtures.spring.Shop",
                "spring")
            .assertExit(0);
    assertTrue(r.out.contains("Undertow started on port"), "Spring Boot on Undertow\n" + r);
    // the controller's own method, and a service it calls
    assertEquals("200,200,429,429", r.value("orders"), r.toString());
    long retryAfter = r.longValue("orders.retryAfter");
    assertTrue(retryAfter >= 55 && retryAfter <= 60, r.toString());
    assertTrue(r.value("orders.contentType").toLowerCase().startsWith("text/plain"), r.toString());
    assertEquals(
        "rate limited by 'orders': retry after " + retryAfter + " s\\n", r.value("orders.body"));
    assertEquals("200,429,429", r.value("stock"), r.toString());
    assertTrue(
        r.value("stock.body").startsWith("rate limited by 'stock': retry after"), r.toString());
    assertEquals("200,429", r.value("switched.on"), r.toString());
    assertEquals("1", r.value("limited.connects"), "the connection is kept alive\n" + r);
    assertEquals(List.of(), logged(between(r, "limited", "off")), "nothing logged\n" + r);
    // off: what the app answered before, a 500 and an ERROR in its log; on again by a reload
    assertEquals(
        "http settings changed: status 429, trustedProxies [], answerLimitedMethods false",
        r.value("reload.off"));
    assertEquals("500", r.value("switched.off"), r.toString());
    assertTrue(r.value("switched.offBody").contains("\"status\":500"), r.toString());
    String off = between(r, "off", "on");
    assertTrue(logged(off).stream().anyMatch(line -> line.contains(" ERROR ")), "an ERROR\n" + r);
    assertTrue(off.contains("dev.weir.RateLimitedException"), r.toString());
    assertEquals(
        "http settings changed: status 429, trustedProxies [], answerLimitedMethods true",
        r.value("reload.on"));
    assertEquals("429,429", r.value("switched.onAgain"), r.toString());
    assertEquals(List.of(), logged(between(r, "on", "end")), "nothing logged\n" + r);
  }
}
