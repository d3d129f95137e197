package dev.weir.benchmarks;

import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.BucketLimiter;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * How closely a shaping limiter keeps its schedule: 8 threads call as fast as they can through a
 * limiter of 1,000 calls a second, and each departure is compared with the ideal schedule {@code
 * first + k * 1 ms}. Weir's leaky bucket ({@code SHAPING}, {@code WAIT}) beside Guava's blocking
 * {@code RateLimiter.acquire()}, and beside a floor: the ideal schedule with nothing but parking
 * ({@link #floor()}), which shows what the platform's timer and scheduler cost any such limiter.
 *
 * <p>Prints, for each, the deviation from the schedule (p50, p99, max, in microseconds) and the
 * gaps between consecutive departures (p1, p50, p99, min, max, in microseconds), as {@code
 * key=value} lines.
 */
public final class ShapingAccuracy {
  static final int THREADS = 8;
  static final int RATE = 1_000;

  private ShapingAccuracy() {}

  /** Something that blocks until the caller may proceed. */
  interface Gate {
    void pass();
  }

  public static void main(String[] args) throws InterruptedException {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    report("weir", measure(weir(), seconds));
    report("guava", measure(guava(), seconds));
    report("floor", measure(floor(), seconds));
  }

  static Gate weir() {
    BucketLimiter limiter = shaping("ShapingAccuracy", RATE, THREADS);
    return () -> {
      if (limiter.acquire() != 0) {
        throw new IllegalStateException("a WAIT leaky bucket with room for every thread limited");
      }
    };
  }

  /**
   * Weir's shaping leaky bucket with {@code WAIT} and no bound on the wait, on the system clock.
   *
   * @param name the limiter's name
   * @param rate calls per second
   * @param queue its capacity: the calls that may wait at once
   */
  static BucketLimiter shaping(String name, int rate, int queue) {
    return new BucketLimiter(
        name,
        name,
        GcraBucket.create(
            Discipline.SHAPING,
            rate,
            TimeUnit.SECONDS,
            queue,
            true,
            Long.MAX_VALUE,
            System.nanoTime()),
        1,
        NanoClock.SYSTEM);
  }

  /**
   * The floor of any limiter that parks its waiters: the ideal schedule handed out by one {@code
   * getAndAdd} on a shared slot counter, each thread parking until its slot. What it misses is the
   * platform's (timer wake-ups, CPUs taken away by the host), not a limiter's.
   */
  static Gate floor() {
    long interval = TimeUnit.SECONDS.toNanos(1) / RATE;
    AtomicLong nextSlot = new AtomicLong(System.nanoTime());
    return () -> {
      long slot = nextSlot.getAndAdd(interval);
      for (long now = System.nanoTime(); now < slot; now = System.nanoTime()) {
        LockSupport.parkNanos(slot - now);
      }
    };
  }

  static Gate guava() {
    com.google.common.util.concurrent.RateLimiter limiter =
        com.google.common.util.concurrent.RateLimiter.create(RATE);
    return limiter::acquire;
  }

  /**
   * Runs the threads for a warm-up second, then records {@code seconds * RATE} departures.
   *
   * @return the departure instants, sorted, in nanoseconds
   */
  static long[] measure(Gate gate, int seconds) throws InterruptedException {
    int warmUp = RATE;
    int total = warmUp + seconds * RATE;
    long[] departures = new long[total];
    AtomicInteger next = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    Thread[] threads = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      threads[t] =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (; ; ) {
                  gate.pass();
                  long now = System.nanoTime();
                  int i = next.getAndIncrement();
                  if (i >= total) {
                    return;
                  }
                  departures[i] = now;
                }
              });
      threads[t].start();
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    long[] measured = Arrays.copyOfRange(departures, warmUp, total);
    Arrays.sort(measured);
    return measured;
  }

  /** Deviation from {@code first + k / RATE} and gaps, in microseconds. */
  static Histogram[] analyse(long[] departures) {
    Histogram deviation = new Histogram(3);
    Histogram gaps = new Histogram(3);
    long interval = TimeUnit.SECONDS.toNanos(1) / RATE;
    for (int k = 0; k < departures.length; k++) {
      long ideal = departures[0] + k * interval;
      deviation.recordValue(Math.abs(departures[k] - ideal) / 1_000);
      if (k > 0) {
        gaps.recordValue((departures[k] - departures[k - 1]) / 1_000);
      }
    }
    return new Histogram[] {deviation, gaps};
  }

  static void report(String name, long[] departures) {
    Histogram[] h = analyse(departures);
    Histogram deviation = h[0];
    Histogram gaps = h[1];
    double seconds = (departures[departures.length - 1] - departures[0]) / 1e9;
    System.out.printf("%s.ratePerSecond=%.1f%n", name, (departures.length - 1) / seconds);
    System.out.println(name + ".deviationP50Micros=" + deviation.getValueAtPercentile(50));
    System.out.println(name + ".deviationP99Micros=" + deviation.getValueAtPercentile(99));
    System.out.println(name + ".deviationMaxMicros=" + deviation.getMaxValue());
    System.out.println(name + ".gapP1Micros=" + gaps.getValueAtPercentile(1));
    System.out.println(name + ".gapP50Micros=" + gaps.getValueAtPercentile(50));
    System.out.println(name + ".gapP99Micros=" + gaps.getValueAtPercentile(99));
    System.out.println(name + ".gapMinMicros=" + gaps.getMinValue());
    System.out.println(name + ".gapMaxMicros=" + gaps.getMaxValue());
  }
}
