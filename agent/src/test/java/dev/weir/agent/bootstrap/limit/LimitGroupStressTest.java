package dev.weir.agent.bootstrap.limit;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.FakeClock;
import dev.weir.agent.bootstrap.core.GcraBucket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Eight threads on two limits that share one method, one of them shared with another method (the
 * issue's stress case): exact totals on a frozen clock, and no limit over its bound while the clock
 * moves.
 */
class LimitGroupStressTest {
  private static final int THREADS = 8;
  private static int names;

  private final FakeClock clock = new FakeClock(11 * 1_000_000_000L);

  private BucketLimiter limiter(String name, double rate, long capacity) {
    GcraBucket bucket =
        GcraBucket.create(
            Discipline.TOKEN_BUCKET, rate, SECONDS, capacity, false, 0, clock.nanoTime());
    return new BucketLimiter(name, "Stress#m()", bucket, 1, clock);
  }

  private static final class Totals {
    final AtomicLong both = new AtomicLong();
    final AtomicLong bothRefused = new AtomicLong();
    final AtomicLong alone = new AtomicLong();
    final AtomicLong aloneRefused = new AtomicLong();
  }

  /** Runs the threads: even calls on the method with both limits, odd ones on shared's alone. */
  private Totals run(LimitGroup both, BucketLimiter shared, int calls, Runnable ticker)
      throws InterruptedException {
    Totals totals = new Totals();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<Thread>();
    for (int t = 0; t < THREADS; t++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < calls; i++) {
                  if (i % 2 == 0) {
                    (both.acquire() == Limiter.ADMITTED ? totals.both : totals.bothRefused)
                        .incrementAndGet();
                  } else {
                    (shared.acquire() == Limiter.ADMITTED ? totals.alone : totals.aloneRefused)
                        .incrementAndGet();
                  }
                }
              });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    ticker.run();
    for (Thread thread : threads) {
      thread.join(60_000);
    }
    return totals;
  }

  private LimitGroup group(BucketLimiter shared, BucketLimiter own) {
    int a = LimiterRegistry.register("stress " + names++, shared);
    int b = LimiterRegistry.register("stress " + names++, own);
    return new LimitGroup("stress", "Stress#m()", new int[] {a, b}, new boolean[2], new boolean[2]);
  }

  @RepeatedTest(5)
  void exactTotalsOnAFrozenClock() throws InterruptedException {
    BucketLimiter shared = limiter("shared", 1, 100);
    BucketLimiter own = limiter("own", 1, 60);
    Totals t = run(group(shared, own), shared, 2000, () -> {});
    assertEquals(100, t.both.get() + t.alone.get(), "shared admitted exactly its capacity");
    assertEquals(100, shared.granted());
    assertEquals(t.both.get(), own.granted(), "own admitted exactly the calls both admitted");
    assertTrue(t.both.get() <= 60, "own never beyond its capacity: " + t.both.get());
    assertEquals(THREADS * 1000L, t.both.get() + t.bothRefused.get(), "every call answered");
    assertEquals(THREADS * 1000L, t.alone.get() + t.aloneRefused.get());
    assertEquals(0, shared.availablePermits(), "nothing lost: the undone charges came back");
    assertEquals(60 - t.both.get(), own.availablePermits());
  }

  @RepeatedTest(5)
  void exactTotalsOnAFrozenClockWithThreeLimits() throws InterruptedException {
    // three members take the general path (two keyless ones have a path of their own)
    BucketLimiter shared = limiter("shared", 1, 100);
    BucketLimiter own = limiter("own", 1, 60);
    BucketLimiter wide = limiter("wide", 1, 1_000_000);
    int a = LimiterRegistry.register("stress " + names++, shared);
    int b = LimiterRegistry.register("stress " + names++, own);
    int c = LimiterRegistry.register("stress " + names++, wide);
    LimitGroup three =
        new LimitGroup(
            "stress3", "Stress#m()", new int[] {a, b, c}, new boolean[3], new boolean[3]);
    Totals t = run(three, shared, 2000, () -> {});
    assertEquals(100, t.both.get() + t.alone.get(), "shared admitted exactly its capacity");
    assertEquals(t.both.get(), own.granted());
    assertEquals(t.both.get(), wide.granted());
    assertEquals(1_000_000 - t.both.get(), wide.availablePermits(), "refusals charged nothing");
    assertEquals(0, shared.availablePermits());
  }

  @RepeatedTest(3)
  void neverOverAdmitsOnEitherLimitWhileTheClockMoves() throws InterruptedException {
    BucketLimiter shared = limiter("shared", 1000, 100);
    BucketLimiter own = limiter("own", 500, 60);
    long start = clock.nanoTime();
    AtomicBoolean done = new AtomicBoolean();
    Totals t =
        run(
            group(shared, own),
            shared,
            20_000,
            () -> {
              for (int i = 0; i < 2000 && !done.get(); i++) {
                clock.advance(1_000_000L);
                Thread.yield();
              }
            });
    done.set(true);
    double seconds = (clock.nanoTime() - start) / 1e9;
    assertTrue(
        shared.granted() <= 100 + Math.floor(1000 * seconds),
        "shared: " + shared.granted() + " in " + seconds + " s");
    assertTrue(
        own.granted() <= 60 + Math.floor(500 * seconds),
        "own: " + own.granted() + " in " + seconds + " s");
    assertEquals(t.both.get(), own.granted());
    assertEquals(t.both.get() + t.alone.get(), shared.granted());
  }
}
