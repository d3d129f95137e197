package dev.weir.agent.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import dev.weir.agent.bootstrap.limit.LimitGroup;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.config.BackendUri;
import dev.weir.redis.RedisServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Several cluster limits on one call, charged in one script call on a real Redis (the script on the
 * test's fake clock): the same calls at the same instants get the same answers, waits, names and
 * counts as the same limits kept locally (JointCharge's rules, on the script's side), in one
 * exchange, all or nothing, with exact totals under eight threads.
 */
class SharedChargeTest {
  static List<RedisServer> servers = List.of();
  static RedisBackend backend;
  private static int names;
  private final FakeClock clock = new FakeClock(TimeUnit.SECONDS.toNanos(100));

  @BeforeAll
  static void start() throws Exception {
    servers = List.of(RedisServer.start());
    backend = RedisBackend.start(List.of(BackendUri.parse(servers.get(0).uri())), 2000, "");
    SharedBucketContractTest.awaitAnswering(backend);
  }

  @AfterAll
  static void stop() {
    if (backend != null) {
      backend.close();
    }
    for (RedisServer server : servers) {
      server.close();
    }
  }

  @BeforeEach
  void onTheFakeClock() {
    backend.useClockForTests(clock);
  }

  /** The settings of one limit: made local or cluster-wide alike. */
  private record Settings(
      Discipline discipline, double rate, TimeUnit per, long capacity, long maxWaitMillis) {
    BucketLimiter make(String name, FakeClock clock, boolean cluster) {
      boolean wait = maxWaitMillis > 0 || discipline == Discipline.SHAPING;
      GcraBucket bucket =
          GcraBucket.create(
              discipline,
              rate,
              per,
              capacity,
              wait,
              maxWaitMillis > 0 ? TimeUnit.MILLISECONDS.toNanos(maxWaitMillis) : Long.MAX_VALUE,
              clock.nanoTime());
      ClusterScope scope =
          cluster ? new ClusterScope(backend, "", name, ClusterScope.OnFailure.REJECT) : null;
      return new BucketLimiter(name, "test", bucket, 1, clock, false, scope);
    }
  }

  private static Settings token(double perSecond, long capacity) {
    return new Settings(Discipline.TOKEN_BUCKET, perSecond, TimeUnit.SECONDS, capacity, 0);
  }

  private static Settings tokenWaiting(double perSecond, long capacity, long maxWaitMillis) {
    return new Settings(
        Discipline.TOKEN_BUCKET, perSecond, TimeUnit.SECONDS, capacity, maxWaitMillis);
  }

  private static Settings shaping(double perSecond, long queue) {
    return new Settings(Discipline.SHAPING, perSecond, TimeUnit.SECONDS, queue, 0);
  }

  /** A group of limits, each kept locally or by Redis as {@code cluster} says. */
  private final class Side {
    final List<BucketLimiter> members = new ArrayList<>();
    final LimitGroup group;

    Side(boolean[] cluster, Settings... limits) {
      int[] ids = new int[limits.length];
      int n = names++;
      for (int i = 0; i < limits.length; i++) {
        BucketLimiter l = limits[i].make("shared-" + n + "-" + (char) ('a' + i), clock, cluster[i]);
        members.add(l);
        ids[i] = LimiterRegistry.register("shared-charge " + n + " " + i, l);
      }
      group =
          new LimitGroup(
              "g", "Test#m()", ids, new boolean[limits.length], new boolean[limits.length]);
    }

    /** One call, and what it left: the answer, the names, and each member's counts. */
    String call() {
      long before = clock.nanoTime();
      long r = group.acquire();
      StringBuilder s = new StringBuilder();
      s.append(r == Limiter.ADMITTED ? "admitted" : r > 0 ? "limited " + r : "interrupted " + ~r);
      s.append(" after ").append(clock.nanoTime() - before);
      if (r != Limiter.ADMITTED) {
        String[] by = LimitGroup.refusingLimits();
        for (String name : by) {
          s.append(' ').append(name.substring(name.lastIndexOf('-') + 1));
        }
      }
      for (BucketLimiter m : members) {
        s.append(" | ").append(m.granted()).append('/').append(m.rejected());
        s.append('/').append(m.waited()).append('/').append(m.availablePermits());
      }
      return s.toString();
    }
  }

  /** The same calls at the same instants on local limits and on the same limits in Redis. */
  private void same(long stepMillis, int calls, boolean[] cluster, Settings... limits) {
    Side local = new Side(new boolean[limits.length], limits);
    long start = clock.nanoTime();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      expected.add(i + ": " + local.call());
      clock.advance(TimeUnit.MILLISECONDS.toNanos(stepMillis));
    }
    clock.set(start);
    Side shared = new Side(cluster, limits);
    List<String> actual = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      actual.add(i + ": " + shared.call());
      clock.advance(TimeUnit.MILLISECONDS.toNanos(stepMillis));
    }
    assertEquals(String.join("\n", expected), String.join("\n", actual));
    assertEquals(0, shared.members.get(0).backendFailures());
    String all = String.join("\n", expected);
    assertTrue(all.contains("limited"), "the sequence reaches a refusal\n" + all);
    boolean waits =
        Arrays.stream(limits)
            .allMatch(l -> l.maxWaitMillis > 0 || l.discipline == Discipline.SHAPING);
    assertEquals(
        waits,
        !all.replaceAll("after 0 ", "").equals(all.replaceAll("after \\d+ ", "")),
        "the sequence makes calls wait where a limit waits\n" + all);
  }

  private static final boolean[] BOTH = {true, true};

  @Test
  void twoRejectingTokenBucketsAnswerAsLocally() {
    same(100, 60, BOTH, token(2, 3), token(1, 5));
  }

  @Test
  void aWaitingTokenBucketAndAShapingOneShareOneDeparture() {
    same(80, 40, BOTH, tokenWaiting(1, 1, 300), shaping(5, 3));
  }

  @Test
  void aWaitingAndARejectingLimitRefuseWhatTheyWouldTogether() {
    same(30, 50, BOTH, tokenWaiting(10, 1, 150), token(3, 4));
  }

  @Test
  void aLocalAndAClusterLimitAnswerAsTwoLocalOnes() {
    same(80, 40, new boolean[] {false, true}, shaping(5, 3), tokenWaiting(1, 1, 300));
    same(80, 40, new boolean[] {true, false}, token(2, 3), tokenWaiting(5, 1, 300));
  }

  @Test
  void threeClusterLimitsAreOneScriptCall() throws Exception {
    Side side =
        new Side(
            new boolean[] {true, true, false, true},
            token(1, 5),
            shaping(5, 2),
            token(1, 9),
            token(2, 3));
    long before = evalshaCalls();
    assertEquals(Limiter.ADMITTED, side.group.acquire());
    List<BucketLimiter> cluster =
        List.of(side.members.get(0), side.members.get(1), side.members.get(3));
    assertEquals(scriptCallsFor(cluster), evalshaCalls() - before, "one exchange (per slot)");
    assertEquals(4, side.members.get(0).availablePermits());
    assertEquals(8, side.members.get(2).availablePermits());
    assertEquals(2, side.members.get(3).availablePermits());
  }

  private static Settings hourly(long capacity) {
    return new Settings(Discipline.TOKEN_BUCKET, 1, TimeUnit.HOURS, capacity, 0);
  }

  private static int passNow(Limiter l) {
    int n = 0;
    while (n < 100 && l.acquire() == Limiter.ADMITTED) {
      n++;
    }
    return n;
  }

  @Test
  void theClusterLimitRefusesAndTheLocalOneIsChargedNothing() {
    Side side = new Side(new boolean[] {true, false}, hourly(3), hourly(5));
    assertEquals(3, passNow(side.group));
    assertEquals(side.members.get(0).name(), LimitGroup.refusedBy());
    assertEquals(2, side.members.get(1).availablePermits(), "paid for the three admitted only");
    assertEquals(1, side.members.get(0).rejected());
    assertEquals(0, side.members.get(1).rejected());
  }

  @Test
  void aLocalRefusalLeavesTheClusterLimitUntouched() throws Exception {
    Side side = new Side(new boolean[] {true, false}, hourly(5), hourly(2));
    assertEquals(2, passNow(side.group));
    long before = evalshaCalls();
    assertTrue(side.group.acquire() > 0);
    assertEquals(0, evalshaCalls() - before, "refused by the local limit: Redis not asked");
    assertEquals(side.members.get(1).name(), LimitGroup.refusedBy());
    assertEquals(3, passNow(side.members.get(0)), "Redis holds 5 less the 2 admitted");
  }

  @Test
  void aRefusedCallIsChargedOnNoKey() {
    Side side = new Side(BOTH, token(1, 5), token(1, 2));
    assertEquals(Limiter.ADMITTED, side.group.acquire());
    assertEquals(Limiter.ADMITTED, side.group.acquire());
    long retry = side.group.acquire();
    assertEquals(TimeUnit.SECONDS.toNanos(1), retry);
    assertEquals(side.members.get(1).name(), LimitGroup.refusedBy());
    assertEquals(3, side.members.get(0).availablePermits(), "the refused call took nothing");
    assertEquals(1, side.members.get(1).rejected());
    assertEquals(0, side.members.get(0).rejected(), "counted only where it was refused");
  }

  @Test
  void anInterruptedWaiterGivesBackOnEveryKeyExactly() {
    Side side = new Side(BOTH, shaping(2, 4), tokenWaiting(1, 1, 5000));
    assertEquals(Limiter.ADMITTED, side.group.acquire());
    long shaped = side.members.get(0).availablePermits();
    long tokens = side.members.get(1).availablePermits();
    clock.onPark(() -> Thread.currentThread().interrupt());
    try {
      long r = side.group.acquire(); // would depart in 1 s: the token bucket's next permit
      assertTrue(r < 0, "interrupted: " + r);
      assertEquals(side.members.get(1).name(), LimitGroup.refusedBy(), "the longest wait's");
    } finally {
      clock.onPark(() -> {});
      Thread.interrupted();
    }
    assertEquals(shaped, side.members.get(0).availablePermits(), "the queue's slot given back");
    assertEquals(tokens, side.members.get(1).availablePermits(), "the token given back");
    assertEquals(1, side.members.get(0).rejected());
    assertEquals(1, side.members.get(1).rejected());
    clock.advance(TimeUnit.MILLISECONDS.toNanos(999));
    long at = clock.nanoTime();
    assertEquals(Limiter.ADMITTED, side.group.acquire());
    assertEquals(
        TimeUnit.MILLISECONDS.toNanos(1),
        clock.nanoTime() - at,
        "the next call departs when the first call's token is back: the interrupted one's is");
  }

  /**
   * A backend that does not answer: each cluster limit of the call follows its onBackendFailure.
   */
  @Test
  void aDeadBackendLeavesEachLimitToItsOnBackendFailure() {
    RedisBackend dead =
        RedisBackend.start(
            List.of(BackendUri.parse("redis://127.0.0.1:" + RedisServer.freePort())), 200, "");
    try {
      GcraBucket two =
          GcraBucket.create(
              Discipline.TOKEN_BUCKET, 1, TimeUnit.HOURS, 2, false, 0, clock.nanoTime());
      GcraBucket nine =
          GcraBucket.create(
              Discipline.TOKEN_BUCKET, 1, TimeUnit.HOURS, 9, false, 0, clock.nanoTime());
      BucketLimiter fallback =
          new BucketLimiter(
              "dead-local-" + names,
              "test",
              two,
              1,
              clock,
              false,
              new ClusterScope(dead, "", "dead-local", ClusterScope.OnFailure.LOCAL));
      BucketLimiter allowing =
          new BucketLimiter(
              "dead-allow-" + names,
              "test",
              nine,
              1,
              clock,
              false,
              new ClusterScope(dead, "", "dead-allow", ClusterScope.OnFailure.ALLOW));
      int x = LimiterRegistry.register("shared-charge dead " + names++, fallback);
      int y = LimiterRegistry.register("shared-charge dead " + names++, allowing);
      LimitGroup g =
          new LimitGroup("g", "Test#m()", new int[] {x, y}, new boolean[2], new boolean[2]);
      assertEquals(Limiter.ADMITTED, g.acquire());
      assertEquals(Limiter.ADMITTED, g.acquire());
      assertTrue(g.acquire() > 0, "the local fallback's two permits, then limited");
      assertEquals(fallback.name(), LimitGroup.refusedBy());
      assertEquals(2, allowing.granted(), "allowing all, and charged for no refused call");
      assertTrue(fallback.backendFailures() >= 3, "every call counted as not served");
    } finally {
      dead.close();
    }
  }

  /**
   * A cluster limit with a warm-up that a reload put beside another limit on one method fails the
   * method closed, loudly, before any exchange: the backend stays up for every other limit.
   */
  @Test
  void aClusterWarmUpBesideAnotherLimitFailsClosedAndTheBackendStaysUp() {
    String name = "warm-" + names++;
    GcraBucket warm =
        GcraBucket.create(
            Discipline.TOKEN_BUCKET,
            10,
            TimeUnit.SECONDS,
            10,
            false,
            0,
            2_000_000_000L,
            clock.nanoTime());
    BucketLimiter warmUp =
        new BucketLimiter(
            name,
            "test",
            warm,
            1,
            clock,
            false,
            new ClusterScope(backend, "", name, ClusterScope.OnFailure.REJECT));
    LimitGroup g = pair(hourly("beside-" + name, 5, ClusterScope.OnFailure.REJECT), warmUp);
    IllegalStateException e = assertThrows(IllegalStateException.class, g::acquire);
    assertTrue(e.getMessage().contains("'" + name + "' has a warm-up"), e.getMessage());
    assertTrue(backend.answering(), "no exchange was made, none failed");
    assertEquals(0, warmUp.backendFailures());
  }

  private BucketLimiter hourly(String name, long capacity, ClusterScope.OnFailure onFailure) {
    GcraBucket bucket =
        GcraBucket.create(
            Discipline.TOKEN_BUCKET, 1, TimeUnit.HOURS, capacity, false, 0, clock.nanoTime());
    return new BucketLimiter(
        name, "test", bucket, 1, clock, false, new ClusterScope(backend, "", name, onFailure));
  }

  private static LimitGroup pair(BucketLimiter a, BucketLimiter b) {
    int x = LimiterRegistry.register("shared-charge pair " + a.name(), a);
    int y = LimiterRegistry.register("shared-charge pair " + b.name(), b);
    return new LimitGroup("g", "Test#m()", new int[] {x, y}, new boolean[2], new boolean[2]);
  }

  /** Writes {@code value} (a hash if null) at {@code key} on whichever server holds its slot. */
  private static void spoil(String key, String value) throws Exception {
    for (RedisServer s : servers) {
      String r = value == null ? s.command("HSET", key, "f", "v") : s.command("SET", key, value);
      if (r.startsWith(":") || r.startsWith("+OK")) {
        return;
      }
    }
    throw new IllegalStateException("no server took " + key);
  }

  /**
   * The second limit's key holds something else than a bucket (another type, or a string that is no
   * state): that limit follows its onBackendFailure, and the first is charged once per call,
   * whatever slot the bad key lives in.
   */
  @Test
  void aBadKeyInOneLimitChargesTheOtherOncePerCall() throws Exception {
    for (String value : new String[] {null, "garbage"}) {
      int n = names++;
      BucketLimiter a = hourly("bad-a-" + n, 5, ClusterScope.OnFailure.REJECT);
      BucketLimiter b = hourly("bad-b-" + n, 5, ClusterScope.OnFailure.ALLOW);
      spoil(b.cluster().key(null), value);
      LimitGroup g = pair(a, b);
      assertEquals(5, passNow(g), "a's 5 permits, one per call (" + value + ")");
      assertEquals(5, a.granted());
    }
  }

  /** The bad limit fails closed: every call is refused, and the other is charged nothing. */
  @Test
  void callsABadKeyRefusesTakeNothingFromTheOther() throws Exception {
    int n = names++;
    BucketLimiter a = hourly("badr-a-" + n, 5, ClusterScope.OnFailure.REJECT);
    BucketLimiter b = hourly("badr-b-" + n, 5, ClusterScope.OnFailure.REJECT);
    spoil(b.cluster().key(null), null);
    LimitGroup g = pair(a, b);
    for (int i = 0; i < 5; i++) {
      assertTrue(g.acquire() > 0, "b fails closed");
    }
    assertEquals(5, passNow(a), "five refused calls took nothing from a");
  }

  /** One limit named twice on a method applies once, locally and in Redis alike. */
  @Test
  void theSameLimitTwiceAppliesOnce() {
    String[] out = new String[2];
    for (int side = 0; side < 2; side++) {
      int n = names++;
      BucketLimiter l = token(1, 6).make("twice-" + n, clock, side == 1);
      int x = LimiterRegistry.register("shared-charge twice " + n, l);
      LimitGroup g =
          new LimitGroup("g", "Test#m()", new int[] {x, x}, new boolean[2], new boolean[2]);
      out[side] = passNow(g) + " admitted, " + l.granted() + " granted";
    }
    assertEquals("6 admitted, 6 granted", out[0], "locally");
    assertEquals(out[0], out[1], "in Redis");
  }

  /**
   * Eight threads on two cluster limits, one of them also taken alone by another method, on a
   * frozen clock: every permit of the shared limit is taken exactly once, the other limit pays for
   * exactly the calls of the method that has both.
   */
  @Test
  void eightThreadsGiveExactTotals() throws Exception {
    exactTotals(BOTH);
  }

  /** A local limit's charge that loses a race undoes the cluster limit's too, exactly. */
  @Test
  void eightThreadsGiveExactTotalsWithALocalLimitBeside() throws Exception {
    exactTotals(new boolean[] {false, true});
  }

  private void exactTotals(boolean[] cluster) throws Exception {
    Side side = new Side(cluster, token(0.001, 40), token(0.001, 100));
    BucketLimiter alone = side.members.get(1);
    long[] admitted = race(side.group, alone);
    assertTrue(admitted[0] <= 40, admitted[0] + " admitted by both limits");
    assertEquals(100, admitted[0] + admitted[1], "each permit of the shared limit taken once");
    assertEquals(40 - admitted[0], side.members.get(0).availablePermits());
    assertEquals(0, alone.availablePermits());
    assertEquals(admitted[0], side.members.get(0).granted());
    assertEquals(0, alone.backendFailures());
  }

  /**
   * Eight threads, each calling the group and the limiter alone by turns until both refuse (at most
   * 400 calls each), on a frozen clock.
   *
   * @return the calls the group admitted, and those the limiter alone admitted
   */
  static long[] race(Limiter group, Limiter alone) throws Exception {
    AtomicLong both = new AtomicLong();
    AtomicLong single = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int parity = t % 2;
      done.add(
          pool.submit(
              () -> {
                go.await();
                boolean groupOpen = true;
                boolean aloneOpen = true;
                for (int i = 0; i < 400 && (groupOpen || aloneOpen); i++) {
                  if (groupOpen && (i % 2 == parity || !aloneOpen)) {
                    groupOpen = group.acquire() == Limiter.ADMITTED;
                    both.addAndGet(groupOpen ? 1 : 0);
                  } else {
                    aloneOpen = alone.acquire() == Limiter.ADMITTED;
                    single.addAndGet(aloneOpen ? 1 : 0);
                  }
                }
                return null;
              }));
    }
    go.countDown();
    try {
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    return new long[] {both.get(), single.get()};
  }

  /** The scripts the servers ran so far. */
  private static long evalshaCalls() throws Exception {
    long calls = 0;
    for (RedisServer server : servers) {
      String stat = server.info("commandstats", "cmdstat_evalsha");
      calls += stat == null ? 0 : Long.parseLong(stat.replaceAll("^calls=(\\d+),.*$", "$1"));
    }
    return calls;
  }

  /**
   * The script calls of one admitted call that charges these cluster limits at once.
   *
   * @param limits the call's cluster limits
   * @return 1: one server
   */
  long scriptCallsFor(List<BucketLimiter> limits) {
    return 1;
  }
}
