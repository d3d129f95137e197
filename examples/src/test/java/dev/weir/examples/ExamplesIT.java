package dev.weir.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The examples, run as the README and docs/ run them, under the built agent. */
class ExamplesIT {
  private static final String AGENT = System.getProperty("weir.agent.jar");
  private static final String JAR = System.getProperty("weir.examples.jar");
  private static final String DIR = System.getProperty("weir.examples.dir");

  static Stream<String> jdks() {
    String list = System.getProperty("weir.it.jdks", "").trim();
    return list.isEmpty()
        ? Stream.of(System.getProperty("java.home"))
        : Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty());
  }

  private static String run(String jdk, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(jdk + File.separator + "bin" + File.separator + "java");
    command.addAll(Arrays.asList(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "timed out: " + out);
    assertEquals(0, process.exitValue(), out);
    return out;
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void legacyJdbcWritesAreShapedFromTheConfigFileAlone(String jdk) throws Exception {
    String out =
        run(
            jdk,
            "-javaagent:" + AGENT + "=config=" + DIR + "/weir-h2.yaml",
            "-cp",
            JAR,
            "dev.weir.examples.LegacyWrites",
            "2");
    Matcher total = Pattern.compile("([\\d,]+) rows in 2 s").matcher(out);
    assertTrue(total.find(), out);
    long rows = Long.parseLong(total.group(1).replace(",", ""));
    // 500 a second, leaving one every 2 ms from the first: never more than 1,001 in 2 s
    assertTrue(rows <= 1_001, "shaped to 500/s, wrote " + rows + ": " + out);
    assertTrue(rows >= 500, "wrote only " + rows + ": " + out);
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void thePartnersTwoLimitsHoldAndTheDailyQuotaPaysOnlyForWhatWasAdmitted(String jdk)
      throws Exception {
    checkPartner(run(jdk, "-javaagent:" + AGENT, "-cp", JAR, "dev.weir.examples.PartnerQuota"), "");
    String config =
        run(
            jdk,
            "-javaagent:" + AGENT + "=config=" + DIR + "/weir-partner.yaml",
            "-cp",
            JAR,
            "dev.weir.examples.PartnerQuota",
            "config");
    checkPartner(config, "legacy-");
    assertFalse(config.contains("has matched no method"), config);
  }

  private static void checkPartner(String out, String prefix) {
    Matcher row =
        Pattern.compile("\\s+(\\d) \\|\\s+25\\s+(\\d+)\\s+(\\d+)\\s+(\\S*)\\s+\\|\\s+(\\d+)")
            .matcher(out);
    long admitted = 0;
    int rows = 0;
    while (row.find()) {
      rows++;
      long now = Long.parseLong(row.group(2));
      admitted += now;
      assertTrue(now <= 11, "10/s with a burst of 10: " + out);
      assertEquals(prefix + "partner-per-second", row.group(4), out);
      assertEquals(1000 - admitted, Long.parseLong(row.group(5)), "the day paid for each: " + out);
    }
    assertEquals(5, rows, out);
    assertTrue(admitted >= 40, out);
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void ordersAndWritesPrintsTenSecondsOfLimiting(String jdk) throws Exception {
    String out = run(jdk, "-javaagent:" + AGENT, "-jar", JAR);
    Matcher summary =
        Pattern.compile(
                "Orders: (\\d+) of (\\d+) admitted in 10 s .*; writes: (\\d+) of (\\d+) admitted")
            .matcher(out);
    assertTrue(summary.find(), out);
    long orders = Long.parseLong(summary.group(1));
    long rows = Long.parseLong(summary.group(3));
    // a token bucket admits at most its capacity plus rate x elapsed (10 s, and a little more)
    assertTrue(orders <= 100 + 50 * 11, "orders " + orders + ": " + out); // capacity + rate * time
    assertTrue(orders >= 300, "orders " + orders + ": " + out);
    // a constant 20/s: at most one per 50 ms from the first
    assertTrue(rows <= 201, "rows " + rows + ": " + out);
    assertTrue(rows >= 150, "rows " + rows + ": " + out);
    // one row a second, read from the MBeans: the closing line sums them, and the rushes show
    Matcher row =
        Pattern.compile(
                "(?m)^ +(\\d+) \\| +(\\d+) +(\\d+) +(\\d+) +(\\d+) \\| +(\\d+) +(\\d+) +(\\d+)"
                    + " +(\\d+) +\\d+ ms$")
            .matcher(out);
    long[] demand = new long[11];
    long admitted = 0;
    long written = 0;
    int rowsSeen = 0;
    while (row.find()) {
      int second = Integer.parseInt(row.group(1));
      demand[second] = Long.parseLong(row.group(2));
      admitted += Long.parseLong(row.group(3));
      written += Long.parseLong(row.group(7));
      rowsSeen++;
    }
    assertEquals(10, rowsSeen, out);
    assertEquals(orders, admitted, "the closing line sums the rows: " + out);
    assertEquals(rows, written, "the closing line sums the rows: " + out);
    assertTrue(demand[1] >= 200 && demand[8] >= 200, "the rushes show in the demand: " + out);
    assertTrue(demand[5] <= 30, "the quiet spell shows too: " + out);
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void httpServiceAnswers429WithARetryAfterThatIsEnough(String jdk) throws Exception {
    String out = run(jdk, "-javaagent:" + AGENT, "-cp", JAR, "dev.weir.examples.HttpQuotas");
    // per client: bursts of 5, then 1/s; a limited client is told to wait whole seconds, rounded up
    assertTrue(out.contains("alice, 8 requests at once:   5 x 200, 3 x 429"), out);
    assertTrue(out.contains("alice's Retry-After:         1 s"), out);
    assertTrue(out.contains("bob, 3 requests at once:     3 x 200, 0 x 429"), "per client: " + out);
    assertTrue(out.contains("alice after 1 s:             200"), out);
    assertTrue(
        out.contains("prices, 25 requests at once: 25 x 200, 0 x 429, 20 live, 5 cached"), out);
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void theLegacyWebAppIsLimitedPerClientFromTheConfigFileAlone(String jdk) throws Exception {
    Process process =
        new ProcessBuilder(
                jdk + File.separator + "bin" + File.separator + "java",
                "-javaagent:" + AGENT + "=config=" + DIR + "/weir-web.yaml",
                "-cp",
                JAR,
                "dev.weir.examples.LegacyWebApp",
                "0")
            .redirectErrorStream(true)
            .start();
    StringBuilder log = new StringBuilder();
    try {
      java.io.BufferedReader out =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String port = null;
      while (port == null) { // Tomcat's start-up lines, then where it serves
        String line = out.readLine();
        if (line == null) {
          break;
        }
        log.append(line).append('\n');
        Matcher serving =
            Pattern.compile("serving http://127.0.0.1:(\\d+)/api/orders").matcher(line);
        port = serving.find() ? serving.group(1) : null;
      }
      assertTrue(port != null, "it never said where it serves:\n" + log);
      String base = "http://127.0.0.1:" + port;
      java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
      // a burst of 5, then 1 a second: 5 pass at once, and one more for each whole second the
      // requests took (none on a quiet machine; a loaded one may take a second over seven)
      List<Integer> statuses = new ArrayList<>();
      long start = System.nanoTime();
      java.net.http.HttpResponse<String> limited = null;
      while (limited == null && statuses.size() < 50) {
        java.net.http.HttpResponse<String> r = get(client, base + "/api/orders", null);
        statuses.add(r.statusCode());
        limited = r.statusCode() == 429 ? r : null;
      }
      long wholeSeconds = (System.nanoTime() - start) / 1_000_000_000L;
      int admitted = statuses.size() - 1;
      assertTrue(
          statuses.subList(0, admitted).stream().allMatch(st -> st == 200), statuses::toString);
      assertTrue(
          limited != null && admitted >= 5 && admitted <= 5 + wholeSeconds,
          statuses + " in " + wholeSeconds + " whole seconds\n" + log);
      assertEquals("1", limited.headers().firstValue("Retry-After").orElse(null));
      assertEquals("rate limited by 'api-per-client': retry after 1 s\n", limited.body());
      Thread.sleep(1000);
      assertEquals(200, get(client, base + "/api/orders", null).statusCode(), "after Retry-After");
      assertEquals(
          200, get(client, base + "/api/orders", "203.0.113.7").statusCode(), "another client");
      for (int i = 0; i < 7; i++) {
        assertEquals(200, get(client, base + "/health", null).statusCode(), "not limited");
      }
    } finally {
      process.destroy();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * The fleet example, as docs/cluster.md runs it, with its own config file but on a Redis of its
   * own: one this test starts on a free port (so builds running at once never share one, nor stop
   * one another's), the file's backend pointed there (skipped loudly only if there is no {@code
   * redis-server}).
   */
  @ParameterizedTest
  @MethodSource("jdks")
  void twoInstancesHoldOneLimitThroughRedis(String jdk) throws Exception {
    String binary =
        Stream.of("/usr/bin/redis-server", "/usr/local/bin/redis-server")
            .filter(f -> new File(f).canExecute())
            .findFirst()
            .orElse(null);
    if (binary == null) {
      System.err.println("!!! NO redis-server FOUND: the fleet example's test is SKIPPED");
      org.junit.jupiter.api.Assumptions.abort("no redis-server");
    }
    int port;
    try (java.net.ServerSocket free =
        new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Process redis =
        new ProcessBuilder(
                binary, "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save", "")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    for (int i = 0; i < 200 && !answers(port); i++) {
      Thread.sleep(20);
    }
    java.nio.file.Path config = java.nio.file.Files.createTempFile("weir-fleet", ".yaml");
    String shipped = java.nio.file.Files.readString(java.nio.file.Path.of(DIR, "weir-fleet.yaml"));
    assertTrue(shipped.contains("redis://127.0.0.1:6379"), shipped);
    java.nio.file.Files.writeString(
        config, shipped.replace("redis://127.0.0.1:6379", "redis://127.0.0.1:" + port));
    try {
      String out =
          run(
              jdk,
              "-javaagent:" + AGENT + "=config=" + config,
              "-cp",
              JAR,
              "dev.weir.examples.FleetPayments");
      Matcher together =
          Pattern.compile(
                  "Together: (\\d+) calls admitted in 5 s; 'payments' scope: cluster, cluster")
              .matcher(out);
      assertTrue(together.find(), out);
      long total = Long.parseLong(together.group(1));
      // one bucket of 100/s, burst 20, for both: the instances' five seconds overlap within one
      // more, and each made one call before its first second
      assertTrue(total <= 20 + 100 * 6 + 2, "together " + total + ": " + out);
      assertTrue(total >= 400, "together " + total + ": " + out);
      Matcher row =
          Pattern.compile("\\n\\s+3 \\|\\s+(\\d+) \\|\\s+(\\d+) \\|\\s+(\\d+)").matcher(out);
      assertTrue(row.find(), out);
      assertTrue(Long.parseLong(row.group(1)) > 0 && Long.parseLong(row.group(2)) > 0, out);
    } finally {
      redis.destroy();
      redis.waitFor(10, TimeUnit.SECONDS);
      java.nio.file.Files.deleteIfExists(config);
    }
  }

  private static boolean answers(int port) {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
      s.setSoTimeout(1000);
      s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.UTF_8));
      byte[] buffer = new byte[5];
      return s.getInputStream().read(buffer) > 0;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static java.net.http.HttpResponse<String> get(
      java.net.http.HttpClient client, String uri, String forwardedFor) throws Exception {
    java.net.http.HttpRequest.Builder request =
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(uri));
    if (forwardedFor != null) {
      request.header("X-Forwarded-For", forwardedFor);
    }
    return client.send(
        request.build(), java.net.http.HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }
}
