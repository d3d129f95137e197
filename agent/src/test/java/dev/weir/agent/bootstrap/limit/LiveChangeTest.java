package dev.weir.agent.bootstrap.limit;

import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.GcraBucketStressTest;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Live changes of a limiter's rate, capacity and dry run (SPEC "Live control"), with exact counts
 * at exact instants on a fake clock, keyless and per key; and the counts an operator reads.
 */
class LiveChangeTest {
  private static final long MS = 1_000_000L;

  private final FakeClock clock = new FakeClock(5 * 1_000_000_000L);

  private BucketLimiter limiter(Discipline d, double rate, long capacity, boolean wait) {
    return limiter(d, rate, capacity, wait, 1);
  }

  private BucketLimiter limiter(
      Discipline d, double rate, long capacity, boolean wait, long permits) {
    GcraBucket bucket =
        GcraBucket.create(d, rate, SECONDS, capacity, wait, Long.MAX_VALUE, clock.nanoTime());
    return new BucketLimiter("live", "Test#m()", bucket, permits, clock);
  }

  /** Calls that pass at the current instant, up to {@code max}, keyless or for {@code key}. */
  private static int passNow(BucketLimiter l, String key, int max) {
    int passed = 0;
    while (passed < max && (key == null ? l.acquire() : l.acquire(key)) == Limiter.ADMITTED) {
      passed++;
    }
    return passed;
  }

  private void specTokenBucketExample(String key) {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 10, false);
    assertEquals(3, passNow(l, key, 3), "3 permits taken at t");
    assertTrue(l.setCapacity(5));
    assertTrue(l.setRate(5));
    assertEquals(5, passNow(l, key, 100), "capacity 5 and rate 5 at t: exactly 5 pass at t");
    assertTrue(l.setCapacity(10));
    assertEquals(0, passNow(l, key, 100), "capacity 10 again at t: raising adds none");
    clock.advance(200 * MS - 1);
    assertEquals(0, passNow(l, key, 100), "not before t + 200 ms");
    clock.advance(1);
    assertEquals(1, passNow(l, key, 100), "the next at t + 200 ms");
  }

  @Test
  void tokenBucketFollowsTheSpecExample() {
    specTokenBucketExample(null);
  }

  @Test
  void tokenBucketFollowsTheSpecExamplePerKey() {
    specTokenBucketExample("alice");
  }

  @Test
  void perKeyChangesReachEveryKeyAndNewKeysTakeTheNewSettings() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 10, false);
    assertEquals(10, passNow(l, "a", 10));
    assertEquals(4, passNow(l, "b", 4)); // 6 on hand
    l.change(1, SECONDS, 5, false);
    assertEquals(0, passNow(l, "a", 100), "a had none");
    assertEquals(5, passNow(l, "b", 100), "b's 6 clamped to 5");
    assertEquals(5, passNow(l, "c", 100), "a new key gets the new capacity");
    clock.advance(1_000 * MS);
    assertEquals(1, passNow(l, "a", 100), "refilled at the new rate, 1/s");
  }

  @Test
  void tokenBucketKeepsFractionsAgainstTheCaller() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 10, false);
    assertEquals(10, passNow(l, null, 10));
    clock.advance(150 * MS); // 1.5 permits on hand
    l.setRate(1); // 1.5 permits kept: the next whole one 500 ms later
    assertEquals(1, passNow(l, null, 100));
    clock.advance(499 * MS);
    assertEquals(0, passNow(l, null, 100));
    clock.advance(1 * MS);
    assertEquals(1, passNow(l, null, 100));
  }

  @Test
  void policingKeepsTheWaterLevel() {
    BucketLimiter l = limiter(Discipline.POLICING, 10, 10, false);
    assertEquals(8, passNow(l, null, 8), "level 8 at t");
    l.setCapacity(5);
    assertEquals(0, passNow(l, null, 100), "above the lowered capacity: nothing fits");
    assertEquals(400 * MS, l.acquire(), "limited until the level is 4 (+1 fits in 5)");
    clock.advance(400 * MS);
    assertEquals(1, passNow(l, null, 100), "at t + 400 ms one fits");
    l.setRate(5); // level 5 drains at 5/s from now
    clock.advance(199 * MS);
    assertEquals(0, passNow(l, null, 100));
    clock.advance(1 * MS);
    assertEquals(1, passNow(l, null, 100), "one per 200 ms at the new rate");
    l.setCapacity(10);
    assertEquals(5, passNow(l, null, 100), "a raised capacity: room above the kept level");
  }

  @Test
  void shapingKeepsAdmittedSlotsAndSpacesLaterCallsAtTheNewRate() {
    GcraBucket b = GcraBucket.create(Discipline.SHAPING, 10, SECONDS, 20, false, Long.MAX_VALUE, 0);
    long[] waits = new long[5];
    for (int k = 0; k < 5; k++) {
      waits[k] = b.toNanosCeil(b.acquire(0, 1, true)); // departs at k * 100 ms
    }
    assertArrayEquals(new long[] {0, 100 * MS, 200 * MS, 300 * MS, 400 * MS}, waits);
    GcraBucket next = b.reshaped(5, SECONDS, 3);
    b.takeOver(next, 0);
    assertEquals(GcraBucket.STATE_RETIRED, b.acquire(0, 1, true), "the old bucket is retired");
    // the queue (5, the last leaving at 400 ms) is longer than the new bound (3 at 200 ms apart)
    long limited = next.acquire(0, 1, true);
    assertTrue(limited < 0);
    assertEquals(200 * MS, next.retryAfterNanos(limited), "room again once one has left");
    long wait = next.acquire(200 * MS, 1, true);
    assertEquals(400 * MS, next.toNanosCeil(wait), "leaves at 600 ms: 200 ms after the last");
    assertTrue(next.acquire(200 * MS, 1, true) < 0, "the new bound holds");
  }

  @Test
  void shapingWaitersInLimiterKeepTheirSlotsAcrossAChange() throws Exception {
    BucketLimiter l = limiter(Discipline.SHAPING, 10, 20, false);
    long t0 = clock.nanoTime();
    assertEquals(Limiter.ADMITTED, l.acquire()); // leaves at t0
    CountDownLatch parked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    clock.onPark(
        () -> {
          parked.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
        });
    AtomicLong waiterResult = new AtomicLong(-1);
    Thread waiter = new Thread(() -> waiterResult.set(l.acquire())); // slot at t0 + 100 ms
    waiter.start();
    assertTrue(parked.await(10, TimeUnit.SECONDS));
    assertEquals(1, l.waiting(), "one call waits in the limiter");
    l.setRate(1); // from t0: later calls 1 s apart, after the waiter's slot
    clock.onPark(() -> {});
    release.countDown();
    waiter.join(10_000);
    assertEquals(Limiter.ADMITTED, waiterResult.get(), "the waiter kept its slot");
    assertEquals(t0 + 100 * MS, clock.nanoTime(), "and left at it");
    clock.set(t0);
    assertEquals(Limiter.ADMITTED, l.acquire());
    assertEquals(t0 + 1_100 * MS, clock.nanoTime(), "the next leaves 1 s after the waiter");
    assertEquals(3, l.granted());
    assertEquals(2, l.waited());
    assertEquals(1_200 * MS, l.totalWaitNanos());
    assertEquals(0, l.waiting());
  }

  @Test
  void writingTheCurrentValueKeepsTheState() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 10, false);
    assertEquals(7, passNow(l, null, 7));
    GcraBucket before = l.bucket();
    assertFalse(l.setRate(10));
    assertFalse(l.setCapacity(10));
    assertFalse(l.setDryRun(false));
    assertFalse(l.change(600, MINUTES, 10, false), "600/min is 10/s");
    assertSame(before, l.bucket());
    BucketLimiter odd = limiter(Discipline.TOKEN_BUCKET, 99.92497928518063, 10, false);
    GcraBucket oddBucket = odd.bucket();
    assertFalse(
        odd.setRate(odd.bucket().permitsPerSecond()),
        "the value read, written back (99.92497928518063 * 1e9 / 1e9 is not itself)");
    assertSame(oddBucket, odd.bucket());
    assertEquals(3, passNow(l, null, 100));
  }

  @Test
  void refusedChangesLeaveEverythingAsItWas() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 10, false, 3);
    GcraBucket before = l.bucket();
    assertEquals(
        "'live': Rate must be > 0 and finite, was -1.0",
        assertThrows(IllegalArgumentException.class, () -> l.setRate(-1)).getMessage());
    assertEquals(
        "'live': Rate must be > 0 and finite, was NaN",
        assertThrows(IllegalArgumentException.class, () -> l.setRate(Double.NaN)).getMessage());
    assertEquals(
        "'live': Rate must be > 0 and finite, was Infinity",
        assertThrows(IllegalArgumentException.class, () -> l.setRate(1.0 / 0)).getMessage());
    assertEquals(
        "'live': Capacity must be >= 1, was 0",
        assertThrows(IllegalArgumentException.class, () -> l.setCapacity(0)).getMessage());
    assertEquals(
        "'live': Capacity must be at least the permits each call takes (3), was 2",
        assertThrows(IllegalArgumentException.class, () -> l.setCapacity(2)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> l.change(-5, SECONDS, 2, true));
    assertSame(before, l.bucket());
    assertFalse(l.dryRun(), "a refused change changes nothing, the dry run included");
    assertEquals(10, l.bucket().capacity());
  }

  @Test
  void countsAreCallsAsSpecDefinesThem() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 4, false, 2);
    assertEquals(2, passNow(l, null, 2)); // 2 calls of 2 permits
    assertTrue(l.acquire() > 0);
    assertEquals(2, l.granted(), "calls, not permits");
    assertEquals(1, l.rejected());
    assertEquals(0, l.waited());
    assertTrue(l.setDryRun(true));
    for (int i = 0; i < 5; i++) {
      assertEquals(Limiter.ADMITTED, l.acquire(), "a dry run limits nothing");
    }
    assertEquals(7, l.granted(), "in a dry run every call is granted");
    assertEquals(6, l.rejected(), "and what would have been limited is counted");
    assertTrue(l.setDryRun(false));
    assertTrue(l.acquire() > 0, "limits again, on the state the dry run kept");
  }

  @Test
  void waitsAreCountedWithTheirPercentiles() {
    BucketLimiter l = limiter(Discipline.SHAPING, 10, 20, false);
    for (int k = 0; k < 10; k++) {
      clock.set(5_000 * MS);
      assertEquals(Limiter.ADMITTED, l.acquire());
    }
    assertEquals(10, l.granted());
    assertEquals(9, l.waited(), "the first left at once");
    assertEquals(4_500 * MS, l.totalWaitNanos(), "100 + 200 + ... + 900 ms");
    double[] p = l.waitMillisLastMinute();
    assertEquals(500, p[0], 5, "p50");
    assertEquals(900, p[1], 9, "p99");
    assertEquals(900, p[2], 9, "max");
    long[] counts = l.waitCounts(new double[] {0.25, 1});
    assertArrayEquals(new long[] {2, 9, 9}, counts, "<= 250 ms, <= 1 s, all");
    clock.advance(61_000 * MS);
    assertArrayEquals(new double[3], l.waitMillisLastMinute(), 0, "a minute later: none");
  }

  /**
   * On a clock that does not move, a token bucket admits at most its first capacity, whatever live
   * changes do meanwhile (a change never gives permits), and calls racing changes never hang.
   */
  @RepeatedTest(20)
  void concurrentChangesNeverOverAdmit() throws Exception {
    for (String key : new String[] {null, "k"}) {
      BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 1_000, false);
      AtomicLong admitted = new AtomicLong();
      // the key's state exists before the changes: a key first seen later starts full
      assertEquals(Limiter.ADMITTED, key == null ? l.acquire() : l.acquire(key));
      admitted.incrementAndGet();
      AtomicBoolean done = new AtomicBoolean();
      Thread changer =
          new Thread(
              () -> {
                for (int i = 0; !done.get(); i++) {
                  l.change(i % 2 == 0 ? 20 : 10, SECONDS, i % 3 == 0 ? 1_000 : 1_500, false);
                }
              });
      changer.start();
      GcraBucketStressTest.run(
          () -> {
            for (int i = 0; i < 200; i++) {
              if ((key == null ? l.acquire() : l.acquire(key)) == Limiter.ADMITTED) {
                admitted.incrementAndGet();
              }
            }
          });
      done.set(true);
      changer.join();
      assertTrue(
          admitted.get() <= 1_000,
          (key == null ? "keyless" : "keyed") + ": admitted " + admitted.get());
      assertTrue(admitted.get() > 0);
      assertEquals(admitted.get(), l.granted());
      assertEquals(64 * 200 + 1 - admitted.get(), l.rejected());
    }
  }

  @Test
  void aChangedBucketIsANewObjectAndTheOldIsRetired() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 10, false);
    GcraBucket before = l.bucket();
    l.setRate(20);
    assertNotSame(before, l.bucket());
    assertEquals(GcraBucket.STATE_RETIRED, before.acquire(clock.nanoTime(), 1, true));
    assertEquals(20.0, l.bucket().permitsPerSecond());
    assertEquals("token bucket 20.0/SECONDS capacity 10 permits 1 REJECT", l.currentSettings());
    assertEquals(
        "token bucket 10.0/SECONDS capacity 10 permits 1 REJECT",
        l.settings(),
        "the declared settings, which methods sharing the name must agree on");
  }

  @Test
  void aLimiterThatTakesOverTheCallsCarriesOnTheState() {
    BucketLimiter served = limiter(Discipline.TOKEN_BUCKET, 10, 10, false);
    assertEquals(7, passNow(served, null, 7));
    assertEquals(1, passNow(served, "k", 1)); // key k: 9 left
    BucketLimiter next = limiter(Discipline.TOKEN_BUCKET, 5, 5, false);
    assertTrue(next.sameShape(served));
    assertFalse(next.sameShape(limiter(Discipline.POLICING, 5, 5, false)));
    next.continueFrom(served);
    assertEquals(3, passNow(next, null, 100), "3 on hand, kept");
    assertEquals(5, passNow(next, "k", 100), "k's 9 clamped to 5");
    assertEquals(5, passNow(next, "new", 100), "a new key: the new capacity");
  }
}
