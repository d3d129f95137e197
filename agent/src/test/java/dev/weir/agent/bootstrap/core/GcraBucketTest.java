package dev.weir.agent.bootstrap.core;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The bucket arithmetic on exact instants: SPEC "Exact behaviour" and the traps of other limiters.
 */
class GcraBucketTest {
  private static final long MS = 1_000_000L;
  private static final long S = 1_000_000_000L;

  private static GcraBucket tokenBucket(double rate, long capacity) {
    return GcraBucket.create(Discipline.TOKEN_BUCKET, rate, SECONDS, capacity, false, 0, 0);
  }

  private static GcraBucket bucket(
      Discipline d, double rate, TimeUnit per, long capacity, boolean wait, long maxWaitNanos) {
    return GcraBucket.create(d, rate, per, capacity, wait, maxWaitNanos, 0);
  }

  /** One acquire with a trusted reading (the fake clock is never stale), as the limiter does it. */
  private static long acquire(GcraBucket b, long nowNanos, long permits) {
    long r = b.acquire(nowNanos, permits, true);
    if (r == GcraBucket.CLOCK_STEPPED_BACK) {
      assertTrue(b.resetAfterClockStep(nowNanos));
      r = b.acquire(nowNanos, permits, true);
    }
    return r;
  }

  private static boolean passes(GcraBucket b, long nowNanos) {
    return acquire(b, nowNanos, 1) == 0;
  }

  private static long retryAfter(GcraBucket b, long nowNanos, long permits) {
    long r = acquire(b, nowNanos, permits);
    assertTrue(r < 0 && r != GcraBucket.STALE_CLOCK, "expected a limited call, got " + r);
    return b.retryAfterNanos(r);
  }

  // ---- SPEC "Exact behaviour" -------------------------------------------------------------

  @Test
  void tokenBucketBurstThenRetryAfterThenFullAgain() {
    GcraBucket b = tokenBucket(10, 20);
    for (int i = 0; i < 20; i++) {
      assertEquals(0, acquire(b, 0, 1), "call " + i);
    }
    assertEquals(100 * MS, retryAfter(b, 0, 1));
    for (int i = 0; i < 20; i++) {
      assertEquals(0, acquire(b, 2 * S, 1), "after 2 s idle, call " + i);
    }
    assertEquals(100 * MS, retryAfter(b, 2 * S, 1));
  }

  @Test
  void tokenBucketLongRunRateIsTheRate() {
    // calls every millisecond for 100 s: the burst of 20, then exactly 10 per second
    GcraBucket b = tokenBucket(10, 20);
    int admitted = 0;
    for (long t = 0; t < 100 * S; t += MS) {
      if (passes(b, t)) {
        admitted++;
      }
    }
    // t = 0..19 ms take the burst, ending fullAt at 2,000 ms; then one every 100 ms from 100 ms
    // to 99,900 ms: 999 more
    assertEquals(20 + 999, admitted);
  }

  @Test
  void shapingAdmitsCapacityAndSpacesDepartures() {
    GcraBucket b = bucket(Discipline.SHAPING, 10, SECONDS, 20, false, Long.MAX_VALUE);
    List<Long> waits = new ArrayList<>();
    int limited = 0;
    for (int i = 0; i < 100; i++) {
      long r = acquire(b, 5 * S, 1);
      if (r >= 0) {
        waits.add(b.toNanosCeil(r));
      } else {
        limited++;
      }
    }
    assertEquals(20, waits.size());
    assertEquals(80, limited);
    for (int k = 0; k < 20; k++) {
      assertEquals(k * 100 * MS, waits.get(k), "departure of call " + k);
    }
  }

  @Test
  void morePermitsThanCapacityNeverPassAndLeaveStateUnchanged() {
    GcraBucket wait = bucket(Discipline.TOKEN_BUCKET, 10, SECONDS, 5, true, 3_600 * S);
    assertEquals(0, acquire(wait, 0, 2));
    assertEquals(3, wait.availablePermits(0));
    assertEquals(GcraBucket.NEVER, acquire(wait, 0, 6));
    assertEquals(Long.MAX_VALUE, wait.retryAfterNanos(GcraBucket.NEVER));
    assertEquals(3, wait.availablePermits(0));
    assertEquals(0, acquire(wait, 0, 3));
  }

  @Test
  void morePermitsThanCapacityAfterADrainHaveAFiniteRetryAfter() {
    GcraBucket b = tokenBucket(10, 5);
    assertEquals(0, acquire(b, 0, 5));
    assertEquals(500 * MS, retryAfter(b, 0, 5)); // capacity / rate
    assertEquals(0, acquire(b, 500 * MS, 5));
  }

  // ---- traps that broke other limiters ----------------------------------------------------

  @Test
  void highRateCountsAreExact() {
    // 3e8/s is 10/3 ns per permit: whole nanoseconds would admit 250,000,000 a second
    GcraBucket b = bucket(Discipline.TOKEN_BUCKET, 3e8, SECONDS, 1_000_000_000L, false, 0);
    assertEquals(0, acquire(b, 0, 1_000_000_000L));
    assertTrue(acquire(b, 0, 1) < 0);
    assertEquals(0, acquire(b, S, 300_000_000L));
    assertTrue(acquire(b, S, 1) < 0);
  }

  @Test
  void highRateOnePermitAcquiresOverTenSecondsAreExact() {
    GcraBucket b = bucket(Discipline.TOKEN_BUCKET, 3e8, SECONDS, 1_000_000_000L, false, 0);
    assertEquals(0, acquire(b, 0, 1_000_000_000L)); // drained
    long admitted = 0;
    for (long t = MS; t <= 10 * S; t += MS) {
      while (b.acquire(t, 1, false) == 0) {
        admitted++;
      }
    }
    assertEquals(3_000_000_000L, admitted);
  }

  @Test
  void policingAtASubMillisecondIntervalIsExact() {
    GcraBucket b = bucket(Discipline.POLICING, 2500, SECONDS, 1, false, Long.MAX_VALUE);
    int admitted = 0;
    for (int i = 0; i < 10_000; i++) {
      if (passes(b, i * 100_000L)) { // t = 0, 0.1, ..., 999.9 ms
        admitted++;
      }
    }
    assertEquals(2500, admitted);
  }

  @Test
  void anAstronomicallySlowRateSaturatesRetryAfter() {
    GcraBucket b = tokenBucket(1e-10, 1);
    assertTrue(passes(b, 0));
    assertEquals(Long.MAX_VALUE, retryAfter(b, 0, 1));
    assertEquals(Long.MAX_VALUE, retryAfter(b, 1_000 * DAYS.toNanos(1), 1));
  }

  @Test
  void aRateThatIsNotADecimalFractionOfASecondKeepsItsInterval() {
    GcraBucket b = tokenBucket(0.7692307692307693, 1); // 1/1.3 per second
    assertTrue(passes(b, 0));
    assertTrue(acquire(b, 1_299 * MS, 1) < 0);
    assertTrue(passes(b, 1_300 * MS));
  }

  @Test
  void slowRatesAndDays() {
    GcraBucket half = tokenBucket(0.5, 1);
    int admitted = 0;
    for (int t = 0; t <= 4; t++) {
      if (passes(half, t * S)) {
        admitted++;
      }
    }
    assertEquals(3, admitted);

    GcraBucket daily = bucket(Discipline.TOKEN_BUCKET, 5, DAYS, 5, false, 0);
    for (int i = 0; i < 5; i++) {
      assertTrue(passes(daily, 0));
    }
    assertEquals(17_280 * S, retryAfter(daily, 0, 1));
  }

  @Test
  void longIdlenessRefillsExactlyToCapacity() {
    GcraBucket b = tokenBucket(1e6, 1_000_000);
    assertEquals(0, acquire(b, 0, 1_000_000));
    long later = 12 * 3_600 * S;
    assertEquals(1_000_000, b.availablePermits(later));
    assertEquals(0, acquire(b, later, 1_000_000));
    assertTrue(acquire(b, later, 1) < 0);
  }

  @Test
  void ratesFromOnePerHourToABillionPerSecondAcrossDaysOfIdlenessAndAClockThatWraps() {
    double[] rates = {1.0 / 3600, 0.5, 7, 2500, 1e6, 3e8, 1e9};
    long[] capacities = {1, 3, 1_000};
    for (double rate : rates) {
      for (long capacity : capacities) {
        // readings that cross Long.MAX_VALUE, as System.nanoTime() may
        long start = Long.MAX_VALUE - 5 * S;
        GcraBucket b =
            GcraBucket.create(Discipline.TOKEN_BUCKET, rate, SECONDS, capacity, false, 0, start);
        String what = rate + "/s capacity " + capacity;
        assertEquals(0, acquire(b, start, capacity), what + ": the full burst at once");
        assertTrue(acquire(b, start, 1) < 0, what + ": nothing beyond it");
        // days of idleness, at least enough to refill (1,000 at one an hour takes 42 days);
        // the readings wrap past Long.MAX_VALUE
        long idle = Math.max(3 * DAYS.toNanos(1), (long) Math.ceil(capacity / rate) * S + S);
        long later = start + idle;
        assertEquals(capacity, b.availablePermits(later), what + ": full again, never more");
        assertEquals(0, acquire(b, later, capacity), what + ": the full burst again");
        long retry = retryAfter(b, later, 1);
        long interval = (long) Math.ceil(1e9 / rate);
        assertTrue(Math.abs(retry - interval) <= 1, what + ": retry-after " + retry);
        assertEquals(0, acquire(b, later + retry, 1), what + ": passes after retry-after");
      }
    }
  }

  @Test
  void retryAfterIsExact() {
    GcraBucket b = tokenBucket(1, 1);
    assertTrue(passes(b, 0));
    assertEquals(800 * MS, retryAfter(b, 200 * MS, 1));
    assertEquals(100 * MS, retryAfter(b, 900 * MS, 1));
  }

  @Test
  void waitingRetryAfterAlwaysSuffices() {
    Random random = new Random(20261129L);
    Discipline[] disciplines = Discipline.values();
    for (int round = 0; round < 20_000; round++) {
      Discipline d = disciplines[random.nextInt(disciplines.length)];
      double rate = Math.pow(10, -3 + random.nextDouble() * 12); // 1e-3 .. 1e9 per second
      long capacity = 1 + random.nextInt(50);
      boolean wait = random.nextBoolean();
      long maxWait = random.nextInt(3) == 0 ? Long.MAX_VALUE : random.nextInt(2_000) * MS;
      GcraBucket b = GcraBucket.create(d, rate, SECONDS, capacity, wait, maxWait, 0);
      long permits = d == Discipline.TOKEN_BUCKET ? 1 + random.nextInt((int) capacity) : 1;
      long now = random.nextLong();
      long r;
      int guard = 0;
      while ((r = acquire(b, now, permits)) >= 0) {
        now += random.nextInt(3) == 0 ? 0 : (long) (random.nextDouble() * 1e6);
        if (++guard > 200) {
          break;
        }
      }
      if (r >= 0 || r == GcraBucket.NEVER) {
        continue;
      }
      long after = b.retryAfterNanos(r);
      assertTrue(after >= 1, "retry-after must be positive");
      if (after < Long.MAX_VALUE / 4) {
        long next = acquire(b, now + after, permits);
        assertTrue(
            next >= 0,
            () ->
                d
                    + " rate "
                    + rate
                    + " capacity "
                    + capacity
                    + " permits "
                    + permits
                    + " wait "
                    + wait
                    + " maxWait "
                    + maxWait
                    + ": retry-after "
                    + after
                    + " was not enough");
        long free = d == Discipline.SHAPING ? b.toNanosCeil(next) : next;
        if (d != Discipline.SHAPING) {
          assertEquals(0, free, "admitted at once after retry-after");
        }
      }
    }
  }

  @Test
  void tenPerSecondOverOneSecondOfMillisecondCalls() {
    GcraBucket b = tokenBucket(10, 10);
    List<Long> passed = new ArrayList<>();
    for (long t = 0; t <= 1000; t++) {
      if (passes(b, t * MS)) {
        passed.add(t);
      }
    }
    List<Long> expected = new ArrayList<>();
    for (long t = 0; t <= 9; t++) {
      expected.add(t);
    }
    for (long t = 100; t <= 1000; t += 100) {
      expected.add(t);
    }
    assertEquals(expected, passed);
  }

  @Test
  void clockStepBackNeitherOverAdmitsNorSticks() {
    GcraBucket b = tokenBucket(10, 3);
    assertTrue(passes(b, 0)); // the bucket now holds 2
    long stepped = -10 * S;
    int admittedAtStep = 0;
    for (int i = 0; i < 10; i++) {
      if (passes(b, stepped)) {
        admittedAtStep++;
      }
    }
    assertTrue(admittedAtStep <= 2, "admitted " + admittedAtStep + " beyond what the bucket held");
    int admittedWithin300ms = 0;
    for (long t = stepped; t <= stepped + 300 * MS; t += MS) {
      if (passes(b, t)) {
        admittedWithin300ms++;
      }
    }
    assertTrue(admittedWithin300ms >= 1, "calls must pass again within capacity / rate");
    assertTrue(admittedAtStep + admittedWithin300ms <= 2 + 3, "never beyond held + refill");
    assertEquals(0, admittedAtStep, "taken as empty after the step");
    assertEquals(3, admittedWithin300ms, "one per 100 ms after the step");
  }

  @Test
  void clockStepBackIsNotMistakenForAStaleRead() {
    GcraBucket b = tokenBucket(10, 3);
    assertTrue(passes(b, 0));
    assertEquals(GcraBucket.STALE_CLOCK, b.acquire(-10 * S, 1, false));
  }

  @Test
  void aStaleFreshReadingNeverEmptiesTheBucketEarly() {
    // a thread that read the clock, then stalled: its reading looks like a small step back
    GcraBucket b = tokenBucket(1000, 10);
    assertEquals(0, acquire(b, 100 * MS, 10)); // drained at 100 ms
    long stale = b.acquire(100 * MS - 15 * MS, 1, true);
    assertTrue(stale < 0 && stale != GcraBucket.CLOCK_STEPPED_BACK, "limited, got " + stale);
    assertEquals(false, b.resetAfterClockStep(100 * MS - 15 * MS));
    assertEquals(0, b.availablePermits(100 * MS), "nothing given away");
    for (int i = 0; i < 10; i++) {
      assertTrue(acquire(b, 100 * MS, 1) < 0);
    }
  }

  @Test
  void smallBackwardStepIsOnlyUnderAdmission() {
    GcraBucket b = tokenBucket(10, 3);
    for (int i = 0; i < 3; i++) {
      assertTrue(passes(b, S));
    }
    // 50 ms back: within the margin, the bucket is just fuller than any call can use
    assertTrue(acquire(b, S - 50 * MS, 1) < 0);
    assertEquals(0, b.availablePermits(S - 50 * MS));
    assertTrue(passes(b, S + 100 * MS));
  }

  @Test
  void idleLongerThanTheTickRangeIsFull() {
    // 3 ticks per ns: the tick difference wraps after ~97 years of idleness
    GcraBucket b = tokenBucket(3e8, 10);
    assertEquals(0, acquire(b, 0, 10));
    long century = 100 * 365 * DAYS.toNanos(1);
    assertEquals(0, acquire(b, century, 10));
  }

  @Test
  void waitOnLimitReservesASlotWithinTheBound() {
    GcraBucket ok = bucket(Discipline.TOKEN_BUCKET, 1, SECONDS, 1, true, 1000 * MS);
    assertTrue(passes(ok, 0));
    long r = acquire(ok, 0, 1);
    assertEquals(S, ok.toNanosCeil(r));

    GcraBucket tooShort = bucket(Discipline.TOKEN_BUCKET, 1, SECONDS, 1, true, 999 * MS);
    assertTrue(passes(tooShort, 0));
    assertEquals(S, retryAfter(tooShort, 0, 1));
  }

  @Test
  void shapingWithWaitWaitsForRoomUpToTheBound() {
    // capacity 2 at 10/s: the queue holds a 100 ms wait; WAIT with 350 ms lets calls queue further
    GcraBucket b = bucket(Discipline.SHAPING, 10, SECONDS, 2, true, 350 * MS);
    List<Long> waits = new ArrayList<>();
    long r;
    while ((r = acquire(b, 0, 1)) >= 0) {
      waits.add(b.toNanosCeil(r));
    }
    assertEquals(List.of(0L, 100 * MS, 200 * MS, 300 * MS), waits);
    assertEquals(300 * MS, b.retryAfterNanos(r)); // until it would be admitted into the queue
  }

  @Test
  void shapingMaxWaitBelowTheQueueBoundsTheWait() {
    GcraBucket b = bucket(Discipline.SHAPING, 10, SECONDS, 20, false, 250 * MS);
    int admitted = 0;
    while (acquire(b, 0, 1) >= 0) {
      admitted++;
    }
    assertEquals(3, admitted); // waits 0, 100, 200 ms
  }

  @Test
  void giveBackReturnsTheLastSlotOnly() {
    GcraBucket b = bucket(Discipline.SHAPING, 10, SECONDS, 5, false, Long.MAX_VALUE);
    assertEquals(0, acquire(b, 0, 1));
    long first = acquire(b, 0, 1);
    long second = acquire(b, 0, 1);
    assertEquals(200 * MS, b.toNanosCeil(second));
    assertEquals(false, b.giveBack(0, first, 1), "a later call depends on the first waiter's slot");
    assertEquals(true, b.giveBack(0, second, 1));
    assertEquals(200 * MS, b.toNanosCeil(acquire(b, 0, 1)), "the returned slot is reused");
  }

  @Test
  void emissionIntervalIsExactWhereItCanBe() {
    assertArrayEquals(new long[] {3, 10}, GcraBucket.emissionInterval(3e8, SECONDS));
    assertArrayEquals(new long[] {1, 400_000}, GcraBucket.emissionInterval(2500, SECONDS));
    assertArrayEquals(new long[] {7, 1_000_000_000}, GcraBucket.emissionInterval(7, SECONDS));
    assertArrayEquals(new long[] {1, 10 * S}, GcraBucket.emissionInterval(0.1, SECONDS));
    assertArrayEquals(new long[] {1, 17_280 * S}, GcraBucket.emissionInterval(5, DAYS));
    assertArrayEquals(
        new long[] {1, GcraBucket.NEVER_TICKS}, GcraBucket.emissionInterval(1e-10, SECONDS));
    // no small exact denominator: rounded up, never down
    long[] odd = GcraBucket.emissionInterval(123_456_789, SECONDS);
    assertEquals(1024, odd[0]);
    assertTrue(odd[1] * 123_456_789L >= 1_000_000_000L * 1024);
  }

  private static void assertArrayEquals(long[] expected, long[] actual) {
    org.junit.jupiter.api.Assertions.assertArrayEquals(expected, actual);
  }
}
