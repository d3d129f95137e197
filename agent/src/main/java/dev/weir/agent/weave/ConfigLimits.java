package dev.weir.agent.weave;

import dev.weir.agent.config.ConfigLimit;
import dev.weir.agent.config.MethodPattern;
import dev.weir.agent.control.LimitSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the weaving makes of the config file's limits ({@link LimitSet}, registered by the control
 * tier): their method patterns indexed by the classes they can name, the {@code Type+} families
 * ({@link TypeFamilies}) and inherited implementations found as classes load, and each pattern's
 * record of what it matched and could not limit. One object per version of the file: {@link #next}
 * builds the one for a reload, keeping the families when the {@code Type+} types stayed and the
 * records of the entries that kept their limiter. Immutable after construction, but for what
 * weaving notes: the {@code Type+} families, the patterns' match and refusal records.
 */
final class ConfigLimits {
  static final ConfigLimits NONE = of(LimitSet.NONE);

  /** The registered limits this weaving plan binds to. */
  private final LimitSet registered;

  /** The method patterns, indexed by the classes they can name. */
  private final PatternIndex index = new PatternIndex();

  /** The {@code Type+} families: kept by a reload whose {@code Type+} types stayed. */
  private final TypeFamilies families;

  /**
   * For each ancestor (internal name) that supplies an implementation to subtypes of a {@code
   * Type+} pattern's type without being one itself, and that is limited in place ({@link
   * Ancestry}): the pattern types (internal names) it supplies, each with the subtypes known to
   * inherit from it (binary names, for the reports). Its matching methods are woven to charge a
   * call only when {@code this} is an instance of the type. By name, whatever the loader: for an
   * instance that is no such type, the woven method charges nothing.
   */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, Set<String>>> inheritedFrom;

  /** Ancestors newly in {@link #inheritedFrom}: their loaded classes are to be woven again. */
  private final Set<String> pendingAncestors =
      Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());

  private ConfigLimits(LimitSet registered) {
    this(
        registered,
        new TypeFamilies(),
        new ConcurrentHashMap<String, ConcurrentHashMap<String, Set<String>>>());
  }

  private ConfigLimits(
      LimitSet registered,
      TypeFamilies families,
      ConcurrentHashMap<String, ConcurrentHashMap<String, Set<String>>> inheritedFrom) {
    this.registered = registered;
    this.families = families;
    this.inheritedFrom = inheritedFrom;
  }

  /**
   * The weaving plan of freshly registered limits.
   *
   * @param registered the limits, registered
   * @return their patterns, indexed, with no family or record yet
   */
  static ConfigLimits of(LimitSet registered) {
    ConfigLimits config = new ConfigLimits(registered);
    config.addAll();
    return config;
  }

  /**
   * The weaving plan after a reload: the {@code Type+} families depend only on which types are
   * {@code Type+} roots, so the same roots keep them (a class loaded long ago stays known); other
   * roots start afresh, found again by weaving again. The entries that kept their limiter keep what
   * their patterns noted: their classes are not woven again.
   *
   * @param reload what the control tier's reload did
   * @return the plan from now on
   */
  ConfigLimits next(LimitSet.Reload reload) {
    ConfigLimits next =
        families.hasRoots(subtypeRoots(reload.next.entries()))
            ? new ConfigLimits(reload.next, families, inheritedFrom)
            : new ConfigLimits(reload.next);
    next.addAll();
    for (String name : reload.kept) {
      next.carryOver(this, name);
    }
    return next;
  }

  /**
   * The registered limits this plan binds to.
   *
   * @return the limits
   */
  LimitSet registered() {
    return registered;
  }

  private void addAll() {
    for (ConfigLimit limit : registered.entries()) {
      add(limit, registered.idOf(limit.name()));
    }
  }

  private void add(ConfigLimit limit, int id) {
    for (MethodPattern pattern : limit.patterns()) {
      index.add(
          new Entry(
              pattern, limit.name(), id, limit.origin(), limit.keyIndex(), index.all().size()));
      hasPatterns = true;
      if (pattern.subtypes()) {
        families.addRoot(pattern.typeName().replace('.', '/'));
      }
    }
  }

  /**
   * Takes over what the entries of {@code name} in {@code old} noted while weaving (whether each
   * pattern matched a method, whether its refusals were reported), for an entry kept by a reload:
   * the classes it wove are not woven again, so nothing would note it anew.
   */
  private void carryOver(ConfigLimits old, String name) {
    for (Entry entry : index.named(name)) {
      for (Entry was : old.index.named(name)) {
        if (was.pattern.toString().equals(entry.pattern.toString())) {
          entry.takeOver(was);
        }
      }
    }
  }

  /** The internal names of the {@code Type+} patterns' types. */
  private static Set<String> subtypeRoots(Collection<ConfigLimit> limits) {
    Set<String> roots = new LinkedHashSet<String>();
    for (ConfigLimit limit : limits) {
      for (MethodPattern pattern : limit.patterns()) {
        if (pattern.subtypes()) {
          roots.add(pattern.typeName().replace('.', '/'));
        }
      }
    }
    return roots;
  }

  /**
   * Forgets what was noted of classes of collected class loaders.
   *
   * @param loaderIds the numbers of the collected loaders
   */
  void forgetLoaders(Set<Integer> loaderIds) {
    families.forgetLoaders(loaderIds);
  }

  /**
   * Every config limit whose patterns reach the method, once each (an entry's several patterns are
   * one limit), in file order: they all apply (SPEC, "Several limits on one method").
   *
   * @param typeName the class's binary name
   * @param methodName the method's name
   * @param parameterTypes its parameter types as Java source names
   * @param loader the class's defining loader, null for the bootstrap loader
   * @return the entries; empty if none
   */
  List<Entry> matchAll(
      String typeName, String methodName, List<String> parameterTypes, ClassLoader loader) {
    List<Entry> all = new ArrayList<Entry>(2);
    for (Entry entry : candidates(typeName, loader)) {
      if (entry.pattern.matchesMethod(methodName, parameterTypes) && !hasId(all, entry.id)) {
        all.add(entry);
      }
    }
    return all;
  }

  private static boolean hasId(List<Entry> entries, int id) {
    for (Entry e : entries) {
      if (e.id == id) {
        return true;
      }
    }
    return false;
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
    for (Entry entry : candidates(typeName, loader)) {
      if (entry.pattern.matchesMethod(methodName, parameterTypes)) {
        return entry;
      }
    }
    return null;
  }

  /**
   * The entries whose type part names the class: by its name, by a wildcard, or as a member of a
   * {@code Type+} family (the pattern's type itself, in any loader, or a subtype recorded for the
   * class's loader). A few lookups in the {@link PatternIndex}, however many patterns the file has.
   *
   * @param binaryName the class's binary name
   * @param loader its defining loader, null for the bootstrap loader
   * @return the entries, in file order; empty if none
   */
  private List<Entry> candidates(String binaryName, ClassLoader loader) {
    List<Entry> found = new ArrayList<Entry>(2); // walked by the transformer: no empty list's
    if (index.isEmpty()) { // iterator, which may not be loaded yet (a ClassCircularityError)
      return found;
    }
    index.byTypeName(binaryName, found);
    addFamilies(binaryName, loader, found);
    PatternIndex.sort(found);
    return found;
  }

  /**
   * Adds the {@code Type+} entries of the families the class is in: its own type's, in any loader,
   * and those of the types it was recorded a subtype of, in its loader.
   */
  private void addFamilies(String binaryName, ClassLoader loader, List<Entry> into) {
    if (families.isEmpty()) {
      return;
    }
    String internalName = binaryName.replace('.', '/');
    if (index.isRoot(internalName)) {
      into.addAll(index.ofRoot(internalName));
    }
    String[] recorded = families.recordedRoots(internalName, loader);
    if (recorded != null) {
      for (String root : recorded) {
        if (!root.equals(internalName)) {
          into.addAll(index.ofRoot(root));
        }
      }
    }
  }

  /**
   * Whether a class of this binary name may have methods a pattern matches (a cheap filter).
   *
   * @param binaryName the class's binary name
   * @param loader its defining loader, null for the bootstrap loader
   */
  boolean mayMatchType(String binaryName, ClassLoader loader) {
    if (!candidates(binaryName, loader).isEmpty()) {
      return true;
    }
    return !inheritedFrom.isEmpty() && inheritedFrom.containsKey(binaryName.replace('.', '/'));
  }

  /**
   * The {@code Type+} entries whose family the class belongs to, with the pattern's type.
   *
   * @param binaryName the class's binary name
   * @param loader its defining loader, null for the bootstrap loader
   * @return the entries, in file order; empty if none
   */
  List<Entry> familiesOf(String binaryName, ClassLoader loader) {
    List<Entry> found = new ArrayList<Entry>(0);
    if (families.isEmpty()) {
      return found;
    }
    addFamilies(binaryName, loader, found);
    PatternIndex.sort(found);
    return found;
  }

  /**
   * Whether a class of this name may be loaded already: seen loading, or found among the loaded
   * classes, while there were {@code Type+} patterns.
   *
   * @param internalName the class
   * @return true if it may be loaded
   */
  boolean mayBeLoaded(String internalName) {
    return families.mayBeLoaded(internalName);
  }

  /**
   * Notes a class found loaded (a walk over the loaded classes: at start-up the JDK's, at an attach
   * or a reload every one), for {@link #mayBeLoaded}.
   *
   * @param type a loaded class
   */
  void noteLoadedName(Class<?> type) {
    families.noteLoadedName(type);
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
    return families.descendsFrom(root, internalName, loader);
  }

  /**
   * Records that subtypes of a {@code Type+} pattern's type inherit implementations from an
   * ancestor that is not one itself, to be limited in place for instances of the type.
   *
   * @param root the pattern's type, internal name
   * @param ancestor the ancestor, internal name
   * @param subtype the subtype that inherits, binary name
   * @param mayBeLoaded whether the ancestor may be loaded already: then, if it was not recorded for
   *     this type before, its loaded class is to be woven again ({@link #takePendingAncestors});
   *     one not loaded yet is woven as it loads
   * @return true if the ancestor was not recorded for this type before
   */
  boolean inheritFrom(String root, String ancestor, String subtype, boolean mayBeLoaded) {
    ConcurrentHashMap<String, Set<String>> roots = inheritedFrom.get(ancestor);
    if (roots == null) {
      ConcurrentHashMap<String, Set<String>> made = new ConcurrentHashMap<String, Set<String>>();
      roots = inheritedFrom.putIfAbsent(ancestor, made);
      if (roots == null) {
        roots = made;
      }
    }
    Set<String> heirs = roots.get(root);
    boolean fresh = heirs == null;
    if (fresh) {
      Set<String> made = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());
      heirs = roots.putIfAbsent(root, made);
      fresh = heirs == null;
      if (fresh) {
        heirs = made;
      }
    }
    heirs.add(subtype);
    if (fresh && mayBeLoaded) {
      pendingAncestors.add(ancestor);
    }
    return fresh;
  }

  /** Whether {@link #inheritFrom} recorded ancestors that {@link #takePendingAncestors} has not. */
  boolean hasPendingAncestors() {
    return !pendingAncestors.isEmpty();
  }

  /**
   * Takes the ancestors recorded by {@link #inheritFrom} since the last call: their loaded classes
   * are to be retransformed, to be woven in place.
   *
   * @return their binary names; empty if none
   */
  Set<String> takePendingAncestors() {
    Set<String> taken = new LinkedHashSet<String>();
    for (Iterator<String> i = pendingAncestors.iterator(); i.hasNext(); ) {
      taken.add(i.next().replace('/', '.'));
      i.remove();
    }
    return taken;
  }

  /**
   * Passes an ancestor's record on to its own supertypes: an ancestor woven in place supplies what
   * its own ancestors supply too (one whose class file could not be read, say, was recorded without
   * them).
   *
   * @param internalName a class being woven
   * @param superName its superclass (internal name), null for none
   * @param interfaces its direct interfaces (internal names)
   */
  void inheritUpwards(String internalName, String superName, String[] interfaces) {
    if (inheritedFrom.isEmpty()) {
      return;
    }
    Map<String, Set<String>> roots = inheritedFrom.get(internalName);
    if (roots == null) {
      return;
    }
    for (Map.Entry<String, Set<String>> e : roots.entrySet()) {
      List<String> up = new ArrayList<String>();
      if (superName != null && !superName.equals("java/lang/Object")) {
        up.add(superName);
      }
      for (String i : interfaces) {
        up.add(i);
      }
      for (String ancestor : up) {
        if (ancestor.equals(e.getKey())) {
          continue; // the pattern's type itself: limited where it declares
        }
        for (String heir : e.getValue()) {
          inheritFrom(e.getKey(), ancestor, heir, mayBeLoaded(ancestor));
        }
      }
    }
  }

  /** A config entry that reaches a method an ancestor supplies to a {@code Type+} family. */
  static final class InheritedMatch {
    /** The entry. */
    final Entry entry;

    /** The pattern's type, binary name: calls are charged for its instances only. */
    final String typeName;

    /** The subtypes known to inherit the method, binary names, for the reports. */
    final Set<String> heirs;

    InheritedMatch(Entry entry, String typeName, Set<String> heirs) {
      this.entry = entry;
      this.typeName = typeName;
      this.heirs = heirs;
    }
  }

  /**
   * The first {@code Type+} entry reaching a method that the class supplies to that type's subtypes
   * without being one itself, or null.
   *
   * @param internalName the class (an ancestor recorded by {@link #inheritFrom})
   * @param methodName the method's name
   * @param parameterTypes its parameter types as Java source names
   * @return the match, or null
   */
  /**
   * Reports the entries other than {@code first}'s that also reach an implementation supplied to
   * subtypes of their {@code Type+} types: such an implementation takes one config limit in this
   * version (the first in the file), and the others say so in their {@code Unlimited} list.
   *
   * @param first the entry that limits it
   * @param internalName the class that supplies it
   * @param methodName the method's name
   * @param parameterTypes its parameter types as Java source names
   * @param origin the method, as messages name it
   */
  void shadowedInherited(
      Entry first,
      String internalName,
      String methodName,
      List<String> parameterTypes,
      String origin) {
    Map<String, Set<String>> roots = inheritedFrom.get(internalName);
    if (roots == null) {
      return;
    }
    for (String root : roots.keySet()) {
      for (Entry entry : index.ofRoot(root)) {
        if (entry.id != first.id && entry.pattern.matchesMethod(methodName, parameterTypes)) {
          refuseShadowed(entry, first, origin);
        }
      }
    }
  }

  /** Reports that {@code first} limits a method {@code entry} reaches too, alone. */
  static void refuseShadowed(Entry entry, Entry first, String origin) {
    entry.refuse(
        origin,
        "'"
            + first.name
            + "' ("
            + first.pattern
            + ") limits it: an implementation inherited by a Type+ pattern's subtypes takes one"
            + " config limit in this version, the first entry's in the file");
  }

  InheritedMatch matchInherited(
      String internalName, String methodName, List<String> parameterTypes) {
    if (inheritedFrom.isEmpty()) {
      return null;
    }
    Map<String, Set<String>> roots = inheritedFrom.get(internalName);
    if (roots == null) {
      return null;
    }
    List<Entry> supplied = new ArrayList<Entry>();
    for (Map.Entry<String, Set<String>> root : roots.entrySet()) { // as inheritUpwards walks it
      supplied.addAll(index.ofRoot(root.getKey()));
    }
    PatternIndex.sort(supplied);
    for (Entry entry : supplied) {
      if (entry.pattern.matchesMethod(methodName, parameterTypes)) {
        return new InheritedMatch(
            entry, entry.pattern.typeName(), roots.get(entry.pattern.typeName().replace('.', '/')));
      }
    }
    return null;
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
    return families.noteSupertypes(internalName, directSupertypes, loader);
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
    return families.anyRootAmong(loaded);
  }

  /**
   * Records a class loaded before the agent started as a subtype of every {@code Type+} type among
   * its ancestors.
   *
   * @param type the loaded class
   * @return true if it is a subtype of some {@code Type+} pattern's type
   */
  boolean noteLoaded(Class<?> type) {
    return families.noteLoaded(type);
  }

  boolean hasSubtypePatterns() {
    return !families.isEmpty();
  }

  /**
   * Whether the file has method patterns: a plain field, read by the transformer for every class
   * that loads before it may call anything a config limit could name.
   */
  boolean hasPatterns() {
    return hasPatterns;
  }

  /** Whether {@link #index} has any entry; set while the file's limits are registered. */
  private boolean hasPatterns;

  /**
   * What the config file asked for that nothing has used yet: patterns that matched no method,
   * overrides that no annotated limiter claimed, {@code http} entries in a JVM where no servlet
   * container has loaded. A typo must not silently disable a limit.
   *
   * @param loaded the JVM's loaded classes, to name the closest to a pattern that matched nothing;
   *     null for no such hint
   * @return one line each, naming file, line and limit
   */
  List<String> unused(Class<?>[] loaded) {
    List<String> lines = new ArrayList<String>();
    NearMatch.Loaded names = loaded == null ? null : NearMatch.index(loaded); // once for all
    for (Entry entry : index.all()) {
      if (!entry.matched) {
        String hint = names == null ? null : NearMatch.closest(entry.pattern, names);
        lines.add(
            entry.origin
                + ": the pattern "
                + entry.pattern
                + " of '"
                + entry.name
                + "' has matched no method yet"
                + (hint == null ? "" : " (" + hint + ")"));
      }
    }
    lines.addAll(registered.unclaimedOverrides());
    if (!ServletGate.containerSeen()) {
      for (String entry : registered.httpEntries()) {
        lines.add(
            entry
                + " has reached no request yet: no servlet container has loaded in this JVM (no"
                + " class calling a javax.servlet or jakarta.servlet servlet's service or filter's"
                + " doFilter), so it limits nothing");
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

    /** Where it is among the file's patterns: 0 for the first. */
    final int position;

    /** Set when a method with a body was woven for this pattern. */
    volatile boolean matched;

    /**
     * The methods this pattern reached that Weir cannot limit, each with why, in the order met; at
     * most {@link #MAX_REFUSALS_KEPT}. Guarded by {@code this}.
     */
    private final Map<String, String> refusals = new LinkedHashMap<String, String>();

    /** Refusals beyond those kept; guarded by {@code this}. */
    private int refusedBeyond;

    /** Whether the refusals were reported (once per pattern); guarded by {@code this}. */
    private boolean refusalsReported;

    /**
     * When the first refusal not reported yet was noted, in nanoseconds; guarded by {@code this}.
     */
    private long firstRefusalNanos;

    /** Takes over what {@code was}, this pattern's entry in the file before a reload, noted. */
    void takeOver(Entry was) {
      matched = was.matched;
      synchronized (was) {
        synchronized (this) {
          refusals.putAll(was.refusals);
          refusedBeyond = was.refusedBeyond;
          refusalsReported = was.refusalsReported;
          firstRefusalNanos = was.firstRefusalNanos;
        }
      }
    }

    Entry(MethodPattern pattern, String name, int id, String origin, int keyIndex, int position) {
      this.pattern = pattern;
      this.position = position;
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
      matched = true; // it reached a method: reported as refused, not as unused
      if (refusals.containsKey(method)) {
        return; // the same method met again (its class woven again)
      }
      if (refusals.isEmpty() && refusedBeyond == 0) {
        firstRefusalNanos = System.nanoTime();
      }
      if (refusals.size() < MAX_REFUSALS_KEPT) {
        refusals.put(method, why);
      } else {
        refusedBeyond++;
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
      int refused = refusals.size() + refusedBeyond;
      if (refused == 0 || refusalsReported || nowNanos - firstRefusalNanos < settleNanos) {
        return null;
      }
      refusalsReported = true;
      List<String> shown = new ArrayList<String>(2);
      List<String> why = new ArrayList<String>(2);
      for (Map.Entry<String, String> r : refusals.entrySet()) {
        if (shown.size() == 2) {
          break;
        }
        shown.add(r.getKey());
        why.add(r.getValue());
      }
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
          + examples(shown, why)
          + (refused > shown.size()
              ? "; and "
                  + (refused - shown.size())
                  + " more (java -jar weir-agent.jar methods PID "
                  + name
                  + " lists them)"
              : "");
    }

    /** {@code A (why)}, {@code A (why); B (why)}, or {@code A and B (why)} when alike. */
    private static String examples(List<String> shown, List<String> why) {
      if (shown.size() == 2 && why.get(0).equals(why.get(1))) {
        return shown.get(0) + " and " + shown.get(1) + " (" + why.get(0) + ")";
      }
      List<String> each = new ArrayList<String>(shown.size());
      for (int i = 0; i < shown.size(); i++) {
        each.add(shown.get(i) + " (" + why.get(i) + ")");
      }
      return String.join("; ", each);
    }

    /**
     * What this pattern reached and could not limit, for {@code Unlimited}: {@code PATTERN: METHOD:
     * WHY} each, and {@code PATTERN: matched no method yet} (with the closest loaded class or
     * method, if given) when it has matched none.
     *
     * @param hint what the pattern probably meant, or null
     * @return the lines
     */
    synchronized List<String> unlimited(String hint) {
      List<String> lines = new ArrayList<String>();
      for (Map.Entry<String, String> r : refusals.entrySet()) {
        lines.add(pattern + ": " + r.getKey() + ": " + r.getValue());
      }
      if (refusedBeyond > 0) {
        lines.add(pattern + ": and " + refusedBeyond + " more methods Weir cannot limit");
      }
      if (!matched) {
        lines.add(pattern + ": matched no method yet" + (hint == null ? "" : "; " + hint));
      }
      return lines;
    }
  }

  /** The refusals kept per pattern, for {@code Unlimited}; beyond them, only a count. */
  static final int MAX_REFUSALS_KEPT = 1000;

  /**
   * What the patterns of the entry of this name reached and could not limit, each with why
   * (docs/operations.md, "MBeans", {@code Unlimited}).
   *
   * @param name the entry's name
   * @param loaded the JVM's loaded classes, to name the closest to a pattern that matched nothing;
   *     null for no such hint
   * @return {@code PATTERN: METHOD: WHY} lines; empty if the file has no such entry, or it is not a
   *     pattern entry
   */
  List<String> unlimited(String name, Class<?>[] loaded) {
    return unlimitedOf(name, loaded == null ? null : NearMatch.index(loaded));
  }

  /**
   * {@link #unlimited(String, Class[])} with the loaded classes indexed already.
   *
   * @param name the entry's name
   * @param loaded the loaded classes, indexed; null for no hint
   * @return the lines
   */
  List<String> unlimitedOf(String name, NearMatch.Loaded loaded) {
    List<String> lines = new ArrayList<String>();
    for (Entry entry : index.named(name)) {
      String hint =
          !entry.matched && loaded != null ? NearMatch.closest(entry.pattern, loaded) : null;
      lines.addAll(entry.unlimited(hint));
    }
    return lines;
  }

  /**
   * Whether every pattern of the entry of this name has matched a method: then its {@code
   * Unlimited} needs no look at the loaded classes.
   *
   * @param name the entry's name
   * @return true if none is still unmatched (or the file has no such pattern entry)
   */
  boolean allMatched(String name) {
    for (Entry entry : index.named(name)) {
      if (!entry.matched) {
        return false;
      }
    }
    return true;
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
    for (Entry entry : index.all()) {
      String line = entry.refusalReport(now, settleNanos);
      if (line != null) {
        lines.add(line);
      }
    }
    return lines;
  }
}
