package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.config.BackendUri;
import dev.weir.it.fixtures.SchedulingLag;
import dev.weir.redis.RedisServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A Redis that evicts keys hands out a full bucket at each eviction of a limit's key: against a
 * real {@code redis-server} with {@code maxmemory 2mb} and an evicting policy, while other data is
 * written as fast as one connection writes it, Weir warns at connect, stops using the server once
 * it evicts (the limit follows {@code onBackendFailure}, and says why), and uses it again after a
 * minute without evictions (on a fake clock).
 */
class RedisEvictionTest {
  /** A limit's settings here: 20 a second, a burst of 20. */
  private static final double RATE = 20;

  private static final long CAPACITY = 20;

  /** How long the limit is called, in milliseconds. */
  private static final long CALL_MILLIS = 4000;

  private RedisServer redis;
  private AutoCloseable flood;
  private RedisBackend backend;

  @AfterEach
  void stop() throws Exception {
    AgentLog.capture(false);
    if (backend != null) {
      backend.close();
    }
    if (flood != null) {
      flood.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  /** A server with 2 MB of memory and {@code policy}, evicting under a flood of other data. */
  private void evictingServer(String policy) throws Exception {
    redis = RedisServer.start("--maxmemory", "2mb", "--maxmemory-policy", policy);
    flood = redis.flood(60_000);
    for (int i = 0; i < 500 && Long.parseLong(redis.info("stats", "evicted_keys")) == 0; i++) {
      Thread.sleep(10);
    }
    assertTrue(Long.parseLong(redis.info("stats", "evicted_keys")) > 0, "the server evicts");
  }

  private RedisBackend connect(boolean allowEviction, NanoClock watchClock) throws Exception {
    backend =
        RedisBackend.start(
            List.of(BackendUri.parse(redis.uri())),
            RedisBackendTest.GENEROUS_MILLIS,
            "",
            null,
            allowEviction,
            watchClock);
    awaitConnected(backend);
    return backend;
  }

  /** Until the backend has connected: it answers, or it is not used for a reason of its own. */
  private static void awaitConnected(RedisBackend b) throws InterruptedException {
    for (int i = 0; i < 500 && !b.answering() && b.notUsedBecause() == null; i++) {
      Thread.sleep(10);
    }
    assertTrue(b.answering() || b.notUsedBecause() != null, "the backend connects");
  }

  /** A limit of 20 a second on the backend. */
  private BucketLimiter limiter(ClusterScope.OnFailure onFailure) {
    return RedisBackendTest.limiter(
        backend, Discipline.TOKEN_BUCKET, RATE, CAPACITY, onFailure, NanoClock.SYSTEM);
  }

  /** What one thread's calls of a limiter for {@link #CALL_MILLIS} gave. */
  private static final class Run {
    long admitted;
    long calls;
    long admittedAfterSwitch;
    long callsAfterSwitch;
    long switchMillis = -1;
    long afterSwitchMillis;
    long millis;

    @Override
    public String toString() {
      return "admitted "
          + admitted
          + " of "
          + calls
          + " in "
          + millis
          + " ms, bound "
          + bound(millis)
          + "; Weir stopped using it at "
          + switchMillis
          + " ms, then admitted "
          + admittedAfterSwitch
          + " of "
          + callsAfterSwitch
          + " in "
          + afterSwitchMillis
          + " ms";
    }
  }

  /** Calls as fast as Redis answers, noting when the limit's {@code Scope} left {@code cluster}. */
  private static Run call(BucketLimiter l) {
    Run run = new Run();
    long start = System.nanoTime();
    long end = start + TimeUnit.MILLISECONDS.toNanos(CALL_MILLIS);
    long switchedAt = 0;
    long now;
    while ((now = System.nanoTime()) < end) {
      if (switchedAt == 0 && !l.scope().equals("cluster")) {
        switchedAt = now;
        run.switchMillis = (now - start) / 1_000_000;
      }
      boolean admitted = l.acquire() == 0;
      run.calls++;
      if (admitted) {
        run.admitted++;
      }
      if (switchedAt != 0) {
        run.callsAfterSwitch++;
        if (admitted) {
          run.admittedAfterSwitch++;
        }
      }
    }
    run.millis = (System.nanoTime() - start) / 1_000_000;
    if (switchedAt != 0) {
      run.afterSwitchMillis = (System.nanoTime() - switchedAt) / 1_000_000;
    }
    return run;
  }

  private static long bound(long millis) {
    return CAPACITY + (long) Math.ceil(RATE * millis / 1000.0);
  }

  /**
   * A server that evicts as Weir connects is not used: the limit follows {@code onBackendFailure}
   * ({@code local}: the local bucket's bound; {@code reject}: nothing), {@code Scope} says why,
   * each call counts in {@code BackendFailures}, and one line names the policy and the fix. Without
   * Weir's watch, these calls admitted hundreds of times the bound.
   */
  @ParameterizedTest
  @CsvSource({"allkeys-lru, LOCAL", "allkeys-random, LOCAL", "allkeys-lru, REJECT"})
  void anEvictingServerIsNotUsed(String policy, ClusterScope.OnFailure onFailure) throws Exception {
    evictingServer(policy);
    AgentLog.capture(true);
    connect(false, NanoClock.SYSTEM);
    BucketLimiter l = limiter(onFailure);
    Run run = call(l);
    List<String> log = AgentLog.capture(false);
    String all = log.stream().collect(Collectors.joining("\n"));
    System.out.println("[eviction] " + policy + " " + onFailure + ": " + run);
    assertEquals(
        1,
        log.stream().filter(s -> s.contains("with maxmemory-policy " + policy)).count(),
        "warned once at connect\n" + all);
    assertEquals(run.calls, run.callsAfterSwitch, "not used from the first call\n" + all);
    assertTrue(
        run.admitted <= (onFailure == ClusterScope.OnFailure.LOCAL ? bound(run.millis) + 1 : 0),
        run.admitted + " admitted in " + run.millis + " ms, bound " + bound(run.millis));
    String scope =
        "cluster ("
            + (onFailure == ClusterScope.OnFailure.LOCAL ? "local fallback" : "rejecting all")
            + ": Redis evicts keys)";
    assertEquals(scope, l.scope());
    if (onFailure == ClusterScope.OnFailure.LOCAL) {
      assertTrue(
          run.admittedAfterSwitch <= bound(run.afterSwitchMillis) + 1,
          "the local bucket's bound from then on: "
              + run.admittedAfterSwitch
              + " admitted in "
              + run.afterSwitchMillis
              + " ms");
    } else {
      assertEquals(0, run.admittedAfterSwitch, "reject refuses");
    }
    assertTrue(
        l.backendFailures() >= run.callsAfterSwitch,
        l.backendFailures() + " failures counted, " + run.callsAfterSwitch + " calls not served");
    List<String> evicts =
        log.stream().filter(s -> s.contains("evicts keys")).collect(Collectors.toList());
    assertEquals(1, evicts.size(), all);
    assertTrue(
        evicts.get(0).contains("maxmemory-policy " + policy)
            && evicts.get(0).contains("maxmemory-policy noeviction")
            && evicts.get(0).contains("backendAllowEviction: true"),
        "the policy and the fix: " + evicts.get(0));
  }

  /**
   * Evictions that begin while Weir uses the server are seen at the next check (each second): the
   * server is not used from then on. Until then the evictions hand out full buckets; the figures
   * printed say how many.
   */
  @Test
  void evictionsThatBeginLaterAreSeenWithinASecond() throws Exception {
    redis = RedisServer.start("--maxmemory", "2mb", "--maxmemory-policy", "allkeys-lru");
    AgentLog.capture(true);
    connect(false, NanoClock.SYSTEM);
    assertTrue(backend.answering(), "not evicting yet");
    BucketLimiter l = limiter(ClusterScope.OnFailure.LOCAL);
    java.util.concurrent.CompletableFuture<Run> calls =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> call(l));
    Thread.sleep(500);
    long floodAt = System.nanoTime();
    long lag = SchedulingLag.nanos();
    flood = redis.flood(60_000);
    Run run = calls.get();
    List<String> log = AgentLog.capture(false);
    long floodMillis =
        (floodAt - (System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(run.millis))) / 1_000_000;
    System.out.println("[eviction] allkeys-lru, evictions from " + floodMillis + " ms: " + run);
    // a check each second, after the first eviction: a second more for scheduling, beyond the
    // stalls this JVM measured
    assertTrue(
        run.switchMillis > 0
            && run.switchMillis < floodMillis + 2000 + (SchedulingLag.nanos() - lag) / 1_000_000,
        "stopped using it at " + run.switchMillis + " ms\n" + log);
    assertTrue(
        run.admittedAfterSwitch <= bound(run.afterSwitchMillis) + 1,
        run.admittedAfterSwitch + " admitted after it in " + run.afterSwitchMillis + " ms");
    assertEquals("cluster (local fallback: Redis evicts keys)", l.scope());
    assertEquals(1, log.stream().filter(s -> s.contains("evicts keys")).count(), log.toString());
  }

  /** {@code backendAllowEviction: true}: warned at connect, and used while it evicts. */
  @Test
  void allowedEvictionKeepsUsingTheServer() throws Exception {
    evictingServer("allkeys-lru");
    AgentLog.capture(true);
    connect(true, NanoClock.SYSTEM);
    BucketLimiter l = limiter(ClusterScope.OnFailure.REJECT);
    Run run = call(l);
    backend.checkEvictionsForTests();
    List<String> log = AgentLog.capture(false);
    System.out.println(
        "[eviction] allkeys-lru, backendAllowEviction: true: admitted "
            + run.admitted
            + " in "
            + run.millis
            + " ms, bound "
            + bound(run.millis));
    assertEquals(-1, run.switchMillis, log.toString());
    assertEquals("cluster", l.scope());
    assertEquals(0, l.backendFailures());
    assertEquals(1, log.size(), log.toString());
    assertTrue(
        log.get(0).contains("maxmemory-policy allkeys-lru")
            && log.get(0).contains("backendAllowEviction: true, so Weir uses it"),
        log.toString());
  }

  /**
   * Used again once it has not evicted for a minute, on the watch's clock: a fake one here, moved
   * by the test (the background check each second reads it too).
   */
  @Test
  void usedAgainAfterAMinuteWithoutEvictions() throws Exception {
    evictingServer("allkeys-random");
    FakeClock clock = new FakeClock(TimeUnit.HOURS.toNanos(1));
    AgentLog.capture(true);
    connect(false, clock);
    BucketLimiter l = limiter(ClusterScope.OnFailure.REJECT);
    for (int i = 0; i < 100 && backend.answering(); i++) {
      Thread.sleep(20);
      backend.checkEvictionsForTests();
    }
    assertEquals("cluster (rejecting all: Redis evicts keys)", l.scope());
    assertEquals(TimeUnit.SECONDS.toNanos(1), l.acquire(), "not used: reject");
    flood.close();
    Thread.sleep(50);
    backend.checkEvictionsForTests(); // the count after the flood's last write
    clock.advance(TimeUnit.SECONDS.toNanos(59));
    backend.checkEvictionsForTests();
    assertFalse(backend.answering(), "59 s without evictions: not yet");
    clock.advance(TimeUnit.SECONDS.toNanos(2));
    backend.checkEvictionsForTests();
    assertTrue(backend.answering(), "61 s without evictions: used again");
    assertEquals("cluster", l.scope());
    List<String> log = AgentLog.capture(false); // before a write that may make it evict again
    assertEquals(0, l.acquire());
    assertEquals(1, log.stream().filter(s -> s.contains("evicts keys")).count(), log.toString());
    assertEquals(
        1,
        log.stream()
            .filter(s -> s.contains("has not evicted keys for a minute; cluster limits use it"))
            .count(),
        log.toString());
  }

  /** A policy Weir cannot read (a user without {@code INFO}) is warned once; the server is used. */
  @Test
  void aPolicyThatCannotBeReadIsWarnedOnce() throws Exception {
    redis = RedisServer.start();
    assertEquals(
        "+OK", redis.command("ACL", "SETUSER", "weir", "on", ">pw", "~*", "+@all", "-info"));
    AgentLog.capture(true);
    backend =
        RedisBackend.start(
            List.of(BackendUri.parse("redis://weir:pw@127.0.0.1:" + redis.port())),
            RedisBackendTest.GENEROUS_MILLIS,
            "",
            null,
            false,
            NanoClock.SYSTEM);
    awaitConnected(backend);
    backend.checkEvictionsForTests();
    backend.checkEvictionsForTests();
    BucketLimiter l = limiter(ClusterScope.OnFailure.REJECT);
    assertEquals(0, l.acquire());
    List<String> log = AgentLog.capture(false);
    assertEquals(1, log.size(), log.toString());
    assertTrue(
        log.get(0).contains("cannot read the maxmemory_policy of 127.0.0.1:" + redis.port())
            && log.get(0).contains("NOPERM"),
        log.toString());
  }
}
