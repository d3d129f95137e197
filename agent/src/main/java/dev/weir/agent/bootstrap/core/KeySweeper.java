package dev.weir.agent.bootstrap.core;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.AgentThreads;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * The one background thread that drops idle per-key states: once a second it sweeps each {@link
 * KeyedBuckets} whose earliest state may have gone idle, so memory returns without new calls (a
 * call at a table's bound makes its own room, one key at a time). After a sweep it rests at least
 * as long as the sweep took, so sweeping costs at most half of one core.
 *
 * <p>The thread is a daemon named {@code weir-key-sweeper}, started with the first per-key limiter
 * through {@link AgentThreads}, so it holds nothing of the application that made that first call.
 * Thread-safe.
 */
public final class KeySweeper implements Runnable {
  /** How often the sweeper wakes on its own, in nanoseconds. */
  static final long PERIOD_NANOS = 1_000_000_000L;

  private static final CopyOnWriteArrayList<KeyedBuckets> TABLES =
      new CopyOnWriteArrayList<KeyedBuckets>();
  private static volatile Thread thread;

  private KeySweeper() {}

  /**
   * Adds a table to sweep, starting the thread if it is the first.
   *
   * @param table the per-key states of one limiter
   */
  public static void register(KeyedBuckets table) {
    TABLES.add(table);
    synchronized (KeySweeper.class) {
      if (thread != null) {
        return;
      }
      thread = AgentThreads.start(new KeySweeper(), "weir-key-sweeper");
    }
  }

  /**
   * Stops sweeping a table: its limiter was dropped.
   *
   * @param table the per-key states of that limiter
   */
  public static void unregister(KeyedBuckets table) {
    TABLES.remove(table);
  }

  /** Asks the sweeper to look at the tables now (a key to warn about). Never blocks. */
  static void nudge() {
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /** Sweeps every table that is due once, and reports what they saw; for tests and the thread. */
  static void sweepDue() {
    for (KeyedBuckets table : TABLES) {
      table.sweepIfDue();
      String warning = table.identityWarning();
      if (warning != null) {
        AgentLog.warn(warning);
      }
    }
  }

  @Override
  public void run() {
    for (; ; ) {
      long began = System.nanoTime();
      try {
        sweepDue();
      } catch (Throwable t) {
        AgentLog.error("the per-key sweeper failed and keeps running: " + t);
      }
      long took = System.nanoTime() - began;
      LockSupport.parkNanos(this, Math.max(PERIOD_NANOS, took)); // at least as long as it took
    }
  }
}
