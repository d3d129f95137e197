package dev.weir.agent.weave;

import dev.weir.LeakyBucket;
import dev.weir.OnLimit;
import dev.weir.TokenBucket;
import dev.weir.agent.bootstrap.AgentInitializer;
import dev.weir.agent.bootstrap.core.Discipline;
import dev.weir.agent.config.LimitSpec;
import dev.weir.agent.weave.ClassModel.EnumValue;
import dev.weir.agent.weave.ClassModel.MethodModel;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.jar.asm.Type;

/**
 * Reads a method's limit annotations as its class file wrote them ({@link MethodModel#limits},
 * {@link MethodModel#limitKeys}), each into a {@link LimitSpec.Builder}, completing the values with
 * the annotation type's defaults as the agent's own {@code dev.weir} API declares them. No
 * application class is loaded.
 *
 * <p>What the reader can tell from the annotation alone, it says in the annotation's terms: a value
 * of the wrong type or an attribute this agent does not know makes the annotation unreadable
 * ({@code invalid @TokenBucket on C#m(): cannot read it (...)}); an enum constant outside its
 * type's is a problem of the spec. The rules of the values themselves (rate, capacity, permits,
 * maxWaitMillis) are {@link LimitSpec.Builder}'s.
 *
 * <p>Stateless and thread-safe.
 */
final class AnnotationReader {
  /**
   * The defaults of the annotation types, as the agent's own {@code dev.weir} API declares them.
   */
  private static final Map<String, Object> TOKEN_BUCKET_DEFAULTS = defaults(TokenBucket.class);

  private static final Map<String, Object> LEAKY_BUCKET_DEFAULTS = defaults(LeakyBucket.class);

  /** The attributes the agent's annotation types declare. */
  private static final Set<String> TOKEN_BUCKET_ATTRIBUTES = attributes(TokenBucket.class);

  private static final Set<String> LEAKY_BUCKET_ATTRIBUTES = attributes(LeakyBucket.class);

  private AnnotationReader() {}

  /** What a method's limit annotation says, or why it cannot be read. Immutable once read. */
  static final class Reading {
    /** The annotation as messages name it: {@code @TokenBucket} or {@code @LeakyBucket}. */
    final String kind;

    /** The method, as messages name it: {@code C#m(int)}. */
    final String origin;

    /** The limit's values and their problems; null if the annotation cannot be read. */
    final LimitSpec.Builder spec;

    /** The explicit name; empty for the default name (or if the annotation cannot be read). */
    final String name;

    /** The name of the fallback method; empty for none (or if the annotation cannot be read). */
    final String fallback;

    /** Why the method is refused before any of its values count, or null if it was read. */
    final String refusal;

    private Reading(
        String kind,
        String origin,
        LimitSpec.Builder spec,
        String name,
        String fallback,
        String refusal) {
      this.kind = kind;
      this.origin = origin;
      this.spec = spec;
      this.name = name;
      this.fallback = fallback;
      this.refusal = refusal;
    }

    /**
     * The message refusing the annotation for these problems.
     *
     * @param problems what is wrong, each in the form {@code attribute must be RULE, was VALUE}
     * @return {@code invalid @TokenBucket on C#m(): problem; problem}
     */
    String invalid(List<String> problems) {
      return "invalid " + kind + " on " + origin + ": " + String.join("; ", problems);
    }
  }

  /**
   * Reads the method's limit annotations ({@code @TokenBucket}, {@code @LeakyBucket}, repeated or
   * mixed); the method must carry one ({@link MethodModel#carriesLimit()}).
   *
   * @param method the method
   * @param origin the method, as messages name it: {@code C#m(int)}
   * @return one reading per annotation, in the order written; a single refusal instead if the
   *     method carries an annotation of package {@code dev.weir} this agent does not know, or
   *     several limits of which one has no name
   */
  static List<Reading> readAll(MethodModel method, String origin) {
    if (method.unknownApi != null) {
      String type = method.unknownApi.substring(1, method.unknownApi.length() - 1);
      return Collections.singletonList(
          refused(
              "@" + type.substring(type.lastIndexOf('/') + 1),
              origin,
              "cannot limit "
                  + origin
                  + ": it carries @"
                  + type.replace('/', '.')
                  + ", which this Weir agent ("
                  + AgentInitializer.version()
                  + ") does not know: the application's weir-annotations jar is newer than the"
                  + " agent; run an agent at least as new as that jar"));
    }
    List<Reading> readings = new ArrayList<Reading>(method.limits.size());
    for (ClassModel.LimitAnnotation a : method.limits) {
      Reading reading = read(a, origin);
      if (method.limits.size() > 1 && reading.refusal == null && reading.name.isEmpty()) {
        return Collections.singletonList(
            refused(
                a.kind(),
                origin,
                "invalid limit on "
                    + origin
                    + ": it carries "
                    + method.limits.size()
                    + " limits, and a method with more than one names each; give this "
                    + a.kind()
                    + " a name"));
      }
      readings.add(reading);
    }
    return readings;
  }

  /**
   * Reads one limit annotation.
   *
   * @param a the annotation as the class file wrote it
   * @param origin the method, as messages name it: {@code C#m(int)}
   * @return its reading: a refusal if it cannot be read, else its spec (whose {@link
   *     LimitSpec.Builder#problems()} may not be empty), name and fallback
   */
  static Reading read(ClassModel.LimitAnnotation a, String origin) {
    boolean token = a.descriptor.equals(ClassModel.TOKEN_BUCKET);
    String kind = a.kind();
    Map<String, Object> defaults = token ? TOKEN_BUCKET_DEFAULTS : LEAKY_BUCKET_DEFAULTS;
    try {
      LimitSpec.Builder spec = token ? readTokenBucket(a.values) : readLeakyBucket(a.values);
      String name = string(a.values, defaults, "name");
      String fallback = string(a.values, defaults, "fallback");
      return new Reading(kind, origin, spec, name, fallback, null);
    } catch (IllegalArgumentException e) {
      return refused(
          kind,
          origin,
          "invalid " + kind + " on " + origin + ": cannot read it (" + e.getMessage() + ")");
    }
  }

  private static Reading refused(String kind, String origin, String refusal) {
    return new Reading(kind, origin, null, "", "", refusal);
  }

  /**
   * The index of the parameter carrying {@code @LimitKey}.
   *
   * @param method the method
   * @param problems where a problem is added: {@code @LimitKey} on more than one parameter, or on a
   *     parameter the class file does not map to one of the method's
   * @return the parameter's index, or -1 for none (or a problem)
   */
  static int limitKey(MethodModel method, List<String> problems) {
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

  private static LimitSpec.Builder readTokenBucket(Map<String, Object> a) {
    knownAttributes(a, TOKEN_BUCKET_ATTRIBUTES, "@TokenBucket");
    LimitSpec.Builder spec = LimitSpec.builder(Discipline.TOKEN_BUCKET);
    readShared(a, TOKEN_BUCKET_DEFAULTS, spec);
    spec.permits(value(a, TOKEN_BUCKET_DEFAULTS, "permits", Integer.class));
    spec.warmUpMillis(value(a, TOKEN_BUCKET_DEFAULTS, "warmUpMillis", Long.class));
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
}
