package dev.weir.agent.bootstrap.http;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How an {@code http} request that must wait ({@code onLimit: WAIT}, SHAPING) is delayed
 * (docs/web-apps.md): the two resources it may use, and their bounds.
 *
 * <p><b>Suspended.</b> A request that passed no filter, which the servlet API lets Weir suspend at
 * its servlet (asynchronous support on, not asynchronous already), holds no thread: {@link
 * HttpPassage} starts its asynchronous cycle, and one timer thread of Weir's ({@value #TIMER})
 * hands it back to the container at its slot ({@code AsyncContext.dispatch()}, which the container
 * runs on its own pool, through the filters, to the servlet). The timer thread runs no application
 * code and no container I/O: it only asks the container to dispatch. A request that passed filters
 * is never suspended (its filters would not surround the servlet when it is dispatched again).
 *
 * <p><b>Holding its thread.</b> A request that cannot be suspended waits on its thread as a method
 * call waits; at most {@link #maxBlockedThreads()} do so at once in the JVM ({@code
 * http.maxBlockedThreads}, default {@value #DEFAULT_MAX_BLOCKED_THREADS}; 0 means none ever does).
 * One beyond them that would have to wait is limited at once: its slot is given back by the rule
 * for interrupted waiters, and it is answered as a limited request with its slot's wait as its
 * {@code Retry-After}.
 *
 * <p>Thread-safe.
 */
public final class HttpWaits {
  /** {@code http.maxBlockedThreads} when the config file does not say. */
  static final int DEFAULT_MAX_BLOCKED_THREADS = 8;

  /** The timer thread's name. */
  static final String TIMER = "weir-http-waits";

  private static volatile int maxBlocked = DEFAULT_MAX_BLOCKED_THREADS;

  /** Requests holding their thread in a wait now. */
  private static final AtomicInteger BLOCKED = new AtomicInteger();

  /** Runs a task after a delay; the system one is made at the first suspension. */
  interface Timer {
    /**
     * Runs {@code task} once, {@code delayNanos} from now, on a thread of Weir's. Never blocks.
     *
     * @param task what to run; it must not block
     * @param delayNanos nanoseconds; {@code <= 0} for as soon as possible
     */
    void schedule(Runnable task, long delayNanos);
  }

  private static volatile Timer timer;

  /**
   * Servlet classes whose suspended request was seen dispatched again to another servlet: their
   * requests are never suspended from then on.
   */
  private static final ClassValue<AtomicBoolean> NOT_RESUMABLE =
      new ClassValue<AtomicBoolean>() {
        @Override
        protected AtomicBoolean computeValue(Class<?> type) {
          return new AtomicBoolean();
        }
      };

  private HttpWaits() {}

  /**
   * * Whether a servlet's requests may be suspended: none of them was dispatched again to another
   * servlet ({@link #notResumable}).
   *
   * @param servlet the servlet
   * @return true if they may
   */
  static boolean resumable(Object servlet) {
    return !NOT_RESUMABLE.get(servlet.getClass()).get();
  }

  /**
   * * Records that a request suspended at {@code servlet} was dispatched again to another servlet:
   * from now on its requests that must wait hold their thread, and this is logged once per servlet
   * class. Never throws.
   *
   * @param servlet the servlet the request was suspended at
   * @param limit the name of the limit it waited for
   * @param why where the dispatch went, in words
   */
  static void notResumable(Object servlet, String limit, String why) {
    if (NOT_RESUMABLE.get(servlet.getClass()).compareAndSet(false, true)) {
      AgentLog.warn(
          "http limit '"
              + limit
              + "': a request that waited at "
              + servlet.getClass().getName()
              + " was dispatched again "
              + why
              + ", so it was refused; from now on this servlet's requests that must wait hold their"
              + " thread (at most http.maxBlockedThreads at once, the rest limited at once)");
    }
  }

  /**
   * Sets {@code http.maxBlockedThreads}: the bound applies to requests that start waiting from now
   * on; those holding their thread keep it.
   *
   * @param max threads, {@code >= 0}
   * @throws IllegalArgumentException if {@code max < 0}
   */
  static void setMaxBlockedThreads(int max) {
    if (max < 0) {
      throw new IllegalArgumentException("http.maxBlockedThreads must be >= 0, was " + max);
    }
    maxBlocked = max;
  }

  /**
   * {@code http.maxBlockedThreads}.
   *
   * @return threads, {@code >= 0}
   */
  static int maxBlockedThreads() {
    return maxBlocked;
  }

  /**
   * Requests holding their thread in a wait now, JVM-wide.
   *
   * @return threads, {@code >= 0}
   */
  static int blockedThreads() {
    return BLOCKED.get();
  }

  /**
   * Takes one of the {@link #maxBlockedThreads()} places of a request that will hold its thread
   * while it waits. Never blocks.
   *
   * @return true if taken (give it back with {@link #releasePlace}); false if none is free
   */
  static boolean takePlace() {
    for (; ; ) {
      int now = BLOCKED.get();
      if (now >= maxBlocked) {
        return false;
      }
      if (BLOCKED.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  /** Gives back a place {@link #takePlace} took. */
  static void releasePlace() {
    BLOCKED.decrementAndGet();
  }

  /**
   * Runs {@code task} once on Weir's timer thread, {@code delayNanos} from now.
   *
   * @param task what to run: it asks the container to resume a request, nothing more
   * @param delayNanos nanoseconds; {@code <= 0} for as soon as possible
   */
  static void schedule(Runnable task, long delayNanos) {
    timer().schedule(task, delayNanos);
  }

  /**
   * Replaces the timer, for tests that drive time themselves.
   *
   * @param replacement the timer; null for the system one
   */
  static void useTimer(Timer replacement) {
    timer = replacement;
  }

  private static Timer timer() {
    Timer t = timer;
    if (t == null) {
      synchronized (HttpWaits.class) {
        t = timer;
        if (t == null) {
          timer = t = new SystemTimer();
        }
      }
    }
    return t;
  }

  /** One thread of Weir's, made at the first suspension, that lives as long as the JVM. */
  private static final class SystemTimer implements Timer {
    private final ScheduledThreadPoolExecutor executor;

    SystemTimer() {
      executor =
          new ScheduledThreadPoolExecutor(
              1,
              new ThreadFactory() {
                @Override
                public Thread newThread(Runnable r) {
                  return AgentThreads.unstarted(r, TIMER);
                }
              });
      executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public void schedule(Runnable task, long delayNanos) {
      executor.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    }
  }
}
