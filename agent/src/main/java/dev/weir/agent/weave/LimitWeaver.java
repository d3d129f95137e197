package dev.weir.agent.weave;

import static net.bytebuddy.matcher.ElementMatchers.hasDescriptor;
import static net.bytebuddy.matcher.ElementMatchers.hasMethodName;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.Discipline;
import dev.weir.agent.bootstrap.Limiter;
import dev.weir.agent.bootstrap.LimiterRegistry;
import dev.weir.agent.bootstrap.NanoClock;
import dev.weir.agent.bootstrap.RefusedLimiter;
import dev.weir.agent.config.LimitSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.annotation.AnnotationList;
import net.bytebuddy.description.annotation.AnnotationValue;
import net.bytebuddy.description.enumeration.EnumerationDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;

/**
 * Weaves a {@link LimitPrologue} into every method of a type that carries {@code @TokenBucket} or
 * {@code @LeakyBucket}, or that a config pattern names: reads the annotation from Byte Buddy's type
 * description (no application class is loaded), validates it with its {@code @LimitKey} and
 * fallback, registers the limiter, and binds its id and name into the prologue.
 *
 * <p>An invalid annotation is woven too, bound to a {@link RefusedLimiter}: every call then throws
 * {@link IllegalStateException} with the message logged here, naming class, method, attribute and
 * value. Bridge and synthetic methods are never woven (the compiler copies annotations onto bridge
 * methods); abstract and native methods have no body to weave and are reported.
 *
 * <p>Thread-safe: registration is synchronized in {@link LimiterRegistry}.
 */
final class LimitWeaver {
  static final String TOKEN_BUCKET = "dev.weir.TokenBucket";
  static final String LEAKY_BUCKET = "dev.weir.LeakyBucket";
  static final String LIMIT_KEY = "dev.weir.LimitKey";

  static final String RATE_LIMITED_EXCEPTION = "dev.weir.RateLimitedException";

  private final NanoClock clock;
  private final ConfigLimits config;

  /** For each limiter id: "keyed ORIGIN" or "single ORIGIN" of the first method bound to it. */
  private final ConcurrentHashMap<Integer, String> keyedByLimiter =
      new ConcurrentHashMap<Integer, String>();

  LimitWeaver(NanoClock clock, ConfigLimits config) {
    this.clock = clock;
    this.config = config;
  }

  /**
   * Adds the prologue to every limited method of the type.
   *
   * @param builder the type's builder
   * @param type the type, described from its class file
   * @param loader its class loader (null for the bootstrap loader)
   * @return the builder with the prologues, or the same builder if no method is limited
   */
  DynamicType.Builder<?> transform(
      DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader) {
    List<MethodDescription.InDefinedShape> limited =
        new ArrayList<MethodDescription.InDefinedShape>();
    Map<String, Integer> limitedPerName = new HashMap<String, Integer>();
    boolean usedByWeir = usedWhileLimiting(type.getName());
    for (MethodDescription.InDefinedShape method : type.getDeclaredMethods()) {
      if (method.isBridge() || method.isSynthetic()) {
        continue;
      }
      ConfigLimits.Entry entry =
          config.match(type.getName(), method.getInternalName(), parameterNames(method));
      if (entry != null && !method.isAbstract() && !method.isNative()) {
        String origin = type.getName() + "#" + method.getInternalName() + parameters(method);
        String source = "'" + entry.name + "' (config: " + entry.pattern + ")";
        entry.matched = true; // a refusal below is reported here, not again as unused
        if (usedByWeir) {
          AgentLog.error(
              "cannot limit "
                  + origin
                  + " as "
                  + source
                  + ": Weir calls "
                  + type.getName()
                  + " while it limits a call, so a limit there would call itself; it is left"
                  + " unlimited");
          continue;
        }
        if (carriesLimit(method)) {
          AgentLog.warn(
              origin
                  + " carries a limit annotation and matches "
                  + source
                  + ": the config limit applies and the annotation's is ignored (an entry"
                  + " without methods overrides an annotated limiter by name instead)");
        }
        if (AgentLog.debugEnabled()) {
          AgentLog.debug("limiting " + origin + " as " + source);
        }
        Binding binding = new Binding(entry.id, entry.name);
        binding.outermostOnly = true;
        if (entry.keyIndex >= method.getParameters().size()) {
          AgentLog.warn(
              origin
                  + " matches "
                  + source
                  + " but has no parameter "
                  + entry.keyIndex
                  + " to key by: its calls share one bucket of '"
                  + entry.name
                  + "'");
        } else {
          binding.keyIndex = entry.keyIndex;
        }
        builder = weave(builder, method, origin, binding);
        continue;
      }
      if (!carriesLimit(method)) {
        continue;
      }
      limited.add(method);
      Integer count = limitedPerName.get(method.getInternalName());
      limitedPerName.put(method.getInternalName(), count == null ? 1 : count + 1);
    }
    for (MethodDescription.InDefinedShape method : limited) {
      String origin = type.getName() + "#" + method.getInternalName() + parameters(method);
      if (method.isAbstract() || method.isNative()) {
        AgentLog.error(
            "cannot limit "
                + origin
                + (method.isNative()
                    ? ": a native method has no body to limit; limit the Java method that calls it"
                    : ": an abstract method has no body to limit; annotate its implementations"
                        + " instead"));
        continue;
      }
      String defaultName =
          type.getName()
              + "#"
              + method.getInternalName()
              + (limitedPerName.get(method.getInternalName()) > 1 ? parameters(method) : "");
      builder = weave(builder, method, origin, bind(method, origin, defaultName, loader));
    }
    return builder;
  }

  /** Adds the prologue to {@link WarmUp#run}, bound to no limiter: for warming up only. */
  DynamicType.Builder<?> warmUp(DynamicType.Builder<?> builder, TypeDescription warmUp) {
    for (MethodDescription.InDefinedShape method : warmUp.getDeclaredMethods()) {
      if (method.getInternalName().equals("run")) {
        builder = weave(builder, method, "warm-up", new Binding(-1, "warm-up"));
      }
    }
    return builder;
  }

  private DynamicType.Builder<?> weave(
      DynamicType.Builder<?> builder,
      MethodDescription.InDefinedShape method,
      String origin,
      Binding binding) {
    if (binding.id >= 0
        && !binding.outermostOnly // config patterns may mix methods with and without the key
        && !(LimiterRegistry.limiter(binding.id) instanceof RefusedLimiter)) {
      String conflict = keyedness(binding, origin);
      if (conflict != null) {
        binding = refuse(binding.name, origin, conflict);
      }
    }
    // matched by name and descriptor, which need no type resolution: a signature that names a
    // class the pool cannot find (an optional dependency, say) must not hide the method
    return builder.visit(
        new AsmVisitorWrapper.ForDeclaredMethods()
            .invokable(
                WeavePlan.expect(
                    origin,
                    hasMethodName(method.getInternalName())
                        .and(hasDescriptor(method.getDescriptor()))),
                new LimitPrologue(
                    binding.id,
                    binding.name,
                    binding.keyIndex,
                    binding.fallback,
                    binding.fallbackTakesException,
                    binding.outermostOnly)));
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
    String first = keyedByLimiter.putIfAbsent(binding.id, mine);
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

  /**
   * Whether Weir itself calls methods of this class while it limits a call: a limit there would
   * call itself without end.
   */
  static boolean usedWhileLimiting(String typeName) {
    String outer =
        typeName.indexOf('$') < 0 ? typeName : typeName.substring(0, typeName.indexOf('$'));
    return USED_WHILE_LIMITING.contains(outer)
        || (outer.startsWith("java.lang.")
            && outer.indexOf('.', "java.lang.".length()) < 0
            && outer.contains("Thread")) // Thread, ThreadLocal, VirtualThread, ...
        || outer.startsWith("java.lang.ref.") // what ThreadLocal's map reads
        || outer.startsWith("java.lang.reflect.")
        || outer.startsWith("java.util.concurrent.locks.")
        || outer.startsWith("java.util.concurrent.atomic.")
        || outer.startsWith("java.lang.invoke.")
        || outer.startsWith("jdk.internal.")
        || outer.startsWith("sun.misc.")
        || outer.startsWith("dev.weir.agent.")
        || (outer.startsWith("dev.weir.") && outer.indexOf('.', "dev.weir.".length()) < 0);
  }

  private static final Set<String> USED_WHILE_LIMITING =
      new HashSet<String>(
          Arrays.asList(
              "java.lang.Object",
              "java.lang.String",
              "java.lang.System",
              "java.lang.Thread",
              "java.lang.ThreadLocal",
              "java.lang.Throwable",
              "java.lang.Exception",
              "java.lang.RuntimeException",
              "java.lang.InterruptedException",
              "java.lang.Math",
              "java.lang.Integer",
              "java.lang.Long",
              "java.lang.Boolean",
              "java.lang.Character",
              "java.lang.Float",
              "java.lang.Double",
              "java.lang.Short",
              "java.lang.Byte",
              "java.util.Arrays",
              "java.util.concurrent.ConcurrentHashMap",
              "java.util.concurrent.CopyOnWriteArrayList",
              "java.util.concurrent.atomic.LongAdder",
              "java.lang.Class",
              "java.security.AccessController"));

  /** The limiter a method is bound to: a shared or new valid one, or a refusing one. */
  private Binding bind(
      MethodDescription.InDefinedShape method,
      String origin,
      String defaultName,
      ClassLoader loader) {
    AnnotationDescription token = annotation(method, TOKEN_BUCKET);
    AnnotationDescription leaky = annotation(method, LEAKY_BUCKET);
    String kind = token != null ? "@TokenBucket" : "@LeakyBucket";
    if (token != null && leaky != null) {
      return refuse(
          defaultName,
          origin,
          "invalid limit on "
              + origin
              + ": a method may carry only one of @TokenBucket and @LeakyBucket");
    }
    LimitSpec.Builder spec;
    try {
      spec = token != null ? readTokenBucket(token) : readLeakyBucket(leaky);
    } catch (RuntimeException e) {
      return refuse(
          defaultName,
          origin,
          "invalid " + kind + " on " + origin + ": cannot read it (" + e + ")");
    }
    String explicit = value(token != null ? token : leaky, "name", String.class);
    String limiterName = explicit.isEmpty() ? defaultName : explicit;
    List<String> methodProblems = new ArrayList<String>();
    int keyIndex = limitKey(method, methodProblems);
    Fallback fallback =
        fallback(
            method,
            value(token != null ? token : leaky, "fallback", String.class),
            origin,
            methodProblems);
    if (!methodProblems.isEmpty()) {
      return refuse(
          limiterName,
          origin,
          "invalid " + kind + " on " + origin + ": " + String.join("; ", methodProblems));
    }
    Integer overridden = config.overrideId(limiterName);
    if (overridden != null) {
      if (AgentLog.debugEnabled()) {
        AgentLog.debug(
            "limiting "
                + origin
                + " as '"
                + limiterName
                + "': the config file overrides its "
                + kind);
      }
      return new Binding(overridden, limiterName).with(keyIndex, fallback);
    }
    List<String> problems = spec.problems();
    if (!problems.isEmpty()) {
      return refuse(
          defaultName,
          origin,
          "invalid " + kind + " on " + origin + ": " + String.join("; ", problems));
    }
    LimitSpec valid = spec.build();
    boolean named = !valid.name().isEmpty();
    String name = named ? valid.name() : defaultName;
    Limiter candidate = valid.newLimiter(name, origin, clock);
    String key = named ? "name " + name : "loader " + LimiterRegistry.loaderId(loader) + " " + name;
    int id = LimiterRegistry.register(key, candidate);
    Limiter registered = LimiterRegistry.limiter(id);
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
              + "; methods sharing a name must agree on the settings");
    }
    if (AgentLog.debugEnabled()) {
      AgentLog.debug("limiting " + origin + " as '" + name + "': " + registered.settings());
    }
    return new Binding(id, name).with(keyIndex, fallback);
  }

  /** The index of the parameter carrying {@code @LimitKey}, or -1; more than one is a problem. */
  private static int limitKey(MethodDescription.InDefinedShape method, List<String> problems) {
    int keyIndex = -1;
    for (ParameterDescription.InDefinedShape parameter : method.getParameters()) {
      if (annotation(parameter.getDeclaredAnnotations(), LIMIT_KEY) != null) {
        if (keyIndex >= 0) {
          problems.add(
              "@LimitKey is on parameters "
                  + keyIndex
                  + " and "
                  + parameter.getIndex()
                  + "; one parameter may carry it");
          return -1;
        }
        keyIndex = parameter.getIndex();
      }
    }
    return keyIndex;
  }

  /**
   * Resolves and checks the fallback named {@code name}: a method of the same class with the same
   * parameters, optionally plus a trailing {@code RateLimitedException}, and the same return type;
   * static if the limited method is static.
   *
   * @return the fallback, or null if none is named or it is invalid (then a problem is added)
   */
  private static Fallback fallback(
      MethodDescription.InDefinedShape method, String name, String origin, List<String> problems) {
    if (name.isEmpty()) {
      return null;
    }
    TypeDescription type = method.getDeclaringType();
    List<String> parameters = parameterNames(method);
    List<String> withException = new ArrayList<String>(parameters);
    withException.add(RATE_LIMITED_EXCEPTION);
    String returns = method.getReturnType().asErasure().getActualName();
    String expected =
        "a method of "
            + type.getName()
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
    MethodDescription.InDefinedShape plain = null;
    MethodDescription.InDefinedShape taking = null;
    List<String> found = new ArrayList<String>();
    for (MethodDescription.InDefinedShape candidate : type.getDeclaredMethods()) {
      if (!candidate.getInternalName().equals(name) || candidate.isBridge()) {
        continue;
      }
      List<String> candidateParameters = parameterNames(candidate);
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
    MethodDescription.InDefinedShape chosen = plain != null ? plain : taking;
    if (chosen == null) {
      problems.add(
          "fallback '"
              + name
              + "' must be "
              + expected
              + (found.isEmpty() ? "; there is no method of that name" : "; found " + found));
      return null;
    }
    String signature = name + "(" + String.join(",", parameterNames(chosen)) + ")";
    if (chosen.equals(method)) {
      problems.add("fallback '" + name + "' is the limited method itself");
      return null;
    }
    String chosenReturns = chosen.getReturnType().asErasure().getActualName();
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

  private static Binding refuse(String name, String origin, String message) {
    AgentLog.error(message + " (every call of the method throws IllegalStateException)");
    return new Binding(LimiterRegistry.add(new RefusedLimiter(name, origin, message)), name);
  }

  private static LimitSpec.Builder readTokenBucket(AnnotationDescription a) {
    LimitSpec.Builder spec = LimitSpec.builder(Discipline.TOKEN_BUCKET);
    readShared(a, spec);
    spec.permits(value(a, "permits", Integer.class));
    return spec;
  }

  private static LimitSpec.Builder readLeakyBucket(AnnotationDescription a) {
    String mode = enumValue(a, "mode");
    LimitSpec.Builder spec =
        LimitSpec.builder(mode.equals("POLICING") ? Discipline.POLICING : Discipline.SHAPING);
    if (!mode.equals("POLICING") && !mode.equals("SHAPING")) {
      spec.problem("mode must be SHAPING or POLICING, was " + mode);
    }
    readShared(a, spec);
    return spec;
  }

  private static void readShared(AnnotationDescription a, LimitSpec.Builder spec) {
    spec.name(value(a, "name", String.class));
    spec.rate(value(a, "rate", Double.class));
    String per = enumValue(a, "per");
    try {
      spec.per(TimeUnit.valueOf(per));
    } catch (IllegalArgumentException e) {
      spec.problem("per must be a java.util.concurrent.TimeUnit, was " + per);
    }
    spec.capacity(value(a, "capacity", Long.class));
    String onLimit = enumValue(a, "onLimit");
    if (!onLimit.equals("REJECT") && !onLimit.equals("WAIT")) {
      spec.problem("onLimit must be REJECT or WAIT, was " + onLimit);
    }
    spec.waitOnLimit(onLimit.equals("WAIT"));
    spec.maxWaitMillis(value(a, "maxWaitMillis", Long.class));
  }

  private static <T> T value(AnnotationDescription a, String property, Class<T> type) {
    AnnotationValue<?, ?> value = a.getValue(property);
    return value.resolve(type);
  }

  private static String enumValue(AnnotationDescription a, String property) {
    return value(a, property, EnumerationDescription.class).getValue();
  }

  private static boolean carriesLimit(MethodDescription method) {
    return annotation(method, TOKEN_BUCKET) != null || annotation(method, LEAKY_BUCKET) != null;
  }

  private static AnnotationDescription annotation(MethodDescription method, String typeName) {
    return annotation(method.getDeclaredAnnotations(), typeName);
  }

  private static AnnotationDescription annotation(AnnotationList annotations, String typeName) {
    for (AnnotationDescription a : annotations) {
      if (a.getAnnotationType().getName().equals(typeName)) {
        return a;
      }
    }
    return null;
  }

  /** {@code (int,java.lang.String)}: the parameter types as Java source names. */
  static String parameters(MethodDescription method) {
    return "(" + String.join(",", parameterNames(method)) + ")";
  }

  /** The parameter types as Java source names, {@code int}, {@code java.lang.String[]}. */
  static List<String> parameterNames(MethodDescription method) {
    List<String> names = new ArrayList<String>();
    for (TypeDescription parameter : method.getParameters().asTypeList().asErasures()) {
      names.add(parameter.getActualName());
    }
    return names;
  }

  /** What a method's prologue is bound to. */
  private static final class Binding {
    final int id;
    final String name;
    int keyIndex = -1;
    MethodDescription.InDefinedShape fallback;
    boolean fallbackTakesException;

    /** Config patterns: only the outermost call of the limiter on a thread is charged. */
    boolean outermostOnly;

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
    final MethodDescription.InDefinedShape method;
    final boolean takesException;

    Fallback(MethodDescription.InDefinedShape method, boolean takesException) {
      this.method = method;
      this.takesException = takesException;
    }
  }
}
