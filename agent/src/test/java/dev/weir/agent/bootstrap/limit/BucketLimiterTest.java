package dev.weir.agent.bootstrap.limit;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.RateLimitedException;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The limiter's waiting, interruption and result codes, on a fake clock that never sleeps. */
class BucketLimiterTest {
  private static final long MS = 1_000_000L;
  private static final long S = 1_000_000_000L;

  private final FakeClock clock = new FakeClock(0);

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private BucketLimiter limiter(
      Discipline d, double rate, long capacity, boolean wait, long maxWaitNanos, long permits) {
    GcraBucket bucket =
        GcraBucket.create(d, rate, SECONDS, capacity, wait, maxWaitNanos, clock.nanoTime());
    return new BucketLimiter("test", "Test#m()", bucket, permits, clock);
  }

  @Test
  void aRefundGivesBackExactlyWhatWasTakenKeylessAndPerKey() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 1, 3, false, 0, 1);
    for (String key : new String[] {null, "k"}) {
      for (int i = 0; i < 3; i++) {
        assertEquals(Limiter.ADMITTED, key == null ? l.acquire() : l.acquire(key));
      }
      l.refund(key);
      l.refund(key);
      assertEquals(Limiter.ADMITTED, key == null ? l.acquire() : l.acquire(key));
      assertEquals(Limiter.ADMITTED, key == null ? l.acquire() : l.acquire(key));
      assertTrue((key == null ? l.acquire() : l.acquire(key)) > 0, "3 taken again: no more");
    }
    assertEquals(6, l.granted(), "a refund takes back its call's count");
    assertEquals(2, l.rejected());
  }

  @Test
  void refundsRacingAcquiresNeverLetMoreThanTheCapacityThrough() throws Exception {
    for (String key : new String[] {null, "k"}) {
      BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 1, 100, false, 0, 1); // frozen clock
      java.util.concurrent.atomic.AtomicLong kept = new java.util.concurrent.atomic.AtomicLong();
      java.util.concurrent.atomic.AtomicLong over = new java.util.concurrent.atomic.AtomicLong();
      Thread[] threads = new Thread[8];
      for (int t = 0; t < threads.length; t++) {
        int seed = t;
        threads[t] =
            new Thread(
                () -> {
                  java.util.Random random = new java.util.Random(seed);
                  for (int i = 0; i < 20_000; i++) {
                    if ((key == null ? l.acquire() : l.acquire(key)) != Limiter.ADMITTED) {
                      continue;
                    }
                    if (random.nextInt(4) == 0) {
                      if (kept.incrementAndGet() > 100) {
                        over.incrementAndGet();
                      }
                    } else {
                      l.refund(key); // another entry refused the request
                    }
                  }
                });
        threads[t].start();
      }
      for (Thread t : threads) {
        t.join();
      }
      assertEquals(0, over.get(), "held beyond the capacity");
      assertEquals(100, kept.get(), "every permit ends up held: none lost to a refund");
      assertEquals(100, l.granted());
      assertTrue((key == null ? l.acquire() : l.acquire(key)) > 0);
    }
  }

  @Test
  void aDryRunRefundsNothing() {
    GcraBucket bucket =
        GcraBucket.create(Discipline.TOKEN_BUCKET, 1, SECONDS, 1, false, 0, clock.nanoTime());
    BucketLimiter l = new BucketLimiter("test", "Test#m()", bucket, 1, clock, true);
    l.acquire();
    l.acquire(); // would have been limited: nothing taken
    l.refund(null);
    l.setDryRun(false);
    assertTrue(l.acquire() > 0, "the one permit taken stays taken");
  }

  @Test
  void waitWithinTheBoundProceedsAtTheSlot() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 1, 1, true, 1000 * MS, 1);
    assertEquals(Limiter.ADMITTED, l.acquire());
    assertEquals(Limiter.ADMITTED, l.acquire());
    assertEquals(S, clock.nanoTime(), "the second call proceeds at 1.000 s");
  }

  @Test
  void waitBeyondTheBoundIsRejectedAtOnce() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 1, 1, true, 999 * MS, 1);
    assertEquals(Limiter.ADMITTED, l.acquire());
    assertEquals(S, l.acquire(), "limited with retry-after 1 s");
    assertEquals(0, clock.parkedNanos(), "rejected without waiting first");
  }

  @Test
  void shapingDeparturesAreSpaced() {
    BucketLimiter l = limiter(Discipline.SHAPING, 10, 20, false, Long.MAX_VALUE, 1);
    for (int k = 0; k < 20; k++) {
      clock.set(0);
      assertEquals(Limiter.ADMITTED, l.acquire());
      assertEquals(k * 100 * MS, clock.nanoTime(), "departure of call " + k);
    }
    clock.set(0);
    assertEquals(100 * MS, l.acquire(), "the 21st finds the queue full");
  }

  @Test
  void interruptedWaiterGivesItsSlotBackKeepsTheFlagAndReportsIt() {
    BucketLimiter l = limiter(Discipline.SHAPING, 10, 5, false, Long.MAX_VALUE, 1);
    assertEquals(Limiter.ADMITTED, l.acquire()); // departs at 0; the next slot is at 100 ms
    clock.onPark(() -> Thread.currentThread().interrupt());
    long result = l.acquire();
    assertTrue(result < 0, "interrupted");
    assertTrue(Thread.currentThread().isInterrupted(), "the interrupt flag is kept");
    assertEquals(0, ~result, "its slot went back: a call now would be admitted into the queue");
    assertEquals(4, l.bucket().availablePermits(clock.nanoTime()), "only the first call holds");

    RateLimitedException e =
        (RateLimitedException)
            WeirBridge.limited(
                new RateLimitedException("test", WeirBridge.retryAfterNanos(result)), result);
    assertTrue(e.getCause() instanceof InterruptedException);
    assertEquals(0, e.retryAfterNanos());
  }

  @Test
  void aReservedSlotIsChargedAsAWaitAndCountedWhenItIsReached() {
    for (String key : new String[] {null, "k"}) {
      clock.set(0);
      BucketLimiter l = limiter(Discipline.SHAPING, 10, 5, false, Long.MAX_VALUE, 1);
      Reservation first = l.reserve(key);
      assertFalse(first.waits() || first.isLimited(), "departs at once");
      Reservation second = l.reserve(key);
      assertTrue(second.waits());
      assertEquals(100 * MS, second.waitNanos(), "the slot a waiting acquire would have had");
      assertEquals(0, clock.parkedNanos(), "nothing slept");
      assertEquals(1, l.waiting());
      assertEquals(1, l.granted(), "counted when its slot comes");
      clock.advance(130 * MS);
      assertTrue(second.admit());
      assertFalse(second.admit(), "once");
      assertEquals(-1, second.abandon(), "admitted: nothing to give back");
      assertEquals(0, l.waiting());
      assertEquals(2, l.granted());
      assertEquals(1, l.waited());
      assertEquals(130 * MS, l.totalWaitNanos(), "the time it waited");
      // the next leaves one interval after the second's slot, as after a waiting acquire
      Reservation third = l.reserve(key);
      assertEquals(70 * MS, third.waitNanos());
      assertTrue(third.admit());
    }
  }

  @Test
  void anAbandonedSlotGoesBackByTheRuleForInterruptedWaiters() {
    for (String key : new String[] {null, "k"}) {
      clock.set(0);
      BucketLimiter l = limiter(Discipline.SHAPING, 10, 5, false, Long.MAX_VALUE, 1);
      l.reserve(key); // departs at 0
      Reservation mine = l.reserve(key); // 100 ms
      Reservation later = l.reserve(key); // 200 ms, after mine
      assertEquals(2, l.waiting());
      assertTrue(mine.abandon() >= 1);
      assertEquals(-1, mine.abandon(), "once");
      assertFalse(mine.admit(), "given back: it does not proceed");
      assertEquals(1, l.rejected());
      assertEquals(1, l.waiting());
      assertEquals(
          key == null ? 2 : 5,
          key == null ? l.bucket().availablePermits(0) : l.availablePermits(),
          "a later slot depends on it: kept for now");
      assertTrue(later.abandon() >= 1);
      Reservation next = l.reserve(key);
      assertEquals(100 * MS, next.waitNanos(), "both went back: the next takes the first's slot");
      assertEquals(0, next.waitNanos() - 100 * MS);
      assertEquals(2, l.rejected());
      assertEquals(1, l.waiting());
    }
  }

  @Test
  void aReservationLimitedAtOnceHoldsNothingAndSaysWhenToRetry() {
    BucketLimiter l = limiter(Discipline.SHAPING, 10, 2, false, Long.MAX_VALUE, 1);
    l.reserve(null);
    l.reserve(null); // the queue holds 2
    Reservation full = l.reserve(null);
    assertTrue(full.isLimited());
    assertFalse(full.waits());
    assertEquals(100 * MS, full.retryAfterNanos(), "as the acquire's answer");
    assertEquals(100 * MS, l.acquire());
    assertEquals(2, l.rejected());
    assertEquals(1, l.waiting());
  }

  @Test
  void interruptedWaiterWithALaterSlotBehindItKeepsTheSlotTaken() {
    BucketLimiter l = limiter(Discipline.SHAPING, 10, 5, false, Long.MAX_VALUE, 1);
    GcraBucket b = l.bucket();
    assertEquals(0, b.acquire(0, 1, true)); // departs at 0
    long mine = b.acquire(0, 1, true); // 100 ms
    long later = b.acquire(0, 1, true); // 200 ms: depends on the slot before it
    assertTrue(mine > 0 && later > 0);
    assertFalse(b.giveBack(0, mine, 1));
    assertEquals(2, b.availablePermits(0));
  }

  /**
   * Waiters interrupted head first (as {@code shutdownNow()} may do): each has a later call behind
   * it when it is interrupted, but once the last has given its slot back, theirs are the last again
   * and go back too, so no slot is lost.
   */
  @Test
  void slotsOfWaitersInterruptedHeadFirstAllGoBackOnceTheLastHas() throws Exception {
    NanoClock frozen =
        new NanoClock() {
          @Override
          public long nanoTime() {
            return 0; // time stands still: waiters wait until interrupted
          }

          @Override
          public void parkNanos(long nanos) {
            java.util.concurrent.locks.LockSupport.park(this);
          }
        };
    BucketLimiter l =
        new BucketLimiter(
            "holes",
            "Test#m()",
            GcraBucket.create(Discipline.SHAPING, 10, SECONDS, 5, false, Long.MAX_VALUE, 0),
            1,
            frozen);
    assertEquals(Limiter.ADMITTED, l.acquire()); // departs at 0
    Thread[] waiters = new Thread[3];
    long[] results = new long[3];
    for (int i = 0; i < waiters.length; i++) {
      final int n = i;
      waiters[i] = new Thread(() -> results[n] = l.acquire());
      waiters[i].start();
      long held = 4 - i - 1; // each takes the next slot, 100 ms apart, before the next starts
      for (long deadline = System.nanoTime() + 10 * S;
          l.bucket().availablePermits(0) != held && System.nanoTime() < deadline; ) {
        Thread.onSpinWait();
      }
      assertEquals(held, l.bucket().availablePermits(0), "waiter " + i + " holds its slot");
    }
    for (int i = 0; i < waiters.length; i++) { // head first: each has later calls behind it
      waiters[i].interrupt();
      waiters[i].join(10_000);
      assertTrue(results[i] < 0, "waiter " + i + " was interrupted");
    }
    assertEquals(4, l.bucket().availablePermits(0), "every slot went back; only the first call's");
  }

  @Test
  void enteringWithTheFlagSetStillPassesWhenNoWaitIsNeeded() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 2, true, 1000 * MS, 1);
    Thread.currentThread().interrupt();
    assertEquals(Limiter.ADMITTED, l.acquire());
    assertTrue(Thread.currentThread().isInterrupted());
  }

  @Test
  void staleReadingIsRetriedWithAFreshOne() {
    BucketLimiter l = limiter(Discipline.TOKEN_BUCKET, 10, 3, false, 0, 1);
    clock.set(S);
    assertEquals(Limiter.ADMITTED, l.acquire());
    clock.set(-10 * S); // the clock went back; the limiter confirms with a second reading
    assertEquals(100 * MS, l.acquire(), "taken as empty: the next permit in 100 ms");
    clock.advance(100 * MS);
    assertEquals(Limiter.ADMITTED, l.acquire());
  }

  @Test
  void readingsThatKeepJumpingBackAndForthAreRefusedNotSpunOn() {
    BucketLimiter l =
        new BucketLimiter(
            "test",
            "Test#m()",
            GcraBucket.create(Discipline.TOKEN_BUCKET, 10, SECONDS, 3, false, 0, 100 * S),
            1,
            new NanoClock() {
              private long reads;

              @Override
              public long nanoTime() {
                return reads++ % 2 == 0 ? 0 : 100 * S; // L, H, L, H, ...
              }

              @Override
              public void parkNanos(long nanos) {}
            });
    long result = 0;
    for (int i = 0; i < 20 && result == 0; i++) {
      result = l.acquire();
    }
    assertTrue(result > 0, "refused with a retry-after, never a hang");
  }

  @Test
  void aClockStepBackWhileWaitingDoesNotLengthenTheWait() {
    BucketLimiter l = limiter(Discipline.SHAPING, 10, 5, false, Long.MAX_VALUE, 1);
    assertEquals(Limiter.ADMITTED, l.acquire());
    clock.onPark(
        () -> {
          if (clock.parkedNanos() == 100 * MS) {
            clock.set(-10 * S); // during the first park, the clock goes back 10 s
          }
        });
    assertEquals(Limiter.ADMITTED, l.acquire());
    assertEquals(200 * MS, clock.parkedNanos(), "100 ms, then 100 ms again, not 10 s");
  }

  @Test
  void refusedLimiterFailsClosed() {
    RefusedLimiter l = new RefusedLimiter("x", "A#b()", "invalid @TokenBucket on A#b(): bad");
    IllegalStateException e = assertThrows(IllegalStateException.class, l::acquire);
    assertEquals("invalid @TokenBucket on A#b(): bad", e.getMessage());
  }

  @Test
  void settingsNameEveryValue() {
    assertEquals(
        "token bucket 10.0/SECONDS capacity 20 permits 2 WAIT maxWait 500 ms",
        limiter(Discipline.TOKEN_BUCKET, 10, 20, true, 500 * MS, 2).settings());
    assertEquals(
        "leaky bucket (shaping) 10.0/SECONDS capacity 20 REJECT",
        limiter(Discipline.SHAPING, 10, 20, false, Long.MAX_VALUE, 1).settings());
  }
}
