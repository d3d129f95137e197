package dev.weir.agent.weave;

import dev.weir.agent.config.MethodPattern;
import dev.weir.agent.control.ClassFiles;
import dev.weir.agent.weave.ClassModel.MethodModel;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * What a pattern that has matched no method probably meant: the loaded class whose name is closest
 * to the pattern's type ({@code demo.Main} for {@code demo.Mian#hello}), or, when the type is
 * loaded and only the method part missed, the closest of its methods. Closeness is the edit
 * distance (Levenshtein: insertions, deletions, substitutions), within a third of the name's
 * length, so a pattern for a class that simply has not loaded yet names nothing rather than a
 * stranger.
 *
 * <p>The methods are read from the class file through the class's loader: no class is loaded.
 * Stateless and thread-safe; for the reports of unused patterns (once a minute at most, and when an
 * operator asks), never for weaving. The loaded classes are looked at through a {@link Loaded}
 * index, made once for many patterns: a pattern costs a lookup by name and a look at the names of
 * about its length, not a walk over every loaded class.
 */
final class NearMatch {
  private NearMatch() {}

  /**
   * The loaded classes' names, by name and by length, in the order the JVM listed them. Holds the
   * classes weakly: an index kept a while never keeps a discarded class loader alive. Immutable.
   */
  static final class Loaded {
    private final Map<String, WeakReference<Class<?>>> byName =
        new HashMap<String, WeakReference<Class<?>>>();
    private final Map<Integer, List<String>> byLength = new HashMap<Integer, List<String>>();

    /** Each name's place in the JVM's list, for ties: the first listed wins, as it always did. */
    private final Map<String, Integer> order = new HashMap<String, Integer>();

    private Loaded(Class<?>[] loaded) {
      for (Class<?> c : loaded) {
        String name = c.getName();
        if (byName.containsKey(name)) {
          continue; // the same name in another loader: the first listed is the one named
        }
        byName.put(name, new WeakReference<Class<?>>(c));
        if (c.isArray()) {
          continue;
        }
        order.put(name, order.size());
        List<String> sameLength = byLength.get(name.length());
        if (sameLength == null) {
          sameLength = new ArrayList<String>();
          byLength.put(name.length(), sameLength);
        }
        sameLength.add(name);
      }
    }
  }

  /**
   * Indexes the loaded classes for {@link #closest(MethodPattern, Loaded)}.
   *
   * @param loaded the JVM's loaded classes
   * @return the index
   */
  static Loaded index(Class<?>[] loaded) {
    return new Loaded(loaded);
  }

  /**
   * The closest loaded class or method to a pattern that matched nothing.
   *
   * @param pattern the pattern
   * @param loaded the JVM's loaded classes
   * @return for example {@code the closest loaded class is demo.Main}; null if nothing is close
   */
  static String closest(MethodPattern pattern, Class<?>[] loaded) {
    return closest(pattern, index(loaded));
  }

  /**
   * The closest loaded class or method to a pattern that matched nothing.
   *
   * @param pattern the pattern
   * @param loaded the JVM's loaded classes, indexed
   * @return for example {@code the closest loaded class is demo.Main}; null if nothing is close
   */
  static String closest(MethodPattern pattern, Loaded loaded) {
    if (pattern.typeHasWildcard()) {
      return null;
    }
    String type = pattern.typeName();
    WeakReference<Class<?>> same = loaded.byName.get(type);
    if (same != null) {
      Class<?> c = same.get();
      String method = c == null ? null : closestMethod(pattern, c);
      return method == null ? null : type + " is loaded, and its closest method is " + method;
    }
    int limit = limit(type);
    String best = null;
    int bestDistance = limit + 1;
    int bestOrder = Integer.MAX_VALUE;
    for (int length = type.length() - limit; length <= type.length() + limit; length++) {
      List<String> names = loaded.byLength.get(length);
      if (names == null || Math.abs(length - type.length()) > bestDistance) {
        continue;
      }
      for (String name : names) {
        int d = distance(type, name, bestDistance + 1);
        if (d > limit) {
          continue;
        }
        int order = loaded.order.get(name);
        if (d < bestDistance || d == bestDistance && order < bestOrder) {
          bestDistance = d;
          bestOrder = order;
          best = name;
        }
      }
    }
    return best == null ? null : "the closest loaded class is " + best;
  }

  /** The declared method whose name is closest to the pattern's method part, or null. */
  private static String closestMethod(MethodPattern pattern, Class<?> type) {
    byte[] classFile = ClassFiles.read(type.getClassLoader(), type.getName().replace('.', '/'));
    if (classFile == null) {
      return null;
    }
    ClassModel model;
    try {
      model = ClassModel.read(OpenedClassReader.of(classFile));
    } catch (RuntimeException malformed) {
      return null;
    }
    String wanted = pattern.methodName();
    Set<String> candidates = new LinkedHashSet<String>();
    for (MethodModel m : model.methods) {
      if (pattern.matchesMethod(m.name, m.parameterNames())) {
        return null; // the class has the very method: it matched nothing for another reason
      }
      if (!m.name.startsWith("<") && !m.name.startsWith("lambda$") && !m.name.contains("$")) {
        candidates.add(m.name + m.parameterList());
      }
    }
    if (wanted.indexOf('*') >= 0) {
      return null;
    }
    int limit = limit(wanted);
    String best = null;
    int bestDistance = limit + 1;
    for (String candidate : candidates) {
      String name = candidate.substring(0, candidate.indexOf('('));
      int d = name.equals(wanted) ? 0 : distance(wanted, name, bestDistance);
      if (d < bestDistance) {
        bestDistance = d;
        best = candidate; // the same name with other parameters: d is 0
      }
    }
    return best;
  }

  /** The most edits a near name may be away: a typo or two, never a different word. */
  private static int limit(String name) {
    return Math.min(3, Math.max(1, name.length() / 4));
  }

  /**
   * The edit distance between two strings, two neighbours swapped counting as one edit (the optimal
   * string alignment distance), or a value {@code >= bound} as soon as it is known to be at least
   * {@code bound}.
   */
  static int distance(String a, String b, int bound) {
    int[] beforePrevious = new int[b.length() + 1];
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      int rowMin = current[0];
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int d = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d = Math.min(d, beforePrevious[j - 2] + 1); // a swap of neighbours
        }
        current[j] = d;
        rowMin = Math.min(rowMin, d);
      }
      if (rowMin >= bound) {
        return bound;
      }
      int[] recycled = beforePrevious;
      beforePrevious = previous;
      previous = current;
      current = recycled;
    }
    return previous[b.length()];
  }
}
