package dev.weir.agent.bootstrap;

import java.util.Arrays;

/**
 * How deep the current thread is inside methods of each config-pattern limiter, so that a call
 * nested in another call of the same limiter is not charged again: a JDBC pool's statement proxy
 * that delegates {@code executeUpdate} to the driver's statement, or an override that calls {@code
 * super}, both matched by {@code PreparedStatement+#executeUpdate}, cost one permit per call from
 * outside, not two.
 *
 * <p>It also knows when the thread is inside Weir itself (weaving a class, writing a log line,
 * starting): a config pattern may name a JDK class that Weir uses there (a writer of {@code
 * System.err}, a map), and Weir's own calls are never charged, or a limit could stop Weir.
 *
 * <p>One {@code int[]} per thread: element 0 counts Weir's own sections, element {@code id + 1} the
 * depth of limiter {@code id}; it holds no reference to any application class or loader.
 * Thread-confined, so no synchronization.
 */
public final class CallDepth {
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
    int slot = limiterId + 1;
    if (slot >= depths.length) {
      depths = Arrays.copyOf(depths, Math.max(slot + 1, depths.length * 2));
      DEPTHS.set(depths);
    }
    return depths[slot]++ == 0 && depths[0] == 0;
  }

  /**
   * Starts a section of Weir's own work on this thread: config limits charge nothing until the
   * matching {@link #leaveWeir()}. Sections nest. Call {@link #leaveWeir()} in a {@code finally}.
   */
  public static void enterWeir() {
    DEPTHS.get()[0]++;
  }

  /** Ends a section started by {@link #enterWeir()}. */
  public static void leaveWeir() {
    int[] depths = DEPTHS.get();
    if (depths[0] > 0) {
      depths[0]--;
    }
  }

  /**
   * Leaves a method of the limiter (normally or by an exception).
   *
   * @param limiterId the limiter
   */
  static void leave(int limiterId) {
    int[] depths = DEPTHS.get();
    int slot = limiterId + 1;
    if (slot < depths.length && depths[slot] > 0) {
      depths[slot]--;
    }
  }
}
