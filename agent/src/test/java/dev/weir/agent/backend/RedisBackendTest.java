package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.config.BackendUri;
import dev.weir.it.fixtures.SchedulingLag;
import dev.weir.redis.RedisServer;
import dev.weir.redis.SlowProxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Redis backend's own duties, against a real {@code redis-server}.
 *
 * <p>Timing holds on a loaded 2-core machine: a test whose subject is not the timeout gives Redis a
 * generous one ({@link #GENEROUS_MILLIS}), so that a scheduling hiccup is never a failed call; one
 * that measures the timeout uses {@link #TIMEOUT_MILLIS} and allows {@link #SLACK_MILLIS} of
 * scheduling on top, which is less than a timeout: one timeout plus load passes, two fail.
 */
class RedisBackendTest {
  /** The timeout of tests that do not measure it: no hiccup of a loaded machine reaches it. */
  static final long GENEROUS_MILLIS = 2000;

  /** The timeout of tests that measure it. */
  static final long TIMEOUT_MILLIS = 1000;

  /** What the JVM may take to schedule a thread on a loaded machine: less than a timeout. */
  static final long SLACK_MILLIS = 500;

  private RedisServer redis;
  private RedisBackend backend;
  private final List<RedisBackend> others = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    redis = RedisServer.start();
    backend = RedisBackend.start(List.of(BackendUri.parse(redis.uri())), GENEROUS_MILLIS, "");
    SharedBucketContractTest.awaitAnswering(backend);
  }

  @AfterEach
  void stop() {
    AgentLog.capture(false);
    backend.close();
    for (RedisBackend other : others) {
      other.close();
    }
    redis.close();
  }

  /** A backend of this test's server with the timeout a timing test measures, connected. */
  private RedisBackend timed(String uri) throws Exception {
    RedisBackend b = RedisBackend.start(List.of(BackendUri.parse(uri)), TIMEOUT_MILLIS, "");
    others.add(b);
    SharedBucketContractTest.awaitAnswering(b);
    return b;
  }

  private BucketLimiter limiter(
      Discipline discipline, double rate, long capacity, ClusterScope.OnFailure onFailure) {
    return limiter(backend, discipline, rate, capacity, onFailure, NanoClock.SYSTEM);
  }

  private BucketLimiter limiter(
      Discipline discipline,
      double rate,
      long capacity,
      ClusterScope.OnFailure onFailure,
      NanoClock clock) {
    return limiter(backend, discipline, rate, capacity, onFailure, clock);
  }

  /** A cluster limiter whose waits (in this JVM) run on {@code clock}; Redis keeps its own. */
  static BucketLimiter limiter(
      RedisBackend on,
      Discipline discipline,
      double rate,
      long capacity,
      ClusterScope.OnFailure onFailure,
      NanoClock clock) {
    String name = "unit-" + NAMES.incrementAndGet();
    GcraBucket bucket =
        GcraBucket.create(discipline, rate, TimeUnit.SECONDS, capacity, false, Long.MAX_VALUE, 0);
    return new BucketLimiter(
        name, "test", bucket, 1, clock, false, new ClusterScope(on, "", name, onFailure));
  }

  private static final java.util.concurrent.atomic.AtomicInteger NAMES =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * Threads calling a limiter without pause until stopped, timing the slowest call's own time (less
   * the scheduling lag meanwhile).
   */
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
                    slowest.accumulateAndGet(Timed.call(l).ownNanos(), Math::max);
                  }
                });
        threads.add(thread);
        thread.start();
      }
    }

    /** Stops them; returns the slowest call's own nanoseconds. */
    long stop() throws InterruptedException {
      stop.set(true);
      for (Thread thread : threads) {
        thread.join();
      }
      return slowest.get();
    }
  }

  /**
   * One call, timed: its answer, what it took, and that less the {@link SchedulingLag} meanwhile
   * (its own time, which a timeout bounds whatever the machine's load).
   */
  record Timed(long answer, long tookNanos, long ownNanos) {
    static Timed call(BucketLimiter l) {
      long lag = SchedulingLag.nanos();
      long start = System.nanoTime();
      long answer = l.acquire();
      long took = System.nanoTime() - start;
      return new Timed(answer, took, took - (SchedulingLag.nanos() - lag));
    }

    /** Asserts the call's own time was under {@code millis}. */
    void assertWithin(long millis, String what) {
      assertTrue(ownNanos < TimeUnit.MILLISECONDS.toNanos(millis), what + ": " + this);
    }

    @Override
    public String toString() {
      return "answered in "
          + tookNanos / 1_000_000
          + " ms, "
          + ownNanos / 1_000_000
          + " ms of its own (the rest the machine's scheduling), with a "
          + TIMEOUT_MILLIS
          + " ms timeout";
    }
  }

  private long pttl(String key) throws Exception {
    String reply = redis.command("PTTL", key);
    return Long.parseLong(reply.substring(1));
  }

  /**
   * A TTL rounding to 0 would store nothing; a missing one would keep the key for ever. Right after
   * a call the key exists, expiring when the bucket is idle again (at most 400 ms here, at least
   * one interval: 20 ms, 333 ms for the 3/s bucket); a loaded machine may take longer than that to
   * read it, so a key found gone counts only when more than its shortest life has passed since the
   * call began.
   */
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
      long shortestLifeMillis = l == tokens ? 333 : 20;
      long admitted = 0;
      int seen = 0;
      long lastWrite = System.nanoTime(); // a refused call writes nothing: its key ages from here
      for (int i = 0; i < 30; i++) {
        long before = System.nanoTime();
        if (l.acquire() == 0) {
          admitted++;
          lastWrite = before;
        }
        long ttl = pttl(key);
        long sinceWriteMillis = (System.nanoTime() - lastWrite) / 1_000_000;
        if (ttl == -2 && sinceWriteMillis >= shortestLifeMillis) {
          continue; // expired while this machine was busy: nothing to tell
        }
        seen++;
        assertTrue(
            ttl >= 1 && ttl <= 400,
            key
                + " after call "
                + i
                + ": PTTL "
                + ttl
                + ", read "
                + sinceWriteMillis
                + " ms after the last write");
        if (i % 10 == 9) {
          l.refund(null);
          long afterRefund = pttl(key);
          assertTrue(
              afterRefund == -2 || afterRefund >= 1, key + " after a refund: " + afterRefund);
        }
        Thread.sleep(3);
      }
      assertTrue(admitted >= 1, key + " admitted " + admitted);
      assertTrue(seen >= 5, key + ": only " + seen + " of 30 expiries read in time");
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

  /**
   * A paused Redis ({@code CLIENT PAUSE}): calls answered within the timeout (one, plus
   * scheduling), the fallback; while it is down calls do not wait for it at all (less than the
   * slack, so not a timeout); then Redis again.
   */
  @Test
  void aStalledRedisIsLeftWithinTheTimeoutAndUsedAgain() throws Exception {
    RedisBackend timed = timed(redis.uri());
    BucketLimiter l =
        limiter(
            timed, Discipline.TOKEN_BUCKET, 1, 3, ClusterScope.OnFailure.LOCAL, NanoClock.SYSTEM);
    assertEquals(0, l.acquire());
    AgentLog.capture(true);
    // paused from its answer on: every client's commands wait (a connect is still accepted)
    assertEquals("+OK", redis.command("CLIENT", "PAUSE", "2500", "ALL"));
    Timed paused = Timed.call(l);
    assertEquals(0, paused.answer(), "the local fallback admits: a full local bucket");
    paused.assertWithin(TIMEOUT_MILLIS + SLACK_MILLIS, "one timeout");
    assertFalse(timed.answering());
    assertEquals("cluster (local fallback)", l.scope());
    Timed.call(l).assertWithin(SLACK_MILLIS, "while down, calls never wait for Redis");
    for (int i = 0; i < 500 && !timed.answering(); i++) {
      Thread.sleep(10);
    }
    assertTrue(timed.answering(), "probed back");
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
        log.stream().filter(s -> s.contains("refuses Weir's calls (OOM")).count(),
        calls + " calls: " + log);
    assertFalse(log.toString().contains("does not answer"), log.toString());
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
   * A stall while four threads call: each call is answered within one timeout plus scheduling
   * slack, never two (a broken connection is not replaced on a caller's thread). The timeout is a
   * second and the slack half of one, so that a loaded machine's scheduling passes and a second
   * timeout does not.
   */
  @Test
  void callsDuringAStallTakeOneTimeoutNotTwo() throws Exception {
    RedisBackend timed = timed(redis.uri());
    BucketLimiter l =
        limiter(
            timed,
            Discipline.TOKEN_BUCKET,
            1_000_000,
            1_000_000,
            ClusterScope.OnFailure.LOCAL,
            NanoClock.SYSTEM);
    Callers callers = new Callers(l, 4);
    Thread.sleep(300);
    AgentLog.capture(true);
    assertEquals("+OK", redis.command("DEBUG", "SLEEP", "2.5"));
    for (int i = 0; i < 500 && !timed.answering(); i++) {
      Thread.sleep(10);
    }
    Thread.sleep(200);
    long slowest = callers.stop();
    AgentLog.capture(false);
    assertTrue(timed.answering());
    assertTrue(l.backendFailures() > 0, "the stall was met");
    assertWithinOneTimeout(slowest);
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

  /** The one log line of a backend that has not answered yet and meets {@code expected}. */
  private static String refusal(String uri, String expected) throws Exception {
    AgentLog.capture(true);
    RedisBackend b = RedisBackend.start(List.of(BackendUri.parse(uri)), GENEROUS_MILLIS, "");
    try {
      assertFalse(b.awaitAnswering(), uri);
      BucketLimiter l =
          limiter(
              b, Discipline.TOKEN_BUCKET, 10, 2, ClusterScope.OnFailure.REJECT, NanoClock.SYSTEM);
      assertEquals(TimeUnit.SECONDS.toNanos(1), l.acquire(), "reject: retry after 1 s");
      assertEquals(1, l.backendFailures());
      assertEquals("cluster (rejecting all)", l.scope());
    } finally {
      b.close();
    }
    List<String> log = AgentLog.capture(false);
    assertEquals(1, log.size(), log.toString());
    String line = log.get(0);
    assertTrue(line.contains("refuses Weir's calls (" + expected), line);
    assertFalse(line.contains("does not answer"), line);
    assertFalse(line.contains("s3cret") || line.contains(":wrong"), "no password: " + line);
    return line;
  }

  /**
   * A wrong password, a user without the permission to run scripts (an ACL user: {@code NOPERM}),
   * one that may run them but not the {@code TIME} they call, and a database index out of range:
   * Redis refuses, and says why; the log says so in its words, never that it does not answer.
   */
  @Test
  void aRedisThatRefusesIsReportedAsRefusingInItsWords() throws Exception {
    try (RedisServer secured = RedisServer.start("--requirepass", "s3cret")) {
      assertEquals(
          List.of("+OK", "+OK", "+OK"),
          secured.commands(
              new String[] {"AUTH", "s3cret"},
              new String[] {
                "ACL", "SETUSER", "scriptless", "on", ">pw", "~*", "+@all", "-evalsha", "-eval"
              },
              // scripts, but not the clock they read (TIME is in @fast, not @read or @write)
              new String[] {"ACL", "SETUSER", "timeless", "on", ">pw", "~*", "+@all", "-time"}));
      String port = Integer.toString(secured.port());
      System.out.println(
          "[refusal] "
              + refusal(
                  "redis://:wrong@127.0.0.1:" + port,
                  "WRONGPASS invalid username-password pair or user is disabled."));
      String noperm = refusal("redis://scriptless:pw@127.0.0.1:" + port, "NOPERM");
      assertTrue(noperm.contains("evalsha"), noperm);
      System.out.println("[refusal] " + noperm);
      // Redis names no command here: the script's line says which (TIME, where every call reads it)
      String timeless =
          refusal(
              "redis://timeless:pw@127.0.0.1:" + port,
              "ERR The user executing the script can't run this command");
      System.out.println("[refusal] " + timeless);
      System.out.println(
          "[refusal] "
              + refusal(
                  "redis://:s3cret@127.0.0.1:" + port + "/99", "ERR DB index is out of range"));
    }
  }

  /**
   * One deadline per call that nothing restarts: a slow Redis (each answer 600 ms, less than the 1
   * s timeout) behind a password and a database, whose script cache was flushed, met by a call that
   * must open a new connection: connect, {@code AUTH}, {@code SELECT}, {@code EVALSHA}, its {@code
   * NOSCRIPT}, {@code EVAL}. Each exchange alone is within the timeout; together they are 2.4 s.
   * The call is answered within its one timeout, plus scheduling.
   */
  @Test
  void theExchangesOfACallShareOneDeadline() throws Exception {
    try (RedisServer secured = RedisServer.start("--requirepass", "s3cret");
        SlowProxy slow = SlowProxy.start(secured.port(), 0)) {
      RedisBackend timed = timed("redis://:s3cret@127.0.0.1:" + slow.port() + "/3");
      BucketLimiter l = flushedWithoutConnections(timed, secured);
      slow.delayMillis(600);
      AgentLog.capture(true);
      Timed call = Timed.call(l);
      AgentLog.capture(false);
      System.out.println("[deadline] a new connection's call to a slow Redis: " + call);
      assertEquals(0, call.answer(), "the local fallback admits");
      assertEquals(1, l.backendFailures(), "it timed out");
      call.assertWithin(TIMEOUT_MILLIS + SLACK_MILLIS, "one timeout");
    }
  }

  /**
   * A limiter on {@code timed} that has called once, after which the server (password {@code
   * s3cret}) forgot the script and the backend closed its idle connections: the next call opens a
   * new one and reloads the script.
   */
  private static BucketLimiter flushedWithoutConnections(RedisBackend timed, RedisServer server)
      throws Exception {
    BucketLimiter l =
        limiter(
            timed,
            Discipline.TOKEN_BUCKET,
            1000,
            1000,
            ClusterScope.OnFailure.LOCAL,
            NanoClock.SYSTEM);
    assertEquals(0, l.acquire());
    assertEquals(
        List.of("+OK", "+OK"),
        server.commands(new String[] {"AUTH", "s3cret"}, new String[] {"SCRIPT", "FLUSH"}));
    timed.dropIdleConnectionsForTests();
    return l;
  }

  /**
   * Under {@code CLIENT PAUSE}, with the script cache flushed and no connection open, four threads
   * call: every call is answered within its timeout plus scheduling, one timeout, not one per
   * exchange ({@code AUTH}, {@code SELECT}, the script and its reload).
   */
  @Test
  void underClientPauseANewConnectionsCallsTakeOneTimeout() throws Exception {
    try (RedisServer secured = RedisServer.start("--requirepass", "s3cret")) {
      RedisBackend timed = timed("redis://:s3cret@127.0.0.1:" + secured.port() + "/3");
      BucketLimiter l = flushedWithoutConnections(timed, secured);
      AgentLog.capture(true);
      assertEquals(
          List.of("+OK", "+OK"),
          secured.commands(
              new String[] {"AUTH", "s3cret"}, new String[] {"CLIENT", "PAUSE", "2500", "ALL"}));
      Callers callers = new Callers(l, 4);
      Thread.sleep(2000);
      long slowest = callers.stop();
      AgentLog.capture(false);
      assertTrue(l.backendFailures() > 0, "the pause was met");
      assertWithinOneTimeout(slowest);
    }
  }

  /**
   * The slowest call, in nanoseconds of its own (less the scheduling lag a ticker measured), took
   * one timeout plus slack: one deadline, never two.
   */
  private static void assertWithinOneTimeout(long slowest) {
    assertTrue(
        slowest < TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS + SLACK_MILLIS),
        "slowest call "
            + slowest / 1_000_000
            + " ms of its own (less the scheduling lag) with a "
            + TIMEOUT_MILLIS
            + " ms timeout");
  }
}
