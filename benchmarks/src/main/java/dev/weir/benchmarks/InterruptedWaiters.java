package dev.weir.benchmarks;

import dev.weir.agent.bootstrap.limit.BucketLimiter;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What interrupting waiters costs the rate: 64 threads call through a shaping leaky bucket of 500
 * calls a second (a queue of 64, so every thread can wait in it) as fast as it lets them, while one
 * more thread interrupts a random caller 88 times a second. An interrupted waiter gives its slot
 * back only where no later call holds a slot after it (a slot that later calls depend on cannot
 * move without moving theirs); so each interrupt of a waiter in the middle of the queue leaves a
 * hole in the schedule, under-admission that the contract allows.
 *
 * <p>Prints {@code key=value} lines: the calls admitted per second, their share of the rate, and
 * the interrupts that hit a waiter.
 */
public final class InterruptedWaiters {
  static final int THREADS = 64;
  static final int RATE = 500;
  static final int INTERRUPTS_PER_SECOND = 88;

  private InterruptedWaiters() {}

  public static void main(String[] args) throws InterruptedException {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    Result r = measure(seconds, INTERRUPTS_PER_SECOND);
    System.out.printf("interrupted.admittedPerSecond=%.1f%n", r.admittedPerSecond);
    System.out.printf("interrupted.shareOfRate=%.3f%n", r.admittedPerSecond / RATE);
    System.out.println("interrupted.interruptsOfWaiters=" + r.interruptedWaiters);
    System.out.println("interrupted.seconds=" + seconds);
  }

  /** What one run gave. */
  static final class Result {
    final double admittedPerSecond;
    final long interruptedWaiters;

    Result(double admittedPerSecond, long interruptedWaiters) {
      this.admittedPerSecond = admittedPerSecond;
      this.interruptedWaiters = interruptedWaiters;
    }
  }

  static Result measure(int seconds, int interruptsPerSecond) throws InterruptedException {
    BucketLimiter limiter = ShapingAccuracy.shaping("InterruptedWaiters", RATE, THREADS);
    AtomicLong admitted = new AtomicLong();
    AtomicLong interruptedWaiters = new AtomicLong();
    long warmUpEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(1); // the queue fills first
    long end = warmUpEnd + TimeUnit.SECONDS.toNanos(seconds);
    Thread[] callers = new Thread[THREADS];
    for (int i = 0; i < THREADS; i++) {
      callers[i] =
          new Thread(
              () -> {
                while (System.nanoTime() - end < 0) {
                  long r = limiter.acquire();
                  long now = System.nanoTime();
                  if (r == 0 && now - warmUpEnd >= 0 && now - end < 0) {
                    admitted.incrementAndGet();
                  } else if (r < 0) {
                    if (now - warmUpEnd >= 0 && now - end < 0) {
                      interruptedWaiters.incrementAndGet(); // in the measured seconds only
                    }
                    Thread.interrupted(); // the caller handles it and calls again
                  }
                }
              },
              "caller-" + i);
      callers[i].setDaemon(true);
      callers[i].start();
    }
    Random random = new Random(42);
    long interval = TimeUnit.SECONDS.toNanos(1) / Math.max(1, interruptsPerSecond);
    for (long next = System.nanoTime() + interval; next - end < 0; next += interval) {
      LockSupport.parkNanos(next - System.nanoTime());
      if (interruptsPerSecond > 0) {
        callers[random.nextInt(THREADS)].interrupt();
      }
    }
    for (Thread caller : callers) {
      caller.interrupt(); // wake waiters past the end
      caller.join();
    }
    return new Result(admitted.get() / (double) seconds, interruptedWaiters.get());
  }
}
