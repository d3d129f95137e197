package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Spring Boot 3 app behind Spring Security on Undertow ({@code fixtures.guarded.Guarded}), its
 * limits from the config file alone: wrong passwords to the form login, which Spring Security's
 * filter answers, are limited per client; {@code server.forward-headers-strategy=framework}
 * (Spring's {@code ForwardedHeaderFilter}) cannot choose the {@code client} key, {@code native}
 * (the container's own setting) does; a {@code user} entry reads the principal Spring Security set,
 * and gives the entrance's permits back when it limits. One forked JVM per JDK and strategy.
 */
class SpringSecurityIT {
  static Stream<Arguments> strategies() {
    return WebLimitsIT.onEveryJdk("framework", "native");
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void loginsAreLimitedPerClientWhateverTheFiltersDo(String jdk, String strategy)
      throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: login",
            "    http: { paths: /login, methods: [POST] }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
            "  - name: whoami",
            "    http: { paths: /whoami }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
            "  - name: account-client",
            "    http: { paths: /account }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 10 }",
            "  - name: account-user",
            "    http: { paths: /account }",
            "    key: user",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }");
    Result r = run(jdk, config, "guarded", strategy);
    System.out.println(
        "[SpringSecurityIT] "
            + strategy
            + " on "
            + jdk
            + ": login "
            + r.value("login")
            + ", rotated X-Forwarded-For "
            + r.value("rotated")
            + " (the app saw "
            + r.value("rotated.seen")
            + "), user "
            + r.value("user"));
    assertTrue(r.out.contains("Undertow started on port"), "Spring Boot on Undertow\n" + r);
    // wrong passwords: Spring Security's filter answers (a redirect to /login?error)
    assertTrue(r.value("login.first").matches("302 .*/login\\?error"), r.toString());
    assertEquals("302x3,429x17", r.value("login"), r.toString());
    assertEquals("3", r.value("login.granted"), r.toString());
    assertEquals("17", r.value("login.rejected"), r.toString());
    // the app sees the address the header names; the key is the container's address...
    assertEquals("198.51.100.1", r.value("rotated.seen"), r.toString());
    if (strategy.equals("framework")) {
      assertEquals("200x3,429x17", r.value("rotated"), "a filter chose no key\n" + r);
    } else { // ...unless the container itself takes it from the header: the operator's setting
      assertEquals("200x20", r.value("rotated"), "the container's own setting\n" + r);
    }
    // the principal Spring Security set; the entrance's permit goes back when it limits
    assertEquals("200,200,429,200", r.value("user"), r.toString());
    assertEquals("3", r.value("account-client.granted"), r.toString());
    assertEquals("3", r.value("account-user.granted"), r.toString());
    assertEquals("1", r.value("account-user.rejected"), r.toString());
  }

  /**
   * * * Shaped requests behind Spring Security: those that reach the controller wait on their
   * thread inside Spring Security's filters (they passed filters, so they are never dispatched
   * again), and keep their user, each served at its slot; wrong passwords, which Spring Security's
   * filter answers itself, are charged where they enter, and those beyond the queue limited before
   * it (Undertow sends Spring Security's redirect at once, so an early answer cannot be held).
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void shapedRequestsWaitBehindSpringSecurityAndKeepTheirUser(String jdk) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: account-shaped",
            "    http: { paths: /account }",
            "    leakyBucket: { rate: 2, capacity: 10, mode: SHAPING }",
            "  - name: login-shaped",
            "    http: { paths: /login, methods: [POST] }",
            "    leakyBucket: { rate: 1, per: MINUTES, capacity: 3, mode: SHAPING }");
    Result r = run(jdk, config, "guardedWaits", "framework");
    String[] accounts = r.value("accounts").split(",");
    assertEquals(4, accounts.length, r.toString());
    for (int k = 0; k < accounts.length; k++) {
      assertTrue(accounts[k].startsWith("200 alice @"), "the user, known after the wait\n" + r);
      assertTrue(at(accounts[k]) >= k * 500L - 50, "answer " + k + " before its slot\n" + r);
    }
    assertTrue(at(accounts[3]) < 1_500 + 4_000, "at their slots, even on a loaded machine\n" + r);
    assertEquals("4", r.value("account-shaped.granted"), r.toString());
    assertEquals("0", r.value("account-shaped.rejected"), r.toString());
    String[] logins = r.value("logins").split(",");
    assertEquals(6, logins.length, r.toString());
    for (int k = 0; k < logins.length; k++) {
      assertTrue(logins[k].startsWith(k < 3 ? "302 @" : "429 @"), "three in the queue\n" + r);
    }
    assertEquals("3", r.value("login-shaped.granted"), r.toString());
    assertEquals("3", r.value("login-shaped.rejected"), r.toString());
    assertFalse(r.err.contains("[weir] WARN"), "nothing refused where it resumed\n" + r);
  }

  /** The app with the agent and {@code config}, its client running {@code scenario}. */
  private static Result run(String jdk, Path config, String scenario, String strategy) {
    return ForkedJvm.runWithClassPath(
            jdk,
            List.of("-javaagent:" + ForkedJvm.AGENT_JAR + "=config=" + config),
            LimitedMethodsSpringIT.classPath(true),
            "dev.weir.it.fixtures.guarded.Guarded",
            scenario,
            strategy)
        .assertExit(0);
  }

  private static long at(String answer) {
    return Long.parseLong(answer.substring(answer.indexOf('@') + 1));
  }

  static Stream<String> jdks() {
    return ForkedJvm.jdks();
  }
}
