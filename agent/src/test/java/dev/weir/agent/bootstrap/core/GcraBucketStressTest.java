package dev.weir.agent.bootstrap.core;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Many platform threads on one bucket, released together by a latch: exact totals, never
 * over-admission. The same workloads run on virtual threads in {@code StressIT}, forked on each JDK
 * that has them.
 */
public class GcraBucketStressTest {
  private static final int THREADS = 64;
  private static final int ACQUIRES = 10_000;

  @Test
  void frozenClockGrantsExactlyCapacity() throws Exception {
    GcraBucket b = GcraBucket.create(Discipline.TOKEN_BUCKET, 10, SECONDS, 100, false, 0, 42);
    AtomicLong granted = new AtomicLong();
    run(
        () -> {
          for (int i = 0; i < ACQUIRES; i++) {
            if (b.acquire(42, 1, false) == 0) {
              granted.incrementAndGet();
            }
          }
        });
    assertEquals(100, granted.get());
  }

  @Test
  void frozenClockWithRandomCostsNeverExceedsCapacity() throws Exception {
    GcraBucket b = GcraBucket.create(Discipline.TOKEN_BUCKET, 10, SECONDS, 100, false, 0, 42);
    AtomicLong grantedPermits = new AtomicLong();
    run(
        () -> {
          ThreadLocalRandom random = ThreadLocalRandom.current();
          for (int i = 0; i < ACQUIRES; i++) {
            int cost = 1 + random.nextInt(7);
            if (b.acquire(42, cost, false) == 0) {
              grantedPermits.addAndGet(cost);
            }
          }
        });
    assertTrue(grantedPermits.get() <= 100, "granted " + grantedPermits.get());
    assertTrue(grantedPermits.get() > 100 - 7, "the bucket is drained: " + grantedPermits.get());
    assertEquals(0, b.availablePermits(42) - (100 - grantedPermits.get()));
  }

  @Test
  void neverOverAdmitsOnTheRealClock() throws Exception {
    // admitted <= capacity + rate * elapsed, with elapsed from before the first reading to after
    // the last: exact, whatever the scheduling
    double rate = 200_000;
    long capacity = 50;
    long start = System.nanoTime();
    GcraBucket b =
        GcraBucket.create(Discipline.TOKEN_BUCKET, rate, SECONDS, capacity, false, 0, start);
    AtomicLong granted = new AtomicLong();
    run(
        () -> {
          for (int i = 0; i < ACQUIRES; i++) {
            long r = b.acquire(System.nanoTime(), 1, false);
            if (r == GcraBucket.STALE_CLOCK) {
              r = b.acquire(System.nanoTime(), 1, true);
            }
            if (r == 0) {
              granted.incrementAndGet();
            }
          }
        });
    long elapsed = System.nanoTime() - start;
    long bound = capacity + (long) Math.ceil(rate * elapsed / 1e9);
    assertTrue(granted.get() <= bound, "granted " + granted.get() + " > bound " + bound);
    assertTrue(granted.get() > 0);
  }

  public static void run(Runnable work) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  work.run();
                } catch (Throwable e) {
                  synchronized (failures) {
                    failures.add(e);
                  }
                }
              });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    assertTrue(failures.isEmpty(), "failures: " + failures);
  }
}
