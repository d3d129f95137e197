package dev.weir.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.redis.RedisServer;
import dev.weir.redis.TestCertificates;
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

  /**
   * The timeout of tests that do not measure it: no hiccup of a loaded machine reaches it, so a
   * failed call is a failure of Weir's.
   */
  static final long GENEROUS_MILLIS = 2000;

  /**
   * The timeout of tests that measure it; they allow {@link #SLACK_MILLIS} of scheduling on top,
   * less than a timeout: one timeout plus load passes, two fail.
   */
  static final long TIMEOUT_MILLIS = 500;

  static final long SLACK_MILLIS = 400;

  static Path config(String backend, String... entry) throws Exception {
    return config(backend, GENEROUS_MILLIS, entry);
  }

  static Path config(String backend, long timeoutMillis, String... entry) throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add("backend: \"" + backend + "\"");
    lines.add("backendTimeoutMillis: " + timeoutMillis);
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
      // both call over the same 3 s, whenever each JVM got started on a loaded machine: with one
      // alone at the end, its sparser calls would leave permits unused
      String at = Long.toString(System.currentTimeMillis() + 5000);
      CompletableFuture<ForkedJvm.Result> one =
          CompletableFuture.supplyAsync(() -> run(jdk, config, "run", "3000", at));
      CompletableFuture<ForkedJvm.Result> two =
          CompletableFuture.supplyAsync(() -> run(jdk, config, "run", "3000", at));
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
      // at least most of it: permits go unused only while both JVMs were stalled (a loaded
      // machine's scheduling), at most the shorter of their measured stalls
      double unused = 100 * Math.min(a.longValue("lagMillis"), b.longValue("lagMillis")) / 1000.0;
      assertTrue(
          admitted >= (bound - unused) * 0.9,
          admitted + " admitted of " + bound + ", " + unused + " unused in stalls\n" + both);
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
      // a full bucket at .990 serves 10; at .010 it has refilled what 10/s gives in the span
      // between (about 20 ms: 0.2 permit, none), not a new second's 10
      assertEquals(10, r.longValue("atNinetyNine"), r.toString());
      long refilled = 10 * r.longValue("spanMillis") / 1000;
      assertTrue(r.longValue("spanMillis") < 1000, r.toString());
      assertTrue(r.longValue("atTen") <= refilled, "admitted only the refill\n" + r);
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
      assertTrue(
          wrong.err.contains(
              "refuses Weir's calls (WRONGPASS invalid username-password pair or user is"
                  + " disabled.)"),
          wrong.toString());
      assertFalse(wrong.err.contains("does not answer"), wrong.toString());
      assertFalse(wrong.err.contains("wrong"), "the password is never logged\n" + wrong);
    }
  }

  /**
   * An {@code http} entry's per-client buckets in cluster scope, on Tomcat 11: the 429s come from
   * the bucket in Redis, one key per client address.
   */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anHttpEntryPerClientInClusterScope(String jdk) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      Path config =
          config(
              redis.uri(),
              "  - name: api",
              "    http: { paths: \"/api/**\" }",
              "    key: client",
              "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
              "    scope: cluster",
              "    onBackendFailure: reject");
      ForkedJvm.Result r = WebLimitsIT.run(jdk, "tomcat11", config, "dryrun").assertExit(0);
      assertEquals("200,200,429,429,429", r.value("api"), r.toString());
      assertEquals("2", r.value("api.granted"));
      assertEquals("3", r.value("api.rejected"));
      String ttl = redis.command("PTTL", "weir:{api:127.0.0.1}");
      long millis = Long.parseLong(ttl.substring(1));
      assertTrue(millis > 60_000 && millis <= 120_000, "two permits of a minute each: " + ttl);
      WebLimitsIT.assertQuiet(r);
    }
  }

  /**
   * One 100 ms slice of a {@code run}: start, admitted, rejected, slowest call, the slowest call
   * less the scheduling lag during it ({@code SchedulingLag}), scope.
   */
  record Slice(
      long startMillis,
      long admitted,
      long rejected,
      long maxMicros,
      long ownMicros,
      String scope) {
    static List<Slice> of(ForkedJvm.Result r) {
      List<Slice> slices = new ArrayList<>();
      for (String line : r.all("slice")) {
        String[] f = line.split(" ");
        slices.add(
            new Slice(
                Long.parseLong(f[0]),
                Long.parseLong(f[1]),
                Long.parseLong(f[2]),
                Long.parseLong(f[3]),
                Long.parseLong(f[4]),
                f[5].replace('_', ' ')));
      }
      return slices;
    }
  }

  /**
   * Redis killed mid-run, then started again on its port: every call is answered within the timeout
   * (plus scheduling slack on a loaded machine), the local fallback engages and disengages, and
   * once Redis answers again nothing beyond capacity + rate x time is admitted.
   */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void redisKilledThenBack(String jdk) throws Exception {
    RedisServer redis = RedisServer.start();
    int port = redis.port();
    RedisServer again = null;
    try {
      CompletableFuture<ForkedJvm.Result> app = startRun(jdk, redis.uri(), 5000);
      awaitCalls(redis);
      redis.kill();
      Thread.sleep(1500);
      again = RedisServer.startOn(RedisServer.binary(), port);
      assertOutage(app.get(), "cluster (local fallback)");
    } finally {
      redis.close();
      if (again != null) {
        again.close();
      }
    }
  }

  /** Redis paused ({@code DEBUG SLEEP}) mid-run: the same as killed, and it answers again. */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void redisPausedThenBack(String jdk) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      CompletableFuture<ForkedJvm.Result> app = startRun(jdk, redis.uri(), 5000);
      awaitCalls(redis);
      assertEquals("+OK", redis.command("DEBUG", "SLEEP", "1.5"));
      assertOutage(app.get(), "cluster (local fallback)");
    }
  }

  /** Waits until the JVM's calls reach Redis (its start may be slow on a loaded machine), +1 s. */
  private static void awaitCalls(RedisServer redis) throws Exception {
    for (int i = 0; i < 300 && !redis.command("EXISTS", "weir:{payments}").equals(":1"); i++) {
      Thread.sleep(50);
    }
    Thread.sleep(1000);
  }

  private static CompletableFuture<ForkedJvm.Result> startRun(String jdk, String uri, long millis)
      throws Exception {
    Path config =
        config(
            uri,
            TIMEOUT_MILLIS,
            "  - name: payments",
            "    tokenBucket: { rate: 50, capacity: 10 }",
            "    scope: cluster");
    return CompletableFuture.supplyAsync(() -> run(jdk, config, "run", Long.toString(millis)));
  }

  private static void assertOutage(ForkedJvm.Result r, String fallbackScope) {
    List<Slice> slices = Slice.of(r);
    String all = r.toString();
    int firstFallback = -1;
    int backAgain = -1;
    for (int i = 0; i < slices.size(); i++) {
      Slice s = slices.get(i);
      if (firstFallback < 0 && s.scope().equals(fallbackScope)) {
        firstFallback = i;
      } else if (firstFallback >= 0 && backAgain < 0 && s.scope().equals("cluster")) {
        backAgain = i;
      }
      // one timeout, and less than another for scheduling, beyond the stalls the JVM measured
      // (a loaded 2-core machine stalled a JVM for 1.3 s once, in the local fallback)
      assertTrue(
          s.ownMicros() <= (TIMEOUT_MILLIS + SLACK_MILLIS) * 1000,
          "slice " + s + " answered slowly, with a " + TIMEOUT_MILLIS + " ms timeout\n" + all);
    }
    assertTrue(slices.get(0).scope().equals("cluster"), "cluster scope at first\n" + all);
    assertTrue(firstFallback > 0, "the fallback engaged\n" + all);
    assertTrue(backAgain > firstFallback, "and disengaged\n" + all);
    long admitted = 0;
    for (int i = backAgain + 1; i < slices.size(); i++) { // whole slices after it answered again
      admitted += slices.get(i).admitted();
    }
    // from the first whole slice to the run's end, as it took: a loaded machine stretches slices
    long millis = r.longValue("runMillis") - slices.get(backAgain + 1).startMillis();
    assertTrue(
        admitted <= 10 + 50 * millis / 1000 + 2,
        admitted + " admitted in " + millis + " ms after Redis answered again\n" + all);
    assertTrue(r.longValue("backendFailures") >= 1, all);
    assertTrue(
        r.err.contains("does not answer") && r.err.contains("answers again; cluster limits use it"),
        "the outage logged once, and its end\n" + all);
    assertEquals(
        1,
        r.err.split("does not answer", -1).length - 1,
        "the outage is logged once, not per call\n" + all);
  }

  /**
   * Two cluster limits on one method (an annotated one made cluster-wide by name, and a config
   * pattern's), on one Redis server: the call is admitted only by both, a refused call is charged
   * on neither, across JVMs.
   */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void twoClusterLimitsOnOneMethod(String jdk) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      twoClusterLimits(jdk, "backend: \"" + redis.uri() + "\"");
    }
  }

  /** The same on a three-node Redis Cluster, where the two limits' keys live in different slots. */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void twoClusterLimitsOnOneMethodOnARedisCluster(String jdk) throws Exception {
    List<RedisServer> nodes = RedisServer.startCluster(3);
    try {
      StringBuilder backend = new StringBuilder("backend: [");
      for (int i = 0; i < nodes.size(); i++) {
        backend.append(i == 0 ? "" : ", ").append("\"").append(nodes.get(i).uri()).append("\"");
      }
      twoClusterLimits(jdk, backend.append("]").toString());
    } finally {
      for (RedisServer node : nodes) {
        node.close();
      }
    }
  }

  private static void twoClusterLimits(String jdk, String backend) throws Exception {
    String[] payments = {
      "  - name: payments",
      "    tokenBucket: { rate: 1, per: HOURS, capacity: 50 }",
      "    scope: cluster",
      "    onBackendFailure: reject"
    };
    List<String> lines =
        new ArrayList<>(List.of(backend, "backendTimeoutMillis: " + GENEROUS_MILLIS, "limits:"));
    lines.addAll(List.of(payments));
    lines.addAll(
        List.of(
            "  - name: daily",
            "    methods: \"dev.weir.it.fixtures.ClusterCalls#charge\"",
            "    tokenBucket: { rate: 1, per: HOURS, capacity: 20 }",
            "    scope: cluster",
            "    onBackendFailure: reject"));
    Path both = ForkedJvm.configFile(lines.toArray(new String[0]));
    ForkedJvm.Result first = run(jdk, both, "calls", "30");
    assertEquals(20, first.longValue("admitted"), "the smaller limit decides\n" + first);
    assertEquals("daily", first.value("limiter"), first.toString());
    ForkedJvm.Result second = run(jdk, both, "calls", "30");
    assertEquals(0, second.longValue("admitted"), "another JVM finds it spent\n" + second);
    // the 40 refused calls took nothing from payments: 50 - 20 are left there
    lines.subList(3 + payments.length, lines.size()).clear();
    ForkedJvm.Result alone =
        run(jdk, ForkedJvm.configFile(lines.toArray(new String[0])), "calls", "60");
    assertEquals(30, alone.longValue("admitted"), "payments paid for the admitted only\n" + alone);
    assertEquals("payments", alone.value("limiter"), alone.toString());
  }

  /**
   * A cluster limit with a warm-up (20/s, capacity 20, warm-up 2 s) starts cold on Redis: no burst,
   * and the k-th permit costs {@code T + T * (2 * (U - k * T) - T) / U} (147.5 ms, 142.5 ms, ...),
   * where the same limit without warm-up would admit 20 at once and 20 a second after.
   */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aClusterLimitWithAWarmUpStartsCold(String jdk) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      Path config =
          config(
              redis.uri(),
              "  - name: payments",
              "    tokenBucket: { rate: 20, capacity: 20, warmUpMillis: 2000 }",
              "    scope: cluster",
              "    onBackendFailure: reject");
      // the run's first call makes the key (idle for long: admitted at once); the rest start 2 s
      // later, when the zone has cooled again and its idle time has paid for one permit at most
      String at = Long.toString(System.currentTimeMillis() + 2000);
      ForkedJvm.Result r = run(jdk, config, "run", "1000", at);
      long runMillis = r.longValue("runMillis");
      long bound = 1; // the permit the idle time paid for
      for (double departed = 0; ; bound++) {
        departed += 50 + 50 * (2 * (1000 - 50 * bound) - 50) / 1000.0;
        if (departed > runMillis + 1) {
          break;
        }
      }
      long admitted = r.longValue("admitted");
      assertTrue(
          admitted <= bound,
          admitted + " admitted in " + runMillis + " ms, cold bound " + bound + "\n" + r);
      assertTrue(admitted >= 3, "a loop of " + runMillis + " ms gets the first permits\n" + r);
      assertEquals("0", r.value("backendFailures"), r.toString());
      System.out.println(
          "[cluster] warm-up, "
              + jdk
              + ": "
              + admitted
              + " admitted in "
              + runMillis
              + " ms (cold bound "
              + bound
              + ", 40 without warm-up)");
      String state = redis.command("GET", "weir:{payments}");
      assertTrue(
          state.matches("\\$\\d+ \\d+ \\d+\\|1 50000000 1000000000 1000000000\\|\\d+"),
          "the cold zone is kept on Redis beside the bucket: " + state);
    }
  }

  /** A Redis Cluster of three nodes serves a per-key limit; the keys spread over the nodes. */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void aRedisClusterServesAPerKeyLimit(String jdk) throws Exception {
    List<RedisServer> nodes = RedisServer.startCluster(3);
    try {
      List<String> lines = new ArrayList<>();
      StringBuilder backend = new StringBuilder("backend: [");
      for (int i = 0; i < nodes.size(); i++) {
        backend.append(i == 0 ? "" : ", ").append("\"").append(nodes.get(i).uri()).append("\"");
      }
      lines.add(backend.append("]").toString());
      lines.addAll(
          List.of(
              "backendTimeoutMillis: " + GENEROUS_MILLIS,
              "limits:",
              "  - name: per-client",
              "    tokenBucket: { rate: 1, per: MINUTES, capacity: 3 }",
              "    scope: cluster",
              "    onBackendFailure: reject"));
      Path config = ForkedJvm.configFile(lines.toArray(new String[0]));
      ForkedJvm.Result r = run(jdk, config, "keys", "5", "30");
      for (int key = 0; key < 30; key++) {
        assertEquals("3", r.value("key.client-" + key), "each key its own bucket of 3\n" + r);
      }
      for (RedisServer node : nodes) {
        String size = node.command("DBSIZE");
        assertTrue(Long.parseLong(size.substring(1)) > 0, "keys on every node: " + size + "\n" + r);
      }
    } finally {
      for (RedisServer node : nodes) {
        node.close();
      }
    }
  }

  /**
   * {@code rediss://} to a server whose certificate a private CA signs and which requires a client
   * certificate: the config file's {@code backendTls} (paths next to it) trusts that CA and
   * presents the client's, for the backend alone: the application's own TLS (the JVM's default)
   * still refuses the server.
   */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void tlsWithAPrivateCaThroughBackendTls(String jdk) throws Exception {
    TestCertificates certs = TestCertificates.make();
    int tlsPort = RedisServer.freePort();
    try (RedisServer redis = RedisServer.start(certs.serverArguments(tlsPort))) {
      Path config = certs.file("weir.yaml");
      java.nio.file.Files.write(
          config,
          List.of(
              "backend: \"rediss://127.0.0.1:" + tlsPort + "\"",
              "backendTimeoutMillis: " + GENEROUS_MILLIS,
              "backendTls: { caCertificate: ca.pem, certificate: client.pem, privateKey: client.key }",
              "limits:",
              "  - name: payments",
              "    tokenBucket: { rate: 1, per: MINUTES, capacity: 2 }",
              "    scope: cluster",
              "    onBackendFailure: reject"));
      ForkedJvm.Result r = run(jdk, config, "tls", "3", Integer.toString(tlsPort));
      assertEquals(2, r.longValue("admitted"), "the bucket in Redis, over TLS\n" + r);
      assertEquals(":1", redis.command("EXISTS", "weir:{payments}"), r.toString());
      assertTrue(r.value("defaultTrust").startsWith("refused"), "the JVM's own trust\n" + r);
      assertFalse(r.err.contains("ERROR"), r.toString());
    }
  }

  /**
   * A Redis that evicts ({@code maxmemory 2mb}, {@code allkeys-lru}, other data written as fast as
   * one connection writes it): warned at connect, not used, the limit's local fallback bounds the
   * calls, {@code Scope} says why, and one line names the policy and the fix.
   */
  @ParameterizedTest
  @MethodSource("dev.weir.it.ForkedJvm#jdks")
  void anEvictingRedisIsNotUsed(String jdk) throws Exception {
    try (RedisServer redis =
            RedisServer.start("--maxmemory", "2mb", "--maxmemory-policy", "allkeys-lru");
        AutoCloseable flood = redis.flood(60_000)) {
      for (int i = 0; i < 500 && redis.info("stats", "evicted_keys").equals("0"); i++) {
        Thread.sleep(10);
      }
      Path config =
          config(
              redis.uri(),
              "  - name: payments",
              "    tokenBucket: { rate: 20, capacity: 20 }",
              "    scope: cluster");
      ForkedJvm.Result r = run(jdk, config, "run", "3000");
      List<Slice> slices = Slice.of(r);
      long admitted = r.longValue("admitted");
      long millis = r.longValue("lastMillis") - r.longValue("firstMillis");
      long bound = 20 + 20 * (millis + 1) / 1000 + 1;
      System.out.println(
          "[cluster] allkeys-lru with other data written, "
              + jdk
              + ": "
              + admitted
              + " admitted in "
              + millis
              + " ms (bound "
              + bound
              + "), scope "
              + slices.get(slices.size() - 1).scope());
      assertTrue(admitted <= bound, admitted + " admitted, bound " + bound + "\n" + r);
      for (Slice s : slices) {
        if (!s.scope().equals("?")) { // "?": the MBean not registered yet
          assertEquals("cluster (local fallback: Redis evicts keys)", s.scope(), r.toString());
        }
      }
      assertTrue(r.longValue("backendFailures") > 0, r.toString());
      assertEquals(
          1, r.err.split("with maxmemory-policy allkeys-lru", -1).length - 1, "warned\n" + r);
      assertEquals(1, r.err.split("evicts keys", -1).length - 1, "logged once\n" + r);
      assertTrue(r.err.contains("Set maxmemory-policy noeviction"), r.toString());
    }
  }
}
