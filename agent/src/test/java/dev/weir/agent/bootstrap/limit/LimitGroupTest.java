package dev.weir.agent.bootstrap.limit;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Several limits on one call (SPEC "Several limits on one method"), case by case on a fake clock:
 * both admit; one refuses and nothing is charged; the retry-after is the longest; a wait takes the
 * latest slot and is charged on every limit at it; an interrupted waiter gives back on every limit;
 * a dry-run limit beside a live one; per-key beside keyless; a live change of one of them.
 */
class LimitGroupTest {
  private static final long MS = 1_000_000L;
  private static int names;

  private final FakeClock clock = new FakeClock(7 * 1_000_000_000L);
  private final List<Integer> registered = new ArrayList<Integer>();

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private BucketLimiter limiter(
      String name, Discipline d, double rate, TimeUnit per, long capacity, boolean wait) {
    return limiter(name, d, rate, per, capacity, wait, Long.MAX_VALUE, false);
  }

  private BucketLimiter limiter(
      String name,
      Discipline d,
      double rate,
      TimeUnit per,
      long capacity,
      boolean wait,
      long maxWaitNanos,
      boolean dryRun) {
    GcraBucket bucket =
        GcraBucket.create(d, rate, per, capacity, wait, maxWaitNanos, clock.nanoTime());
    return new BucketLimiter(name, "Test#m()", bucket, 1, clock, dryRun);
  }

  private int id(Limiter l) {
    int id = LimiterRegistry.register("group-test " + l.name() + " " + names++, l);
    registered.add(id);
    return id;
  }

  /** A group of annotated (every call charged) members, keyed where {@code keyed} says. */
  private LimitGroup group(Limiter[] members, boolean... keyed) {
    int[] ids = new int[members.length];
    boolean[] k = new boolean[members.length];
    for (int i = 0; i < members.length; i++) {
      ids[i] = id(members[i]);
      k[i] = keyed.length > i && keyed[i];
    }
    return new LimitGroup("group", "Test#m()", ids, k, new boolean[members.length]);
  }

  private static int passNow(Limiter l, String key, int max) {
    int passed = 0;
    while (passed < max && (key == null ? l.acquire() : l.acquire(key)) == Limiter.ADMITTED) {
      passed++;
    }
    return passed;
  }

  @Test
  void bothAdmitUntilEitherRefuses() {
    BucketLimiter perSecond = limiter("ps", Discipline.TOKEN_BUCKET, 10, SECONDS, 10, false);
    BucketLimiter perDay = limiter("pd", Discipline.TOKEN_BUCKET, 1000, DAYS, 1000, false);
    LimitGroup g = group(new Limiter[] {perSecond, perDay});
    assertEquals(10, passNow(g, null, 100), "10/s: 10 pass at one instant");
    assertEquals(990, perDay.availablePermits(), "the daily quota paid for the 10 admitted only");
    assertEquals(10, perSecond.granted());
    assertEquals(1, perSecond.rejected(), "the 11th: rejected by the limit that refused it");
    assertEquals(0, perDay.rejected(), "and counted on no other");
    assertEquals(10, perDay.granted());
    clock.advance(1000 * MS);
    assertEquals(10, passNow(g, null, 100));
    assertEquals(980, perDay.availablePermits());
  }

  @Test
  void oneRefusesAndNothingIsCharged() {
    BucketLimiter wide = limiter("wide", Discipline.TOKEN_BUCKET, 1, SECONDS, 5, false);
    BucketLimiter narrow = limiter("narrow", Discipline.TOKEN_BUCKET, 1, SECONDS, 3, false);
    LimitGroup g = group(new Limiter[] {wide, narrow});
    assertEquals(3, passNow(g, null, 100));
    for (int i = 0; i < 50; i++) {
      assertTrue(g.acquire() > 0, "refused by the narrow limit");
    }
    assertEquals(2, wide.availablePermits(), "the wide limit gave back each refused call exactly");
    assertEquals(51, narrow.rejected(), "passNow's last try and the 50");
    assertEquals(0, wide.rejected(), "counted on no other");
    assertEquals(2, passNow(wide, null, 100), "and admits exactly what it holds");
  }

  @Test
  void retryAfterIsTheLongestAndNamesThatLimit() {
    BucketLimiter fast = limiter("fast", Discipline.TOKEN_BUCKET, 10, SECONDS, 1, false);
    BucketLimiter slow = limiter("slow", Discipline.TOKEN_BUCKET, 1, SECONDS, 1, false);
    LimitGroup g = group(new Limiter[] {fast, slow});
    assertEquals(Limiter.ADMITTED, g.acquire());
    long retry = g.acquire();
    assertEquals(1000 * MS, retry, "the slow limit's time, the longer");
    assertEquals("slow", LimitGroup.refusedBy());
    assertEquals(
        java.util.Arrays.asList("slow", "fast"),
        java.util.Arrays.asList(LimitGroup.refusingLimits()));
    assertEquals(1, fast.rejected(), "both refused it");
    assertEquals(1, slow.rejected());
    clock.advance(retry);
    assertEquals(Limiter.ADMITTED, g.acquire(), "waiting the retry-after is enough");
  }

  @Test
  void aWaitTakesTheLatestSlotAndIsChargedOnEveryLimitThere() {
    BucketLimiter quick = limiter("quick", Discipline.SHAPING, 10, SECONDS, 20, false);
    BucketLimiter steady = limiter("steady", Discipline.SHAPING, 2, SECONDS, 20, false);
    LimitGroup g = group(new Limiter[] {quick, steady});
    long t0 = clock.nanoTime();
    List<Long> departures = new ArrayList<Long>();
    for (int i = 0; i < 4; i++) {
      assertEquals(Limiter.ADMITTED, g.acquire()); // the fake clock's park moves it to the slot
      departures.add(clock.nanoTime() - t0);
    }
    assertEquals(
        java.util.Arrays.asList(0L, 500 * MS, 1000 * MS, 1500 * MS),
        departures,
        "each call leaves at the slower limit's constant rate");
    long before = clock.nanoTime();
    assertEquals(Limiter.ADMITTED, quick.acquire());
    assertEquals(
        100 * MS,
        clock.nanoTime() - before,
        "quick was charged at the departure, not at its own earlier slot: a call on it alone"
            + " leaves one interval after the last");
    assertEquals(3, steady.waited());
    assertEquals(4, quick.waited(), "3 in the group and 1 alone");
  }

  @Test
  void aCallThatMustWaitIsRefusedWhenOneLimitDoesNotWait() {
    BucketLimiter reject = limiter("reject", Discipline.TOKEN_BUCKET, 10, SECONDS, 10, false);
    BucketLimiter shaping = limiter("shape", Discipline.SHAPING, 10, SECONDS, 5, false);
    LimitGroup g = group(new Limiter[] {reject, shaping});
    assertEquals(Limiter.ADMITTED, g.acquire());
    long retry = g.acquire();
    assertEquals(100 * MS, retry, "it would have to wait 100 ms on the shaping limit");
    assertEquals(
        "reject",
        LimitGroup.refusedBy(),
        "named: the limit that refused it and counts it, as its MBean shows, not the shaper");
    assertEquals(1, reject.rejected(), "the limit that cannot wait refused it");
    assertEquals(0, shaping.rejected());
    assertEquals(9, reject.availablePermits(), "nothing charged");
    clock.advance(retry);
    assertEquals(Limiter.ADMITTED, g.acquire());
  }

  /** Both refuse it alone: named first is the one whose wait is furthest beyond its bound. */
  @Test
  void theNameIsTheRefusingLimitFurthestBeyondItsBound() {
    BucketLimiter hasty = limiter("hasty", Discipline.TOKEN_BUCKET, 10, SECONDS, 1, false);
    BucketLimiter patient =
        limiter("patient", Discipline.TOKEN_BUCKET, 1, SECONDS, 1, true, 500 * MS, false);
    LimitGroup g = group(new Limiter[] {hasty, patient});
    assertEquals(Limiter.ADMITTED, g.acquire());
    assertEquals(1000 * MS, g.acquire(), "passes once patient needs no wait: hasty cannot wait");
    assertEquals(
        java.util.Arrays.asList("patient", "hasty"),
        java.util.Arrays.asList(LimitGroup.refusingLimits()),
        "patient is 500 ms beyond its bound, hasty 100 ms beyond its own");
    assertEquals(1, hasty.rejected());
    assertEquals(1, patient.rejected());
  }

  @Test
  void eachLimitKeepsItsOwnWaitBound() {
    BucketLimiter patient =
        limiter("patient", Discipline.TOKEN_BUCKET, 1, SECONDS, 1, true, 5000 * MS, false);
    BucketLimiter hasty =
        limiter("hasty", Discipline.TOKEN_BUCKET, 10, SECONDS, 1, true, 200 * MS, false);
    LimitGroup g = group(new Limiter[] {patient, hasty});
    assertEquals(Limiter.ADMITTED, g.acquire());
    long start = clock.nanoTime();
    long retry = g.acquire();
    assertEquals(800 * MS, retry, "a 1 s wait is beyond hasty's 200 ms: refused at once");
    assertEquals(start, clock.nanoTime(), "it did not wait first to find out");
    assertEquals(1, hasty.rejected());
    assertEquals(0, patient.rejected());
    clock.advance(retry);
    assertEquals(Limiter.ADMITTED, g.acquire(), "a 200 ms wait fits both");
    assertEquals(200 * MS, clock.nanoTime() - start - retry);
  }

  @Test
  void anInterruptedWaiterGivesBackOnEveryLimit() {
    BucketLimiter a = limiter("a", Discipline.SHAPING, 10, SECONDS, 20, false);
    BucketLimiter b = limiter("b", Discipline.SHAPING, 4, SECONDS, 20, false);
    LimitGroup g = group(new Limiter[] {a, b});
    assertEquals(Limiter.ADMITTED, g.acquire());
    clock.onPark(() -> Thread.currentThread().interrupt());
    long r = g.acquire();
    assertTrue(r < 0, "interrupted while waiting");
    assertTrue(Thread.interrupted(), "the interrupt flag is kept");
    assertEquals(1, a.rejected());
    assertEquals(1, b.rejected());
    clock.onPark(() -> {});
    long before = clock.nanoTime();
    assertEquals(Limiter.ADMITTED, g.acquire());
    assertEquals(250 * MS, clock.nanoTime() - before, "the slot came back: the next takes it");
    before = clock.nanoTime();
    assertEquals(Limiter.ADMITTED, a.acquire());
    assertEquals(100 * MS, clock.nanoTime() - before, "a holds one call, not two, after that");
  }

  @Test
  void aDryRunLimitCountsAsAloneAndNeverRefuses() {
    BucketLimiter live = limiter("live", Discipline.TOKEN_BUCKET, 1, SECONDS, 5, false);
    BucketLimiter dry =
        limiter("dry", Discipline.TOKEN_BUCKET, 1, SECONDS, 2, false, Long.MAX_VALUE, true);
    LimitGroup g = group(new Limiter[] {live, dry});
    assertEquals(5, passNow(g, null, 100));
    assertEquals(6, dry.granted(), "the dry run counts every call it saw");
    assertEquals(4, dry.rejected(), "and what it would have limited");
    assertEquals(5, live.granted());
    assertEquals(1, live.rejected());
  }

  @Test
  void perKeyBesideKeyless() {
    BucketLimiter perClient = limiter("client", Discipline.TOKEN_BUCKET, 1, SECONDS, 2, false);
    BucketLimiter total = limiter("total", Discipline.TOKEN_BUCKET, 1, SECONDS, 10, false);
    LimitGroup g = group(new Limiter[] {perClient, total}, true, false);
    assertEquals(2, passNow(g, "x", 100));
    assertEquals(2, passNow(g, "y", 100));
    assertEquals(6, total.availablePermits(), "the shared limit paid for four calls");
    assertEquals(2, perClient.keys());
  }

  @Test
  void aLiveChangeOfOneLimitAppliesToTheGroup() {
    BucketLimiter a = limiter("a", Discipline.TOKEN_BUCKET, 1, SECONDS, 2, false);
    BucketLimiter b = limiter("b", Discipline.TOKEN_BUCKET, 1, SECONDS, 10, false);
    LimitGroup g = group(new Limiter[] {a, b});
    assertEquals(2, passNow(g, null, 100));
    assertTrue(a.change(1, SECONDS, 5, false), "capacity 5: raising adds none");
    assertEquals(0, passNow(g, null, 100));
    clock.advance(3000 * MS);
    assertEquals(3, passNow(g, null, 100), "the new capacity, after refilling");
    assertEquals(7, b.availablePermits(), "b refilled to 10 meanwhile and paid for three");
  }

  @Test
  void anInvalidMemberFailsTheCallClosed() {
    BucketLimiter a = limiter("a", Discipline.TOKEN_BUCKET, 1, SECONDS, 2, false);
    RefusedLimiter broken = new RefusedLimiter("broken", "Test#m()", "broken for the test");
    LimitGroup g = group(new Limiter[] {a, broken});
    assertThrows(IllegalStateException.class, g::acquire);
    assertEquals(2, a.availablePermits(), "nothing charged");
  }

  @Test
  void interruptedGroupWaiterGivesBackSlotsLaterWaitersHold() {
    // SPEC: an interrupted call gives back "by the rule for interrupted waiters": only where no
    // later call depends on its slot. Here a call alone on `a` takes the slot behind the group
    // waiter's while it waits; then the waiter is interrupted.
    BucketLimiter a = limiter("a", Discipline.SHAPING, 10, SECONDS, 20, false);
    BucketLimiter b = limiter("b", Discipline.SHAPING, 4, SECONDS, 20, false);
    LimitGroup g = group(new Limiter[] {a, b});
    long t0 = clock.nanoTime();
    assertEquals(Limiter.ADMITTED, g.acquire(), "departs at once");
    long[] k = new long[1];
    clock.onPark(
        () -> {
          // another thread's call alone on a, at t0: it waits behind the group waiter (350 ms)
          long w = a.bucket().acquire(t0, 1, true);
          k[0] = t0 + a.bucket().toNanosCeil(w);
          Thread.currentThread().interrupt();
        });
    assertTrue(g.acquire() < 0, "interrupted while waiting for 250 ms");
    assertTrue(Thread.interrupted());
    clock.onPark(() -> {});
    assertEquals(t0 + 350 * MS, k[0], "K departs at 350 ms, behind the group waiter's slot");
    List<Long> departures = new ArrayList<Long>();
    departures.add(k[0]);
    for (int i = 0; i < 3; i++) {
      assertEquals(Limiter.ADMITTED, a.acquire());
      departures.add(clock.nanoTime());
    }
    java.util.Collections.sort(departures);
    for (int i = 1; i < departures.size(); i++) {
      assertTrue(
          departures.get(i) - departures.get(i - 1) >= 100 * MS,
          "a releases one call per 100 ms; departures (ms after t0): " + relative(departures, t0));
    }
  }

  private static List<Long> relative(List<Long> nanos, long t0) {
    List<Long> ms = new ArrayList<Long>();
    for (long n : nanos) {
      ms.add((n - t0) / MS);
    }
    return ms;
  }

  /** The slow/fast group refuses a call on this thread: the names [slow, fast] are kept. */
  private void refuseOnSlowAndFast() {
    BucketLimiter fast = limiter("fast", Discipline.TOKEN_BUCKET, 10, SECONDS, 1, false);
    BucketLimiter slow = limiter("slow", Discipline.TOKEN_BUCKET, 1, SECONDS, 1, false);
    LimitGroup other = group(new Limiter[] {fast, slow});
    assertEquals(Limiter.ADMITTED, other.acquire());
    assertTrue(other.acquire() > 0);
    assertEquals("slow", LimitGroup.refusedBy());
  }

  /** What the woven code of a method with several limits throws for a refused call. */
  private static dev.weir.RateLimitedException woven(int groupId, long r) {
    return (dev.weir.RateLimitedException)
        WeirBridge.limited(
            new dev.weir.RateLimitedException(
                WeirBridge.refusedBy(groupId), WeirBridge.retryAfterNanos(r)),
            r,
            groupId);
  }

  @Test
  void interruptedGroupCallNamesAStaleLimitOfAnotherMethod() {
    refuseOnSlowAndFast(); // another method's limits refused an earlier call on this thread
    BucketLimiter a = limiter("a", Discipline.SHAPING, 10, SECONDS, 20, false);
    BucketLimiter b = limiter("b", Discipline.SHAPING, 4, SECONDS, 20, false);
    LimitGroup g = group(new Limiter[] {a, b});
    int gid = id(g);
    assertEquals(Limiter.ADMITTED, WeirBridge.acquireGroup(gid, null));
    clock.onPark(() -> Thread.currentThread().interrupt());
    long r = WeirBridge.acquireGroup(gid, null);
    assertTrue(r < 0, "interrupted while waiting");
    Thread.interrupted();
    clock.onPark(() -> {});
    dev.weir.RateLimitedException e = woven(gid, r);
    assertTrue(
        java.util.Arrays.asList("a", "b", "a + b", "group").contains(e.limiterName()),
        "the interrupted call waited on a and b, but the exception names '"
            + e.limiterName()
            + "': "
            + e.getMessage());
  }

  @Test
  void drainingGroupCarriesTheLastRefusalsNames() {
    refuseOnSlowAndFast();
    BucketLimiter a = limiter("a", Discipline.TOKEN_BUCKET, 10, SECONDS, 10, false);
    BucketLimiter b = limiter("b", Discipline.TOKEN_BUCKET, 10, SECONDS, 10, false);
    LimitGroup g = group(new Limiter[] {a, b});
    int gid = id(g);
    LimiterRegistry.redirect(gid, new Draining(g)); // as LimiterRegistry.drain() does
    try {
      long r = WeirBridge.acquireGroup(gid, null);
      assertEquals(Long.MAX_VALUE, r, "draining: never");
      dev.weir.RateLimitedException e = woven(gid, r);
      assertTrue(
          !e.refusingLimiters().contains("slow") && !e.getMessage().contains("slow"),
          "a draining call of a and b names another method's limits: "
              + e.refusingLimiters()
              + ", "
              + e.getMessage());
      assertEquals(List.of("a", "b"), e.refusingLimiters(), "named by its own limits");
      assertEquals("a", e.limiterName());
      assertEquals(1, a.rejected(), "counted on each of them");
      assertEquals(1, b.rejected());
    } finally {
      LimiterRegistry.redirect(gid, null);
    }
  }

  // ---- reserveAll: the http entries of a request, each under its own key, never parked ----

  private int[] ids(Limiter... members) {
    int[] ids = new int[members.length];
    for (int i = 0; i < members.length; i++) {
      ids[i] = id(members[i]);
    }
    return ids;
  }

  @Test
  void reservedAtOnceAndWithdrawnGivesBackExactly() {
    BucketLimiter a = limiter("ra", Discipline.TOKEN_BUCKET, 1, SECONDS, 5, false);
    BucketLimiter b = limiter("rb", Discipline.TOKEN_BUCKET, 1, SECONDS, 3, false);
    int[] ids = ids(a, b);
    Reservation r = LimitGroup.reserveAll(ids, new String[] {null, "k1"}, 2, "test");
    assertTrue(!r.isLimited() && !r.waits(), "admitted at once");
    assertEquals(4, a.availablePermits());
    assertEquals(1, a.granted());
    clock.advance(300 * MS); // a later request charges a meanwhile
    assertEquals(Limiter.ADMITTED, a.acquire());
    assertTrue(r.withdraw(), "a later entry refused the request: its charges go back");
    assertEquals(4, a.availablePermits(), "the withdrawn request's permit back, the other's kept");
    clock.advance(800 * MS);
    // as if it had never come: the other call alone, at 300 ms, left 4.8 permits at 1.1 s (a refund
    // of the whole cost, Bucket4j's, would leave 5.1: one more than a serial order admits)
    assertEquals(4, a.availablePermits(), "exact: no permit more than without the call");
    assertEquals(1, a.granted(), "counted granted no more");
    assertEquals(0, b.granted());
    assertEquals(3, b.availablePermits(), "k1's permit back");
    assertTrue(!r.withdraw() && !r.admit(), "ended once");
  }

  @Test
  void reservedSlotsDepartTogetherAndAbandonedGiveBackOnEvery() {
    BucketLimiter fast = limiter("rf", Discipline.SHAPING, 10, SECONDS, 20, false);
    BucketLimiter slow = limiter("rs", Discipline.SHAPING, 2, SECONDS, 5, false);
    int[] ids = ids(fast, slow);
    String[] none = new String[2];
    assertTrue(!LimitGroup.reserveAll(ids, none, 2, "test").waits(), "the first departs at once");
    Reservation second = LimitGroup.reserveAll(ids, none, 2, "test");
    assertEquals(500 * MS, second.waitNanos(), "the slower entry's slot, charged on both");
    Reservation third = LimitGroup.reserveAll(ids, none, 2, "test");
    assertEquals(1000 * MS, third.waitNanos(), "the fast entry keeps the slow one's pace");
    assertEquals(2, fast.waiting());
    assertTrue(third.abandon() >= 1, "ended before its slot: given back");
    assertEquals(1, fast.rejected());
    assertEquals(1, slow.rejected());
    Reservation again = LimitGroup.reserveAll(ids, none, 2, "test");
    assertEquals(1000 * MS, again.waitNanos(), "the abandoned slot went back on both");
    clock.advance(500 * MS);
    assertTrue(second.admit());
    assertEquals(2, fast.granted(), "the first, and the second at its slot");
    assertEquals(1, fast.waited());
    assertEquals(1, slow.waited());
  }

  @Test
  void aReserveThatOneRefusesChargesNone() {
    BucketLimiter a = limiter("rr1", Discipline.TOKEN_BUCKET, 1, SECONDS, 5, false);
    BucketLimiter b = limiter("rr2", Discipline.TOKEN_BUCKET, 1, SECONDS, 1, false);
    int[] ids = ids(a, b);
    assertTrue(!LimitGroup.reserveAll(ids, new String[2], 2, "test").isLimited());
    Reservation refused = LimitGroup.reserveAll(ids, new String[2], 2, "test");
    assertTrue(refused.isLimited());
    assertEquals(SECONDS.toNanos(1), refused.retryAfterNanos());
    assertEquals("rr2", LimitGroup.refusedBy());
    assertEquals(4, a.availablePermits(), "charged by none");
    assertEquals(0, a.rejected());
    assertEquals(1, b.rejected());
  }
}
