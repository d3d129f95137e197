package dev.weir.agent.bootstrap;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.security.AccessController;
import java.security.PrivilegedAction;

/**
 * Weir's own threads. Such a thread must hold nothing of the application thread that happened to
 * start it (which may belong to a web application whose loader must be collectable): it is made
 * inside a privileged block (no inherited access-control context), in the JVM's root thread group,
 * with no context class loader, as a daemon, and without inheriting the starter's {@link
 * InheritableThreadLocal} values. Config limits never charge what it does. Thread-safe.
 */
public final class AgentThreads {
  private AgentThreads() {}

  /**
   * Starts a daemon thread of Weir's.
   *
   * @param task what it runs; config limits charge nothing of it
   * @param name the thread's name, {@code weir-...}
   * @return the started thread
   */
  public static Thread start(final Runnable task, final String name) {
    Thread t = unstarted(task, name);
    t.start();
    return t;
  }

  /**
   * A daemon thread of Weir's, not started yet (for a thread factory).
   *
   * @param task what it runs; config limits charge nothing of it
   * @param name the thread's name, {@code weir-...}
   * @return the thread
   */
  public static Thread unstarted(final Runnable task, final String name) {
    return AccessController.doPrivileged(
        new PrivilegedAction<Thread>() {
          @Override
          public Thread run() {
            Thread t =
                newThread(
                    new Runnable() {
                      @Override
                      public void run() {
                        CallDepth.enterWeir(); // for the thread's life: its work is Weir's own
                        task.run();
                      }
                    },
                    name);
            t.setDaemon(true);
            t.setContextClassLoader(null);
            return t;
          }
        });
  }

  /**
   * A thread of the JVM's root thread group that inherits no {@link InheritableThreadLocal} values:
   * through the constructor that says so (Java 9+), else by clearing the copied map before it
   * starts (Java 8).
   */
  private static Thread newThread(Runnable task, String name) {
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
      AgentLog.debug(name + " inherits the thread-locals of the thread that started it");
    }
    return t;
  }
}
