package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Where the gate sits and what it reads (SPEC "Legacy web apps"), on Tomcat 9 ({@code
 * javax.servlet}), Tomcat 11, Jetty 12 and Undertow ({@code jakarta.servlet}), each in a forked JVM
 * with the agent ({@code fixtures.web.WebScenarios} {@code dots}, {@code entrance} and {@code
 * proxied}): no dot segment reaches a limited file unlimited, a request a filter answers is limited
 * before the filter runs, a filter that sets the remote address from a header cannot choose the
 * {@code client} key, and a {@code user} entry that limits a request gives the entrance's permits
 * back.
 */
class WebEntranceIT {
  private static final String[] CONTAINERS = {"tomcat9", "tomcat11", "jetty12", "undertow"};

  static Stream<Arguments> containers() {
    return WebLimitsIT.onEveryJdk(CONTAINERS);
  }

  static Stream<Arguments> tomcats() {
    return WebLimitsIT.onEveryJdk("tomcat9", "tomcat11");
  }

  @ParameterizedTest
  @MethodSource("containers")
  void noDotSegmentReachesALimitedFileUnlimited(String jdk, String container) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: files",
            "    http: { paths: \"/files/**\" }",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 1 }");
    Result r = WebLimitsIT.run(jdk, container, config, "dots").assertExit(0);
    System.out.println(
        "[WebEntranceIT] "
            + container
            + " on "
            + jdk
            + ": dot segments not limited "
            + r.value("dots.notLimited")
            + ":"
            + r.out
                .lines()
                .filter(l -> l.startsWith("dot "))
                .map(l -> "\n  " + l)
                .reduce("", String::concat));
    assertEquals("200 served", r.value("dots.first"), "the container serves the file\n" + r);
    for (String line : r.out.split("\\R")) {
      if (line.startsWith("dot ")) {
        String answer = line.substring(line.lastIndexOf('=') + 1);
        // limited; or refused by the container, or resolved by it to no file: never the file
        assertTrue(answer.matches("(429|400|404) -"), line + "\n" + r);
      }
    }
    for (String trick : new String[] {"/x/../files/big.bin", "/./files/big.bin"}) {
      String answer = r.value("dot " + trick);
      assertTrue(answer.equals("429 -") || answer.equals("400 -"), trick + "\n" + r);
    }
    assertTrue(r.value("dot /%2e/files/big.bin").matches("(429|400) -"), r.toString());
    assertEquals("1", r.value("files.granted"), r.toString());
    WebLimitsIT.assertQuiet(r);
  }

  @ParameterizedTest
  @MethodSource("containers")
  void filtersNeitherAnswerALimitedRequestNorChooseItsKey(String jdk, String container)
      throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: login",
            "    http: { paths: /login, methods: [POST] }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
            "  - name: xff",
            "    http: { paths: \"/xff/**\" }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
            "  - name: xffp",
            "    http: { paths: \"/xffp/**\" }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
            "  - name: secure-client",
            "    http: { paths: \"/secure/**\" }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 10 }",
            "  - name: secure-user",
            "    http: { paths: \"/secure/**\" }",
            "    key: user",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }");
    Result r =
        WebLimitsIT.run(jdk, container, config, "entrance", List.of("-Dweb.container=" + container))
            .assertExit(0);
    System.out.println(
        "[WebEntranceIT] "
            + container
            + " on "
            + jdk
            + ": login "
            + r.value("login")
            + ", rotated X-Forwarded-For "
            + r.value("rotated /xff/x")
            + ", user "
            + r.value("user"));
    // a login form a filter answers: limited before the filter runs
    assertEquals("401x3,429x17", r.value("login"), r.toString());
    assertEquals("3", r.value("login.checked"), "the filter ran for admitted ones only\n" + r);
    assertEquals("3", r.value("login.granted"), r.toString());
    assertEquals("17", r.value("login.rejected"), r.toString());
    // a filter that sets the remote address from X-Forwarded-For chooses no key
    assertEquals("200x3,429x17", r.value("rotated /xff/x"), "a request wrapper\n" + r);
    if (container.startsWith("tomcat")) { // the others refuse such a request (500)
      assertEquals("200x3,429x17", r.value("rotated /xffp/x"), "a proxy of the interface\n" + r);
    }
    // user entries on the principal a filter set; limited there, the entrance's permit goes back
    assertEquals("200,200,429,200", r.value("user"), r.toString());
    assertEquals("3", r.value("secure-client.granted"), "alice's third given back\n" + r);
    assertEquals("0", r.value("secure-client.rejected"), r.toString());
    assertEquals("3", r.value("secure-user.granted"), r.toString());
    assertEquals("1", r.value("secure-user.rejected"), r.toString());
    WebLimitsIT.assertQuiet(r);
  }

  @ParameterizedTest
  @MethodSource("tomcats")
  void aContainersOwnProxySettingIsHonoured(String jdk, String container) throws IOException {
    Path config =
        ForkedJvm.configFile(
            "limits:",
            "  - name: api",
            "    http: { paths: \"/api/**\" }",
            "    key: client",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }");
    Result r = WebLimitsIT.run(jdk, container, config, "proxied").assertExit(0);
    assertEquals("200,200,429,200,200,429,200", r.value("proxied"), "RemoteIpValve's\n" + r);
    WebLimitsIT.assertQuiet(r);
  }
}
