package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.core.LimitRules;
import dev.weir.agent.bootstrap.core.NanoClock;
import dev.weir.agent.bootstrap.limit.Limiter;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.bootstrap.limit.RefusedLimiter;
import dev.weir.agent.config.LimitSpec;
import dev.weir.agent.control.KeyTypes;
import dev.weir.agent.control.Limiters;
import dev.weir.agent.weave.ClassModel.MethodModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds a method that carries {@code @TokenBucket} or {@code @LeakyBucket} (repeated or mixed) to
 * its limiters: reads the annotations ({@link AnnotationReader}), checks the {@code @LimitKey} and
 * the fallback ({@link FallbackResolver}), and registers the limiter in {@link LimiterRegistry},
 * shared by name. Methods sharing a name must agree on the settings and on being keyed; a method
 * that does not, or whose annotation is invalid, is bound to a {@link RefusedLimiter} whose message
 * is logged (see docs/annotations.md).
 *
 * <p>Thread-safe: registration is synchronized in {@link LimiterRegistry}, and what it notes of
 * each limiter's methods is in a concurrent map.
 */
final class AnnotationBinder {
  private final NanoClock clock;

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

  /**
   * A binder whose limiters read time from a clock.
   *
   * @param clock the clock of the limiters it makes
   */
  AnnotationBinder(NanoClock clock) {
    this.clock = clock;
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
   * The limiters a method's annotations bind it to: shared or new valid ones, one per annotation,
   * or a single refusing one.
   *
   * @param type the method's class
   * @param method the method; it carries a limit annotation
   * @param origin the method, as messages name it: {@code C#m(int)}
   * @param defaultName the limiter's name if the annotation names none
   * @param limits the config file's limits, which may override a limiter by name
   * @param loader the class's loader (null for the bootstrap loader)
   * @return the bindings, in the order written; a single {@link Binding#refused} one if the method
   *     is refused (any of its limits invalid: the method fails closed)
   */
  List<Binding> bindAll(
      ClassModel type,
      MethodModel method,
      String origin,
      String defaultName,
      ConfigLimits limits,
      ClassLoader loader) {
    List<AnnotationReader.Reading> reads = AnnotationReader.readAll(method, origin);
    for (AnnotationReader.Reading read : reads) {
      if (read.refusal != null) {
        return one(Binding.refuse(defaultName, origin, read.refusal, loader));
      }
    }
    AnnotationReader.Reading first = reads.get(0);
    List<String> methodProblems = new ArrayList<String>();
    int keyIndex = AnnotationReader.limitKey(method, methodProblems);
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
    for (AnnotationReader.Reading read : reads) {
      String warmKeyed = LimitRules.warmUpWithKey(read.spec.warmUpMillis(), keyIndex >= 0);
      if (warmKeyed != null) {
        methodProblems.add(
            "warmUpMillis " + warmKeyed + " (@LimitKey is on parameter " + keyIndex + ")");
      }
      if (read.spec.warmUpMillis() > 0 && reads.size() > 1) {
        methodProblems.add(
            "warmUpMillis is not supported on a method with several limits yet ('"
                + read.name
                + "')");
      }
    }
    String fallbackName = fallbackOf(reads, methodProblems);
    FallbackResolver.Fallback fallback =
        FallbackResolver.resolve(type, method, fallbackName, origin, methodProblems);
    if (!methodProblems.isEmpty()) {
      String name = first.name.isEmpty() ? defaultName : first.name;
      return one(Binding.refuse(name, origin, first.invalid(methodProblems), loader));
    }
    List<Binding> bindings = new ArrayList<Binding>(reads.size());
    for (AnnotationReader.Reading read : reads) {
      String limiterName = read.name.isEmpty() ? defaultName : read.name;
      Binding binding = register(read, limiterName, defaultName, limits, loader);
      if (binding.refused) {
        return one(binding);
      }
      overrideAndLog(read, binding, limits);
      if (keyVerdict == KeyTypes.Verdict.AT_RUN_TIME) {
        binding.keyedAtRunTime(keyIndex, method.parameterTypes[keyIndex], origin);
      }
      bindings.add(binding.with(keyIndex, fallback));
    }
    return bindings;
  }

  private static List<Binding> one(Binding binding) {
    List<Binding> list = new ArrayList<Binding>(1);
    list.add(binding);
    return list;
  }

  /**
   * The fallback the method's limits name: the same method on each that names one (SPEC), else a
   * problem.
   */
  private static String fallbackOf(List<AnnotationReader.Reading> reads, List<String> problems) {
    String fallback = "";
    String namedBy = null;
    for (AnnotationReader.Reading read : reads) {
      if (read.fallback.isEmpty()) {
        continue;
      }
      if (fallback.isEmpty()) {
        fallback = read.fallback;
        namedBy = read.name;
      } else if (!fallback.equals(read.fallback)) {
        problems.add(
            "fallback is '"
                + fallback
                + "' on '"
                + namedBy
                + "' and '"
                + read.fallback
                + "' on '"
                + read.name
                + "'; the limits of one method must name the same fallback");
        return "";
      }
    }
    return fallback;
  }

  /** Redirects the limiter to a config entry of its name, if the file has one, and logs it. */
  private static void overrideAndLog(
      AnnotationReader.Reading read, Binding binding, ConfigLimits limits) {
    Limiter override = limits.registered().override(binding.name, binding.id);
    if (!AgentLog.debugEnabled()) {
      return;
    }
    AgentLog.debug(
        "limiting "
            + read.origin
            + " as '"
            + binding.name
            + "': "
            + (override != null
                ? "the config file overrides its " + read.kind
                : LimiterRegistry.original(binding.id).settings()));
  }

  /**
   * Records whether the methods of a limiter are keyed, and refuses a method that disagrees with
   * the first: a name shared by a per-key method and a one-bucket method would silently be two
   * limits. Config patterns' limiters are not asked: their methods may mix keyed and not.
   *
   * @param binding the method's binding, to a limiter that is not a refusing one
   * @param origin the method, as messages name it: {@code C#m(int)}
   * @return the refusal message, or null if the method agrees
   */
  String keyedness(Binding binding, String origin) {
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

  /**
   * Registers the limiter of an annotation whose method passed its checks. Invalid values refuse
   * the method, unless the config file has a limit of its name: then the config limit takes its
   * calls while that entry lasts, and a refusing limiter stands behind it.
   *
   * @param read the method's annotation, read
   * @param limiterName the explicit name, else the default name
   * @param defaultName the name a refusal of the method goes by
   * @param limits the config file's limits
   * @param loader the method's class loader (null for the bootstrap loader)
   * @return the binding (its keyed-ness and fallback not set yet), or a refusal
   */
  private Binding register(
      AnnotationReader.Reading read,
      String limiterName,
      String defaultName,
      ConfigLimits limits,
      ClassLoader loader) {
    List<String> problems = read.spec.problems();
    if (problems.isEmpty()) {
      return registerValid(read, read.spec.build(), defaultName, loader);
    }
    String message = read.invalid(problems);
    if (!limits.registered().names(limiterName)) {
      return Binding.refuse(defaultName, read.origin, message, loader);
    }
    AgentLog.warn(
        message
            + "; the config file's '"
            + limiterName
            + "' overrides it (should that entry go, every call of the method throws"
            + " IllegalStateException)");
    return new Binding(
        LimiterRegistry.add(new RefusedLimiter(limiterName, read.origin, message), loader),
        limiterName);
  }

  /**
   * Registers a valid annotation's limiter: a named one is shared by every method of its name, in
   * any loader; an unnamed one is its loader's. A method whose settings disagree with those of the
   * limiter of its name is refused.
   */
  private Binding registerValid(
      AnnotationReader.Reading read, LimitSpec valid, String defaultName, ClassLoader loader) {
    boolean named = !valid.name().isEmpty();
    String name = named ? valid.name() : defaultName;
    Limiter candidate = Limiters.newLimiter(valid, name, read.origin, clock, false, null);
    String key =
        named ? "annotation " + name : "loader " + LimiterRegistry.loaderId(loader) + " " + name;
    int id = LimiterRegistry.register(key, candidate, named ? null : loader);
    Limiter registered = LimiterRegistry.original(id);
    if (registered != candidate && !registered.settings().equals(candidate.settings())) {
      return Binding.refuse(
          name,
          read.origin,
          read.invalid(
              Collections.singletonList(
                  "name '"
                      + name
                      + "' is already used by "
                      + registered.origin()
                      + " with "
                      + registered.settings()
                      + ", and this method asks for "
                      + candidate.settings()
                      + "; methods sharing a name must agree on the settings")),
          loader);
    }
    return new Binding(id, name);
  }
}
