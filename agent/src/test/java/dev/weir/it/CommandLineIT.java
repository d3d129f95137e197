package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The command line against what is not a healthy JVM running Weir: a process that is no JVM (it
 * must never be signalled: HotSpot's attach sends SIGQUIT, which kills it), a stopped JVM, a JVM
 * whose attach listener answers nobody; and against 10,000 limiters, read in one exchange.
 */
class CommandLineIT {
  /**
   * Milliseconds within which a command answers that sends nothing to its target (a JVM's start on
   * a loaded machine included); the JDK's own wait on a process that does not start an attach
   * listener is 10.5 s.
   */
  private static final long AT_ONCE_MILLIS = 8_000;

  private static final String STUCK = "dev.weir.it.fixtures.StuckAgent";

  /** The command line's deadline on one exchange, as it says it. */
  private static final String DEADLINE = "10 s";

  private static final String NOT_LISTED =
      " that this user can attach to: it is not a JVM, or a JVM started with"
          + " -XX:+PerfDisableSharedMem (or -XX:-UsePerfData), which the JDK cannot list;"
          + " nothing was sent to it";

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aProcessThatIsNoJvmSurvivesEveryCommandAndIsToldAtOnce(String jdk) throws Exception {
    Process sleep = new ProcessBuilder("sleep", "600").start();
    String pid = String.valueOf(sleep.pid());
    try {
      for (String[] command :
          new String[][] {
            {"status", pid},
            {"top", pid},
            {"set", pid, "orders", "rate=1"},
            {"reload", pid},
            {"methods", pid},
            {"attach", pid}
          }) {
        Result r = timed(jdk, AT_ONCE_MILLIS, command);
        assertEquals(1, r.exitCode, r::toString);
        assertEquals("weir: no JVM with pid " + pid + NOT_LISTED, r.err.trim(), r::toString);
        assertEquals("", r.out, r::toString);
        assertFalse(sleep.waitFor(100, TimeUnit.MILLISECONDS), command[0] + " killed it");
      }

      // a file a JVM left behind lists the pid as a JVM: the process is still not signalled
      Path perfData = perfDataDir().resolve(String.valueOf(ProcessHandle.current().pid()));
      ForkedJvm.assumeOn(jdk, Files.isReadable(perfData), "this JVM keeps no " + perfData);
      Path stale = perfDataDir().resolve(pid);
      Files.copy(perfData, stale);
      try {
        for (String command : new String[] {"status", "attach"}) {
          Result r = timed(jdk, AT_ONCE_MILLIS, command, pid);
          assertEquals(1, r.exitCode, r::toString);
          assertEquals(
              "weir: no JVM with pid "
                  + pid
                  + ": the JDK lists it from a file a JVM that ended left behind (hsperfdata),"
                  + " and the process with that pid now is not a JVM; nothing was sent to it",
              r.err.trim(),
              r::toString);
          assertFalse(sleep.waitFor(100, TimeUnit.MILLISECONDS), command + " killed it");
        }
      } finally {
        Files.deleteIfExists(stale);
      }
    } finally {
      sleep.destroyForcibly();
    }
    Result gone = LiveJvm.command(jdk, "status", "999999999").assertExit(1);
    assertEquals("weir: no JVM with pid 999999999: no such process", gone.err.trim());
  }

  /** Where HotSpot keeps its performance-data files for this user. */
  private static Path perfDataDir() {
    return Paths.get("/tmp", "hsperfdata_" + System.getProperty("user.name"));
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void listCountsLimitersWithoutStartingAManagementAgentInTheJvm(String jdk) throws Exception {
    try (LiveJvm app = LiveJvm.withAgent(jdk, null)) {
      app.call("orders", 1);
      String count = null;
      for (int i = 0; i < 40 && count == null; i++) {
        for (String line : app.weir("list").assertExit(0).out.split("\n")) {
          if (line.matches(app.pid + " +dev\\.weir\\.it\\.fixtures\\.Operated +[1-9][0-9]*")) {
            count = line.substring(line.lastIndexOf(' ') + 1);
          }
        }
        Thread.sleep(count == null ? 50 : 0); // told by the agent within a quarter of a second
      }
      assertTrue(count != null, "listed with its count of limiters");
      com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(app.pid);
      try {
        assertEquals(
            null,
            vm.getAgentProperties()
                .getProperty("com.sun.management.jmxremote.localConnectorAddress"),
            "list started the JVM's management agent (and with it JMX and logging)");
      } finally {
        vm.detach();
      }
      // status reads the limiters themselves, through the MBeans: as many rows as list counted
      Result status = app.weir("status", app.pid).assertExit(0);
      assertEquals(
          Integer.parseInt(count) + 1, status.out.trim().split("\n").length, status::toString);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aStoppedJvmIsListedAsNotAnsweringAndIsSentNothing(String jdk) throws Exception {
    try (LiveJvm attached = LiveJvm.withAgent(jdk, null);
        LiveJvm fresh = LiveJvm.withAgent(jdk, null)) {
      attached.call("orders", 1);
      fresh.call("orders", 1);
      // its attach listener and its management agent run: an attach reaches them without a signal
      attached.weir("status", attached.pid).assertExit(0);
      signal("STOP", attached.pid, fresh.pid);
      try {
        long start = System.nanoTime();
        Result list = attached.weir("list").assertExit(0);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("[cli] " + jdk + ": list with two stopped JVMs, " + millis + " ms");
        assertTrue(millis < AT_ONCE_MILLIS, "list took " + millis + " ms\n" + list);
        for (String pid : new String[] {attached.pid, fresh.pid}) {
          assertTrue(
              list.out
                  .lines()
                  .anyMatch(
                      l -> l.matches(pid + " +dev\\.weir\\.it\\.fixtures\\.Operated +no answer")),
              list.out);
        }
        for (LiveJvm app : new LiveJvm[] {attached, fresh}) {
          Result status = timed(jdk, AT_ONCE_MILLIS, "status", app.pid);
          assertEquals(1, status.exitCode, status::toString);
          assertEquals(
              "weir: JVM "
                  + app.pid
                  + " does not answer: it is stopped (by SIGSTOP, or held by a debugger); nothing"
                  + " was sent to it",
              status.err.trim());
        }
      } finally {
        signal("CONT", attached.pid, fresh.pid);
      }
      // no signal was left waiting for them: a SIGQUIT would print a thread dump where their next
      // answer belongs
      assertEquals(1, fresh.call("orders", 1)[0]);
      assertEquals(1, attached.call("orders", 1)[0]);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aJvmThatDoesNotAnswerIsOneLineWithinTheDeadline(String jdk) throws Exception {
    Path release = Files.createTempFile("weir-release", ".flag");
    Files.delete(release);
    try (LiveJvm app = LiveJvm.withAgent(jdk, null, "-XX:+EnableDynamicAgentLoading")) {
      app.call("orders", 1);
      Process jcmd =
          new ProcessBuilder(
                  jdk + "/bin/jcmd",
                  app.pid,
                  "JVMTI.agent_load",
                  TestJars.ofFixture(STUCK, "Agent-Class", STUCK).toString(),
                  release.toString())
              .redirectErrorStream(true)
              .start();
      try {
        assertEquals("stuck", app.next(), "the agent holds the attach listener");
        long start = System.nanoTime();
        Result list = app.weir("list").assertExit(0);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("[cli] " + jdk + ": list with a JVM not answering, " + millis + " ms");
        assertTrue(millis < AT_ONCE_MILLIS, "list took " + millis + " ms\n" + list);
        assertTrue(
            list.out
                .lines()
                .anyMatch(
                    l -> l.matches(app.pid + " +dev\\.weir\\.it\\.fixtures\\.Operated +no answer")),
            list.out);

        Result status = timed(jdk, 10_000 + AT_ONCE_MILLIS, "status", app.pid);
        assertEquals(1, status.exitCode, status::toString);
        assertEquals(
            "weir: JVM " + app.pid + " did not answer within " + DEADLINE,
            status.err.trim(),
            status::toString);
      } finally {
        Files.createFile(release);
        assertTrue(jcmd.waitFor(60, TimeUnit.SECONDS));
      }
      app.weir("status", app.pid).assertExit(0);
    } finally {
      Files.deleteIfExists(release);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void statusAndTopReadTenThousandLimitersInOneExchange(String jdk) throws Exception {
    int n = 10_000;
    List<String> lines = new ArrayList<>();
    lines.add("limits:");
    for (int i = 0; i < n; i++) {
      lines.add(String.format("  - name: limit-%05d", i));
      lines.add(String.format("    methods: \"com.example.Absent%05d#call\"", i));
      lines.add("    tokenBucket: { rate: " + (10 + i % 90) + ", capacity: 20 }");
    }
    Path config = ForkedJvm.configFile(lines.toArray(new String[0]));
    try (LiveJvm app = LiveJvm.withAgent(jdk, "config=" + config + ",log=off")) {
      long deadline = System.nanoTime() + 120_000_000_000L;
      Result status = app.weir("status", app.pid);
      while (configRows(status) < n && System.nanoTime() < deadline) {
        Thread.sleep(500); // the MBeans of 10,000 limiters come after the config file loads
        status = app.weir("status", app.pid);
      }
      status.assertExit(0);
      assertEquals(n, configRows(status), "every config limiter");
      assertTrue(
          status
              .out
              .lines()
              .anyMatch(l -> l.matches("limit-00042 +token +52 +20 +20 +0 +0 +0 +0(\\.0)?")),
          "limit-00042's row");

      List<Long> millis = new ArrayList<>();
      for (int run = 0; run < 3; run++) {
        long start = System.nanoTime();
        app.weir("status", app.pid).assertExit(0);
        millis.add((System.nanoTime() - start) / 1_000_000);
      }
      Result logged =
          LiveJvm.command(jdk, List.of("-Dsun.rmi.client.logCalls=true"), "status", app.pid)
              .assertExit(0);
      long calls = logged.err.lines().filter(l -> l.contains("outbound call")).count();
      System.out.println(
          "[cli] "
              + jdk
              + ": status with "
              + n
              + " limiters, "
              + millis
              + " ms (java -jar weir-agent.jar status PID, the JVM's start included); "
              + calls
              + " RMI calls");
      assertTrue(calls < 50, "one exchange for the table, not one per limiter: " + calls);

      Top top = Top.start(jdk, app.pid);
      try {
        List<Long> frames = top.frames(4, 60_000);
        long topCalls = top.calls();
        System.out.println(
            "[cli] "
                + jdk
                + ": top with "
                + n
                + " limiters, frames "
                + frames
                + " ms apart; "
                + topCalls
                + " RMI calls for "
                + (frames.size() + 1)
                + " frames");
        assertEquals(3, frames.size(), "four frames");
        assertTrue(topCalls < 50, "one exchange a frame, not one per limiter: " + topCalls);
      } finally {
        top.stop();
      }
    }
  }

  private static long configRows(Result status) {
    return status.out.lines().filter(l -> l.startsWith("limit-")).count();
  }

  /** {@code top PID} running, its screens and its RMI calls counted as they come. */
  private static final class Top {
    private final Process process;
    private final List<Long> screens = new ArrayList<>();
    private final Path err;

    private Top(Process process, Path err) {
      this.process = process;
      this.err = err;
      Thread reader = new Thread(this::read, "top-reader");
      reader.setDaemon(true);
      reader.start();
    }

    static Top start(String jdk, String pid) throws IOException {
      Path err = Files.createTempFile("weir-top", ".err");
      Process p =
          new ProcessBuilder(
                  jdk + "/bin/java",
                  "-Dsun.rmi.client.logCalls=true",
                  "-jar",
                  ForkedJvm.AGENT_JAR,
                  "top",
                  pid)
              .redirectError(err.toFile())
              .start();
      return new Top(p, err);
    }

    /** Notes the instant each screen begins ({@code ESC [H ESC [2J}). */
    private void read() {
      byte[] buffer = new byte[65_536];
      int matched = 0;
      byte[] clear = "\033[H\033[2J".getBytes(StandardCharsets.US_ASCII);
      try (InputStream in = process.getInputStream()) {
        for (int n; (n = in.read(buffer)) > 0; ) {
          for (int i = 0; i < n; i++) {
            matched = buffer[i] == clear[matched] ? matched + 1 : buffer[i] == clear[0] ? 1 : 0;
            if (matched == clear.length) {
              matched = 0;
              synchronized (screens) {
                screens.add(System.nanoTime());
                screens.notifyAll();
              }
            }
          }
        }
      } catch (IOException ended) {
        // top was stopped
      }
    }

    /** Waits for {@code count} screens; the milliseconds between each and the next. */
    List<Long> frames(int count, long timeoutMillis) throws InterruptedException {
      long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
      synchronized (screens) {
        while (screens.size() < count && System.nanoTime() < deadline) {
          screens.wait(100);
        }
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < screens.size(); i++) {
          gaps.add((screens.get(i) - screens.get(i - 1)) / 1_000_000);
        }
        return gaps;
      }
    }

    long calls() throws IOException {
      return Files.readAllLines(err).stream().filter(l -> l.contains("outbound call")).count();
    }

    void stop() throws IOException {
      process.destroyForcibly();
      Files.deleteIfExists(err);
    }
  }

  /** Runs the command line, asserting that it answered within {@code millis}. */
  private static Result timed(String jdk, long millis, String... args) {
    long start = System.nanoTime();
    Result r = LiveJvm.command(jdk, args);
    long took = (System.nanoTime() - start) / 1_000_000;
    assertTrue(took < millis, String.join(" ", args) + " took " + took + " ms\n" + r);
    return r;
  }

  private static void signal(String signal, String... pids) throws Exception {
    List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
    command.addAll(List.of(pids));
    Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertTrue(kill.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, kill.exitValue(), new String(kill.getInputStream().readAllBytes()));
  }
}
