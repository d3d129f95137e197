package dev.weir.agent.bootstrap;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.security.AccessController;
import java.security.PrivilegedAction;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * The one background thread that drops idle per-key states: once a second it sweeps each {@link
 * KeyedBuckets} whose earliest state may have gone idle, so memory returns without new calls (a
 * call at a table's bound makes its own room, one key at a time). After a sweep it rests at least
 * as long as the sweep took, so sweeping costs at most half of one core.
 *
 * <p>The thread is a daemon named {@code weir-key-sweeper}, started with the first per-key limiter.
 * It must hold nothing of the application that made that first call: it is created inside a
 * privileged block (no inherited access-control context), with no context class loader, and without
 * inheriting the caller's {@link InheritableThreadLocal} values (any of which may be an object of a
 * web application's class loader). Thread-safe.
 */
final class KeySweeper implements Runnable {
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
  static void register(KeyedBuckets table) {
    TABLES.add(table);
    synchronized (KeySweeper.class) {
      if (thread != null) {
        return;
      }
      thread =
          AccessController.doPrivileged(
              new PrivilegedAction<Thread>() {
                @Override
                public Thread run() {
                  Thread t = newThread(new KeySweeper(), "weir-key-sweeper");
                  t.setDaemon(true);
                  t.setContextClassLoader(null);
                  t.start();
                  return t;
                }
              });
    }
  }

  /**
   * A thread of the JVM's root thread group (not the group of the application thread that asked,
   * which may belong to a web application) that inherits no {@link InheritableThreadLocal} values:
   * through the constructor that says so (Java 9+), else by clearing the copied map before it
   * starts (Java 8).
   */
  static Thread newThread(Runnable task, String name) {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root != null && root.getParent() != null) {
      root = root.getParent();
    }
    Thread made;
    try {
      Constructor<Thread> noInheritance =
          Thread.class.getConstructor(
              ThreadGroup.class, Runnable.class, String.class, long.class, boolean.class);
      made = noInheritance.newInstance(root, task, name, 0L, false);
    } catch (Exception notJava9) {
      made = java8Thread(root, task, name);
    }
    made.setPriority(Thread.NORM_PRIORITY);
    return made;
  }

  private static Thread java8Thread(ThreadGroup root, Runnable task, String name) {
    Thread t = new Thread(root, task, name);
    try {
      Field inherited = Thread.class.getDeclaredField("inheritableThreadLocals");
      inherited.setAccessible(true);
      inherited.set(t, null);
    } catch (Exception cannotClear) {
      AgentLog.debug("the key sweeper inherits the first keyed caller's thread-locals");
    }
    return t;
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
    CallDepth.enterWeir(); // the thread is Weir's own: config limits never charge it
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
