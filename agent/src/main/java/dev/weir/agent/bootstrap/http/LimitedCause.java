package dev.weir.agent.bootstrap.http;

import dev.weir.RateLimitedException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The {@code RateLimitedException} inside what a servlet threw, for the gate to answer it as a
 * limited request (docs/web-apps.md): the throwable itself or one of its causes, however a
 * framework wrapped it ({@code ServletException}, Spring's exceptions, {@code
 * UndeclaredThrowableException}, ...).
 *
 * <p>The class is matched by its name, {@value #NAME}, or a superclass's: an application that
 * bundles its own copy of the API jar throws its own copy's class, which is not the one Weir's
 * bootstrap tier sees. Its {@code limiterName()} and {@code retryAfterNanos()} are read through
 * method handles found once per class; they are stable API, so any copy answers them.
 *
 * <p>The walk down the causes is bounded ({@value #MAX_DEPTH} deep) and so ends on a cycle too. A
 * throwable whose {@code getCause()} throws, or a copy whose methods cannot be called, is taken as
 * holding no {@code RateLimitedException}: the container then gets it as it did before. Immutable
 * and thread-safe.
 */
final class LimitedCause {
  /** The class's binary name. */
  static final String NAME = "dev.weir.RateLimitedException";

  /** How deep the walk goes down the causes. */
  static final int MAX_DEPTH = 32;

  /** For each copy of the class (and each subclass): its two readers, or null if it has none. */
  private static final ClassValue<MethodHandle[]> READERS =
      new ClassValue<MethodHandle[]>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> type) {
          for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(NAME)) {
              try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                return new MethodHandle[] {
                  lookup
                      .findVirtual(c, "limiterName", MethodType.methodType(String.class))
                      .asType(MethodType.methodType(String.class, Object.class)),
                  lookup
                      .findVirtual(c, "retryAfterNanos", MethodType.methodType(long.class))
                      .asType(MethodType.methodType(long.class, Object.class))
                };
              } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null; // a copy without them: not one Weir can answer
              }
            }
          }
          return null;
        }
      };

  /** The limiter's name, as the exception gave it ({@code "null"} if it gave none). */
  final String limiterName;

  /** Nanoseconds until the same call would be admitted, {@code >= 0}; {@code MAX_VALUE}: never. */
  final long retryAfterNanos;

  private LimitedCause(String limiterName, long retryAfterNanos) {
    this.limiterName = String.valueOf(limiterName);
    this.retryAfterNanos = Math.max(0L, retryAfterNanos);
  }

  /**
   * The first {@code RateLimitedException} in a throwable's cause chain. Never throws.
   *
   * @param thrown what a servlet threw; may be null
   * @return its name and retry-after; null if the chain, down to {@value #MAX_DEPTH} deep, holds
   *     none that can be read
   */
  static LimitedCause in(Throwable thrown) {
    Throwable t = thrown;
    try {
      for (int depth = 0; t != null && depth < MAX_DEPTH; depth++) {
        if (t instanceof RateLimitedException) { // the copy Weir's own tier sees
          RateLimitedException e = (RateLimitedException) t;
          return new LimitedCause(e.limiterName(), e.retryAfterNanos());
        }
        MethodHandle[] readers = READERS.get(t.getClass());
        if (readers != null) {
          return new LimitedCause(
              (String) readers[0].invokeExact((Object) t),
              (long) readers[1].invokeExact((Object) t));
        }
        Throwable cause = t.getCause();
        t = cause == t ? null : cause;
      }
    } catch (Throwable unreadable) {
      // a getCause() or a copy's method that throws: as if there were none
    }
    return null;
  }
}
