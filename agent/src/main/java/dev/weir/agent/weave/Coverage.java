package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.weave.LimitWeaver.Covered;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What each limiter limits now, method by method, for the {@code Methods} attribute and the {@code
 * methods} command (docs/operations.md, "MBeans"): one record per woven class, replaced whenever
 * the class is woven again and dropped with its class loader.
 *
 * <p>A class woven at load is recorded at once (if the JVM then refuses it, it never runs). A class
 * woven again (retransformed) is staged, and its record replaces the old one only once the JVM has
 * taken the new code ({@link #commit}); if the JVM refuses it, the class keeps its old code and its
 * old record ({@link #discard}).
 *
 * <p>Thread-safe.
 */
final class Coverage {
  /** A woven class's record: its loader's number, and what its methods limit. */
  private static final class Record {
    final int loaderId;
    final String loaderSuffix;
    final List<Covered> covered;

    Record(int loaderId, String loaderSuffix, List<Covered> covered) {
      this.loaderId = loaderId;
      this.loaderSuffix = loaderSuffix;
      this.covered = covered;
    }
  }

  private final ConcurrentHashMap<String, Record> byClass = new ConcurrentHashMap<String, Record>();
  private final ConcurrentHashMap<String, Record> staged = new ConcurrentHashMap<String, Record>();

  /**
   * Counts the changes of {@link #byClass}, so that {@link #byLimiter} knows when to look again.
   */
  private final AtomicInteger changes = new AtomicInteger();

  /**
   * Every limiter's methods, built from {@link #byClass} when asked after a change (of the records,
   * or of the registry: an override redirects an id), so that the {@code Methods} of ten thousand
   * limiters cost one walk over the records, not one each. Guarded by {@code this}.
   */
  private Map<Limiter, Set<String>> byLimiter;

  /** The {@link #changes} and registry version {@link #byLimiter} was built at; guarded by this. */
  private int builtAtChange = -1;

  private int builtAtRegistry = -1;

  /** A record that stages the class's having no limited method any longer. */
  private static final List<Covered> NONE = Collections.emptyList();

  /**
   * Records what a woven class limits.
   *
   * @param loader the class's loader, null for the bootstrap loader
   * @param internalName the class
   * @param covered what its woven methods limit; empty if none any longer
   * @param redefining true if the class is loaded already: the record waits for {@link #commit}
   */
  void record(ClassLoader loader, String internalName, List<Covered> covered, boolean redefining) {
    int loaderId = LimiterRegistry.loaderId(loader);
    String key = loaderId + ":" + internalName;
    Record record =
        new Record(
            loaderId,
            loaderSuffix(loader),
            covered.isEmpty()
                ? NONE
                : Collections.unmodifiableList(new ArrayList<Covered>(covered)));
    if (redefining) {
      staged.put(key, record);
    } else if (covered.isEmpty()) {
      byClass.remove(key);
      changes.incrementAndGet();
    } else {
      byClass.put(key, record);
      changes.incrementAndGet();
    }
  }

  /**
   * The JVM took the code woven for these loaded classes: their staged records apply.
   *
   * @param classes the classes retransformed
   */
  void commit(Class<?>... classes) {
    for (Class<?> type : classes) {
      String key = key(type);
      Record record = staged.remove(key);
      if (record == null) {
        continue;
      }
      if (record.covered.isEmpty()) {
        byClass.remove(key);
      } else {
        byClass.put(key, record);
      }
      changes.incrementAndGet();
    }
  }

  /**
   * The JVM refused the code woven for these loaded classes: they keep their old code and record.
   *
   * @param classes the classes whose retransformation failed
   */
  void discard(Class<?>... classes) {
    for (Class<?> type : classes) {
      staged.remove(key(type));
    }
  }

  private static String key(Class<?> type) {
    return LimiterRegistry.loaderId(type.getClassLoader()) + ":" + type.getName().replace('.', '/');
  }

  /**
   * Forgets the classes of collected loaders.
   *
   * @param loaderIds the collected loaders' numbers
   */
  void forget(Set<Integer> loaderIds) {
    forget(byClass, loaderIds);
    forget(staged, loaderIds);
    changes.incrementAndGet();
  }

  private static void forget(Map<String, Record> records, Set<Integer> loaderIds) {
    for (Iterator<Record> i = records.values().iterator(); i.hasNext(); ) {
      if (loaderIds.contains(i.next().loaderId)) {
        i.remove();
      }
    }
  }

  /**
   * The methods whose calls the limiter limits now: those woven with its id, or with an id whose
   * calls go to it (an override of an annotated limiter by name).
   *
   * @param limiter the limiter
   * @return {@code Class#method(params)}, with {@code @loader} where the class's loader is not the
   *     system loader or the JDK's, and {@code (with a, b)} naming the method's other limits where
   *     it has several, sorted
   */
  List<String> methodsOf(Limiter limiter) {
    Set<String> methods = byLimiter().get(limiter);
    return methods == null ? new ArrayList<String>() : new ArrayList<String>(methods);
  }

  /** {@link #byLimiter}, built again if a record or the registry changed since it was built. */
  private synchronized Map<Limiter, Set<String>> byLimiter() {
    int change = changes.get(); // read before the walk: a change during it is seen next time
    int registry = LimiterRegistry.version();
    if (byLimiter == null || change != builtAtChange || registry != builtAtRegistry) {
      Map<Limiter, Set<String>> built = new IdentityHashMap<Limiter, Set<String>>();
      for (Record record : byClass.values()) {
        for (Covered c : record.covered) {
          Limiter limiter = LimiterRegistry.limiter(c.limiterId);
          Set<String> methods = built.get(limiter);
          if (methods == null) {
            methods = new TreeSet<String>();
            built.put(limiter, methods);
          }
          methods.add(c.method + record.loaderSuffix + c.sharedWith);
        }
      }
      byLimiter = built;
      builtAtChange = change;
      builtAtRegistry = registry;
    }
    return byLimiter;
  }

  /**
   * How a method names its class's loader in {@code Methods}: nothing for the system loader and the
   * JDK's (a JDK class has one loader), else {@code @} and the loader's name or class with its
   * number, as the MBeans of a second loader's limiters name it ({@code @WebappClassLoader-3}).
   */
  static String loaderSuffix(ClassLoader loader) {
    if (loader == null || loader == ClassLoader.getSystemClassLoader()) {
      return "";
    }
    ClassLoader platform = ClassLoader.getSystemClassLoader().getParent();
    if (loader == platform) {
      return "";
    }
    String name = loaderName(loader);
    return "@"
        + (name != null ? name : loader.getClass().getSimpleName())
        + "-"
        + LimiterRegistry.loaderId(loader);
  }

  /** {@code ClassLoader.getName()} where the JVM has it (9 and later); null otherwise. */
  private static String loaderName(ClassLoader loader) {
    try {
      Object name = ClassLoader.class.getMethod("getName").invoke(loader);
      return name instanceof String && !((String) name).isEmpty() ? (String) name : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // Java 8
    }
  }
}
