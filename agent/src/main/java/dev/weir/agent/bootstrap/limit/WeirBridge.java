package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.CallDepth;

/**
 * What woven code calls. The prologue woven into a limited method is, with the limiter's id and
 * name bound as constants when the class was woven (a per-key method passes {@code String.valueOf}
 * of its key too; a method with a fallback returns the fallback's result instead of throwing):
 *
 * <pre>{@code
 * long r = WeirBridge.acquire(ID);
 * if (r != 0L) {
 *   throw WeirBridge.limited(new RateLimitedException(NAME, WeirBridge.retryAfterNanos(r)), r);
 * }
 * }</pre>
 *
 * <p>The exception is constructed in the woven class, so it is the {@code RateLimitedException}
 * that class's loader sees (a child-first web-app loader's own copy, say). This class lives in the
 * bootstrap class loader, so woven code in any loader can reach it. Its signatures use only {@code
 * java.lang} types, which every loader shares. Thread-safe.
 */
public final class WeirBridge {
  private WeirBridge() {}

  /**
   * Takes the permits of one call of the limited method {@code limiterId}, waiting if its policy
   * says so.
   *
   * @param limiterId the id the agent bound into the woven method
   * @return {@code 0} to proceed; otherwise the call is limited: pass the value to {@link
   *     #retryAfterNanos(long)} and {@link #limited(RuntimeException, long)}
   * @throws IllegalStateException if the method's limit is invalid (fails closed)
   */
  public static long acquire(int limiterId) {
    return LimiterRegistry.limiter(limiterId).acquire();
  }

  /**
   * Takes the permits of one call of the per-key limited method {@code limiterId} from the bucket
   * of {@code key}, waiting if its policy says so.
   *
   * @param limiterId the id the agent bound into the woven method
   * @param key {@code String.valueOf} of the key argument, computed by the woven code
   * @return as {@link #acquire(int)}
   * @throws IllegalStateException if the method's limit is invalid (fails closed)
   */
  public static long acquire(int limiterId, String key) {
    return LimiterRegistry.limiter(limiterId).acquire(key);
  }

  /**
   * Enters a method limited by a config pattern: only the outermost call of the limiter on a thread
   * is charged; a call nested in it (a proxy delegating to the real object, an override calling
   * {@code super}) passes free. The woven method keeps the returned cell in a local, passes it to
   * {@link #acquireOutermost(int, int[])}, and clears it ({@code cell[0] = 0}, a plain array store,
   * never a call) on every exit, normally or by any throwable, and before a limited call throws or
   * calls its fallback. Never blocks; allocates only the first time a thread enters the limiter.
   *
   * @param limiterId the id the agent bound into the woven method
   * @return the cell to clear on exit; it holds a non-zero value if this call is to be charged
   */
  public static int[] enter(int limiterId) {
    return CallDepth.enter(limiterId);
  }

  /**
   * {@link #enter(int)} for an implementation that instances of a {@code Type+} pattern's type
   * inherit from a class that is not one: the call is charged only when {@code self} is an instance
   * of that type; otherwise it passes free, as a nested call does (docs/config-file.md,
   * "Patterns").
   *
   * @param limiterId the id the agent bound into the woven method
   * @param self the receiver of the woven instance method
   * @param typeName the binary name of the pattern's type, {@code java.sql.PreparedStatement}
   * @return the cell to clear on exit, as {@link #enter(int)}; the scratch cell (not charged) when
   *     {@code self} is no instance of the type
   */
  public static int[] enter(int limiterId, Object self, String typeName) {
    return Subtypes.isA(self, typeName) ? CallDepth.enter(limiterId) : CallDepth.scratch();
  }

  /**
   * {@link #acquire(int)} for a method limited by a config pattern, after {@link #enter(int)}: a
   * nested call passes free.
   *
   * @param limiterId the id the agent bound into the woven method
   * @param cell what {@link #enter(int)} returned
   * @return as {@link #acquire(int)}
   * @throws IllegalStateException if the method's limit is invalid (fails closed)
   */
  public static long acquireOutermost(int limiterId, int[] cell) {
    if (!CallDepth.isOutermost(cell)) {
      return Limiter.ADMITTED;
    }
    return LimiterRegistry.limiter(limiterId).acquire();
  }

  /**
   * {@link #acquire(int, String)} for a method limited by a config pattern with {@code key:}; see
   * {@link #acquireOutermost(int, int[])}.
   *
   * @param limiterId the id the agent bound into the woven method
   * @param key {@code String.valueOf} of the key argument
   * @param cell what {@link #enter(int)} returned
   * @return as {@link #acquire(int)}
   * @throws IllegalStateException if the method's limit is invalid (fails closed)
   */
  public static long acquireOutermost(int limiterId, String key, int[] cell) {
    if (!CallDepth.isOutermost(cell)) {
      return Limiter.ADMITTED;
    }
    return LimiterRegistry.limiter(limiterId).acquire(key);
  }

  /** Whether the id is a group's, draining or not (its refusals name its members). */
  private static boolean isGroup(int groupId) {
    Limiter limiter = LimiterRegistry.limiter(groupId);
    return limiter instanceof LimitGroup
        || limiter instanceof Draining && ((Draining) limiter).drained() instanceof LimitGroup;
  }

  /**
   * {@link #limited(RuntimeException, long)} for a method with several limits: the exception also
   * names every limit that refused the call ({@code refusingLimiters()}), where its class, the
   * application's copy of the API, has that field (an older copy names the first alone).
   *
   * @param exception the {@code RateLimitedException} the woven code made
   * @param result what the acquire returned
   * @param groupId the {@link LimitGroup}'s id
   * @return the exception
   */
  public static RuntimeException limited(RuntimeException exception, long result, int groupId) {
    String[] names = result > 0 && isGroup(groupId) ? LimitGroup.refusingLimits() : null;
    if (names != null && names.length > 1) {
      int[] section = CallDepth.enterWeir(); // reflection runs JDK code a pattern may name
      try {
        RefusingField.set(exception, names.clone());
      } finally {
        section[0]--;
      }
    }
    return limited(exception, result);
  }

  /**
   * Enters a method that several limits apply to, some of them config patterns' limits (see {@link
   * CallDepth#enterGroup}). The woven method clears the returned cell on every exit.
   *
   * @param groupId the {@link LimitGroup}'s id
   * @return the cell to pass to {@link #acquireGroup(int, int[])} and clear on exit
   */
  public static int[] enterGroup(int groupId) {
    Limiter limiter = LimiterRegistry.limiter(groupId);
    int[] configIds = limiter instanceof LimitGroup ? ((LimitGroup) limiter).configMembers() : NONE;
    return CallDepth.enterGroup(groupId, configIds);
  }

  private static final int[] NONE = new int[0];

  /**
   * Takes the permits of one call on every limit of a method with several.
   *
   * @param groupId the {@link LimitGroup}'s id
   * @param cell what {@link #enterGroup} returned
   * @return as {@link #acquire(int)}
   */
  public static long acquireGroup(int groupId, int[] cell) {
    return acquireGroup(groupId, null, cell);
  }

  /**
   * Takes the permits of one call on every limit of a method with several, the keyed ones under
   * {@code key}.
   *
   * @param groupId the {@link LimitGroup}'s id
   * @param key {@code String.valueOf} of the key argument
   * @param cell what {@link #enterGroup} returned
   * @return as {@link #acquire(int)}
   */
  public static long acquireGroup(int groupId, String key, int[] cell) {
    Limiter limiter = LimiterRegistry.limiter(groupId);
    if (limiter instanceof LimitGroup) {
      return ((LimitGroup) limiter).acquire(key, cell);
    }
    return key == null ? limiter.acquire() : limiter.acquire(key); // draining
  }

  /**
   * The name a limited call of a method with several limits carries: the limit with the longest
   * wait, as the group decided on this thread a moment ago.
   *
   * @param groupId the {@link LimitGroup}'s id
   * @return the limiter's name
   */
  public static String refusedBy(int groupId) {
    Limiter limiter = LimiterRegistry.limiter(groupId);
    String name = isGroup(groupId) ? LimitGroup.refusedBy() : null;
    return name != null ? name : limiter.name();
  }

  /**
   * The key of an array argument, by content: {@code java.util.Arrays.toString} of a primitive
   * array, {@code deepToString} of an object array; {@code "null"} for null. Computed as Weir's own
   * work, so a config limit on those JDK methods never charges it.
   *
   * @param array the key argument, an array or null
   * @return its key
   */
  public static String arrayKey(Object array) {
    int[] section = CallDepth.enterWeir();
    try {
      return ArrayKeys.of(array);
    } finally {
      section[0]--;
    }
  }

  /**
   * The retry-after to put in the exception for a non-zero result of {@link #acquire(int)}.
   *
   * @param result a non-zero result of {@link #acquire(int)}
   * @return nanoseconds until the same call would be admitted at once, {@code >= 0}; {@link
   *     Long#MAX_VALUE} for never
   */
  public static long retryAfterNanos(long result) {
    return result >= 0 ? result : ~result;
  }

  /**
   * Completes the exception the woven code throws: when the call was interrupted while waiting, its
   * cause becomes an {@link InterruptedException} (the thread's interrupt flag stays set).
   *
   * @param exception the {@code RateLimitedException} the woven code constructed
   * @param result the non-zero result of {@link #acquire(int)}
   * @return {@code exception}, for the woven code to throw
   */
  public static RuntimeException limited(RuntimeException exception, long result) {
    if (result < 0) {
      try {
        exception.initCause(new InterruptedException("interrupted while waiting for a permit"));
      } catch (IllegalStateException causeAlreadySet) {
        // a copy of the exception class that sets its own cause: keep it
      }
    }
    return exception;
  }
}
