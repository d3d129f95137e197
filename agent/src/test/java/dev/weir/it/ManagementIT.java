package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each limiter's MBean and the agent's, read and written through the platform MBean server of the
 * JVM that runs them, and the command line against a running JVM, every command and error exit.
 */
class ManagementIT {
  private static final String OPERATED = "dev.weir.it.fixtures.Operated";

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void everyAttributeReadsAndWritesThroughThePlatformMBeanServer(String jdk) {
    Result r = ForkedJvm.withAgent(jdk, null, OPERATED, "mbeans").assertExit(0);
    assertTrue(r.longValue("visibleWithinMillis") < 1_000, r.toString());
    assertEquals("10.0", r.value("orders.Rate"));
    assertEquals("10", r.value("orders.Capacity"));
    assertEquals("false", r.value("orders.DryRun"));
    assertEquals("token bucket", r.value("orders.Kind"));
    assertEquals("local", r.value("orders.Scope"));
    assertEquals("0", r.value("orders.Waiting"));
    // 13 calls of 1 permit: the 10 of a full bucket and what refilled meanwhile (at 10/s)
    long granted = r.longValue("orders.Granted");
    assertTrue(granted >= 10 && granted <= 12, "calls, not permits: " + granted);
    assertEquals(13 - granted, r.longValue("orders.Rejected"));
    assertEquals("0", r.value("orders.Waited"));
    assertEquals("0", r.value("orders.TotalWaitNanos"));
    assertEquals("0.0", r.value("orders.WaitP99Millis"), "no call waited");
    assertEquals("0", r.value("orders.Keys"));
    assertEquals("0", r.value("orders.BackendFailures"));
    assertTrue(r.longValue("orders.AvailablePermits") <= 10);

    // 6 calls one after another at 20/s: the first leaves at once, each later one waits 50 ms
    assertEquals("6/0", r.value("writes.calls"));
    assertEquals("leaky bucket SHAPING", r.value("writes.Kind"));
    assertEquals("6", r.value("writes.Granted"));
    assertEquals("0", r.value("writes.Rejected"));
    assertEquals("5", r.value("writes.Waited"));
    long waitedNanos = r.longValue("writes.TotalWaitNanos");
    assertTrue(waitedNanos >= 200_000_000L && waitedNanos < 1_000_000_000L, "" + waitedNanos);
    double max = Double.parseDouble(r.value("writes.WaitMaxMillis"));
    assertTrue(max >= 40 && max < 500, "the longest wait, about 50 ms: " + max);
    double p50 = Double.parseDouble(r.value("writes.WaitP50Millis"));
    assertTrue(p50 >= 40 && p50 <= max, "the median wait, about 50 ms: " + p50);
    assertEquals("2", r.value("per-client.Keys"));
    assertEquals("leaky bucket POLICING", r.value("meter.Kind"));

    assertEquals("5.0", r.value("afterChange.Rate"));
    assertEquals("5", r.value("afterChange.Capacity"));
    assertEquals("4/0", r.value("dryRun.calls"), "a dry run admits every call");
    assertEquals(
        "java.lang.IllegalArgumentException: 'orders': Rate must be > 0 and finite, was -1.0",
        r.value("refused.Rate(-1.0)"));
    assertEquals(
        "java.lang.IllegalArgumentException: 'orders': Rate must be > 0 and finite, was NaN",
        r.value("refused.Rate(NaN)"));
    assertEquals(
        "java.lang.IllegalArgumentException: 'orders': Rate must be > 0 and finite, was 0.0",
        r.value("refused.Rate(0.0)"));
    assertEquals(
        "java.lang.IllegalArgumentException: 'orders': Capacity must be >= 1, was 0",
        r.value("refused.Capacity(0)"));
    assertEquals("5.0", r.value("afterRefusals.Rate"), "a refused write changes nothing");
    assertEquals("5", r.value("afterRefusals.Capacity"));

    assertTrue(r.value("agent.Version").matches("\\d+\\.\\d+\\.\\d+.*"));
    assertEquals("", r.value("agent.ConfigFile"));
    assertEquals("meter,orders,per-client,queue,writes", r.value("agent.Limiters"));
    assertEquals("0", r.value("agent.ReloadsSucceeded"));
    assertTrue(r.value("reloadWithoutFile").startsWith("no config file to reload"));
    assertEquals("1", r.all("agent.ReloadsFailed").get(1), "the failed reload is counted");
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void statusSetAndTheirErrorsFromTheCommandLine(String jdk) throws Exception {
    try (LiveJvm app = LiveJvm.withAgent(jdk, null)) {
      int[] calls = app.call("orders", 12); // at once: 10, or 11 if a refill came between
      assertTrue(calls[0] == 10 || calls[0] == 11, java.util.Arrays.toString(calls));
      app.call("writes", 1);
      Result status = app.weir("status", app.pid).assertExit(0);
      List<String> lines = List.of(status.out.split("\\R"));
      assertTrue(lines.get(0).startsWith("LIMITER"), status.toString());
      String orders = lines.stream().filter(l -> l.startsWith("orders ")).findFirst().orElseThrow();
      assertTrue(
          orders.matches(
              "orders +token +10 +10 +\\d+ +" + calls[0] + " +" + calls[1] + " +0 +0(\\.0)?"),
          orders);
      assertTrue(lines.stream().anyMatch(l -> l.matches("writes +shaping +20 +5 .*")), status.out);
      for (String line : lines) {
        assertTrue(line.length() <= 80, "fits 80 columns: " + line);
      }

      // per-client: 1 per hour, capacity 2, so nothing refills while the test runs
      assertArrayEquals(new int[] {2, 1, 0}, app.call("per-client", 3, "a"));
      Result set = app.weir("set", app.pid, "per-client", "capacity=5").assertExit(0);
      assertEquals("'per-client': rate 0.00028/s, capacity 5, dry run false", set.out.trim());
      assertArrayEquals(new int[] {0, 1, 0}, app.call("per-client", 1, "a"), "raising adds none");
      assertArrayEquals(new int[] {5, 1, 0}, app.call("per-client", 6, "b"), "a new key: 5");
      Result partial =
          app.weir("set", app.pid, "per-client", "capacity=50", "rate=0").assertExit(1);
      assertEquals("weir: 'per-client': Rate must be > 0 and finite, was 0.0", partial.err.trim());
      assertTrue(
          app.weir("status", app.pid)
              .out
              .lines()
              .anyMatch(l -> l.matches("per-client +token +3e-04 +5 .*")),
          "a refused set changes nothing, its capacity included");
      app.weir("set", app.pid, "per-client", "rate=3600", "dryRun=true").assertExit(0);
      assertArrayEquals(new int[] {4, 0, 0}, app.call("per-client", 4, "a"), "a dry run");

      Result refused = app.weir("set", app.pid, "orders", "capacity=0").assertExit(1);
      assertEquals("weir: 'orders': Capacity must be >= 1, was 0", refused.err.trim());
      app.weir("set", app.pid, "nosuch", "rate=1").assertExit(1);
      assertTrue(
          app.weir("set", app.pid, "nosuch", "rate=1")
              .err
              .contains("has no limiter named 'nosuch'"));
      Result usage = app.weir("set", app.pid, "orders", "rate=fast").assertExit(2);
      assertTrue(usage.err.contains("rate must be a number of permits per second, was 'fast'"));
      assertTrue(usage.err.contains("usage: java -jar weir-agent.jar COMMAND"));
      Result noJvm = app.weir("status", "999999999").assertExit(1);
      assertTrue(noJvm.err.startsWith("weir: no JVM with pid 999999999"), noJvm.err);

      Result list = app.weir("list").assertExit(0);
      assertTrue(
          list.out
              .lines()
              .anyMatch(l -> l.matches(app.pid + " +dev\\.weir\\.it\\.fixtures\\.Operated +5")),
          list.out);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void topRedrawsWithRatesPerSecond(String jdk) throws Exception {
    try (LiveJvm app = LiveJvm.withAgent(jdk, null)) {
      app.call("orders", 1);
      ProcessBuilder top =
          new ProcessBuilder(jdk + "/bin/java", "-jar", ForkedJvm.AGENT_JAR, "top", app.pid);
      Process p = top.redirectErrorStream(true).start();
      try {
        StringBuilder screen = new StringBuilder();
        long deadline = System.nanoTime() + 20_000_000_000L;
        java.io.InputStream out = p.getInputStream();
        while (countScreens(screen) < 3 && System.nanoTime() < deadline) {
          if (out.available() > 0) {
            screen.append((char) out.read());
          } else {
            app.call("orders", 3); // traffic for the rates
            Thread.sleep(50);
          }
        }
        String text = screen.toString();
        assertTrue(countScreens(text) >= 3, "three screens: " + text);
        String second = text.split("\033\\[H\033\\[2J")[2]; // whole: the third has begun
        assertTrue(second.startsWith("weir top: JVM " + app.pid), second);
        List<String> rows = second.lines().collect(java.util.stream.Collectors.toList());
        assertTrue(rows.get(1).startsWith("LIMITER") && rows.get(1).contains("GRANT/S"), second);
        assertTrue(rows.get(2).startsWith("orders "), "the busiest limiter first: " + second);
        for (String row : rows) {
          assertTrue(row.length() <= 80, "fits 80 columns: " + row);
        }
      } finally {
        p.destroyForcibly();
      }
    }
  }

  private static int countScreens(CharSequence text) {
    return text.toString().split("\033\\[H\033\\[2J", -1).length - 1;
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void attachLoadsTheAgentAndPrintsItsStartLineOrErrors(String jdk) throws Exception {
    try (LiveJvm app = new LiveJvm(jdk, List.of("-XX:+EnableDynamicAgentLoading"))) {
      assertArrayEquals(new int[] {12, 0, 0}, app.call("orders", 12), "no agent yet");
      Result noWeir = app.weir("status", app.pid).assertExit(1);
      assertTrue(noWeir.err.contains("runs no Weir agent"), noWeir.err);

      Result bad = app.weir("attach", app.pid, "log=loud").assertExit(1);
      assertTrue(
          bad.err.contains(
              "[weir] ERROR agent argument log must be info, debug or off, was 'loud'"),
          bad.toString());
      assertTrue(bad.err.contains("the attach does nothing"), bad.toString());

      Result attached = app.weir("attach", app.pid).assertExit(0);
      assertTrue(attached.out.contains("started: no config file"), attached.toString());
      assertTrue(attached.out.contains("loaded classes woven"), attached.toString());
      assertEquals(10, app.call("orders", 12)[0], "woven now");

      Result again = app.weir("attach", app.pid).assertExit(0);
      assertTrue(again.out.contains("already runs in this JVM"), again.toString());
    }
  }
}
