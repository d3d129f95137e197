package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.redis.RedisServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code scope: cluster} against a real {@code redis-server} the test starts on a free port: JVMs
 * started with the agent, as users start them, sharing one limit.
 */
class ClusterScopeIT {
  private static final String MAIN = "dev.weir.it.fixtures.ClusterCalls";

  static Path config(String backend, String... entry) throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add("backend: \"" + backend + "\"");
    lines.add("backendTimeoutMillis: 100");
    lines.add("limits:");
    lines.addAll(List.of(entry));
    return ForkedJvm.configFile(lines.toArray(new String[0]));
  }

  static ForkedJvm.Result run(String jdk, Path config, String... args) {
    return ForkedJvm.withAgent(jdk, "config=" + config, MAIN, args).assertExit(0);
  }

  /** Two JVMs calling as fast as they can share one bucket: together, capacity + rate x time. */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void twoJvmsShareOneBucketExactly(String jdk) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      Path config =
          config(
              redis.uri(),
              "  - name: payments",
              "    tokenBucket: { rate: 100, capacity: 20 }",
              "    scope: cluster");
      CompletableFuture<ForkedJvm.Result> one =
          CompletableFuture.supplyAsync(() -> run(jdk, config, "run", "3000"));
      CompletableFuture<ForkedJvm.Result> two =
          CompletableFuture.supplyAsync(() -> run(jdk, config, "run", "3000"));
      ForkedJvm.Result a = one.get();
      ForkedJvm.Result b = two.get();
      long admitted = a.longValue("admitted") + b.longValue("admitted");
      long first = Math.min(a.longValue("firstMillis"), b.longValue("firstMillis"));
      long last = Math.max(a.longValue("lastMillis"), b.longValue("lastMillis"));
      // the bucket runs on Redis's clock, which is this machine's: between the first and the last
      // admission, 20 + 100/s x elapsed permits at most (+1: the millisecond readings round down)
      double bound = 20 + 100 * (last - first + 1) / 1000.0;
      String both = a + "\n" + b;
      assertTrue(admitted <= bound + 1, admitted + " admitted, bound " + bound + "\n" + both);
      assertTrue(admitted >= bound * 0.9, admitted + " admitted of " + bound + "\n" + both);
      assertTrue(a.longValue("admitted") > 20 && b.longValue("admitted") > 20, both);
      assertEquals("0", a.value("backendFailures"), both);
      assertFalse(a.err.contains("SLF4J") || b.err.contains("SLF4J"), "no client logging\n" + both);
      System.out.println(
          "[cluster] two JVMs, "
              + jdk
              + ": "
              + admitted
              + " admitted in "
              + (last - first)
              + " ms (bound "
              + bound
              + "), slowest call "
              + Math.max(a.longValue("maxMicros"), b.longValue("maxMicros"))
              + " us");
    }
  }

  /** A JVM restarted six times against 5 per hour: 5 in all, never a refill per start. */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void restartsNeverRefill(String jdk) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      Path config =
          config(
              redis.uri(),
              "  - name: payments",
              "    tokenBucket: { rate: 5, per: HOURS, capacity: 5 }",
              "    scope: cluster");
      long admitted = 0;
      for (int start = 0; start < 6; start++) {
        admitted += run(jdk, config, "calls", "2").longValue("admitted");
      }
      assertEquals(5, admitted);
      String ttl = redis.command("PTTL", "weir:{payments}");
      long millis = Long.parseLong(ttl.substring(1));
      assertTrue(millis > 0 && millis <= 3_600_000, "an expiry, never none: " + ttl);
    }
  }

  /** 10/s capacity 10: 10 calls at second .990 and 10 at .010 of the next admit 10, not 20. */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aSecondBoundaryGivesNoSecondBurst(String jdk) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      String time = redis.command("TIME");
      long redisSeconds = Long.parseLong(time.split(" ")[2]);
      assertTrue(
          Math.abs(redisSeconds - System.currentTimeMillis() / 1000) <= 1,
          "Redis's TIME is this machine's clock: " + time);
      Path config =
          config(
              redis.uri(),
              "  - name: payments",
              "    tokenBucket: { rate: 10, capacity: 10 }",
              "    scope: cluster");
      ForkedJvm.Result r = run(jdk, config, "boundary");
      // one call before (to connect), 9 of 10 at .990, none at .010 (20 ms refill 0.2 permit)
      assertEquals(9, r.longValue("atNinetyNine") - 1, r.toString());
      assertEquals(0, r.longValue("atTen"), r.toString());
    }
  }

  /** The password and the database index of the URI are used. */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void passwordAndDatabaseFromTheUri(String jdk) throws Exception {
    try (RedisServer redis = RedisServer.start("--requirepass", "s3cret")) {
      Path config =
          config(
              "redis://:s3cret@127.0.0.1:" + redis.port() + "/3",
              "  - name: payments",
              "    tokenBucket: { rate: 1, capacity: 2 }",
              "    scope: cluster",
              "    onBackendFailure: reject");
      ForkedJvm.Result r = run(jdk, config, "calls", "3");
      assertEquals(2, r.longValue("admitted"), r.toString());
      List<String> replies =
          redis.commands(
              new String[] {"AUTH", "s3cret"},
              new String[] {"EXISTS", "weir:{payments}"},
              new String[] {"SELECT", "3"},
              new String[] {"EXISTS", "weir:{payments}"});
      assertEquals(List.of("+OK", ":0", "+OK", ":1"), replies);
      ForkedJvm.Result wrong =
          run(
              jdk,
              config(
                  "redis://:wrong@127.0.0.1:" + redis.port() + "/3",
                  "  - name: payments",
                  "    tokenBucket: { rate: 1, capacity: 2 }",
                  "    scope: cluster",
                  "    onBackendFailure: reject"),
              "calls",
              "3");
      assertEquals(0, wrong.longValue("admitted"), "a refused password rejects all\n" + wrong);
      assertTrue(wrong.err.contains("does not answer"), wrong.toString());
      assertFalse(wrong.err.contains("wrong"), "the password is never logged\n" + wrong);
    }
  }
}
