package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.bootstrap.limit.RefusedLimiter;
import dev.weir.agent.weave.ClassModel.MethodModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Plans the {@link LimitPrologue} of every method of a type that carries {@code @TokenBucket} or
 * {@code @LeakyBucket}, or that a config pattern names, from the class file's {@link ClassModel}
 * (no application class is loaded): which methods are limited, by which limiter, and what the
 * weaving does to the class's shape (a moved body, an added override, a method that fails closed).
 * A config entry's methods are bound here; an annotated method is bound by {@link
 * AnnotationBinder}, which reads and checks the annotation.
 *
 * <p>An invalid annotation is woven too, bound to a {@link RefusedLimiter}: every call then throws
 * {@link IllegalStateException} with the message logged here, naming class, method, attribute and
 * value. Bridge and synthetic methods are never woven (the compiler copies annotations onto bridge
 * methods); abstract and native methods have no body to weave and are reported.
 *
 * <p>Thread-safe: registration is synchronized in {@link LimiterRegistry}.
 */
final class LimitWeaver {
  /** Binds annotated methods to their limiters, and notes which of them are keyed. */
  private final AnnotationBinder annotations;

  /** The config file's limits: replaced by a reload. */
  private volatile ConfigLimits config;

  LimitWeaver(NanoClock clock, ConfigLimits config) {
    this.annotations = new AnnotationBinder(clock);
    this.config = config;
  }

  /** Whether an ancestor may be loaded already: then a subtype gains an override of its own. */
  private volatile LoadedNames loadedNames = LoadedNames.UNKNOWN;

  void setLoadedNames(LoadedNames names) {
    loadedNames = names;
  }

  void setConfig(ConfigLimits next) {
    config = next;
  }

  /**
   * Forgets what was noted of limiters dropped (their ids are reused).
   *
   * @param limiterIds the ids freed
   */
  void forget(Set<Integer> limiterIds) {
    annotations.forget(limiterIds);
  }

  /**
   * Plans the prologue of every limited method of the type, registering their limiters.
   *
   * @param type the type, read from its class file
   * @param loader its class loader (null for the bootstrap loader)
   * @param placement what the weaving may do to the class's shape (add methods)
   * @return the plan; its prologues are empty if no method is limited
   */
  Plan plan(ClassModel type, ClassLoader loader, Placement placement) {
    Plan plan = new Plan(loader);
    List<MethodModel> annotated = new ArrayList<MethodModel>();
    config.inheritUpwards(type.internalName, type.superName, type.interfaces);
    for (MethodModel method : type.methods) {
      if (!planByConfig(plan, type, method, loader, placement) && method.carriesLimit()) {
        annotated.add(method);
      }
    }
    planAnnotated(plan, type, annotated, loader, placement);
    if (!type.isInterface()) {
      List<ConfigLimits.Entry> families = config.familiesOf(type.name, loader);
      if (!families.isEmpty()) {
        planInherited(plan, type, loader, placement, families);
      }
    }
    return plan;
  }

  /**
   * Plans the method's limit if the config file's patterns reach it, as the type's own method or an
   * implementation it supplies to subtypes of a {@code Type+} pattern's type.
   *
   * @return whether the method is done with: planned or refused for the config, or one no limit
   *     applies to (a lambda's body, an accessor, a bridge no pattern reaches); false if its own
   *     annotation, if any, decides
   */
  private boolean planByConfig(
      Plan plan, ClassModel type, MethodModel method, ClassLoader loader, Placement placement) {
    boolean bridge = method.is(Opcodes.ACC_BRIDGE);
    if (method.is(Opcodes.ACC_SYNTHETIC) && !bridge) {
      return true; // a lambda's body, an accessor: no method a user calls
    }
    ConfigLimits.Entry entry =
        config.match(type.name, method.name, method.parameterNames(), loader);
    if (bridge && entry == null) {
      return true; // annotations never weave a bridge (the compiler copies them onto it)
    }
    if (entry == null && inheritable(method)) {
      // an implementation this class supplies to subtypes of a Type+ pattern's type that it is
      // not itself one of: limited here, for instances of that type only
      ConfigLimits.InheritedMatch inherited =
          config.matchInherited(type.internalName, method.name, method.parameterNames());
      if (inherited != null && !bridge) {
        // planned here, unless the method's own annotation limits every call of it
        return planInheritedInPlace(plan, type, method, inherited, loader, placement);
      }
    }
    if (entry != null && !method.is(Opcodes.ACC_ABSTRACT)) {
      planConfigured(plan, type, method, entry, loader, placement);
      return true;
    }
    return false;
  }

  /** Plans the prologue of a method of the type that a config entry limits, or its refusal. */
  private void planConfigured(
      Plan plan,
      ClassModel type,
      MethodModel method,
      ConfigLimits.Entry entry,
      ClassLoader loader,
      Placement placement) {
    String origin = type.origin(method);
    List<ConfigLimits.Entry> entries =
        config.matchAll(type.name, method.name, method.parameterNames(), loader);
    boolean refused = false;
    for (ConfigLimits.Entry e : entries) { // each reports a refusal with its own pattern
      refused |= refusedForConfig(e, type, method, origin, placement);
    }
    if (refused) {
      return;
    }
    List<Binding> bindings = new ArrayList<Binding>();
    if (method.carriesLimit() && !method.is(Opcodes.ACC_BRIDGE)) {
      // a pattern that reaches an annotated method adds its limit to the annotation's (a bridge
      // carries copies of its target's annotations, which limit the target, not it)
      bindings.addAll(
          annotations.bindAll(type, method, origin, defaultName(type, method), config, loader));
    }
    for (ConfigLimits.Entry e : entries) {
      if (AgentLog.debugEnabled()) {
        AgentLog.debug("limiting " + origin + " as " + ConfigBinding.source(e));
      }
      bindings.add(ConfigBinding.of(e, method, origin, loader));
    }
    weaveAll(plan, type, method, origin, bindings);
  }

  /**
   * Weaves a method's limits: one limiter's prologue, or a {@link LimitGroups group}'s for several,
   * each member covering the method.
   */
  private void weaveAll(
      Plan plan, ClassModel type, MethodModel method, String origin, List<Binding> bindings) {
    Binding binding = bindings.get(0);
    if (bindings.size() > 1) {
      for (Binding member : bindings) {
        if (!member.outermostOnly && !member.refused) {
          String conflict = annotations.keyedness(member, origin);
          if (conflict != null) {
            binding = Binding.refuse(member.name, origin, conflict, plan.loader);
            break;
          }
        }
      }
      if (!binding.refused) {
        binding = LimitGroups.bind(bindings, origin, plan.loader);
      }
    }
    binding = weave(plan, type, method, origin, binding);
    if (binding.group) {
      for (Binding member : binding.members) {
        List<String> others = new ArrayList<String>();
        for (Binding other : binding.members) {
          if (other != member) {
            others.add(other.name);
          }
        }
        plan.covers(method.key(), member.id, origin, others);
      }
    } else {
      plan.covers(method.key(), binding.id, origin);
    }
  }

  /**
   * Plans the prologues of the type's methods that carry a limit annotation and no config pattern
   * took: an abstract method, or a native one of a loaded class, is reported and left; a native one
   * that cannot be wrapped fails closed. A method's default limiter name is {@code C#m}, with its
   * parameters ({@code C#m(int)}) if the type has more than one such method of that name.
   */
  private void planAnnotated(
      Plan plan,
      ClassModel type,
      List<MethodModel> annotated,
      ClassLoader loader,
      Placement placement) {
    Map<String, Integer> perName = new HashMap<String, Integer>();
    for (MethodModel method : annotated) {
      Integer count = perName.get(method.name);
      perName.put(method.name, count == null ? 1 : count + 1);
    }
    for (MethodModel method : annotated) {
      String origin = type.origin(method);
      if (method.is(Opcodes.ACC_ABSTRACT)) {
        AgentLog.error(
            "cannot limit "
                + origin
                + ": an abstract method has no calls of its own to limit; annotate its"
                + " implementations instead");
        continue;
      }
      String cannotWrap =
          method.is(Opcodes.ACC_NATIVE) ? placement.whyNativeCannotBeWrapped(method.key()) : null;
      if (cannotWrap != null && placement.redefining) {
        // a loaded class can neither gain the wrapper's body method nor lose a native flag
        AgentLog.error(
            "cannot limit "
                + origin
                + ": "
                + cannotWrap
                + "; it runs unlimited until the JVM starts with -javaagent:weir-agent.jar");
        continue;
      }
      String defaultName =
          type.name
              + "#"
              + method.name
              + (perName.get(method.name) > 1 ? method.parameterList() : "");
      if (cannotWrap != null) {
        plan.failClosed(method.key(), origin, cannotWrap);
      }
      List<Binding> bound = annotations.bindAll(type, method, origin, defaultName, config, loader);
      weaveAll(plan, type, method, origin, bound);
    }
  }

  /**
   * A method's default limiter name: {@code C#m}, with its parameters ({@code C#m(int)}) if the
   * type has more than one method of that name that carries a limit annotation.
   */
  private static String defaultName(ClassModel type, MethodModel method) {
    int named = 0;
    for (MethodModel m : type.methods) {
      if (m.name.equals(method.name) && m.carriesLimit()) {
        named++;
      }
    }
    return type.name + "#" + method.name + (named > 1 ? method.parameterList() : "");
  }

  /** An instance method a subclass inherits: not a constructor, static, private or abstract. */
  private static boolean inheritable(MethodModel method) {
    return !method.isConstructor()
        && !method.is(Opcodes.ACC_STATIC)
        && !method.is(Opcodes.ACC_PRIVATE)
        && !method.is(Opcodes.ACC_ABSTRACT)
        && !method.name.equals("<clinit>");
  }

  /**
   * Whether a method a config entry reached cannot be limited (Weir's own, a JIT intrinsic, a
   * native method that cannot be wrapped): then it is noted as the entry's refusal. Marks the entry
   * as matched either way.
   */
  private static boolean refusedForConfig(
      ConfigLimits.Entry entry,
      ClassModel type,
      MethodModel method,
      String origin,
      Placement placement) {
    entry.matched = true; // a refusal is reported with its pattern, not as unused
    String refused = whyRefused(type, method);
    if (refused != null) {
      entry.refuse(origin, refused);
      return true;
    }
    String cannotWrap =
        method.is(Opcodes.ACC_NATIVE) ? placement.whyNativeCannotBeWrapped(method.key()) : null;
    if (cannotWrap != null) {
      entry.refuse(origin, cannotWrap);
      return true;
    }
    return false;
  }

  /**
   * Why Weir refuses to limit a method declared by this class (Weir's own, an intrinsic), or null.
   */
  private static String whyRefused(ClassModel declaring, MethodModel method) {
    String unlimitable = Unlimitable.why(declaring.name, method.name, method.descriptor);
    if (unlimitable != null) {
      return unlimitable;
    }
    return method.intrinsic
        ? "it is a JIT intrinsic: compiled code runs the JVM's own version of it, without the limit"
        : null;
  }

  /**
   * Plans the prologue of an implementation that this class supplies to subtypes of a {@code Type+}
   * pattern's type without being one: a call is charged only when {@code this} is an instance of
   * the type.
   *
   * @return whether the method is done with; false if its own annotation is to be woven instead
   */
  private boolean planInheritedInPlace(
      Plan plan,
      ClassModel type,
      MethodModel method,
      ConfigLimits.InheritedMatch inherited,
      ClassLoader loader,
      Placement placement) {
    ConfigLimits.Entry entry = inherited.entry;
    String origin = type.origin(method);
    if (refusedForConfig(entry, type, method, origin, placement)) {
      return true;
    }
    if (method.carriesLimit()) {
      // its own annotation limits every call of it, and is woven as such (planAnnotated); an
      // inherited implementation takes no second limit for some instances in this version
      entry.refuse(
          origin + " for " + inherited.typeName + " instances",
          "it carries a limit annotation of its own, which applies to every call of it");
      return false;
    }
    if (AgentLog.debugEnabled()) {
      AgentLog.debug(
          "limiting "
              + origin
              + " as "
              + ConfigBinding.source(entry)
              + ", for "
              + inherited.typeName
              + " instances");
    }
    config.shadowedInherited(
        entry, type.internalName, method.name, method.parameterNames(), origin);
    Binding binding = ConfigBinding.of(entry, method, origin, loader);
    if (!binding.outermostOnly) {
      return true; // refused (its key cannot be one), logged: never fail closed for others
    }
    binding.onlyForInstancesOf = inherited.typeName;
    weave(plan, type, method, origin, binding);
    List<String> heirs = new ArrayList<String>(inherited.heirs);
    Collections.sort(heirs);
    for (String heir : heirs) {
      plan.covers(
          method.key(),
          entry.id,
          heir
              + "#"
              + method.name
              + method.parameterList()
              + " (inherited from "
              + type.name
              + ")");
    }
    return true;
  }

  /**
   * Plans the limits of the implementations this class inherits for the {@code Type+} entries whose
   * family it belongs to: an implementation it inherits from an ancestor that is itself of the
   * family is limited there; from any other ancestor, it gains an override that takes the limit and
   * calls {@code super} (a class that is loading may gain methods), or, where it cannot (a final
   * method, a default method, a class loaded already), the ancestor's method is limited in place
   * for instances of the type, its loaded class woven again.
   */
  private void planInherited(
      Plan plan,
      ClassModel type,
      ClassLoader loader,
      Placement placement,
      List<ConfigLimits.Entry> families) {
    Ancestry ancestry = new Ancestry(loader);
    for (ConfigLimits.Entry entry : families) {
      String root = entry.pattern.typeName().replace('.', '/');
      for (Ancestry.Inherited inherited : ancestry.inherited(type, entry.pattern)) {
        MethodModel method = inherited.method;
        String key = method.key();
        ClassModel from = inherited.declaredBy;
        AddedOverride added = plan.overrides.get(key);
        if (added != null && added.entry != null && added.entry.id != entry.id) {
          ConfigLimits.refuseShadowed(entry, added.entry, type.name + "#" + key);
          continue;
        }
        if (plan.prologues.containsKey(key)
            || added != null
            || config.descendsFrom(root, from.internalName, loader)) {
          continue; // limited by another entry, or where it is declared
        }
        String origin =
            type.name
                + "#"
                + method.name
                + method.parameterList()
                + " (inherited from "
                + from.name
                + ")";
        entry.matched = true;
        String refused = whyRefused(from, method);
        if (refused != null) {
          entry.refuse(origin, refused);
          continue;
        }
        // an ancestor that loads after this class is woven as it loads, for the type's instances
        // (this class's shape stays as written); one loaded already cannot be woven from here, so
        // this class gains an override, where it can
        if (overridable(inherited, placement, loader)) {
          planOverride(plan, type, method, entry, origin, loader);
        } else {
          config.inheritFrom(
              root,
              from.internalName,
              type.name,
              loadedNames.mayBeLoaded(loader, from.internalName));
        }
      }
      for (String unreadable : ancestry.unreadable()) {
        // what it supplies is unknown: its methods are limited in place when it is woven
        config.inheritFrom(
            root, unreadable, type.name, loadedNames.mayBeLoaded(loader, unreadable));
      }
    }
  }

  /**
   * Whether the class may gain an override that limits the implementation it inherits: a public or
   * protected, non-final method of a superclass, carrying no annotation of its own, that may be
   * loaded already (one that loads later is woven in place), where the class can gain a method.
   */
  private boolean overridable(
      Ancestry.Inherited inherited, Placement placement, ClassLoader loader) {
    MethodModel method = inherited.method;
    String key = method.key();
    return !inherited.fromInterface
        && !method.is(Opcodes.ACC_FINAL)
        && (method.is(Opcodes.ACC_PUBLIC) || method.is(Opcodes.ACC_PROTECTED))
        && !method.carriesLimit()
        && placement.canAdd(key)
        && (placement.overriddenAtLoad.containsKey(key)
            || loadedNames.mayBeLoaded(loader, inherited.declaredBy.internalName));
  }

  /**
   * Plans an override of an inherited implementation that takes the entry's limit and calls {@code
   * super}: same name, descriptor, exceptions and visibility.
   */
  private void planOverride(
      Plan plan,
      ClassModel type,
      MethodModel method,
      ConfigLimits.Entry entry,
      String origin,
      ClassLoader loader) {
    String key = method.key();
    MethodModel override =
        new MethodModel(
            method.access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED | Opcodes.ACC_VARARGS),
            method.name,
            method.descriptor);
    override.exceptions = method.exceptions;
    Binding binding = ConfigBinding.of(entry, override, origin, loader);
    AddedOverride added = new AddedOverride(override, prologue(type, override, binding));
    added.entry = entry;
    plan.overrides.put(key, added);
    plan.covers(key, entry.id, origin);
    if (AgentLog.debugEnabled()) {
      AgentLog.debug(
          "limiting " + origin + " as " + ConfigBinding.source(entry) + ", by an override");
    }
  }

  /**
   * Plans the prologue of {@link WarmUp#run}, bound to no limiter: for warming up only.
   *
   * @param warmUp the model of {@link WarmUp}
   * @return the plan
   */
  Plan planWarmUp(ClassModel warmUp) {
    Plan plan = new Plan(null);
    for (MethodModel method : warmUp.methods) {
      if (method.name.equals("run")) {
        weave(plan, warmUp, method, "warm-up", new Binding(-1, "warm-up"));
      }
    }
    return plan;
  }

  /** Plans the method's prologue; returns the binding it got (a refused one on a conflict). */
  private Binding weave(
      Plan plan, ClassModel type, MethodModel method, String origin, Binding binding) {
    if (binding.id >= 0
        && !binding.group // its annotated members were asked (weaveAll)
        && !binding.outermostOnly // config patterns may mix methods with and without the key
        && !(LimiterRegistry.limiter(binding.id) instanceof RefusedLimiter)) {
      String conflict = annotations.keyedness(binding, origin);
      if (conflict != null) {
        binding = Binding.refuse(binding.name, origin, conflict, plan.loader);
      }
    }
    plan.prologues.put(method.key(), prologue(type, method, binding));
    if (method.is(Opcodes.ACC_NATIVE) && !plan.failClosed.containsKey(method.key())) {
      plan.moved.add(method.key()); // renamed with the native method prefix, behind a wrapper
    }
    return binding;
  }

  private static LimitPrologue prologue(ClassModel type, MethodModel method, Binding binding) {
    return new LimitPrologue(
        type,
        method,
        binding.id,
        binding.name,
        binding.keyIndex,
        binding.fallback,
        binding.fallbackTakesException,
        binding.outermostOnly,
        binding.outermostOnly ? binding.onlyForInstancesOf : null,
        binding.group);
  }

  /**
   * What weaving one class does: a prologue per limited method, and for some of them another place.
   * Built by {@link #plan}; the {@link Weaver} may move more methods or fail more closed while it
   * writes (a body too large to take the prologue). Confined to the weaving thread.
   */
  static final class Plan {
    /** The prologues by method key ({@code run(I)I}). */
    final Map<String, LimitPrologue> prologues = new LinkedHashMap<String, LimitPrologue>();

    /**
     * Methods whose body moves to a private method named {@link Weaver#MOVED_PREFIX} + name, behind
     * a wrapper that keeps the name and runs the prologue (natives: renamed with the prefix).
     */
    final Set<String> moved = new HashSet<String>();

    /**
     * Methods whose body moved when the class loaded and that are no longer limited: the class
     * keeps its shape, the wrapper only calls the body.
     */
    final Set<String> movedUnlimited = new HashSet<String>();

    /** Methods whose code becomes a throw of {@link IllegalStateException}, with its message. */
    final Map<String, String> failClosed = new HashMap<String, String>();

    /**
     * Overrides the class gains, by method key: an implementation it inherits, as a subtype of a
     * {@code Type+} pattern's type, from an ancestor that is not one, limited by a method of its
     * own that calls {@code super}.
     */
    final Map<String, AddedOverride> overrides = new LinkedHashMap<String, AddedOverride>();

    /**
     * What each limited method covers, for {@code Methods}: the limiter's id, and the methods as
     * callers see them ({@code C#m()}, {@code C#m() (inherited from S)}).
     */
    final List<Covered> covered = new ArrayList<Covered>();

    /** The class's loader (null: the bootstrap loader): its invalid limiters go with it. */
    final ClassLoader loader;

    Plan(ClassLoader loader) {
      this.loader = loader;
    }

    boolean isEmpty() {
      return prologues.isEmpty() && overrides.isEmpty() && movedUnlimited.isEmpty();
    }

    /** Notes that the method of this key, once woven, limits calls of {@code method}. */
    void covers(String key, int limiterId, String method) {
      covered.add(new Covered(key, limiterId, method, ""));
    }

    /**
     * Records that a woven method is bound to one of several limits.
     *
     * @param key the method's key
     * @param limiterId the member's id
     * @param method the method, for {@code Methods}
     * @param others the other members' names
     */
    void covers(String key, int limiterId, String method, List<String> others) {
      covered.add(new Covered(key, limiterId, method, " (with " + String.join(", ", others) + ")"));
    }

    /**
     * Makes a method fail closed, with one error line: every call throws {@link
     * IllegalStateException} saying it cannot be limited and why.
     *
     * @param key the method's key
     * @param origin the method, for the message
     * @param why why it cannot be limited
     */
    void failClosed(String key, String origin, String why) {
      String message = "cannot limit " + origin + ": " + why + " (every call fails closed)";
      AgentLog.error(message);
      failClosed.put(key, "weir: " + message);
    }
  }

  /** An override a class gains: the method, and its prologue (null: it only calls super). */
  static final class AddedOverride {
    final MethodModel method;
    final LimitPrologue prologue;

    /** The config entry whose limit it takes; null for one that only calls super. */
    ConfigLimits.Entry entry;

    AddedOverride(MethodModel method, LimitPrologue prologue) {
      this.method = method;
      this.prologue = prologue;
    }
  }

  /** A method a woven method limits, for {@code Methods}. Immutable. */
  static final class Covered {
    /** The woven method's key in its class. */
    final String key;

    /** The limiter the woven method is bound to. */
    final int limiterId;

    /** The method as its callers see it: {@code C#m(int)}, or with {@code (inherited from S)}. */
    final String method;

    /**
     * The other limits of the method, as {@code Methods} shows them: {@code " (with a, b)"}; empty
     * for a method with one limit.
     */
    final String sharedWith;

    Covered(String key, int limiterId, String method, String sharedWith) {
      this.key = key;
      this.limiterId = limiterId;
      this.method = method;
      this.sharedWith = sharedWith;
    }
  }

  /** What weaving may do to a class's shape. Immutable. */
  static final class Placement {
    /** At load time, with the native method prefix set. */
    static final Placement AT_LOAD =
        new Placement(
            false,
            Collections.<String>emptySet(),
            Collections.<String, MethodModel>emptyMap(),
            true);

    /** The class is loaded already (retransformation): it can gain no method. */
    final boolean redefining;

    /** Redefining: the methods moved when the class loaded, which must move again. */
    final Set<String> movedAtLoad;

    /** Redefining: the overrides the class gained when it loaded, which it must keep. */
    final Map<String, MethodModel> overriddenAtLoad;

    /** Whether the JVM resolves a native method renamed with {@link Weaver#MOVED_PREFIX}. */
    final boolean nativePrefix;

    Placement(
        boolean redefining,
        Set<String> movedAtLoad,
        Map<String, MethodModel> overriddenAtLoad,
        boolean nativePrefix) {
      this.redefining = redefining;
      this.movedAtLoad = movedAtLoad;
      this.overriddenAtLoad = overriddenAtLoad;
      this.nativePrefix = nativePrefix;
    }

    /** Whether the method's body may move to a method of its own. */
    boolean canMove(String methodKey) {
      return !redefining || movedAtLoad.contains(methodKey);
    }

    /** Whether the class may gain (or keeps) an override of this key. */
    boolean canAdd(String methodKey) {
      return !redefining || overriddenAtLoad.containsKey(methodKey);
    }

    /** Why a native method cannot be limited through a wrapper, or null if it can. */
    String whyNativeCannotBeWrapped(String methodKey) {
      if (!canMove(methodKey)) {
        return "it is a native method of a class loaded before the agent started, and a loaded"
            + " class cannot gain the wrapper that would limit it";
      }
      if (!nativePrefix) {
        return "it is a native method, and this JVM does not let the agent set the native method"
            + " prefix that would limit it";
      }
      return null;
    }
  }
}
