package dev.weir.agent.weave;

import dev.weir.agent.config.MethodPattern;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The config file's method patterns, indexed so that a class looks up the few that can name it
 * instead of trying every one: a class load costs a handful of hash lookups whether the file has
 * ten patterns or ten thousand.
 *
 * <ul>
 *   <li>a pattern whose type is one name ({@code com.acme.Orders#place}): by that name;
 *   <li>a pattern with {@code *} in its type ({@code com.acme.*Repository#save*}): by the packages
 *       written before the first {@code *} ({@code com.acme.}), since {@code *} never matches a
 *       {@code .}; a class looks in the bucket of each of its enclosing packages, then matches the
 *       few patterns found there;
 *   <li>a {@code Type+} pattern: by its type (internal name), which the caller maps a class to
 *       through the families it records;
 *   <li>every pattern: by the name of its limit.
 * </ul>
 *
 * Every list it answers is in file order, the order in which {@link #add} was called, so that "the
 * first entry in the file" means what it meant when every pattern was tried in turn. Built once,
 * while the file's limits are registered, then only read: safe to read from any thread once
 * published (it is reached through a final field of an object published through a volatile one).
 */
final class PatternIndex {
  private final List<ConfigLimits.Entry> all = new ArrayList<ConfigLimits.Entry>();
  private final Map<String, List<ConfigLimits.Entry>> byType =
      new HashMap<String, List<ConfigLimits.Entry>>();
  private final Map<String, List<ConfigLimits.Entry>> byPackage =
      new HashMap<String, List<ConfigLimits.Entry>>();
  private final Map<String, List<ConfigLimits.Entry>> byRoot =
      new HashMap<String, List<ConfigLimits.Entry>>();
  private final Map<String, List<ConfigLimits.Entry>> byName =
      new HashMap<String, List<ConfigLimits.Entry>>();

  /** The most packages a key of {@link #byPackage} names: deeper prefixes need no lookup. */
  private int deepestPackages = -1;

  /**
   * What {@link #named} and {@link #ofRoot} answer for none: an {@code ArrayList}, never changed,
   * whose iterator class a class file transformer may use, where {@code Collections.emptyList()}'s
   * may not have loaded yet (loading it from the transformer is a {@code ClassCircularityError}).
   */
  private static final List<ConfigLimits.Entry> NONE = new ArrayList<ConfigLimits.Entry>(0);

  /**
   * Adds an entry, after every entry added before it in the file.
   *
   * @param entry the entry, whose {@code position} is the number of entries added before it
   */
  void add(ConfigLimits.Entry entry) {
    all.add(entry);
    MethodPattern pattern = entry.pattern;
    if (pattern.subtypes()) {
      put(byRoot, pattern.typeName().replace('.', '/'), entry);
    } else if (pattern.typeHasWildcard()) {
      String packages = packagesBeforeWildcard(pattern.typeName());
      put(byPackage, packages, entry);
      deepestPackages = Math.max(deepestPackages, dots(packages));
    } else {
      put(byType, pattern.typeName(), entry);
    }
    put(byName, entry.name, entry);
  }

  private static void put(
      Map<String, List<ConfigLimits.Entry>> map, String key, ConfigLimits.Entry entry) {
    List<ConfigLimits.Entry> list = map.get(key);
    if (list == null) {
      list = new ArrayList<ConfigLimits.Entry>(1);
      map.put(key, list);
    }
    list.add(entry);
  }

  private static int dots(String text) {
    int n = 0;
    for (int i = text.indexOf('.'); i >= 0; i = text.indexOf('.', i + 1)) {
      n++;
    }
    return n;
  }

  /**
   * Whether a {@code Type+} pattern names this type.
   *
   * @param internalName the type's internal name
   * @return true if it is a {@code Type+} pattern's type
   */
  boolean isRoot(String internalName) {
    return byRoot.containsKey(internalName);
  }

  /** {@code com.acme.} for {@code com.acme.*Repository}; empty for {@code *Service}. */
  private static String packagesBeforeWildcard(String typeName) {
    String literal = typeName.substring(0, typeName.indexOf('*'));
    return literal.substring(0, literal.lastIndexOf('.') + 1);
  }

  /**
   * Every entry, in file order.
   *
   * @return the entries; not to be changed
   */
  List<ConfigLimits.Entry> all() {
    return all;
  }

  /**
   * Whether there is no entry.
   *
   * @return true if none was added
   */
  boolean isEmpty() {
    return all.isEmpty();
  }

  /**
   * The entries of the limit of this name.
   *
   * @param name a limit's name
   * @return its entries in file order; empty if none
   */
  List<ConfigLimits.Entry> named(String name) {
    List<ConfigLimits.Entry> found = byName.get(name);
    return found == null ? NONE : found;
  }

  /**
   * The {@code Type+} entries of this type.
   *
   * @param root the pattern's type, internal name
   * @return its entries in file order; empty if none
   */
  List<ConfigLimits.Entry> ofRoot(String root) {
    List<ConfigLimits.Entry> found = byRoot.get(root);
    return found == null ? NONE : found;
  }

  /**
   * Adds the entries that are not {@code Type+} and whose type part matches this class's name.
   *
   * @param binaryName the class's binary name ({@code com.acme.Outer$Inner})
   * @param into where to add them, in no particular order
   */
  void byTypeName(String binaryName, List<ConfigLimits.Entry> into) {
    List<ConfigLimits.Entry> exact = byType.get(binaryName);
    if (exact != null) {
      into.addAll(exact);
    }
    if (byPackage.isEmpty()) {
      return;
    }
    for (int end = 0, packages = 0; packages <= deepestPackages; packages++) {
      // "", then each enclosing package: "com.", "com.acme.", ...
      List<ConfigLimits.Entry> bucket = byPackage.get(binaryName.substring(0, end));
      if (bucket != null) {
        for (ConfigLimits.Entry entry : bucket) {
          if (entry.pattern.matchesTypeName(binaryName)) {
            into.add(entry);
          }
        }
      }
      int dot = binaryName.indexOf('.', end);
      if (dot < 0) {
        return;
      }
      end = dot + 1;
    }
  }

  /**
   * Puts entries gathered from more than one of the index's lists back in file order.
   *
   * @param entries the entries, each once
   */
  static void sort(List<ConfigLimits.Entry> entries) {
    // an insertion sort of a few entries, by hand: the JDK's sort may load classes (TimSort),
    // which a class file transformer must not
    for (int i = 1; i < entries.size(); i++) {
      ConfigLimits.Entry entry = entries.get(i);
      int j = i;
      for (; j > 0 && entries.get(j - 1).position > entry.position; j--) {
        entries.set(j, entries.get(j - 1));
      }
      entries.set(j, entry);
    }
  }
}
