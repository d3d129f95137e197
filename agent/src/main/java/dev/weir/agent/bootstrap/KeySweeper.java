package dev.weir.agent.bootstrap;

import java.security.AccessController;
import java.security.PrivilegedAction;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The one background thread that drops idle per-key states: once a second it sweeps each {@link
 * KeyedBuckets} whose earliest state may have gone idle, so memory returns without new calls.
 *
 * <p>The thread is a daemon named {@code weir-key-sweeper}, started with the first per-key limiter.
 * It is created inside a privileged block with no context class loader, so it holds no reference to
 * the application class loader that happened to make the first keyed call (a web-app redeploy must
 * not leak). Thread-safe.
 */
final class KeySweeper implements Runnable {
  /** How often the sweeper wakes, in nanoseconds. */
  static final long PERIOD_NANOS = 1_000_000_000L;

  private static final CopyOnWriteArrayList<KeyedBuckets> TABLES =
      new CopyOnWriteArrayList<KeyedBuckets>();
  private static boolean started;

  private KeySweeper() {}

  /**
   * Adds a table to sweep, starting the thread if it is the first.
   *
   * @param table the per-key states of one limiter
   */
  static void register(KeyedBuckets table) {
    TABLES.add(table);
    synchronized (KeySweeper.class) {
      if (started) {
        return;
      }
      started = true;
    }
    AccessController.doPrivileged(
        new PrivilegedAction<Void>() {
          @Override
          public Void run() {
            Thread thread = new Thread(new KeySweeper(), "weir-key-sweeper");
            thread.setDaemon(true);
            thread.setContextClassLoader(null);
            thread.start();
            return null;
          }
        });
  }

  /** Sweeps every table that is due once; for tests and for the thread. */
  static void sweepDue() {
    for (KeyedBuckets table : TABLES) {
      table.sweepIfDue();
    }
  }

  @Override
  public void run() {
    for (; ; ) {
      NanoClock.SYSTEM.parkNanos(PERIOD_NANOS);
      try {
        sweepDue();
      } catch (Throwable t) {
        AgentLog.error("the per-key sweeper failed and keeps running: " + t);
      }
    }
  }
}
