package dev.weir.agent.bootstrap.core;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Warm-up ({@code warmUpMillis}) on a fake nanosecond clock: Guava's own sequences beside Weir's,
 * cold starts, cool-down, retry-after, races and extremes. Nothing sleeps.
 */
public class WarmUpTest {
  private static final long MS = 1_000_000L;
  private static final long S = 1_000_000_000L;
  private static final long T0 = 5 * S;

  private static GcraBucket bucket(double rate, long capacity, boolean wait, long warmUpMillis) {
    return GcraBucket.create(
        Discipline.TOKEN_BUCKET, rate, SECONDS, capacity, wait, 60 * S, warmUpMillis * MS, T0);
  }

  /** A caller that acquires, waits what it is told, and acquires again: the waits in ms. */
  private static final class Serial {
    final GcraBucket b;
    long now;

    Serial(GcraBucket b, long now) {
      this.b = b;
      this.now = now;
    }

    long acquireMillis() {
      long r = b.acquire(now, 1, false);
      assertTrue(r >= 0, "admitted, was " + r);
      long waited = b.toNanosCeil(r);
      now += waited;
      return waited / 1000 * 1000 == waited ? waited / MS : waited; // whole ms expected
    }

    long[] run(int calls) {
      long[] waits = new long[calls];
      for (int i = 0; i < calls; i++) {
        waits[i] = acquireMillis();
      }
      return waits;
    }
  }

  /**
   * Guava's {@code RateLimiterTest.testWarmUp} (rate 2/s, warm-up 4 s, cold factor 3), here with
   * capacity 4 (Guava's threshold, rate * warmUp / 2: the same permits and cool-down). Guava's
   * events are "R0.00, R1.38, R1.13, R0.88, R0.63, R0.50, R0.50, R0.50", "U0.50" (repaying the last
   * acquire), "U4.00", the same again, "U0.50", "U2.00", "R0.00, R0.50 x 7".
   */
  @Test
  void guavaTestWarmUpSequence() {
    Serial c = new Serial(bucket(2, 4, true, 4000), T0);
    // No pay later: each wait is the caller's own interval, so every cold wait comes one call
    // earlier than Guava's (whose first call is free and whose second pays for it), and Weir
    // owes nothing at the end: where Guava sleeps 0.5 s to repay, Weir needs not.
    assertEquals(
        Arrays.toString(new long[] {1375, 1125, 875, 625, 500, 500, 500, 500}),
        Arrays.toString(c.run(8)));
    assertEquals(T0 + 6 * S, c.now); // Guava's eighth call returns at 5.5 s and owes 0.5 s
    c.now += 4 * S; // cold again after idling the warm-up period: the same sequence
    assertEquals(
        Arrays.toString(new long[] {1375, 1125, 875, 625, 500, 500, 500, 500}),
        Arrays.toString(c.run(8)));
    c.now += 2 * S; // warm, as Guava's ("didn't get cold!"): but a full bucket of capacity 4
    // releases its burst at once, where Guava, which has no burst, spaces all 8 by 0.5 s
    assertEquals(
        Arrays.toString(new long[] {0, 0, 0, 0, 500, 500, 500, 500}), Arrays.toString(c.run(8)));
  }

  /**
   * A rejecting caller retrying at its retry-after is admitted at the instants a waiting one is.
   */
  @Test
  void rejectingCallerRetryingAtItsRetryAfterFollowsTheSameSchedule() {
    GcraBucket b = bucket(2, 4, false, 4000);
    long now = T0;
    List<Long> admittedAt = new ArrayList<Long>();
    while (admittedAt.size() < 6) {
      long r = b.acquire(now, 1, false);
      if (r == 0) {
        admittedAt.add((now - T0) / MS);
      } else {
        assertTrue(r < 0 && r != GcraBucket.NEVER);
        now += b.retryAfterNanos(r);
      }
    }
    assertEquals(Arrays.asList(1375L, 2500L, 3375L, 4000L, 4500L, 5000L), admittedAt);
  }

  @Test
  void coldStartAdmitsAtAThirdOfTheRateThenFallsLinearlyToTheRate() {
    // 100/s, warm-up 10 s: the cold zone holds 500 permits; the first interval is ~30 ms
    Serial c = new Serial(bucket(100, 100, true, 10_000), T0);
    long first = c.b.toNanosCeil(c.b.acquire(c.now, 1, false));
    c.now += first;
    // the first permit's integral: 3T - T^2/U = 30 ms - 20 us
    assertEquals(30 * MS - 20_000, first, "first interval");
    long previous = first;
    long total = first;
    for (int i = 1; i < 500; i++) {
      long w = c.b.toNanosCeil(c.b.acquire(c.now, 1, false));
      c.now += w;
      total += w;
      assertTrue(w < previous, "falls at each permit: " + w + " after " + previous);
      assertTrue(previous - w <= 41_000 && previous - w >= 39_000, "linearly: " + (previous - w));
      previous = w;
    }
    assertTrue(Math.abs(total - 10 * S) <= 2 * MS, "the cold zone lasts the warm-up: " + total);
    assertEquals(10 * MS, c.b.toNanosCeil(c.b.acquire(c.now, 1, false)), "then 1/rate");
  }

  @Test
  void partlyCooledLimiterStartsPartWayUpTheRamp() {
    Serial c = new Serial(bucket(2, 4, true, 4000), T0);
    c.run(8); // warm, bucket empty
    c.now += 2 * S + 500 * MS; // refilled (2 s), then one cold permit back (0.5 s)
    long[] waits = c.run(6);
    // a full bucket with one cold permit: the call takes it at f from T to 1.5T: 0.625 s, which
    // has elapsed (2.5 s since the last departure); it drains the bucket; then the rate
    assertEquals(Arrays.toString(new long[] {0, 500, 500, 500, 500, 500}), Arrays.toString(waits));
  }

  @Test
  void frozenClockColdAdmitsNothingThenOne() throws Exception {
    GcraBucket b = bucket(2, 4, false, 4000);
    AtomicLong granted = new AtomicLong();
    long[] at = {T0};
    Runnable work =
        () -> {
          for (int i = 0; i < 2_000; i++) {
            if (b.acquire(at[0], 1, false) == 0) {
              granted.incrementAndGet();
            }
          }
        };
    run(16, work);
    assertEquals(0, granted.get(), "a new cold limiter's first call waits its own interval");
    at[0] = T0 + 1375 * MS;
    run(16, work);
    assertEquals(1, granted.get(), "then exactly one: no burst while cold");
    assertEquals(0, b.availablePermits(at[0]));
  }

  @Test
  void manyThreadsOnAColdLimiterDepartOneCostApart() throws Exception {
    GcraBucket b = bucket(2, 4, true, 4000);
    List<Long> departures = Collections.synchronizedList(new ArrayList<Long>());
    run(
        8,
        () -> {
          long r = b.acquire(T0, 1, false);
          assertTrue(r >= 0);
          departures.add(b.toNanosCeil(r) / MS);
        });
    Collections.sort(departures);
    long[] costs = {1375, 1125, 875, 625, 500, 500, 500, 500};
    long previous = 0;
    for (int i = 0; i < costs.length; i++) {
      long gap = departures.get(i) - previous;
      // a race can only make a call pay more (a colder reading), never less
      assertTrue(gap >= costs[i], "call " + i + " departs " + gap + " ms after, " + departures);
      previous = departures.get(i);
    }
  }

  @Test
  void retryAfterSuffices() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      long capacity = 1 + random.nextInt(8);
      GcraBucket b = bucket(1 + random.nextInt(50), capacity, false, 1 + random.nextInt(5000));
      long now = T0;
      for (int i = 0; i < 200; i++) {
        now += random.nextInt(4) == 0 ? random.nextInt(3000) * MS : 0;
        long permits = 1 + random.nextInt((int) capacity);
        long r = b.acquire(now, permits, false);
        if (r < 0) {
          long retry = b.retryAfterNanos(r);
          assertEquals(retry, b.probeRetryAfterNanos(now, permits));
          now += retry;
          assertEquals(0, b.acquire(now, permits, false), "round " + round + " call " + i);
        }
      }
    }
  }

  @Test
  void liveChangeKeepsTheColdLevel() {
    GcraBucket b = bucket(2, 4, true, 4000);
    Serial c = new Serial(b, T0);
    c.run(2); // two cold permits taken: half the cold zone left
    GcraBucket next = b.reshaped(4, SECONDS, 8); // twice the rate
    b.takeOver(next, c.now);
    assertEquals(4000 * MS, next.warmUpNanos());
    Serial d = new Serial(next, c.now);
    // half the zone (1 s of 2 s) at the new rate T' = 0.25 s: f(x) = T'(1 + x/1 s) from 0.5 s
    // down; the first permit's integral is 0.25 + 0.25 * (1 + 0.75) / 2 = 0.469 s
    long[] waits = d.run(3);
    assertTrue(waits[0] >= 468 && waits[0] <= 469, Arrays.toString(waits));
    assertTrue(waits[1] < waits[0] && waits[2] < waits[1], Arrays.toString(waits));
  }

  @Test
  void permitsAreNotGivenBackToAWarmingBucket() {
    GcraBucket b = bucket(2, 4, true, 4000);
    long wait = b.acquire(T0, 1, false);
    assertEquals(1375 * MS, b.toNanosCeil(wait));
    assertEquals(false, b.giveBack(T0, wait, 1), "kept: less admitted, never more");
    assertEquals(false, b.refund(b, 1));
    assertEquals(1125 * MS, b.probeRetryAfterNanos(T0 + 1375 * MS, 1));
  }

  @Test
  void extremesStayBounded() {
    double[] rates = {1.0 / 3600, 1, 3e8, 1e9};
    long[] warmUps = {1, 4000, LimitRules.MAX_WARM_UP_MILLIS};
    for (double rate : rates) {
      for (long warm : warmUps) {
        GcraBucket b = bucket(rate, 10, false, warm);
        long[] instants = {T0, T0 + 400L * 24 * 3600 * S, T0 + 5 * S, T0 - 30 * 24 * 3600 * S};
        for (long now : instants) {
          int admitted = 0;
          for (int i = 0; i < 50; i++) {
            long r = b.acquire(now, 1 + (i % 3), true);
            if (r == GcraBucket.CLOCK_STEPPED_BACK) {
              b.resetAfterClockStep(now);
            } else if (r == 0) {
              admitted += 1 + (i % 3);
            } else {
              assertTrue(r < 0, "rejecting: never a wait, was " + r);
              assertTrue(b.retryAfterNanos(r) > 0);
            }
          }
          assertTrue(admitted <= 10, rate + "/s warmUp " + warm + " admitted " + admitted);
          assertTrue(b.availablePermits(now) >= 0 && b.availablePermits(now) <= 10);
        }
      }
    }
    GcraBucket hourly =
        GcraBucket.create(
            Discipline.TOKEN_BUCKET, 1, HOURS, 1, true, Long.MAX_VALUE, 3600_000 * MS, T0);
    long r = hourly.acquire(T0, 1, false);
    assertTrue(r > 0, "an hourly cold limiter waits its own interval, was " + r);
  }

  private static void run(int threads, Runnable work) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> all = new ArrayList<Thread>();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<Throwable>());
    for (int i = 0; i < threads; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                  work.run();
                } catch (Throwable e) {
                  failures.add(e);
                }
              });
      t.start();
      all.add(t);
    }
    start.countDown();
    for (Thread t : all) {
      t.join();
    }
    assertTrue(failures.isEmpty(), failures.toString());
  }
}
