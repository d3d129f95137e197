package dev.weir.agent.backend;

/**
 * The one deadline of the backend call a thread is making: set when the call starts, read by every
 * socket read the call leads to ({@link DeadlineSocket}), whichever exchange that read belongs to
 * (a new connection's TLS handshake, its {@code AUTH} and {@code SELECT}, the script, its reload
 * after {@code NOSCRIPT}). Nothing restarts it: each read may wait only for what is left of it.
 *
 * <p>Per thread, so no synchronisation; a call made while another is open on the same thread (none
 * is, but a nested one would) keeps the earlier, sooner deadline.
 */
final class CallDeadline {
  /** Per thread: {@code [0]} the deadline in {@link System#nanoTime()} nanoseconds, 0 for none. */
  private static final ThreadLocal<long[]> DEADLINE =
      new ThreadLocal<long[]>() {
        @Override
        protected long[] initialValue() {
          return new long[1];
        }
      };

  private CallDeadline() {}

  /**
   * Opens a call on this thread that must end within {@code timeoutMillis} from now.
   *
   * @param timeoutMillis the call's bound, {@code >= 1}
   * @return what {@link #end} restores (the deadline that was set before, 0 for none)
   */
  static long start(long timeoutMillis) {
    long[] slot = DEADLINE.get();
    long before = slot[0];
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    if (deadline == 0) {
      deadline = 1; // 0 means none
    }
    if (before == 0 || deadline - before < 0) {
      slot[0] = deadline;
    }
    return before;
  }

  /**
   * Closes the call {@link #start} opened.
   *
   * @param before what {@link #start} returned
   */
  static void end(long before) {
    DEADLINE.get()[0] = before;
  }

  /**
   * The deadline of the call this thread is making.
   *
   * @return {@link System#nanoTime()} nanoseconds; 0 if the thread makes none (then a read waits as
   *     long as the client's own socket timeout)
   */
  static long current() {
    return DEADLINE.get()[0];
  }
}
