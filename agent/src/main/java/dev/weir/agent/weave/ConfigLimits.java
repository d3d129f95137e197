package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.BucketLimiter;
import dev.weir.agent.bootstrap.LimiterRegistry;
import dev.weir.agent.bootstrap.NanoClock;
import dev.weir.agent.config.ConfigLimit;
import dev.weir.agent.config.MethodPattern;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The config file's limits, registered as limiters when the agent starts: by name (an entry without
 * {@code methods} overrides the annotated limiter of that name) and by method pattern. Immutable
 * after construction, but for the set of names that annotations have claimed.
 */
final class ConfigLimits {
  static final ConfigLimits NONE = new ConfigLimits();

  private final Map<String, Integer> idsByName = new LinkedHashMap<String, Integer>();
  private final List<Entry> entries = new ArrayList<Entry>();
  private final List<BucketLimiter> dryRuns = new ArrayList<BucketLimiter>();
  private final Map<String, String> overrides = new LinkedHashMap<String, String>();
  private final Set<String> claimed =
      Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());

  /**
   * For each {@code Type+} pattern's type (internal name): the subtypes seen so far, each as {@code
   * LOADER_ID:internal/Name} with the id of its defining loader, so that a class of the same name
   * in another loader, which need not be a subtype, is never taken for one. A class joins when one
   * of its direct supertypes descends from the type; the JVM loads supertypes first, so the set is
   * complete for every class that loads after the agent started.
   */
  private final Map<String, Set<String>> subtypes = new LinkedHashMap<String, Set<String>>();

  /**
   * For each class looked at, as {@code LOADER_ID:internal/Name} with the id of the loader it was
   * resolved through: the {@code Type+} types it is or descends from (often none).
   */
  private final Map<String, Set<String>> rootsByType = new ConcurrentHashMap<String, Set<String>>();

  private ConfigLimits() {}

  /**
   * Registers a limiter for each config limit.
   *
   * @param limits the config file's limits
   * @param clock the time source
   * @return the registered limits
   */
  static ConfigLimits register(List<ConfigLimit> limits, NanoClock clock) {
    ConfigLimits config = new ConfigLimits();
    for (ConfigLimit limit : limits) {
      BucketLimiter limiter =
          limit.spec().newLimiter(limit.name(), limit.origin(), clock, limit.dryRun());
      if (limit.dryRun()) {
        config.dryRuns.add(limiter);
      }
      int id = LimiterRegistry.register("name " + limit.name(), limiter);
      config.idsByName.put(limit.name(), id);
      if (limit.patterns().isEmpty()) {
        config.overrides.put(limit.name(), limit.origin());
      }
      for (MethodPattern pattern : limit.patterns()) {
        config.entries.add(new Entry(pattern, limit.name(), id, limit.origin(), limit.keyIndex()));
        if (pattern.subtypes()) {
          String root = pattern.typeName().replace('.', '/');
          if (!config.subtypes.containsKey(root)) {
            Set<String> family =
                Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());
            config.subtypes.put(root, family);
          }
        }
      }
      if (AgentLog.debugEnabled()) {
        AgentLog.debug(
            "config limit '"
                + limit.name()
                + "' from "
                + limit.origin()
                + ": "
                + LimiterRegistry.limiter(id).settings()
                + (limit.patterns().isEmpty() ? " (overrides the annotated limiter)" : ""));
      }
    }
    return config;
  }

  /** The id and name of the config limit overriding the annotated limiter {@code name}, if any. */
  Integer overrideId(String name) {
    Integer id = idsByName.get(name);
    if (id != null) {
      claimed.add(name);
    }
    return id;
  }

  /**
   * The first pattern entry matching the method, or null.
   *
   * @param typeName the class's binary name
   * @param methodName the method's name
   * @param parameterTypes its parameter types as Java source names
   * @param loader the class's defining loader, null for the bootstrap loader
   */
  Entry match(String typeName, String methodName, List<String> parameterTypes, ClassLoader loader) {
    for (Entry entry : entries) {
      if (matchesType(entry.pattern, typeName, loader)
          && entry.pattern.matchesMethod(methodName, parameterTypes)) {
        return entry;
      }
    }
    return null;
  }

  /**
   * Whether a class of this binary name may have methods a pattern matches (a cheap filter).
   *
   * @param binaryName the class's binary name
   * @param loader its defining loader, null for the bootstrap loader
   */
  boolean mayMatchType(String binaryName, ClassLoader loader) {
    for (Entry entry : entries) {
      if (matchesType(entry.pattern, binaryName, loader)) {
        return true;
      }
    }
    return false;
  }

  private boolean matchesType(MethodPattern pattern, String binaryName, ClassLoader loader) {
    if (!pattern.subtypes()) {
      return pattern.matchesTypeName(binaryName);
    }
    if (pattern.typeName().equals(binaryName)) {
      return true;
    }
    Set<String> family = subtypes.get(pattern.typeName().replace('.', '/'));
    return family != null
        && !family.isEmpty()
        && family.contains(key(LimiterRegistry.loaderId(loader), binaryName.replace('.', '/')));
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
    Set<String> roots = ownRoot(internalName);
    for (String supertype : directSupertypes) {
      roots.addAll(rootsOf(supertype, loader, loaderId, 0));
    }
    return record(key(loaderId, internalName), roots);
  }

  /** Caches the roots of a class and adds it to their families; true if it has any. */
  private boolean record(String key, Set<String> roots) {
    rootsByType.put(key, roots);
    for (String root : roots) {
      subtypes.get(root).add(key);
    }
    return !roots.isEmpty();
  }

  /** {@code internalName} itself, if it is a {@code Type+} pattern's type; a new mutable set. */
  private Set<String> ownRoot(String internalName) {
    Set<String> roots = new java.util.HashSet<String>();
    if (subtypes.containsKey(internalName)) {
      roots.add(internalName);
    }
    return roots;
  }

  /**
   * The {@code Type+} types that {@code internalName}, as {@code loader} resolves it, is or
   * descends from; cached per loader.
   */
  private Set<String> rootsOf(String internalName, ClassLoader loader, int loaderId, int depth) {
    String key = key(loaderId, internalName);
    Set<String> known = rootsByType.get(key);
    if (known != null) {
      return known;
    }
    Set<String> roots = ownRoot(internalName);
    if (!internalName.equals("java/lang/Object") && depth < 64) {
      byte[] classFile = WeirTransformer.classFileOf(loader, internalName);
      if (classFile != null) {
        for (String supertype : ClassHeader.supertypes(classFile)) {
          roots.addAll(rootsOf(supertype, loader, loaderId, depth + 1));
        }
      }
    }
    rootsByType.put(key, roots);
    return roots;
  }

  /**
   * Records a class loaded before the agent started as a subtype of every {@code Type+} type among
   * its ancestors.
   *
   * @param type the loaded class
   * @return true if it is a subtype of some {@code Type+} pattern's type
   */
  boolean noteLoaded(Class<?> type) {
    return !subtypes.isEmpty() && record(keyOf(type), rootsOf(type));
  }

  private static String keyOf(Class<?> type) {
    return key(LimiterRegistry.loaderId(type.getClassLoader()), type.getName().replace('.', '/'));
  }

  /** As {@link #rootsOf(String, ClassLoader, int, int)}, walking loaded classes, not files. */
  private Set<String> rootsOf(Class<?> type) {
    String internalName = type.getName().replace('.', '/');
    String key = keyOf(type);
    Set<String> known = rootsByType.get(key);
    if (known != null) {
      return known;
    }
    Set<String> roots = ownRoot(internalName);
    if (type.getSuperclass() != null) {
      roots.addAll(rootsOf(type.getSuperclass()));
    }
    for (Class<?> implemented : type.getInterfaces()) {
      roots.addAll(rootsOf(implemented));
    }
    rootsByType.put(key, roots);
    return roots;
  }

  boolean hasSubtypePatterns() {
    return !subtypes.isEmpty();
  }

  boolean hasPatterns() {
    return !entries.isEmpty();
  }

  List<String> names() {
    return new ArrayList<String>(idsByName.keySet());
  }

  List<BucketLimiter> dryRuns() {
    return dryRuns;
  }

  /**
   * What the config file asked for that nothing has used yet: patterns that matched no method,
   * overrides that no annotated limiter claimed. A typo must not silently disable a limit.
   *
   * @return one line each, naming file, line and limit
   */
  List<String> unused() {
    List<String> lines = new ArrayList<String>();
    for (Entry entry : entries) {
      if (!entry.matched) {
        lines.add(
            entry.origin
                + ": the pattern "
                + entry.pattern
                + " of '"
                + entry.name
                + "' has matched no method yet");
      }
    }
    for (Map.Entry<String, String> override : overrides.entrySet()) {
      if (!claimed.contains(override.getKey())) {
        lines.add(
            override.getValue()
                + ": '"
                + override.getKey()
                + "' overrides an annotated limiter, but no annotated method of that name has"
                + " loaded yet");
      }
    }
    return lines;
  }

  /** A pattern and the limiter it binds matched methods to. */
  static final class Entry {
    final MethodPattern pattern;
    final String name;
    final int id;
    final String origin;

    /** The parameter whose value is the key, or -1. */
    final int keyIndex;

    /** Set when a method with a body was woven for this pattern. */
    volatile boolean matched;

    /** The methods this pattern matched that Weir cannot limit; guarded by {@code this}. */
    private int refused;

    /** The first two of them; guarded by {@code this}. */
    private final List<String> refusedExamples = new ArrayList<String>(2);

    /** Why each of {@link #refusedExamples} cannot be limited; guarded by {@code this}. */
    private final List<String> refusedWhy = new ArrayList<String>(2);

    /** Whether the refusals were reported (once per pattern); guarded by {@code this}. */
    private boolean refusalsReported;

    /**
     * When the first refusal not reported yet was noted, in nanoseconds; guarded by {@code this}.
     */
    private long firstRefusalNanos;

    Entry(MethodPattern pattern, String name, int id, String origin, int keyIndex) {
      this.pattern = pattern;
      this.name = name;
      this.id = id;
      this.origin = origin;
      this.keyIndex = keyIndex;
    }

    /**
     * Notes a method this pattern matched that Weir cannot limit; it runs unlimited. Counted and
     * reported once per pattern ({@link #refusalReport}), not once per method: a pattern such as
     * {@code java.util.Map+#*} matches thousands.
     *
     * @param method the method, as {@code com.acme.C#m(int)}
     * @param why why it cannot be limited
     */
    synchronized void refuse(String method, String why) {
      if (refused++ == 0) {
        firstRefusalNanos = System.nanoTime();
      }
      if (refusedExamples.size() < 2) {
        refusedExamples.add(method);
        refusedWhy.add(why);
      }
    }

    /**
     * The one report of this pattern's refusals, once they have settled: null if there are none, if
     * the report was made already, or if the first came less than {@code settleNanos} ago.
     *
     * @param nowNanos {@code System.nanoTime()} now
     * @param settleNanos how long after the first refusal to wait for more (classes load in
     *     bursts); 0 to report now
     * @return the line, or null
     */
    synchronized String refusalReport(long nowNanos, long settleNanos) {
      if (refused == 0 || refusalsReported || nowNanos - firstRefusalNanos < settleNanos) {
        return null;
      }
      refusalsReported = true;
      return origin
          + ": the pattern "
          + pattern
          + " of '"
          + name
          + "' matched "
          + refused
          + (refused == 1
              ? " method that Weir cannot limit; it runs unlimited: "
              : " methods that Weir cannot limit; they run unlimited: ")
          + examples()
          + (refused > refusedExamples.size()
              ? "; and " + (refused - refusedExamples.size()) + " more"
              : "");
    }

    /** {@code A (why)}, {@code A (why); B (why)}, or {@code A and B (why)} when alike. */
    private String examples() {
      if (refusedExamples.size() == 2 && refusedWhy.get(0).equals(refusedWhy.get(1))) {
        return refusedExamples.get(0)
            + " and "
            + refusedExamples.get(1)
            + " ("
            + refusedWhy.get(0)
            + ")";
      }
      List<String> each = new ArrayList<String>(refusedExamples.size());
      for (int i = 0; i < refusedExamples.size(); i++) {
        each.add(refusedExamples.get(i) + " (" + refusedWhy.get(i) + ")");
      }
      return String.join("; ", each);
    }
  }

  /**
   * The reports of refusals ready now: one line per pattern, each made once.
   *
   * @param settleNanos as for {@link Entry#refusalReport}
   * @return the lines
   */
  List<String> refusalReports(long settleNanos) {
    List<String> lines = new ArrayList<String>();
    long now = System.nanoTime();
    for (Entry entry : entries) {
      String line = entry.refusalReport(now, settleNanos);
      if (line != null) {
        lines.add(line);
      }
    }
    return lines;
  }
}
