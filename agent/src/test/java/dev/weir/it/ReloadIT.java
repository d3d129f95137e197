package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.it.ForkedJvm.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Config reload in a running JVM: by the command line (the agent MBean's operation), by a second
 * attach with {@code config=}, and by {@code watch=true}; a good file applies at once (changed,
 * added and removed entries), a bad one changes nothing and says why. Rates are 1 per hour, so
 * nothing refills while a test runs: every count is exact.
 */
class ReloadIT {
  private static final String SAVE = "dev.weir.it.fixtures.Operated$Legacy#save";
  private static final String LOAD = "dev.weir.it.fixtures.Operated$Legacy#load";

  static String[] file(String... entries) {
    String[] lines = new String[entries.length + 1];
    lines[0] = "limits:";
    System.arraycopy(entries, 0, lines, 1, entries.length);
    return lines;
  }

  static final String[] V1 =
      file(
          "  - name: legacy-saves",
          "    methods: \"" + SAVE + "\"",
          "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }",
          "  - name: orders",
          "    tokenBucket: { rate: 1, per: HOURS, capacity: 4 }");

  static final String[] V2 =
      file(
          "  - name: legacy-saves",
          "    methods: \"" + SAVE + "\"",
          "    tokenBucket: { rate: 1, per: HOURS, capacity: 5 }",
          "  - name: legacy-loads",
          "    methods: \"" + LOAD + "\"",
          "    tokenBucket: { rate: 1, per: HOURS, capacity: 2 }");

  static void write(Path file, String... lines) throws Exception {
    Path next = file.resolveSibling(file.getFileName() + ".next");
    Files.write(next, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aGoodFileAppliesAtOnceAndABadOneChangesNothing(String jdk) throws Exception {
    Path config = ForkedJvm.configFile(V1);
    try (LiveJvm app = LiveJvm.withAgent(jdk, "config=" + config)) {
      assertArrayEquals(new int[] {3, 1, 0}, app.call("save", 4));
      assertArrayEquals(new int[] {4, 1, 0}, app.call("orders", 5), "the override applies");
      assertArrayEquals(new int[] {3, 0, 0}, app.call("load", 3), "no limit on load yet");

      write(config, V2);
      Result reload = app.weir("reload", app.pid).assertExit(0);
      assertEquals(
          "'legacy-saves' changed: token bucket 1.0/HOURS capacity 5 permits 1 REJECT\n"
              + "'legacy-loads' added: token bucket 1.0/HOURS capacity 2 permits 1 REJECT\n"
              + "'orders' removed",
          reload.out.trim());
      assertArrayEquals(
          new int[] {0, 1, 0}, app.call("save", 1), "its permits kept: none; raising adds none");
      assertArrayEquals(new int[] {2, 1, 0}, app.call("load", 3), "a new pattern: woven again");
      // the annotation's own settings again, carrying on the override's state (0 left, 10/s);
      // the MBeans follow the reload at the management thread's next tick, later on a busy machine
      assertTrue(
          awaitStatus(app, l -> l.matches("orders +token +10 +10 .*")),
          "the annotation's own 10/s, capacity 10");

      // a new kind is a new limiter
      write(
          config,
          file(
              "  - name: legacy-saves",
              "    methods: \"" + SAVE + "\"",
              "    leakyBucket: { rate: 1, per: HOURS, capacity: 2, mode: POLICING }"));
      Result replaced = app.weir("reload", app.pid).assertExit(0);
      assertTrue(
          replaced.out.contains("'legacy-saves' replaced: leaky bucket (policing)"), replaced.out);
      assertTrue(replaced.out.contains("'legacy-loads' removed"), replaced.out);
      assertArrayEquals(new int[] {2, 1, 0}, app.call("save", 3), "a new limiter's state");
      assertArrayEquals(new int[] {3, 0, 0}, app.call("load", 3), "a removed pattern stops");

      // a bad file: every error, and nothing changes
      write(
          config,
          file(
              "  - name: legacy-saves",
              "    methods: \"" + SAVE + "\"",
              "    tokenBucket: { rate: -3, capacity: 9 }",
              "    colour: blue"));
      Result bad = app.weir("reload", app.pid).assertExit(1);
      assertTrue(
          bad.err.contains(
              config + ":4: limits[0].tokenBucket.rate must be > 0 and finite, was -3"),
          bad.err);
      assertTrue(bad.err.contains("colour"), bad.err);
      assertArrayEquals(new int[] {0, 1, 0}, app.call("save", 1), "as it was: still POLICING 2");
      String agent = app.send("agent");
      assertTrue(agent.startsWith("agent succeeded=2 failed=1 file=" + config), agent);
      assertTrue(agent.contains("lastError=" + config + ":4: limits[0].tokenBucket.rate"), agent);

      // an unreadable file is an error, never "no limits"
      Files.delete(config);
      Result gone = app.weir("reload", app.pid).assertExit(1);
      assertTrue(gone.err.contains("cannot read the config file"), gone.err);
      assertArrayEquals(new int[] {0, 1, 0}, app.call("save", 1));
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anOverrideThatComesOrGoesIsALiveChangeNotAFreshBucket(String jdk) throws Exception {
    Path config = ForkedJvm.configFile(V1);
    try (LiveJvm app = LiveJvm.withAgent(jdk, "config=" + config)) {
      // per-client: @TokenBucket 1 per hour, capacity 2, one bucket per key
      assertArrayEquals(new int[] {2, 1, 0}, app.call("per-client", 3, "a"));
      write(
          config,
          file("  - name: per-client", "    tokenBucket: { rate: 1, per: HOURS, capacity: 5 }"));
      app.weir("reload", app.pid).assertExit(0);
      assertArrayEquals(
          new int[] {0, 1, 0}, app.call("per-client", 1, "a"), "a's state kept: raising adds none");
      assertArrayEquals(new int[] {5, 1, 0}, app.call("per-client", 6, "c"), "a new key: 5");
      write(
          config,
          file(
              "  - name: legacy-saves",
              "    methods: \"" + SAVE + "\"",
              "    tokenBucket: { rate: 1, per: HOURS, capacity: 3 }"));
      Result removed = app.weir("reload", app.pid).assertExit(0);
      assertTrue(removed.out.contains("'per-client' removed"), removed.out);
      assertArrayEquals(new int[] {0, 1, 0}, app.call("per-client", 1, "c"), "c's state kept");
      assertArrayEquals(new int[] {2, 1, 0}, app.call("per-client", 3, "d"), "the annotation's 2");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aSecondAttachWithConfigReloadsIt(String jdk) throws Exception {
    Path first = ForkedJvm.configFile(V1);
    Path second = ForkedJvm.configFile(V2);
    try (LiveJvm app =
        LiveJvm.withAgent(jdk, "config=" + first, "-XX:+EnableDynamicAgentLoading")) {
      assertArrayEquals(new int[] {3, 1, 0}, app.call("save", 4));
      Result attach = app.weir("attach", app.pid, "config=" + second + ",maxKeys=5").assertExit(0);
      assertTrue(attach.out.contains("config reloaded from " + second), attach.toString());
      assertTrue(
          attach.out.contains("'maxKeys' cannot change in a running JVM"), attach.toString());
      assertArrayEquals(new int[] {2, 1, 0}, app.call("load", 3));
      assertTrue(app.send("agent").contains("file=" + second));

      Path broken = ForkedJvm.configFile("limits: nonsense");
      Result bad = app.weir("attach", app.pid, "config=" + broken).assertExit(1);
      assertTrue(bad.err.contains(broken + ":1: limits must be a list of limits"), bad.toString());
      assertTrue(app.send("agent").contains("file=" + second), "the config file stays");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void patternsGivenByAttachReachClassesLoadedWhenTheAgentStartedWithoutAny(String jdk)
      throws Exception {
    // started without a config file, so without retransformation (cheaper); the attach brings
    // the first patterns, for classes loaded already
    Path config = ForkedJvm.configFile(V2);
    try (LiveJvm app = LiveJvm.withAgent(jdk, null, "-XX:+EnableDynamicAgentLoading")) {
      assertArrayEquals(new int[] {3, 0, 0}, app.call("load", 3), "no limit yet");
      assertArrayEquals(new int[] {2, 1, 0}, app.call("per-client", 3, "a"), "annotations woven");
      app.weir("attach", app.pid, "config=" + config).assertExit(0);
      assertArrayEquals(new int[] {2, 1, 0}, app.call("load", 3), "the pattern reaches it");
      assertArrayEquals(
          new int[] {0, 1, 0}, app.call("per-client", 1, "a"), "its limiter and state stay");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void watchFollowsAFileReplacedThroughASymbolicLinkAndWaitsForAWholeFile(String jdk)
      throws Exception {
    // as Kubernetes mounts a ConfigMap: weir.yaml -> ..data/weir.yaml, ..data -> a dated directory
    Path mount = Files.createTempDirectory("weir-configmap");
    Path v1 = Files.createDirectory(mount.resolve("..2026_01"));
    Files.write(
        v1.resolve("weir.yaml"), (String.join("\n", V1) + "\n").getBytes(StandardCharsets.UTF_8));
    Files.createSymbolicLink(mount.resolve("..data"), v1.getFileName());
    Path link = mount.resolve("weir.yaml");
    Files.createSymbolicLink(link, mount.getFileSystem().getPath("..data", "weir.yaml"));
    try (LiveJvm app = LiveJvm.withAgent(jdk, "config=" + link + ",watch=true")) {
      assertArrayEquals(new int[] {3, 1, 0}, app.call("save", 4));
      Path v2 = Files.createDirectory(mount.resolve("..2026_02"));
      Files.write(
          v2.resolve("weir.yaml"), (String.join("\n", V2) + "\n").getBytes(StandardCharsets.UTF_8));
      Path swap = mount.resolve("..data_tmp");
      Files.createSymbolicLink(swap, v2.getFileName());
      Files.move(
          swap,
          mount.resolve("..data"),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
      app.awaitErr("config reloaded from " + link);
      assertArrayEquals(new int[] {2, 1, 0}, app.call("load", 3), "V2 applies");

      // a file written in two parts, 300 ms apart: the half is never applied nor refused
      Path plain = mount.resolve("..2026_02").resolve("weir.yaml");
      String whole =
          String.join(
                  "\n",
                  file(
                      "  - name: legacy-saves",
                      "    methods: \"" + SAVE + "\"",
                      "    tokenBucket: { rate: 1, per: HOURS, capacity: 7 }"))
              + "\n";
      int cut = whole.indexOf("tokenBucket") + 5;
      Files.write(plain, whole.substring(0, cut).getBytes(StandardCharsets.UTF_8));
      Thread.sleep(300);
      Files.write(plain, whole.getBytes(StandardCharsets.UTF_8));
      String applied = app.awaitErr("'legacy-loads' removed");
      assertTrue(applied.contains("'legacy-saves' changed"), applied);
      assertFalse(
          app.err().contains("was not applied"),
          "the half file was never read whole: " + app.err());
      assertArrayEquals(new int[] {3, 0, 0}, app.call("load", 3), "its pattern is gone");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anEmptyFileIsRefusedAndAnEmptyListRemovesEveryConfigLimit(String jdk) throws Exception {
    Path config = ForkedJvm.configFile(V1);
    try (LiveJvm app = LiveJvm.withAgent(jdk, "config=" + config)) {
      assertArrayEquals(new int[] {3, 1, 0}, app.call("save", 4));
      write(config, "# emptied while being rewritten");
      Result empty = app.weir("reload", app.pid).assertExit(1);
      assertTrue(
          empty.err.contains(
              config
                  + ": the config file is empty (nothing but blanks and comments): write `limits:"
                  + " []` to remove every limit"),
          empty.err);
      assertArrayEquals(new int[] {0, 1, 0}, app.call("save", 1), "every limit stays");

      write(config, "limits: []");
      Result none = app.weir("reload", app.pid).assertExit(0);
      assertTrue(none.out.contains("'legacy-saves' removed"), none.out);
      assertTrue(none.out.contains("'orders' removed"), none.out);
      assertTrue(
          app.err().contains(config + ": the config file's list of limits is empty"), app.err());
      assertArrayEquals(new int[] {3, 0, 0}, app.call("save", 3), "no config limit");
      String agent = app.send("agent");
      assertTrue(agent.startsWith("agent succeeded=1 failed=1 "), agent);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aWatchedFileThatGoesOrCannotBeReadIsAFailedReload(String jdk) throws Exception {
    // as Kubernetes mounts a ConfigMap: weir.yaml -> ..data/weir.yaml, ..data -> a dated directory
    Path mount = Files.createTempDirectory("weir-configmap");
    Path dated = Files.createDirectory(mount.resolve("..2026_01"));
    Path target = dated.resolve("weir.yaml");
    Files.write(target, (String.join("\n", V1) + "\n").getBytes(StandardCharsets.UTF_8));
    Files.createSymbolicLink(mount.resolve("..data"), dated.getFileName());
    Path link = mount.resolve("weir.yaml");
    Files.createSymbolicLink(link, mount.getFileSystem().getPath("..data", "weir.yaml"));
    try (LiveJvm app = LiveJvm.withAgent(jdk, "config=" + link + ",watch=true")) {
      assertArrayEquals(new int[] {3, 1, 0}, app.call("save", 4));
      assertTrue(awaitStatus(app, l -> l.startsWith("legacy-saves")), "the MBeans are there");

      Files.delete(target); // the link's target is gone
      String gone = awaitAgent(app, "failed=1 ");
      assertTrue(
          gone.contains("lastError=" + link + ": cannot read the config file (java.nio.file"),
          gone);
      app.awaitErr("[weir] ERROR " + link + ": cannot read the config file (");
      assertArrayEquals(new int[] {0, 1, 0}, app.call("save", 1), "every limit stays");

      Files.createDirectory(target); // something there that is not a file: unreadable
      String unreadable = awaitAgent(app, "failed=2 ");
      assertTrue(unreadable.contains(": cannot read the config file ("), unreadable);

      Files.delete(target);
      Files.delete(link); // the file itself is deleted
      awaitAgent(app, "failed=3 "); // each change counted once, not once a second
      assertArrayEquals(new int[] {0, 1, 0}, app.call("save", 1), "every limit stays");

      write(link, V2); // back: applied
      app.awaitErr("config reloaded from " + link);
      assertArrayEquals(new int[] {2, 1, 0}, app.call("load", 3), "V2 applies");

      write(link, "# emptied"); // an empty file stable for a second drops nothing
      String empty = awaitAgent(app, "failed=4 ");
      assertTrue(empty.contains("write `limits: []` to remove every limit"), empty);
      assertArrayEquals(new int[] {0, 1, 0}, app.call("save", 1), "every limit stays");
      assertArrayEquals(new int[] {0, 1, 0}, app.call("load", 1), "every limit stays");

      write(link, "limits: []");
      app.awaitErr("'legacy-loads' removed");
      assertArrayEquals(new int[] {2, 0, 0}, app.call("save", 2), "no config limit");
      assertTrue(app.send("agent").startsWith("agent succeeded=2 failed=4 "));
    }
  }

  /** Waits up to 15 s for the agent MBean's line (see {@code Operated}) to contain {@code text}. */
  static String awaitAgent(LiveJvm app, String text) throws InterruptedException {
    String agent = "";
    for (long deadline = System.nanoTime() + 15_000_000_000L; System.nanoTime() < deadline; ) {
      agent = app.send("agent");
      if (agent.contains(text)) {
        return agent;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no '" + text + "' in " + agent + "\n" + app.err());
  }

  /** Waits up to 10 s for a line of {@code status PID} that {@code wanted} accepts. */
  static boolean awaitStatus(LiveJvm app, java.util.function.Predicate<String> wanted)
      throws InterruptedException {
    for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline; ) {
      if (app.weir("status", app.pid).out.lines().anyMatch(wanted)) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }
}
