package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.control.ClassFiles;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code Type+} families: for each {@code Type+} pattern's type (a root), the classes found to
 * be it or descend from it, each as its own loader resolves it, recorded as classes load (read from
 * their class files and their ancestors', through their loaders; no class is loaded) or found
 * loaded. Also the names of the classes known to be loaded while there are roots. {@link
 * ConfigLimits} matches patterns by them; a reload that keeps the roots keeps this object, so a
 * class loaded long ago stays known.
 *
 * <p>Thread-safe: the roots are added while {@link ConfigLimits} is built, before it is shared;
 * from then on concurrent maps and sets, written by the threads that load classes, and each set of
 * roots and each array of {@link #recordedRoots}, once in a map, is never changed. A class file
 * that cannot be read counts as descending from nothing.
 */
final class TypeFamilies {
  /**
   * For each {@code Type+} pattern's type (internal name): the subtypes seen so far, each as {@code
   * LOADER_ID:internal/Name} with the id of its defining loader, so that a class of the same name
   * in another loader, which need not be a subtype, is never taken for one. A class joins when one
   * of its direct supertypes descends from the type; the JVM loads supertypes first, so the set is
   * complete for every class that loads after the agent started.
   */
  private final Map<String, Set<String>> subtypes;

  /**
   * {@link #subtypes} the other way round: for each subtype recorded ({@code
   * LOADER_ID:internal/Name}), the {@code Type+} types (internal names) whose families it is in; so
   * that a class finds its {@code Type+} entries with one lookup, not one per pattern. Written
   * where {@link #subtypes} is; each array, once in the map, is never changed (a class file
   * transformer reads them, and walking an array loads no iterator class).
   */
  private final ConcurrentHashMap<String, String[]> familiesByMember;

  /**
   * For each loader id, for each class looked at as resolved through that loader (internal name):
   * the {@code Type+} types it is or descends from, most often {@link #NO_ROOTS}. Per loader, so
   * that a class costs no key of its own, and a collected loader's classes go at once. A set once
   * here is never changed: classes share their ancestors' sets.
   */
  private final ConcurrentHashMap<Integer, Map<String, Set<String>>> rootsByLoader;

  /** The roots of a class that descends from no {@code Type+} type: shared, immutable. */
  private static final Set<String> NO_ROOTS = Collections.emptySet();

  /**
   * The classes known to be loaded (internal names, whatever the loader) while there are {@code
   * Type+} patterns: each seen loading, and each found loaded by a walk over the loaded classes. A
   * subtype whose ancestor is among them gains an override rather than wait for that ancestor to
   * load (it has). By name: a class of that name in another loader counts too (the safe side).
   */
  private final Set<String> loadedNames;

  /** No family yet: the roots are added as the file's limits are. */
  TypeFamilies() {
    this.subtypes = new ConcurrentHashMap<String, Set<String>>();
    this.familiesByMember = new ConcurrentHashMap<String, String[]>();
    this.rootsByLoader = new ConcurrentHashMap<Integer, Map<String, Set<String>>>();
    this.loadedNames = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());
  }

  /**
   * Makes a {@code Type+} pattern's type a root, with no subtype seen yet; nothing if it is one.
   *
   * @param root the type, internal name
   */
  void addRoot(String root) {
    if (!subtypes.containsKey(root)) {
      subtypes.put(root, Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>()));
    }
  }

  /**
   * Whether these are the roots, no more and no fewer: then a reload keeps the families.
   *
   * @param roots the {@code Type+} patterns' types, internal names
   * @return true if they are the roots
   */
  boolean hasRoots(Set<String> roots) {
    return roots.equals(subtypes.keySet());
  }

  /**
   * Whether there is no root: no {@code Type+} pattern.
   *
   * @return true if there is none
   */
  boolean isEmpty() {
    return subtypes.isEmpty();
  }

  /**
   * The roots a class was recorded a subtype of, as its loader resolved it ({@link
   * #noteSupertypes}, {@link #noteLoaded}); its own type, if it is a root, among them or not.
   *
   * @param internalName the class
   * @param loader its defining loader, null for the bootstrap loader
   * @return the roots (internal names), never to be changed; null if none was recorded
   */
  String[] recordedRoots(String internalName, ClassLoader loader) {
    return familiesByMember.isEmpty()
        ? null
        : familiesByMember.get(key(LimiterRegistry.loaderId(loader), internalName));
  }

  /**
   * Forgets what was noted of classes of collected class loaders.
   *
   * @param loaderIds the numbers of the collected loaders
   */
  void forgetLoaders(Set<Integer> loaderIds) {
    rootsByLoader.keySet().removeAll(loaderIds);
    for (Iterator<String> i = familiesByMember.keySet().iterator(); i.hasNext(); ) {
      if (loaderIds.contains(loaderIdOf(i.next()))) {
        i.remove();
      }
    }
    for (Set<String> family : subtypes.values()) {
      for (Iterator<String> i = family.iterator(); i.hasNext(); ) {
        if (loaderIds.contains(loaderIdOf(i.next()))) {
          i.remove();
        }
      }
    }
  }

  private static int loaderIdOf(String key) {
    return Integer.parseInt(key.substring(0, key.indexOf(':')));
  }

  /**
   * Whether a class of this name may be loaded already: seen loading, or found among the loaded
   * classes, while there were {@code Type+} patterns.
   *
   * @param internalName the class
   * @return true if it may be loaded
   */
  boolean mayBeLoaded(String internalName) {
    return loadedNames.contains(internalName);
  }

  /**
   * Notes a class found loaded (a walk over the loaded classes: at start-up the JDK's, at an attach
   * or a reload every one), for {@link #mayBeLoaded}.
   *
   * @param type a loaded class
   */
  void noteLoadedName(Class<?> type) {
    if (!subtypes.isEmpty()) {
      loadedNames.add(type.getName().replace('.', '/'));
    }
  }

  /**
   * Whether a class, as {@code loader} resolves its name, is or descends from a {@code Type+}
   * pattern's type.
   *
   * @param root the pattern's type, internal name
   * @param internalName the class
   * @param loader the loader that resolves it (the subtype's), null for the bootstrap loader
   * @return true if it does
   */
  boolean descendsFrom(String root, String internalName, ClassLoader loader) {
    return rootsOf(internalName, loader, knownTo(LimiterRegistry.loaderId(loader)), 0)
        .contains(root);
  }

  private static String key(int loaderId, String internalName) {
    return loaderId + ":" + internalName;
  }

  /**
   * Records the class as a subtype of every {@code Type+} type among its ancestors. The JVM hands a
   * class to the transformer before it loads the class's supertypes, so ancestors not seen yet are
   * read from their class files (through the class's loader), once each.
   *
   * @param internalName the class
   * @param directSupertypes its superclass and interfaces (internal names)
   * @param loader the class's loader, to read ancestors' class files; null for the bootstrap loader
   * @return true if it is a subtype of some {@code Type+} pattern's type
   */
  boolean noteSupertypes(String internalName, String[] directSupertypes, ClassLoader loader) {
    int loaderId = LimiterRegistry.loaderId(loader);
    Map<String, Set<String>> known = knownTo(loaderId);
    Set<String> roots = ownRoot(internalName);
    for (String supertype : directSupertypes) {
      roots = union(roots, rootsOf(supertype, loader, known, 0));
    }
    return record(loaderId, internalName, known, roots);
  }

  /** What was noted of the classes resolved through the loader of this id. */
  private Map<String, Set<String>> knownTo(int loaderId) {
    Integer id = loaderId;
    Map<String, Set<String>> known = rootsByLoader.get(id);
    if (known == null) {
      Map<String, Set<String>> made = new ConcurrentHashMap<String, Set<String>>();
      known = rootsByLoader.putIfAbsent(id, made);
      if (known == null) {
        known = made;
      }
    }
    return known;
  }

  /** Caches the roots of a class and adds it to their families; true if it has any. */
  private boolean record(
      int loaderId, String internalName, Map<String, Set<String>> known, Set<String> roots) {
    known.put(internalName, roots);
    loadedNames.add(internalName); // it loads (or is loaded): only its own load records it
    if (roots.isEmpty()) {
      return false;
    }
    String key = key(loaderId, internalName);
    for (String root : roots) {
      subtypes.get(root).add(key);
    }
    for (; ; ) { // a new array each time: readers walk the one they got
      String[] before = familiesByMember.get(key);
      String[] after = withRoots(before, roots);
      if (after == before
          || (before == null
              ? familiesByMember.putIfAbsent(key, after) == null
              : familiesByMember.replace(key, before, after))) {
        return true;
      }
    }
  }

  /** {@code families} and {@code roots} together; {@code families} itself if it has them all. */
  private static String[] withRoots(String[] families, Set<String> roots) {
    List<String> all =
        new ArrayList<String>(families == null ? roots.size() : families.length + roots.size());
    if (families != null) {
      all.addAll(java.util.Arrays.asList(families));
    }
    for (String root : roots) {
      if (!all.contains(root)) {
        all.add(root);
      }
    }
    return families != null && all.size() == families.length
        ? families
        : all.toArray(new String[0]);
  }

  /** {@code internalName} itself, if it is a {@code Type+} pattern's type; else no roots. */
  private Set<String> ownRoot(String internalName) {
    return subtypes.containsKey(internalName) ? Collections.singleton(internalName) : NO_ROOTS;
  }

  /** Both sets' roots: one of them where the other adds none, else a new set (never changed). */
  private static Set<String> union(Set<String> a, Set<String> b) {
    if (b.isEmpty() || a.containsAll(b)) {
      return a;
    }
    if (a.isEmpty()) {
      return b;
    }
    Set<String> both = new java.util.HashSet<String>(a);
    both.addAll(b);
    return both;
  }

  /**
   * The {@code Type+} types that {@code internalName}, as {@code loader} resolves it, is or
   * descends from; cached per loader ({@code known}).
   */
  private Set<String> rootsOf(
      String internalName, ClassLoader loader, Map<String, Set<String>> known, int depth) {
    Set<String> cached = known.get(internalName);
    if (cached != null) {
      return cached;
    }
    Set<String> roots = ownRoot(internalName);
    if (!internalName.equals("java/lang/Object") && depth < 64) {
      byte[] classFile = ClassFiles.read(loader, internalName);
      if (classFile != null) {
        for (String supertype : ClassHeader.supertypes(classFile)) {
          roots = union(roots, rootsOf(supertype, loader, known, depth + 1));
        }
      }
    }
    known.put(internalName, roots);
    return roots;
  }

  /**
   * Whether a {@code Type+} pattern's type is among these loaded classes. If none is, no loaded
   * class descends from one (a class's ancestors load before it), and {@link #noteLoaded} would
   * find nothing among them.
   *
   * @param loaded the JVM's loaded classes
   * @return true if one of them is a {@code Type+} pattern's type
   */
  boolean anyRootAmong(Class<?>[] loaded) {
    if (subtypes.isEmpty()) {
      return false;
    }
    Set<String> roots = new java.util.HashSet<String>();
    for (String root : subtypes.keySet()) {
      roots.add(root.replace('/', '.'));
    }
    for (Class<?> type : loaded) {
      if (roots.contains(type.getName())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Records a class loaded before the agent started as a subtype of every {@code Type+} type among
   * its ancestors.
   *
   * @param type the loaded class
   * @return true if it is a subtype of some {@code Type+} pattern's type
   */
  boolean noteLoaded(Class<?> type) {
    if (subtypes.isEmpty()) {
      return false;
    }
    int loaderId = LimiterRegistry.loaderId(type.getClassLoader());
    return record(loaderId, internalNameOf(type), knownTo(loaderId), rootsOf(type));
  }

  private static String internalNameOf(Class<?> type) {
    return type.getName().replace('.', '/');
  }

  /** As {@link #rootsOf(String, ClassLoader, Map, int)}, walking loaded classes, not files. */
  private Set<String> rootsOf(Class<?> type) {
    String internalName = internalNameOf(type);
    Map<String, Set<String>> known = knownTo(LimiterRegistry.loaderId(type.getClassLoader()));
    Set<String> cached = known.get(internalName);
    if (cached != null) {
      return cached;
    }
    Set<String> roots = ownRoot(internalName);
    if (type.getSuperclass() != null) {
      roots = union(roots, rootsOf(type.getSuperclass()));
    }
    for (Class<?> implemented : type.getInterfaces()) {
      roots = union(roots, rootsOf(implemented));
    }
    known.put(internalName, roots);
    return roots;
  }
}
