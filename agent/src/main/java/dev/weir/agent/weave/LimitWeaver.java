package dev.weir.agent.weave;

import dev.weir.LeakyBucket;
import dev.weir.OnLimit;
import dev.weir.TokenBucket;
import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.bootstrap.limit.RefusedLimiter;
import dev.weir.agent.config.LimitSpec;
import dev.weir.agent.control.KeyTypes;
import dev.weir.agent.control.Limiters;
import dev.weir.agent.weave.ClassModel.EnumValue;
import dev.weir.agent.weave.ClassModel.MethodModel;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Weaves a {@link LimitPrologue} into every method of a type that carries {@code @TokenBucket} or
 * {@code @LeakyBucket}, or that a config pattern names: reads the annotation from the class file's
 * {@link ClassModel} (no application class is loaded), completes it with the annotation type's
 * defaults, validates it with its {@code @LimitKey} and fallback, registers the limiter, and binds
 * its id and name into the prologue.
 *
 * <p>An invalid annotation is woven too, bound to a {@link RefusedLimiter}: every call then throws
 * {@link IllegalStateException} with the message logged here, naming class, method, attribute and
 * value. Bridge and synthetic methods are never woven (the compiler copies annotations onto bridge
 * methods); abstract and native methods have no body to weave and are reported.
 *
 * <p>Thread-safe: registration is synchronized in {@link LimiterRegistry}.
 */
final class LimitWeaver {
  static final String RATE_LIMITED_EXCEPTION = "dev.weir.RateLimitedException";

  /**
   * The defaults of the annotation types, as the agent's own {@code dev.weir} API declares them.
   */
  private static final Map<String, Object> TOKEN_BUCKET_DEFAULTS = defaults(TokenBucket.class);

  private static final Map<String, Object> LEAKY_BUCKET_DEFAULTS = defaults(LeakyBucket.class);

  /** The attributes the agent's annotation types declare. */
  private static final Set<String> TOKEN_BUCKET_ATTRIBUTES = attributes(TokenBucket.class);

  private static final Set<String> LEAKY_BUCKET_ATTRIBUTES = attributes(LeakyBucket.class);

  private final NanoClock clock;

  /** The config file's limits: replaced by a reload. */
  private volatile ConfigLimits config;

  /**
   * For each limiter id: the limiter, and "keyed ORIGIN" or "single ORIGIN" of the first method
   * bound to it. The limiter is kept beside the note because ids are reused: a redeploy may bind a
   * new limiter to a freed id before {@link #forget} hears of the old one, and must not be judged
   * by the old one's methods.
   */
  private final ConcurrentHashMap<Integer, Noted> keyedByLimiter =
      new ConcurrentHashMap<Integer, Noted>();

  /** Whether the first method bound to a limiter is keyed, and which method that was. */
  private static final class Noted {
    final Limiter limiter;
    final String mine;

    Noted(Limiter limiter, String mine) {
      this.limiter = limiter;
      this.mine = mine;
    }
  }

  LimitWeaver(NanoClock clock, ConfigLimits config) {
    this.clock = clock;
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
    for (Integer id : limiterIds) {
      Noted noted = keyedByLimiter.get(id);
      if (noted != null && !LimiterRegistry.isOriginal(id, noted.limiter)) {
        keyedByLimiter.remove(id, noted); // a limiter bound since then keeps its note
      }
    }
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
    List<MethodModel> limited = new ArrayList<MethodModel>();
    Map<String, Integer> limitedPerName = new HashMap<String, Integer>();
    config.inheritUpwards(type.internalName, type.superName, type.interfaces);
    for (MethodModel method : type.methods) {
      boolean bridge = method.is(Opcodes.ACC_BRIDGE);
      if (method.is(Opcodes.ACC_SYNTHETIC) && !bridge) {
        continue; // a lambda's body, an accessor: no method a user calls
      }
      ConfigLimits.Entry entry =
          config.match(type.name, method.name, method.parameterNames(), loader);
      if (bridge && entry == null) {
        continue; // annotations never weave a bridge (the compiler copies them onto it)
      }
      if (entry != null) {
        // a bridge of a config limit is woven too: a generic subtype's bridge calls the inherited
        // implementation with invokespecial, past any override; nested calls pass free
        config.shadowed(
            entry, type.name, method.name, method.parameterNames(), loader, type.origin(method));
      }
      if (entry == null && inheritable(method)) {
        // an implementation this class supplies to subtypes of a Type+ pattern's type that it is
        // not itself one of: limited here, for instances of that type only
        ConfigLimits.InheritedMatch inherited =
            config.matchInherited(type.internalName, method.name, method.parameterNames());
        if (inherited != null && !bridge) {
          planInheritedInPlace(plan, type, method, inherited, loader, placement);
          continue;
        }
      }
      if (entry != null && !method.is(Opcodes.ACC_ABSTRACT)) {
        String origin = type.origin(method);
        if (refusedForConfig(entry, type, method, origin, placement)) {
          continue;
        }
        if (method.carriesLimit()) {
          AgentLog.warn(
              origin
                  + " carries a limit annotation and matches "
                  + source(entry)
                  + ": the config limit applies and the annotation's is ignored (an entry"
                  + " without methods overrides an annotated limiter by name instead)");
        }
        if (AgentLog.debugEnabled()) {
          AgentLog.debug("limiting " + origin + " as " + source(entry));
        }
        weave(plan, type, method, origin, configBinding(entry, method, origin, loader));
        plan.covers(method.key(), entry.id, origin);
        continue;
      }
      if (!method.carriesLimit()) {
        continue;
      }
      limited.add(method);
      Integer count = limitedPerName.get(method.name);
      limitedPerName.put(method.name, count == null ? 1 : count + 1);
    }
    for (MethodModel method : limited) {
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
              + (limitedPerName.get(method.name) > 1 ? method.parameterList() : "");
      if (cannotWrap != null) {
        plan.failClosed(method.key(), origin, cannotWrap);
      }
      Binding binding =
          weave(plan, type, method, origin, bind(type, method, origin, defaultName, loader));
      plan.covers(method.key(), binding.id, origin);
    }
    if (!type.isInterface()) {
      List<ConfigLimits.Entry> families = config.familiesOf(type.name, loader);
      if (!families.isEmpty()) {
        planInherited(plan, type, loader, placement, families);
      }
    }
    return plan;
  }

  private static String source(ConfigLimits.Entry entry) {
    return "'" + entry.name + "' (config: " + entry.pattern + ")";
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
   * The binding of a method a config entry limits: only the outermost call of the limit on a thread
   * is charged; keyed by the entry's parameter if the method has it.
   */
  private Binding configBinding(
      ConfigLimits.Entry entry, MethodModel method, String origin, ClassLoader loader) {
    Binding binding = new Binding(entry.id, entry.name);
    binding.outermostOnly = true;
    if (entry.keyIndex >= method.parameterTypes.length) {
      AgentLog.warn(
          origin
              + " matches "
              + source(entry)
              + " but has no parameter "
              + entry.keyIndex
              + " to key by: its calls share one bucket of '"
              + entry.name
              + "'");
    } else if (entry.keyIndex >= 0) {
      binding.keyIndex = entry.keyIndex;
      Type keyType = method.parameterTypes[entry.keyIndex];
      KeyTypes.Verdict verdict = KeyTypes.judge(keyType, loader);
      if (verdict == KeyTypes.Verdict.IDENTITY) {
        binding =
            refuse(
                entry.name,
                origin,
                entry.origin
                    + ": cannot limit "
                    + origin
                    + " as "
                    + source(entry)
                    + ": its key, parameter "
                    + entry.keyIndex
                    + ", is "
                    + KeyTypes.identityProblem(keyType),
                loader);
      } else if (verdict == KeyTypes.Verdict.AT_RUN_TIME) {
        keyedAtRunTime(entry.id, entry.keyIndex, keyType, origin);
      }
    }
    return binding;
  }

  /**
   * Plans the prologue of an implementation that this class supplies to subtypes of a {@code Type+}
   * pattern's type without being one: a call is charged only when {@code this} is an instance of
   * the type.
   */
  private void planInheritedInPlace(
      Plan plan,
      ClassModel type,
      MethodModel method,
      ConfigLimits.InheritedMatch inherited,
      ClassLoader loader,
      Placement placement) {
    ConfigLimits.Entry entry = inherited.entry;
    String origin = type.origin(method);
    if (refusedForConfig(entry, type, method, origin, placement)) {
      return;
    }
    if (method.carriesLimit()) {
      // its own annotation limits every call of it; one method takes one limit in this version
      entry.refuse(
          origin + " for " + inherited.typeName + " instances",
          "it carries a limit annotation of its own, which applies to every call of it");
      return;
    }
    if (AgentLog.debugEnabled()) {
      AgentLog.debug(
          "limiting "
              + origin
              + " as "
              + source(entry)
              + ", for "
              + inherited.typeName
              + " instances");
    }
    Binding binding = configBinding(entry, method, origin, loader);
    if (!binding.outermostOnly) {
      return; // refused (its key cannot be one), logged: never fail closed for other instances
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
        if (plan.prologues.containsKey(key)
            || plan.overrides.containsKey(key)
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
        if (!inherited.fromInterface
            && !method.is(Opcodes.ACC_FINAL)
            && (method.is(Opcodes.ACC_PUBLIC) || method.is(Opcodes.ACC_PROTECTED))
            && !method.carriesLimit()
            && placement.canAdd(key)
            && (placement.overriddenAtLoad.containsKey(key)
                || loadedNames.mayBeLoaded(loader, from.internalName))) {
          MethodModel override =
              new MethodModel(
                  method.access
                      & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED | Opcodes.ACC_VARARGS),
                  method.name,
                  method.descriptor);
          override.exceptions = method.exceptions;
          Binding binding = configBinding(entry, override, origin, loader);
          plan.overrides.put(key, new AddedOverride(override, prologue(type, override, binding)));
          plan.covers(key, entry.id, origin);
          if (AgentLog.debugEnabled()) {
            AgentLog.debug("limiting " + origin + " as " + source(entry) + ", by an override");
          }
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
        && !binding.outermostOnly // config patterns may mix methods with and without the key
        && !(LimiterRegistry.limiter(binding.id) instanceof RefusedLimiter)) {
      String conflict = keyedness(binding, origin);
      if (conflict != null) {
        binding = refuse(binding.name, origin, conflict, plan.loader);
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
        binding.outermostOnly ? binding.onlyForInstancesOf : null);
  }

  /**
   * Records whether the methods of a limiter are keyed, and refuses a method that disagrees with
   * the first: a name shared by a per-key method and a one-bucket method would silently be two
   * limits.
   *
   * @return the refusal message, or null if the method agrees
   */
  private String keyedness(Binding binding, String origin) {
    String mine = (binding.keyIndex >= 0 ? "keyed " : "single ") + origin;
    Limiter limiter = LimiterRegistry.original(binding.id);
    Noted fresh = new Noted(limiter, mine);
    Noted noted;
    while (true) {
      noted = keyedByLimiter.putIfAbsent(binding.id, fresh);
      if (noted == null || noted.limiter == limiter) {
        break;
      }
      keyedByLimiter.remove(binding.id, noted); // a dropped limiter's, whose id was reused
    }
    String first = noted == null ? null : noted.mine;
    if (first == null || first.charAt(0) == mine.charAt(0)) {
      return null;
    }
    boolean firstKeyed = first.startsWith("keyed ");
    return "invalid limit on "
        + origin
        + ": name '"
        + binding.name
        + "' is already used by "
        + first.substring(first.indexOf(' ') + 1)
        + (firstKeyed ? " with one bucket per key" : " with one bucket")
        + ", and this method asks for "
        + (firstKeyed ? "one bucket" : "one bucket per key")
        + "; methods sharing a name must agree on the key";
  }

  /** The limiter a method is bound to: a shared or new valid one, or a refusing one. */
  private Binding bind(
      ClassModel type, MethodModel method, String origin, String defaultName, ClassLoader loader) {
    Map<String, Object> token = method.tokenBucket;
    Map<String, Object> leaky = method.leakyBucket;
    String kind = token != null ? "@TokenBucket" : "@LeakyBucket";
    if (token != null && leaky != null) {
      return refuse(
          defaultName,
          origin,
          "invalid limit on "
              + origin
              + ": a method may carry only one of @TokenBucket and @LeakyBucket",
          loader);
    }
    LimitSpec.Builder spec;
    String explicit;
    String fallbackName;
    try {
      spec = token != null ? readTokenBucket(token) : readLeakyBucket(leaky);
      explicit =
          token != null
              ? string(token, TOKEN_BUCKET_DEFAULTS, "name")
              : string(leaky, LEAKY_BUCKET_DEFAULTS, "name");
      fallbackName =
          token != null
              ? string(token, TOKEN_BUCKET_DEFAULTS, "fallback")
              : string(leaky, LEAKY_BUCKET_DEFAULTS, "fallback");
    } catch (IllegalArgumentException e) {
      return refuse(
          defaultName,
          origin,
          "invalid " + kind + " on " + origin + ": cannot read it (" + e.getMessage() + ")",
          loader);
    }
    String limiterName = explicit.isEmpty() ? defaultName : explicit;
    List<String> methodProblems = new ArrayList<String>();
    int keyIndex = limitKey(method, methodProblems);
    KeyTypes.Verdict keyVerdict =
        keyIndex < 0
            ? KeyTypes.Verdict.FINE
            : KeyTypes.judge(method.parameterTypes[keyIndex], loader);
    if (keyVerdict == KeyTypes.Verdict.IDENTITY) {
      methodProblems.add(
          "@LimitKey is on parameter "
              + keyIndex
              + ", "
              + KeyTypes.identityProblem(method.parameterTypes[keyIndex]));
    }
    Fallback fallback = fallback(type, method, fallbackName, origin, methodProblems);
    if (!methodProblems.isEmpty()) {
      return refuse(
          limiterName,
          origin,
          "invalid " + kind + " on " + origin + ": " + String.join("; ", methodProblems),
          loader);
    }
    ConfigLimits limits = config;
    List<String> problems = spec.problems();
    int id;
    String name;
    if (!problems.isEmpty()) {
      String message = "invalid " + kind + " on " + origin + ": " + String.join("; ", problems);
      if (!limits.registered().names(limiterName)) {
        return refuse(defaultName, origin, message, loader);
      }
      // the config file overrides it: its calls go to the config limit while that entry lasts
      AgentLog.warn(
          message
              + "; the config file's '"
              + limiterName
              + "' overrides it (should that entry go, every call of the method throws"
              + " IllegalStateException)");
      name = limiterName;
      id = LimiterRegistry.add(new RefusedLimiter(name, origin, message), loader);
    } else {
      LimitSpec valid = spec.build();
      boolean named = !valid.name().isEmpty();
      name = named ? valid.name() : defaultName;
      Limiter candidate = Limiters.newLimiter(valid, name, origin, clock, false, null);
      String key =
          named ? "annotation " + name : "loader " + LimiterRegistry.loaderId(loader) + " " + name;
      id = LimiterRegistry.register(key, candidate, named ? null : loader);
      Limiter registered = LimiterRegistry.original(id);
      if (registered != candidate && !registered.settings().equals(candidate.settings())) {
        return refuse(
            name,
            origin,
            "invalid "
                + kind
                + " on "
                + origin
                + ": name '"
                + name
                + "' is already used by "
                + registered.origin()
                + " with "
                + registered.settings()
                + ", and this method asks for "
                + candidate.settings()
                + "; methods sharing a name must agree on the settings",
            loader);
      }
    }
    Limiter override = limits.registered().override(name, id);
    if (AgentLog.debugEnabled()) {
      AgentLog.debug(
          "limiting "
              + origin
              + " as '"
              + name
              + "': "
              + (override != null
                  ? "the config file overrides its " + kind
                  : LimiterRegistry.original(id).settings()));
    }
    if (keyVerdict == KeyTypes.Verdict.AT_RUN_TIME) {
      keyedAtRunTime(id, keyIndex, method.parameterTypes[keyIndex], origin);
    }
    return new Binding(id, name).with(keyIndex, fallback);
  }

  /**
   * Tells the limiter that keys from this parameter cannot be judged by their type (an interface,
   * an abstract class, {@code Object}): it warns once if a key looks like an identity string.
   */
  private static void keyedAtRunTime(int limiterId, int keyIndex, Type keyType, String origin) {
    String source = "parameter " + keyIndex + " (" + keyType.getClassName() + ") of " + origin;
    LimiterRegistry.original(limiterId).keysMayBeIdentities(source);
    LimiterRegistry.limiter(limiterId).keysMayBeIdentities(source); // an override's, if any
  }

  /** The index of the parameter carrying {@code @LimitKey}, or -1; more than one is a problem. */
  private static int limitKey(MethodModel method, List<String> problems) {
    List<Integer> keys = method.limitKeys;
    if (!keys.isEmpty() && method.unmappedParameters != null) {
      problems.add(
          "@LimitKey cannot be matched to a parameter: "
              + method.unmappedParameters
              + "; put the limit on a method instead");
      return -1;
    }
    if (keys.size() > 1) {
      problems.add(
          "@LimitKey is on parameters "
              + keys.get(0)
              + " and "
              + keys.get(1)
              + "; one parameter may carry it");
      return -1;
    }
    return keys.isEmpty() ? -1 : keys.get(0);
  }

  /**
   * Resolves and checks the fallback named {@code name}: a method of the same class with the same
   * parameters, optionally plus a trailing {@code RateLimitedException}, and the same return type;
   * static if the limited method is static.
   *
   * @return the fallback, or null if none is named or it is invalid (then a problem is added)
   */
  private static Fallback fallback(
      ClassModel type, MethodModel method, String name, String origin, List<String> problems) {
    if (name.isEmpty()) {
      return null;
    }
    List<String> parameters = method.parameterNames();
    List<String> withException = new ArrayList<String>(parameters);
    withException.add(RATE_LIMITED_EXCEPTION);
    String returns = method.returnType.getClassName();
    String expected =
        "a method of "
            + type.name
            + " named '"
            + name
            + "' taking ("
            + String.join(",", parameters)
            + ") or ("
            + String.join(",", withException)
            + ") and returning "
            + returns;
    if (method.isConstructor()) {
      problems.add(
          "fallback '"
              + name
              + "' is not allowed on a constructor, which cannot return another object");
      return null;
    }
    MethodModel plain = null;
    MethodModel taking = null;
    List<String> found = new ArrayList<String>();
    for (MethodModel candidate : type.methods) {
      if (!candidate.name.equals(name) || candidate.is(Opcodes.ACC_BRIDGE)) {
        continue;
      }
      List<String> candidateParameters = candidate.parameterNames();
      found.add(name + "(" + String.join(",", candidateParameters) + ")");
      if (candidateParameters.equals(parameters)) {
        plain = candidate;
      } else if (candidateParameters.equals(withException)) {
        taking = candidate;
      }
    }
    if (plain != null && taking != null) {
      problems.add(
          "fallback '"
              + name
              + "' is ambiguous: both "
              + name
              + "("
              + String.join(",", parameters)
              + ") and "
              + name
              + "("
              + String.join(",", withException)
              + ") exist; keep one");
      return null;
    }
    MethodModel chosen = plain != null ? plain : taking;
    if (chosen == null) {
      problems.add(
          "fallback '"
              + name
              + "' must be "
              + expected
              + (found.isEmpty() ? "; there is no method of that name" : "; found " + found));
      return null;
    }
    String signature = name + chosen.parameterList();
    if (chosen == method) {
      problems.add("fallback '" + name + "' is the limited method itself");
      return null;
    }
    String chosenReturns = chosen.returnType.getClassName();
    if (!chosenReturns.equals(returns)) {
      problems.add(
          "fallback "
              + signature
              + " returns "
              + chosenReturns
              + ", but "
              + origin
              + " returns "
              + returns
              + "; they must return the same type");
      return null;
    }
    if (method.isStatic() && !chosen.isStatic()) {
      problems.add("fallback " + signature + " must be static, as " + origin + " is");
      return null;
    }
    return new Fallback(chosen, chosen == taking);
  }

  private static Binding refuse(String name, String origin, String message, ClassLoader loader) {
    AgentLog.error(message + " (every call of the method throws IllegalStateException)");
    return new Binding(
        LimiterRegistry.add(new RefusedLimiter(name, origin, message), loader), name);
  }

  private static LimitSpec.Builder readTokenBucket(Map<String, Object> a) {
    knownAttributes(a, TOKEN_BUCKET_ATTRIBUTES, "@TokenBucket");
    LimitSpec.Builder spec = LimitSpec.builder(Discipline.TOKEN_BUCKET);
    readShared(a, TOKEN_BUCKET_DEFAULTS, spec);
    spec.permits(value(a, TOKEN_BUCKET_DEFAULTS, "permits", Integer.class));
    return spec;
  }

  private static LimitSpec.Builder readLeakyBucket(Map<String, Object> a) {
    knownAttributes(a, LEAKY_BUCKET_ATTRIBUTES, "@LeakyBucket");
    String mode = enumValue(a, LEAKY_BUCKET_DEFAULTS, "mode", LeakyBucket.Mode.class);
    LimitSpec.Builder spec =
        LimitSpec.builder(mode.equals("POLICING") ? Discipline.POLICING : Discipline.SHAPING);
    if (!mode.equals("POLICING") && !mode.equals("SHAPING")) {
      spec.problem("mode must be SHAPING or POLICING, was " + mode);
    }
    readShared(a, LEAKY_BUCKET_DEFAULTS, spec);
    return spec;
  }

  private static void readShared(
      Map<String, Object> a, Map<String, Object> defaults, LimitSpec.Builder spec) {
    spec.name(string(a, defaults, "name"));
    spec.rate(value(a, defaults, "rate", Double.class));
    String per = enumValue(a, defaults, "per", TimeUnit.class);
    try {
      spec.per(TimeUnit.valueOf(per));
    } catch (IllegalArgumentException e) {
      spec.problem("per must be a java.util.concurrent.TimeUnit, was " + per);
    }
    spec.capacity(value(a, defaults, "capacity", Long.class));
    String onLimit = enumValue(a, defaults, "onLimit", OnLimit.class);
    if (!onLimit.equals("REJECT") && !onLimit.equals("WAIT")) {
      spec.problem("onLimit must be REJECT or WAIT, was " + onLimit);
    }
    spec.waitOnLimit(onLimit.equals("WAIT"));
    spec.maxWaitMillis(value(a, defaults, "maxWaitMillis", Long.class));
  }

  /**
   * An attribute's value: as written in the class file, else the annotation type's default.
   *
   * @throws IllegalArgumentException if there is neither, or the value has another type (a class
   *     compiled against another version of the annotation)
   */
  private static <T> T value(
      Map<String, Object> written, Map<String, Object> defaults, String name, Class<T> type) {
    Object value = written.containsKey(name) ? written.get(name) : defaults.get(name);
    if (value == null) {
      throw new IllegalArgumentException(name + " has no value and no default");
    }
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException(
          name + " is " + describe(value) + ", expected a " + type.getSimpleName());
    }
    return type.cast(value);
  }

  /** A value read from a class file, with its type: {@code 5 (Integer)}, {@code "5" (String)}. */
  private static String describe(Object value) {
    if (value instanceof String) {
      return "\"" + value + "\" (String)";
    }
    if (value instanceof EnumValue) {
      return value + " (enum constant)";
    }
    if (value.getClass().isArray()) {
      return "an array";
    }
    if (value instanceof Type) {
      return "an annotation";
    }
    return value + " (" + value.getClass().getSimpleName() + ")";
  }

  /**
   * Refuses an attribute the agent's annotation type does not declare: a class compiled against
   * another version of {@code weir-annotations}, whose meaning the agent cannot know.
   */
  private static void knownAttributes(
      Map<String, Object> written, Set<String> declared, String annotation) {
    for (String name : written.keySet()) {
      if (!declared.contains(name)) {
        throw new IllegalArgumentException(
            "it has an attribute "
                + name
                + " that this agent's "
                + annotation
                + " does not declare (compiled against another version of weir-annotations?)");
      }
    }
  }

  private static String string(
      Map<String, Object> written, Map<String, Object> defaults, String name) {
    return value(written, defaults, name, String.class);
  }

  /** An enum attribute's constant name; the constant must be one of {@code type}. */
  private static String enumValue(
      Map<String, Object> written, Map<String, Object> defaults, String name, Class<?> type) {
    Object value = value(written, defaults, name, Object.class);
    if (value instanceof EnumValue
        && Type.getType(((EnumValue) value).typeDescriptor).getClassName().equals(type.getName())) {
      return ((EnumValue) value).constant;
    }
    if (type.isInstance(value)) { // the default
      return ((Enum<?>) value).name();
    }
    throw new IllegalArgumentException(
        name + " is " + describe(value) + ", expected a constant of " + type.getName());
  }

  private static Set<String> attributes(Class<? extends Annotation> type) {
    Set<String> names = new HashSet<String>();
    for (Method attribute : type.getDeclaredMethods()) {
      names.add(attribute.getName());
    }
    return Collections.unmodifiableSet(names);
  }

  /** The default of each attribute that has one; an enum default as its {@link Enum}. */
  private static Map<String, Object> defaults(Class<? extends Annotation> type) {
    Map<String, Object> defaults = new HashMap<String, Object>();
    for (Method attribute : type.getDeclaredMethods()) {
      Object value = attribute.getDefaultValue();
      if (value != null) {
        defaults.put(attribute.getName(), value);
      }
    }
    return Collections.unmodifiableMap(defaults);
  }

  /** What a method's prologue is bound to. */
  private static final class Binding {
    final int id;
    final String name;
    int keyIndex = -1;
    MethodModel fallback;
    boolean fallbackTakesException;

    /** Config patterns: only the outermost call of the limiter on a thread is charged. */
    boolean outermostOnly;

    /**
     * An implementation inherited by a {@code Type+} pattern's subtypes: the type's binary name,
     * whose instances alone are charged; null for every call.
     */
    String onlyForInstancesOf;

    Binding(int id, String name) {
      this.id = id;
      this.name = name;
    }

    Binding with(int keyIndex, Fallback fallback) {
      this.keyIndex = keyIndex;
      if (fallback != null) {
        this.fallback = fallback.method;
        this.fallbackTakesException = fallback.takesException;
      }
      return this;
    }
  }

  /** A resolved fallback method. */
  private static final class Fallback {
    final MethodModel method;
    final boolean takesException;

    Fallback(MethodModel method, boolean takesException) {
      this.method = method;
      this.takesException = takesException;
    }
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
      covered.add(new Covered(key, limiterId, method));
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

    Covered(String key, int limiterId, String method) {
      this.key = key;
      this.limiterId = limiterId;
      this.method = method;
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
