package dev.weir.agent.bootstrap;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Every limiter of the JVM, by the int id bound into woven code, and by its sharing key.
 *
 * <p>Lives in the bootstrap class loader, so it outlives the agent's own class loader and is the
 * same for every woven class. Registration happens while classes are woven (rare, under this
 * class's lock); lookup by id happens on every limited call and takes no lock: the table is
 * published through a volatile field after each write.
 *
 * <p>Class loaders are known only by a small number handed out here and held in a weak map, so a
 * discarded class loader is never kept alive by a limiter. (The limiters of a discarded loader stay
 * in the table: a few hundred bytes per limited method per redeploy.)
 *
 * <ol>
 *   <li>I1: an id is returned only after its slot is written and the table is republished by a
 *       volatile write, so a reader that has the id finds the limiter without a lock (guarded by
 *       {@code AnnotationLimitsIT.manyThreadsGetExactlyTheCapacity}).
 *   <li>I2: a slot, once written, never changes: woven code keeps the limiter it was bound to
 *       (guarded by {@code AnnotationLimitsIT.anExplicitNameIsOneBucketForEveryMethodGivingIt}).
 *   <li>I3: equal keys get one id, whatever the threads weaving them (guarded by {@code
 *       LimiterRegistryTest.equalKeysRegisteredConcurrentlyGetOneId}).
 * </ol>
 */
public final class LimiterRegistry {
  private static volatile Limiter[] table = new Limiter[64];
  private static int size;
  private static final Map<String, Integer> BY_KEY = new HashMap<String, Integer>();
  private static final Map<ClassLoader, Integer> LOADER_IDS =
      new WeakHashMap<ClassLoader, Integer>();
  private static int nextLoaderId = 1;

  private LimiterRegistry() {}

  /**
   * The limiter with this id. Never blocks in the common case.
   *
   * @param id an id returned by {@link #register} or {@link #add}
   * @return the limiter
   * @throws IllegalStateException if no limiter has that id
   */
  public static Limiter limiter(int id) {
    Limiter[] t = table;
    if (id >= 0 && id < t.length) {
      Limiter limiter = t[id];
      if (limiter != null) {
        return limiter;
      }
    }
    return lookUnderLock(id);
  }

  private static synchronized Limiter lookUnderLock(int id) {
    Limiter[] t = table;
    if (id >= 0 && id < t.length && t[id] != null) {
      return t[id];
    }
    throw new IllegalStateException("weir: no limiter has id " + id);
  }

  /**
   * Registers {@code candidate} under {@code key}, unless a limiter is registered there already.
   *
   * @param key the sharing key: equal keys share one limiter
   * @param candidate the limiter to register if the key is new
   * @return the id of the limiter registered under the key: {@code candidate}'s if the key was new,
   *     otherwise the earlier one's (the caller checks that the settings agree)
   */
  public static synchronized int register(String key, Limiter candidate) {
    Integer existing = BY_KEY.get(key);
    if (existing != null) {
      return existing;
    }
    int id = add(candidate);
    BY_KEY.put(key, id);
    return id;
  }

  /**
   * Adds a limiter that shares no key (an invalid one, for example).
   *
   * @param limiter the limiter
   * @return its new id
   */
  public static synchronized int add(Limiter limiter) {
    Limiter[] t = table;
    if (size == t.length) {
      t = Arrays.copyOf(t, size * 2);
    }
    int id = size++;
    t[id] = limiter;
    table = t; // volatile write publishes the element
    return id;
  }

  /**
   * A small number standing for a class loader, for the keys of default-named limiters (one per
   * class loader, class and method). The loader is held weakly.
   *
   * @param loader a class loader; {@code null} for the bootstrap loader
   * @return {@code 0} for the bootstrap loader, otherwise a number unique to this loader
   */
  public static synchronized int loaderId(ClassLoader loader) {
    if (loader == null) {
      return 0;
    }
    Integer id = LOADER_IDS.get(loader);
    if (id == null) {
      id = nextLoaderId++;
      LOADER_IDS.put(loader, id);
    }
    return id;
  }
}
