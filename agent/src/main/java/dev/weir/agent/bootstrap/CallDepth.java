package dev.weir.agent.bootstrap;

import java.util.Arrays;

/**
 * How deep the current thread is inside methods of each config-pattern limiter, so that a call
 * nested in another call of the same limiter is not charged again: a JDBC pool's statement proxy
 * that delegates {@code executeUpdate} to the driver's statement, or an override that calls {@code
 * super}, both matched by {@code PreparedStatement+#executeUpdate}, cost one permit per call from
 * outside, not two.
 *
 * <p>One {@code int[]} per thread, indexed by limiter id; it holds no reference to any application
 * class or loader. Thread-confined, so no synchronization.
 */
final class CallDepth {
  private static final ThreadLocal<int[]> DEPTHS =
      new ThreadLocal<int[]>() {
        @Override
        protected int[] initialValue() {
          return new int[16];
        }
      };

  private CallDepth() {}

  /**
   * Enters a method of the limiter.
   *
   * @param limiterId the limiter
   * @return true if this is the outermost call of the limiter on this thread (it is charged)
   */
  static boolean enter(int limiterId) {
    int[] depths = DEPTHS.get();
    if (limiterId >= depths.length) {
      depths = Arrays.copyOf(depths, Math.max(limiterId + 1, depths.length * 2));
      DEPTHS.set(depths);
    }
    return depths[limiterId]++ == 0;
  }

  /**
   * Leaves a method of the limiter (normally or by an exception).
   *
   * @param limiterId the limiter
   */
  static void leave(int limiterId) {
    int[] depths = DEPTHS.get();
    if (limiterId < depths.length && depths[limiterId] > 0) {
      depths[limiterId]--;
    }
  }
}
