package dev.weir.agent.weave;

import dev.weir.agent.bootstrap.AgentLog;
import dev.weir.agent.bootstrap.limit.LimiterRegistry;
import dev.weir.agent.bootstrap.limit.RefusedLimiter;
import dev.weir.agent.weave.ClassModel.MethodModel;
import net.bytebuddy.jar.asm.Type;

/**
 * What a method's {@link LimitPrologue} is bound to: the limiter's id and name, the parameter that
 * keys it, the fallback, and whether only the outermost call (config patterns) or only calls on
 * instances of one type ({@code Type+} patterns) are charged. Made while a class is planned and
 * read once into its prologue; confined to the weaving thread.
 */
final class Binding {
  /** The limiter's id in {@link LimiterRegistry}; -1 for none (the warm-up). */
  final int id;

  /** The limiter's name. */
  final String name;

  /** The index of the parameter that keys the limiter; -1 for one bucket. */
  int keyIndex = -1;

  /** The fallback method called instead of throwing; null for none. */
  MethodModel fallback;

  /** Whether {@link #fallback} takes the {@code RateLimitedException} as its last parameter. */
  boolean fallbackTakesException;

  /** Config patterns: only the outermost call of the limiter on a thread is charged. */
  boolean outermostOnly;

  /**
   * An implementation inherited by a {@code Type+} pattern's subtypes: the type's binary name,
   * whose instances alone are charged; null for every call.
   */
  String onlyForInstancesOf;

  /** Whether {@link #refuse} made it: its limiter throws on every call. */
  boolean refused;

  /** Whether this is a {@code LimitGroup}'s binding: several limits on one method. */
  boolean group;

  /** A group's members' bindings; null otherwise. */
  java.util.List<Binding> members;

  Binding(int id, String name) {
    this.id = id;
    this.name = name;
  }

  /**
   * Refuses a method: logs the message and binds the method to a new {@link RefusedLimiter} that
   * throws {@link IllegalStateException} with it on every call.
   *
   * @param name the limiter's name
   * @param origin the method, as messages name it: {@code C#m(int)}
   * @param message why the method is refused
   * @param loader the method's class loader (null for the bootstrap loader): the limiter goes with
   *     it
   * @return the binding, {@link #refused}
   */
  static Binding refuse(String name, String origin, String message, ClassLoader loader) {
    AgentLog.error(message + " (every call of the method throws IllegalStateException)");
    Binding binding =
        new Binding(LimiterRegistry.add(new RefusedLimiter(name, origin, message), loader), name);
    binding.refused = true;
    return binding;
  }

  /** Sets the key's parameter and the fallback (null for none); returns this binding. */
  Binding with(int keyIndex, FallbackResolver.Fallback fallback) {
    this.keyIndex = keyIndex;
    if (fallback != null) {
      this.fallback = fallback.method;
      this.fallbackTakesException = fallback.takesException;
    }
    return this;
  }

  /**
   * Tells the bound limiter (and a config override of it) that keys from this parameter cannot be
   * judged by their type (an interface, an abstract class, {@code Object}): it warns once if a key
   * looks like an identity string.
   *
   * @param keyIndex the parameter's index
   * @param keyType the parameter's type
   * @param origin the method, as messages name it: {@code C#m(Object)}
   */
  void keyedAtRunTime(int keyIndex, Type keyType, String origin) {
    String source = "parameter " + keyIndex + " (" + keyType.getClassName() + ") of " + origin;
    LimiterRegistry.original(id).keysMayBeIdentities(source);
    LimiterRegistry.limiter(id).keysMayBeIdentities(source); // an override's, if any
  }
}
