package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.BucketLimiter;
import dev.weir.agent.bootstrap.ClusterScope;
import dev.weir.agent.bootstrap.Discipline;
import dev.weir.agent.bootstrap.FakeClock;
import dev.weir.agent.bootstrap.GcraBucket;
import dev.weir.agent.bootstrap.NanoClock;
import dev.weir.agent.config.BackendUri;
import dev.weir.redis.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Redis backend's own duties, against a real {@code redis-server}. */
class RedisBackendTest {
  private RedisServer redis;
  private RedisBackend backend;
  private int limiters;

  @BeforeEach
  void start() throws Exception {
    redis = RedisServer.start();
    backend = RedisBackend.start(List.of(BackendUri.parse(redis.uri())), 100, "");
    SharedBucketContractTest.awaitAnswering(backend);
  }

  @AfterEach
  void stop() {
    AgentLog.capture(false);
    backend.close();
    redis.close();
  }

  private BucketLimiter limiter(
      Discipline discipline, double rate, long capacity, ClusterScope.OnFailure onFailure) {
    return limiter(discipline, rate, capacity, onFailure, NanoClock.SYSTEM);
  }

  /** A cluster limiter whose waits (in this JVM) run on {@code clock}; Redis keeps its own. */
  private BucketLimiter limiter(
      Discipline discipline,
      double rate,
      long capacity,
      ClusterScope.OnFailure onFailure,
      NanoClock clock) {
    String name = "unit-" + (++limiters);
    GcraBucket bucket =
        GcraBucket.create(discipline, rate, TimeUnit.SECONDS, capacity, false, Long.MAX_VALUE, 0);
    return new BucketLimiter(
        name, "test", bucket, 1, clock, false, new ClusterScope(backend, "", name, onFailure));
  }

  /** Threads calling a limiter without pause until stopped, timing the slowest call. */
  private static final class Callers {
    private final java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicLong slowest =
        new java.util.concurrent.atomic.AtomicLong();
    private final List<Thread> threads = new ArrayList<>();

    Callers(BucketLimiter l, int count) {
      for (int t = 0; t < count; t++) {
        Thread thread =
            new Thread(
                () -> {
                  while (!stop.get()) {
                    long start = System.nanoTime();
                    l.acquire();
                    slowest.accumulateAndGet(System.nanoTime() - start, Math::max);
                  }
                });
        threads.add(thread);
        thread.start();
      }
    }

    /** Stops them; returns the slowest call's nanoseconds. */
    long stop() throws InterruptedException {
      stop.set(true);
      for (Thread thread : threads) {
        thread.join();
      }
      return slowest.get();
    }
  }

  private long pttl(String key) throws Exception {
    String reply = redis.command("PTTL", key);
    return Long.parseLong(reply.substring(1));
  }

  /** A TTL rounding to 0 would store nothing; a missing one would keep the key for ever. */
  @Test
  void everyWriteLeavesAnExpiryOfTheTimeUntilIdle() throws Exception {
    BucketLimiter tokens = limiter(Discipline.TOKEN_BUCKET, 3, 1, ClusterScope.OnFailure.REJECT);
    BucketLimiter policing = limiter(Discipline.POLICING, 50, 5, ClusterScope.OnFailure.REJECT);
    // a shaped call waits for its slot before it returns: on a fake clock that wait is over at
    // once, so the expiry is read as the script wrote it, not after a park a loaded machine
    // stretched (the state's time is Redis's own either way)
    BucketLimiter shaping =
        limiter(Discipline.SHAPING, 50, 5, ClusterScope.OnFailure.REJECT, new FakeClock(0));
    for (BucketLimiter l : List.of(tokens, policing, shaping)) {
      String key = l.cluster().key(null);
      long admitted = 0;
      for (int i = 0; i < 30; i++) {
        if (l.acquire() == 0) {
          admitted++;
        }
        long ttl = pttl(key);
        // the bucket is busy right after a call: its key exists, expiring when it is idle again
        assertTrue(ttl >= 1 && ttl <= 400, key + " after call " + i + ": PTTL " + ttl);
        if (i % 10 == 9) {
          l.refund(null);
          long afterRefund = pttl(key);
          assertTrue(
              afterRefund == -2 || afterRefund >= 1, key + " after a refund: " + afterRefund);
        }
        Thread.sleep(3);
      }
      assertTrue(admitted >= 1, key + " admitted " + admitted);
    }
    assertTrue(
        tokens.rejected() > 0, "3/s capacity 1 still limits: " + tokens.granted() + " granted");
  }

  @Test
  void aServerThatForgotTheScriptGetsItAgain() throws Exception {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 2, ClusterScope.OnFailure.REJECT);
    assertEquals(0, l.acquire());
    assertEquals("+OK", redis.command("SCRIPT", "FLUSH"));
    assertEquals(0, l.acquire());
    assertNotEquals(0, l.acquire(), "the third call of capacity 2 is limited: the state held");
    assertEquals(0, l.backendFailures());
  }

  @Test
  void aKeyHoldingSomethingElseFailsItsCallsOnly() throws Exception {
    AgentLog.capture(true);
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 2, ClusterScope.OnFailure.REJECT);
    redis.command("SET", l.cluster().key(null), "not a bucket");
    for (int i = 0; i < 3; i++) {
      assertEquals(TimeUnit.SECONDS.toNanos(1), l.acquire(), "reject: retry after 1 s");
    }
    assertTrue(backend.answering(), "the backend itself answers");
    assertEquals(3, l.backendFailures());
    BucketLimiter other = limiter(Discipline.TOKEN_BUCKET, 10, 2, ClusterScope.OnFailure.REJECT);
    assertEquals(0, other.acquire());
    List<String> log = AgentLog.capture(false);
    assertEquals(
        1,
        log.stream().filter(s -> s.contains("holds no Weir bucket state")).count(),
        log.toString());
  }

  /** Many threads on one shared bucket at one frozen instant: exactly its capacity, no more. */
  @Test
  void manyThreadsAtOneInstantTakeExactlyTheCapacity() throws Exception {
    FakeClock frozen = new FakeClock(5_000_000_000L);
    backend.useClockForTests(frozen);
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 1000, 250, ClusterScope.OnFailure.REJECT);
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Integer>> threads = new ArrayList<>();
    for (int t = 0; t < 16; t++) {
      threads.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
                int admitted = 0;
                for (int i = 0; i < 100; i++) {
                  if (l.acquire() == 0) {
                    admitted++;
                  }
                }
                return admitted;
              },
              java.util.concurrent.Executors.newSingleThreadExecutor()));
    }
    go.countDown();
    int total = 0;
    for (CompletableFuture<Integer> f : threads) {
      total += f.get();
    }
    assertEquals(250, total);
    assertEquals(250, l.granted());
    assertEquals(1350, l.rejected());
    assertEquals(0, l.backendFailures());
  }

  /** A paused Redis: calls answered within the timeout, the fallback, then Redis again. */
  @Test
  void aStalledRedisIsLeftWithinTheTimeoutAndUsedAgain() throws Exception {
    AgentLog.capture(true);
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 1, 3, ClusterScope.OnFailure.LOCAL);
    assertEquals(0, l.acquire());
    CompletableFuture<String> sleep =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return redis.command("DEBUG", "SLEEP", "1");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(100);
    long start = System.nanoTime();
    long answer = l.acquire();
    long took = System.nanoTime() - start;
    assertEquals(0, answer, "the local fallback admits: a full local bucket");
    assertTrue(
        took < TimeUnit.MILLISECONDS.toNanos(250), "answered in " + took / 1_000_000 + " ms");
    assertFalse(backend.answering());
    assertEquals("cluster (local fallback)", l.scope());
    start = System.nanoTime();
    l.acquire();
    assertTrue(
        System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(20),
        "while down, calls never wait for Redis");
    assertEquals("+OK", sleep.get());
    for (int i = 0; i < 300 && !backend.answering(); i++) {
      Thread.sleep(10);
    }
    assertTrue(backend.answering(), "probed back");
    assertEquals("cluster", l.scope());
    assertEquals(2, l.backendFailures(), "the exchange that timed out, the call made while down");
    List<String> log = AgentLog.capture(false);
    assertEquals(
        1, log.stream().filter(s -> s.contains("does not answer")).count(), log.toString());
    assertEquals(
        1, log.stream().filter(s -> s.contains("answers again; cluster")).count(), log.toString());
  }

  /**
   * A restarted server leaves the pool's idle connections dead: after the probe puts it back in
   * use, eight threads' calls do not meet them (one outage is logged once, whatever the pool held).
   */
  @Test
  void aRestartedServerIsUsedAgainWithoutItsDeadConnections() throws Exception {
    BucketLimiter l =
        limiter(Discipline.TOKEN_BUCKET, 1_000_000, 1_000_000, ClusterScope.OnFailure.LOCAL);
    Callers callers = new Callers(l, 8);
    Thread.sleep(300); // eight connections in the pool, in use and idle by turns
    AgentLog.capture(true);
    int port = redis.port();
    redis.kill();
    Thread.sleep(300);
    redis = RedisServer.startOn(RedisServer.binary(), port);
    for (int i = 0; i < 300 && !backend.answering(); i++) {
      Thread.sleep(10);
    }
    assertTrue(backend.answering(), "probed back");
    Thread.sleep(100);
    long failures = l.backendFailures();
    Thread.sleep(500);
    callers.stop();
    List<String> log = AgentLog.capture(false);
    assertEquals(failures, l.backendFailures(), "no failure once it answers again: " + log);
    assertEquals("cluster", l.scope());
    assertEquals(
        1, log.stream().filter(s -> s.contains("does not answer")).count(), log.toString());
  }

  /**
   * A server that answers PING but refuses the script's writes (out of memory): the backend stays
   * down, logged once, until writes succeed again; no flapping between it and the fallback.
   */
  @Test
  void aServerThatRefusesWritesStaysDownUntilItTakesThemAgain() throws Exception {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 1000, 1000, ClusterScope.OnFailure.REJECT);
    assertEquals(0, l.acquire());
    AgentLog.capture(true);
    assertEquals("+OK", redis.command("CONFIG", "SET", "maxmemory", "1"));
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(800);
    long admitted = 0;
    long calls = 0;
    while (System.nanoTime() < deadline) {
      calls++;
      if (l.acquire() == 0) {
        admitted++;
      }
      Thread.sleep(1);
    }
    assertEquals(0, admitted, "reject while Redis refuses");
    assertFalse(backend.answering(), "down while writes are refused, though PING answers");
    assertEquals("+OK", redis.command("CONFIG", "SET", "maxmemory", "0"));
    for (int i = 0; i < 300 && !backend.answering(); i++) {
      Thread.sleep(10);
    }
    assertTrue(backend.answering(), "up once it takes writes");
    assertEquals(0, l.acquire());
    List<String> log = AgentLog.capture(false);
    assertEquals(
        1,
        log.stream().filter(s -> s.contains("does not answer")).count(),
        calls + " calls: " + log);
    assertTrue(log.get(0).contains("OOM"), log.toString());
    assertEquals(
        1, log.stream().filter(s -> s.contains("answers again; cluster")).count(), log.toString());
  }

  /** A key of another type fails its own limit's calls, logged once; others are served. */
  @Test
  void aKeyOfAnotherTypeFailsItsOwnCallsOnly() throws Exception {
    BucketLimiter a = limiter(Discipline.TOKEN_BUCKET, 1000, 1000, ClusterScope.OnFailure.REJECT);
    BucketLimiter b = limiter(Discipline.TOKEN_BUCKET, 1000, 1000, ClusterScope.OnFailure.REJECT);
    redis.command("RPUSH", a.cluster().key(null), "x");
    AgentLog.capture(true);
    for (int i = 0; i < 50; i++) {
      assertEquals(TimeUnit.SECONDS.toNanos(1), a.acquire());
      assertEquals(0, b.acquire());
    }
    List<String> log = AgentLog.capture(false);
    assertTrue(backend.answering());
    assertEquals(50, a.backendFailures());
    assertEquals(0, b.backendFailures());
    assertEquals(1, log.size(), log.toString());
    assertTrue(log.get(0).contains("WRONGTYPE"), log.toString());
  }

  /** Names with : or \ never share a key with another limit's per-key bucket. */
  @Test
  void limitNamesAreEscapedInKeys() {
    ClusterScope plain = new ClusterScope(backend, "", "pk", ClusterScope.OnFailure.REJECT);
    ClusterScope colon = new ClusterScope(backend, "app:", "pk:k0", ClusterScope.OnFailure.REJECT);
    ClusterScope slash = new ClusterScope(backend, "", "a\\b", ClusterScope.OnFailure.REJECT);
    assertEquals("weir:{pk:k0}", plain.key("k0"));
    assertEquals("app:weir:{pk\\:k0}", colon.key(null));
    assertEquals("weir:{a\\\\b:x}", slash.key("x"));
  }

  /**
   * A stall while four threads call: each call is answered within one timeout (100 ms) plus
   * scheduling slack, never two (a broken connection is not replaced on a caller's thread).
   */
  @Test
  void callsDuringAStallTakeOneTimeoutNotTwo() throws Exception {
    BucketLimiter l =
        limiter(Discipline.TOKEN_BUCKET, 1_000_000, 1_000_000, ClusterScope.OnFailure.LOCAL);
    Callers callers = new Callers(l, 4);
    Thread.sleep(300);
    AgentLog.capture(true);
    assertEquals("+OK", redis.command("DEBUG", "SLEEP", "1"));
    for (int i = 0; i < 300 && !backend.answering(); i++) {
      Thread.sleep(10);
    }
    Thread.sleep(200);
    long slowest = callers.stop();
    AgentLog.capture(false);
    assertTrue(backend.answering());
    assertTrue(
        slowest < TimeUnit.MILLISECONDS.toNanos(170),
        "slowest call " + slowest / 1_000_000 + " ms with a 100 ms timeout");
  }

  /** A backend down when the JVM starts: its coming up is logged too, once. */
  @Test
  void aBackendFoundDownAtStartIsLoggedWhenItComesUp() throws Exception {
    int port = RedisServer.freePort();
    AgentLog.capture(true);
    RedisBackend late =
        RedisBackend.start(List.of(BackendUri.parse("redis://127.0.0.1:" + port)), 100, "");
    RedisServer server = null;
    try {
      assertFalse(late.awaitAnswering(), "nothing listens yet");
      server = RedisServer.startOn(RedisServer.binary(), port);
      for (int i = 0; i < 300 && !late.answering(); i++) {
        Thread.sleep(10);
      }
      assertTrue(late.answering());
      List<String> log = AgentLog.capture(false);
      assertEquals(2, log.size(), log.toString());
      assertTrue(log.get(0).contains("does not answer"), log.toString());
      assertTrue(log.get(1).contains("answers again; cluster limits use it"), log.toString());
    } finally {
      late.close();
      if (server != null) {
        server.close();
      }
    }
  }
}
