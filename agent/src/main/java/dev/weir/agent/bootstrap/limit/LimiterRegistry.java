package dev.weir.agent.bootstrap.limit;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Every limiter of the JVM, by the int id bound into woven code, and by its sharing key.
 *
 * <p>Lives in the bootstrap class loader, so it outlives the agent's own class loader and is the
 * same for every woven class. Registration happens while classes are woven (rare, under this
 * class's lock); lookup by id happens on every limited call and takes no lock: the table is
 * published through a volatile field after each write.
 *
 * <p>Class loaders are known only by a small number handed out here and held weakly, so a limiter
 * never keeps a discarded class loader alive. A limiter that belongs to one loader (a default-named
 * limiter, one per loader, class and method; an invalid method's) is dropped once that loader has
 * been collected: no code can call it any more, since its classes went with the loader. {@link
 * #dropCollected()} does that, on Weir's management thread; its id is then free for reuse, so
 * redeploying a web application a thousand times leaves nothing behind. Limiters with an explicit
 * name, and config limits, are JVM-wide and stay.
 *
 * <ol>
 *   <li>I1: an id is returned only after its slot is written and the table is republished by a
 *       volatile write, so a reader that has the id finds the limiter without a lock (guarded by
 *       {@code AnnotationLimitsIT.manyThreadsGetExactlyTheCapacity}).
 *   <li>I2: a slot, once written, changes only when the loader that owns it has been collected, or
 *       by a redirect to a config entry overriding it and back: woven code keeps the limiter it was
 *       bound to (guarded by {@code
 *       AnnotationLimitsIT.anExplicitNameIsOneBucketForEveryMethodGivingIt} and {@code
 *       LimiterRegistryTest.aCollectedLoadersLimitersAreDroppedAndTheirIdsReused}).
 *   <li>I3: equal keys get one id, whatever the threads weaving them (guarded by {@code
 *       LimiterRegistryTest.equalKeysRegisteredConcurrentlyGetOneId}).
 * </ol>
 */
public final class LimiterRegistry {
  private static volatile Limiter[] table = new Limiter[64];

  /**
   * The limiter registered at each id; {@link #table} holds the same unless calls are redirected
   * ({@link #redirect}). Guarded by the class lock.
   */
  private static Limiter[] originals = new Limiter[64];

  /** The loader id owning each slot; 0 for a JVM-wide limiter. Guarded by the class lock. */
  private static int[] owners = new int[64];

  /**
   * Slots superseded by a config reload: still callable by code woven before it (a frame already
   * running, a class that could not be retransformed), no longer shown. Guarded by the class lock.
   */
  private static boolean[] hidden = new boolean[64];

  private static int size;
  private static int[] free = new int[8];
  private static int freeCount;
  private static final Map<String, Integer> BY_KEY = new HashMap<String, Integer>();

  /**
   * The ids of the registered limiters of each name, listed or not: what {@link #idsNamed} looks
   * in, so that a reload of ten thousand entries does not walk the table for each. Guarded by the
   * class lock.
   */
  private static final Map<String, List<Integer>> IDS_BY_NAME =
      new HashMap<String, List<Integer>>();

  private static final Map<ClassLoader, Integer> LOADER_IDS =
      new WeakHashMap<ClassLoader, Integer>();
  private static final ReferenceQueue<ClassLoader> COLLECTED = new ReferenceQueue<ClassLoader>();

  /** Strong references to the weak ones, so that each is enqueued when its loader goes. */
  private static final Set<LoaderRef> LOADER_REFS = new HashSet<LoaderRef>();

  private static int nextLoaderId = 1;
  private static volatile int version;

  private LimiterRegistry() {}

  /**
   * Whether the calls of a limiter of this name are refused because the JVM is shutting down with
   * {@code drainOnExit} ({@link #drain()}): what a {@code RateLimitedException} that names it and
   * never admits was thrown for. Takes the class lock.
   *
   * @param name a limiter name
   * @return true if a listed limiter of that name is draining
   */
  public static synchronized boolean isDraining(String name) {
    Limiter[] t = table;
    for (int id = 0; id < size; id++) {
      if (t[id] instanceof Draining && !hidden[id] && t[id].name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** A class loader's number, enqueued once the loader has been collected. */
  private static final class LoaderRef extends WeakReference<ClassLoader> {
    final int id;

    LoaderRef(ClassLoader loader, int id) {
      super(loader, COLLECTED);
      this.id = id;
    }
  }

  /** A registered limiter as the management thread sees it. */
  public static final class Slot {
    /** The id woven code calls it by. */
    public final int id;

    /** The limiter. */
    public final Limiter limiter;

    /** The number of the class loader it belongs to; 0 for a JVM-wide limiter. */
    public final int loaderId;

    Slot(int id, Limiter limiter, int loaderId) {
      this.id = id;
      this.limiter = limiter;
      this.loaderId = loaderId;
    }
  }

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
   * Registers a JVM-wide limiter under {@code key}, unless a limiter is registered there already.
   *
   * @param key the sharing key: equal keys share one limiter
   * @param candidate the limiter to register if the key is new
   * @return the id of the limiter registered under the key
   */
  public static int register(String key, Limiter candidate) {
    return register(key, candidate, null);
  }

  /**
   * Registers {@code candidate} under {@code key}, unless a limiter is registered there already.
   *
   * @param key the sharing key: equal keys share one limiter
   * @param candidate the limiter to register if the key is new
   * @param owner the class loader it belongs to, dropped with it; null for a JVM-wide limiter
   * @return the id of the limiter registered under the key: {@code candidate}'s if the key was new,
   *     otherwise the earlier one's (the caller checks that the settings agree)
   */
  public static synchronized int register(String key, Limiter candidate, ClassLoader owner) {
    Integer existing = BY_KEY.get(key);
    if (existing != null) {
      return existing;
    }
    int id = add(candidate, owner);
    BY_KEY.put(key, id);
    return id;
  }

  /**
   * Adds a JVM-wide limiter that shares no key.
   *
   * @param limiter the limiter
   * @return its new id
   */
  public static int add(Limiter limiter) {
    return add(limiter, null);
  }

  /**
   * Adds a limiter that shares no key (an invalid one, for example).
   *
   * @param limiter the limiter
   * @param owner the class loader it belongs to, dropped with it; null for a JVM-wide limiter
   * @return its new id
   */
  public static synchronized int add(Limiter limiter, ClassLoader owner) {
    int ownerId = owner == null ? 0 : loaderId(owner);
    int id;
    Limiter[] t = table;
    if (freeCount > 0) {
      id = free[--freeCount];
    } else {
      if (size == t.length) {
        t = Arrays.copyOf(t, size * 2);
        originals = Arrays.copyOf(originals, size * 2);
        owners = Arrays.copyOf(owners, size * 2);
        hidden = Arrays.copyOf(hidden, size * 2);
      }
      id = size++;
    }
    t[id] = limiter;
    originals[id] = limiter;
    List<Integer> named = IDS_BY_NAME.get(limiter.name());
    if (named == null) {
      named = new ArrayList<Integer>(1);
      IDS_BY_NAME.put(limiter.name(), named);
    }
    named.add(id);
    owners[id] = ownerId;
    hidden[id] = false;
    version++;
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
      LOADER_REFS.add(new LoaderRef(loader, id));
    }
    return id;
  }

  /**
   * Drops the limiters of every class loader collected since the last call: their slots are cleared
   * and their ids freed for reuse, their sharing keys forgotten, and each limiter is told ({@link
   * Limiter#dropped()}). Called by Weir's management thread. Never blocks for long.
   *
   * @return the numbers of the loaders collected and the ids freed, for the bookkeeping other parts
   *     keep by loader or id; null if no loader was collected
   */
  public static synchronized Dropped dropCollected() {
    Set<Integer> gone = new HashSet<Integer>();
    for (LoaderRef ref; (ref = (LoaderRef) COLLECTED.poll()) != null; ) {
      LOADER_REFS.remove(ref);
      gone.add(ref.id);
    }
    if (gone.isEmpty()) {
      return null;
    }
    Limiter[] t = table;
    Set<Integer> droppedIds = new HashSet<Integer>();
    for (int id = 0; id < size; id++) {
      if (t[id] != null && owners[id] != 0 && gone.contains(owners[id])) {
        Limiter limiter = originals[id];
        t[id] = null;
        originals[id] = null;
        List<Integer> named = IDS_BY_NAME.get(limiter.name());
        named.remove(Integer.valueOf(id));
        if (named.isEmpty()) {
          IDS_BY_NAME.remove(limiter.name());
        }
        owners[id] = 0;
        hidden[id] = false;
        droppedIds.add(id);
        if (freeCount == free.length) {
          free = Arrays.copyOf(free, freeCount * 2);
        }
        free[freeCount++] = id;
        limiter.dropped();
      }
    }
    for (Iterator<Integer> i = BY_KEY.values().iterator(); i.hasNext(); ) {
      if (droppedIds.contains(i.next())) {
        i.remove();
      }
    }
    version++;
    table = t;
    return new Dropped(gone, droppedIds);
  }

  /** What {@link #dropCollected()} dropped. */
  public static final class Dropped {
    /** The numbers of the class loaders collected. */
    public final Set<Integer> loaderIds;

    /** The ids of the limiters dropped, free for reuse. */
    public final Set<Integer> limiterIds;

    Dropped(Set<Integer> loaderIds, Set<Integer> limiterIds) {
      this.loaderIds = loaderIds;
      this.limiterIds = limiterIds;
    }
  }

  /**
   * A number that changes whenever a limiter is added or dropped, so the management thread knows
   * when to look again.
   *
   * @return the version
   */
  public static int version() {
    return version;
  }

  /**
   * Every registered limiter, in id order.
   *
   * @return a snapshot
   */
  public static synchronized List<Slot> slots() {
    List<Slot> slots = new ArrayList<Slot>();
    Limiter[] t = table;
    for (int id = 0; id < size; id++) {
      if (t[id] != null && !hidden[id]) {
        slots.add(new Slot(id, t[id], owners[id]));
      }
    }
    return slots;
  }

  /**
   * Registers {@code limiter} under {@code key} in place of any limiter registered there (a config
   * reload that replaces or adds an entry), which is superseded: see {@link #supersede}.
   *
   * @param key the sharing key
   * @param limiter the new limiter
   * @param owner the class loader it belongs to; null for a JVM-wide limiter
   * @return its new id
   */
  public static synchronized int replace(String key, Limiter limiter, ClassLoader owner) {
    supersede(key);
    return register(key, limiter, owner);
  }

  /**
   * Forgets the limiter registered under {@code key} (a config entry removed by a reload): the key
   * is free for a new limiter, and the old one is no longer listed by {@link #slots()}, but stays
   * callable by its id for code woven before (a running frame, a class not retransformed).
   *
   * @param key the sharing key
   * @return its id, or -1 if none was registered there
   */
  public static synchronized int supersede(String key) {
    Integer id = BY_KEY.remove(key);
    if (id == null) {
      return -1;
    }
    hidden[id] = true;
    version++;
    return id;
  }

  /**
   * Every listed {@link BucketLimiter} once, at the first slot that leads to it (a limiter an
   * override redirects other ids to is listed at its own), in the order they were registered: what
   * the operator's side shows.
   *
   * @return a snapshot
   */
  public static synchronized List<Slot> bucketLimiters() {
    List<Slot> slots = new ArrayList<Slot>();
    Set<Limiter> seen = Collections.newSetFromMap(new IdentityHashMap<Limiter, Boolean>());
    for (Slot slot : slots()) {
      if (slot.limiter instanceof BucketLimiter && seen.add(slot.limiter)) {
        slots.add(slot);
      }
    }
    return slots;
  }

  /**
   * Redirects the calls of a limiter's id to another limiter (a config entry that overrides the
   * annotated limiter of its name), or back to the limiter registered there ({@code target} null).
   * Takes effect for the next call; a call deciding meanwhile finishes on the limiter it read.
   *
   * @param id a registered id
   * @param target the limiter its calls go to; null for its own
   */
  public static synchronized void redirect(int id, Limiter target) {
    Limiter[] t = table;
    if (id < 0 || id >= size || originals[id] == null) {
      return;
    }
    t[id] = target != null ? target : originals[id];
    version++;
    table = t;
  }

  /**
   * The limiter registered at an id, whatever its calls are redirected to.
   *
   * @param id a registered id
   * @return the limiter registered there
   * @throws IllegalStateException if no limiter has that id
   */
  public static synchronized Limiter original(int id) {
    if (id < 0 || id >= size || originals[id] == null) {
      throw new IllegalStateException("weir: no limiter has id " + id);
    }
    return originals[id];
  }

  /**
   * Whether this limiter is the one registered under this id now (ids of dropped limiters are
   * reused).
   *
   * @param id a limiter id
   * @param limiter a limiter
   * @return true if {@link #original(int)} would return this very limiter
   */
  public static synchronized boolean isOriginal(int id, Limiter limiter) {
    return id >= 0 && id < size && originals[id] == limiter;
  }

  /**
   * The ids of the listed limiters registered with this name.
   *
   * @param name a limiter name
   * @return their ids, in id order
   */
  public static synchronized List<Integer> idsNamed(String name) {
    List<Integer> ids = new ArrayList<Integer>();
    List<Integer> named = IDS_BY_NAME.get(name);
    if (named != null) {
      for (int id : named) {
        if (!hidden[id]) {
          ids.add(id);
        }
      }
      Collections.sort(ids);
    }
    return ids;
  }

  /**
   * Stops admitting calls, for a draining shutdown: from now on every call of every limiter is
   * limited with a retry-after of {@link Long#MAX_VALUE}, while calls already waiting in a limiter
   * keep their slots. An invalid limiter keeps failing closed.
   *
   * @return the limiters drained, to wait for their waiting calls
   */
  public static synchronized List<BucketLimiter> drain() {
    List<BucketLimiter> drained = new ArrayList<BucketLimiter>();
    Set<Limiter> seen = Collections.newSetFromMap(new IdentityHashMap<Limiter, Boolean>());
    Limiter[] t = table;
    for (int id = 0; id < size; id++) {
      Limiter limiter = t[id];
      if (limiter != null
          && !(limiter instanceof RefusedLimiter)
          && !(limiter instanceof Draining)) {
        if (limiter instanceof BucketLimiter && seen.add(limiter)) {
          drained.add((BucketLimiter) limiter);
        }
        t[id] = new Draining(limiter);
      }
    }
    version++;
    table = t;
    return drained;
  }

  /**
   * The limiter registered under a sharing key, for tests and config reload.
   *
   * @param key the sharing key
   * @return its id, or null if none
   */
  public static synchronized Integer idOf(String key) {
    return BY_KEY.get(key);
  }
}
