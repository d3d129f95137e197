package dev.weir.agent.weave;

import dev.weir.agent.weave.ClassModel.MethodModel;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Resolves the fallback an annotation names ({@code fallback = "cached"}) to a method of the
 * limited method's class, read from its {@link ClassModel}: same parameters, optionally plus a
 * trailing {@code RateLimitedException}, same return type, static if the limited method is, not the
 * limited method itself, and not on a constructor. Exactly one of the two shapes may exist.
 *
 * <p>Every way it fails is one problem in the annotation's message ({@code fallback 'cached' must
 * be ...}); nothing is thrown. Stateless and thread-safe.
 */
final class FallbackResolver {
  static final String RATE_LIMITED_EXCEPTION = "dev.weir.RateLimitedException";

  private FallbackResolver() {}

  /** A resolved fallback method. Immutable. */
  static final class Fallback {
    /** The fallback, a method of the limited method's class. */
    final MethodModel method;

    /** Whether it takes the {@code RateLimitedException} as its last parameter. */
    final boolean takesException;

    Fallback(MethodModel method, boolean takesException) {
      this.method = method;
      this.takesException = takesException;
    }
  }

  /**
   * Resolves and checks the fallback named {@code name}.
   *
   * @param type the limited method's class
   * @param method the limited method
   * @param name the fallback's name; empty for none
   * @param origin the limited method, for messages: {@code C#m(int)}
   * @param problems where a problem is added if the fallback is invalid
   * @return the fallback, or null if none is named or it is invalid (then a problem is added)
   */
  static Fallback resolve(
      ClassModel type, MethodModel method, String name, String origin, List<String> problems) {
    if (name.isEmpty()) {
      return null;
    }
    if (method.isConstructor()) {
      problems.add(
          "fallback '"
              + name
              + "' is not allowed on a constructor, which cannot return another object");
      return null;
    }
    List<String> parameters = method.parameterNames();
    List<String> withException = new ArrayList<String>(parameters);
    withException.add(RATE_LIMITED_EXCEPTION);
    MethodModel plain = named(type, name, parameters);
    MethodModel taking = named(type, name, withException);
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
      List<String> found = signaturesNamed(type, name);
      problems.add(
          "fallback '"
              + name
              + "' must be "
              + expected(type, method, name, parameters, withException)
              + (found.isEmpty() ? "; there is no method of that name" : "; found " + found));
      return null;
    }
    String problem = mismatch(method, chosen, name, origin);
    if (problem != null) {
      problems.add(problem);
      return null;
    }
    return new Fallback(chosen, chosen == taking);
  }

  /** The last method of the class with this name and these parameters, bridges aside, or null. */
  private static MethodModel named(ClassModel type, String name, List<String> parameters) {
    MethodModel last = null;
    for (MethodModel candidate : type.methods) {
      if (isCandidate(candidate, name) && candidate.parameterNames().equals(parameters)) {
        last = candidate;
      }
    }
    return last;
  }

  /** The methods of the class with this name, bridges aside: {@code name(int,java.lang.String)}. */
  private static List<String> signaturesNamed(ClassModel type, String name) {
    List<String> found = new ArrayList<String>();
    for (MethodModel candidate : type.methods) {
      if (isCandidate(candidate, name)) {
        found.add(name + "(" + String.join(",", candidate.parameterNames()) + ")");
      }
    }
    return found;
  }

  private static boolean isCandidate(MethodModel candidate, String name) {
    return candidate.name.equals(name) && !candidate.is(Opcodes.ACC_BRIDGE);
  }

  /** What a fallback of this name must be, for the message when there is none. */
  private static String expected(
      ClassModel type,
      MethodModel method,
      String name,
      List<String> parameters,
      List<String> withException) {
    return "a method of "
        + type.name
        + " named '"
        + name
        + "' taking ("
        + String.join(",", parameters)
        + ") or ("
        + String.join(",", withException)
        + ") and returning "
        + method.returnType.getClassName();
  }

  /**
   * Why the method found cannot stand in for the limited one (it is that method, returns another
   * type, or is an instance method of a static one), or null if it can.
   */
  private static String mismatch(
      MethodModel method, MethodModel chosen, String name, String origin) {
    String signature = name + chosen.parameterList();
    if (chosen == method) {
      return "fallback '" + name + "' is the limited method itself";
    }
    String returns = method.returnType.getClassName();
    String chosenReturns = chosen.returnType.getClassName();
    if (!chosenReturns.equals(returns)) {
      return "fallback "
          + signature
          + " returns "
          + chosenReturns
          + ", but "
          + origin
          + " returns "
          + returns
          + "; they must return the same type";
    }
    if (method.isStatic() && !chosen.isStatic()) {
      return "fallback " + signature + " must be static, as " + origin + " is";
    }
    return null;
  }
}
