package dev.weir.agent.bootstrap;

/**
 * Whether the current thread is inside a method of each config-pattern limiter, so that a call
 * nested in another call of the same limiter is not charged again: a JDBC pool's statement proxy
 * that delegates {@code executeUpdate} to the driver's statement, or an override that calls {@code
 * super}, both matched by {@code PreparedStatement+#executeUpdate}, cost one permit per call from
 * outside, not two.
 *
 * <p>It also knows when the thread is inside Weir itself (weaving a class, writing a log line,
 * starting): a config pattern may name a JDK class that Weir uses there (a writer of {@code
 * System.err}, a map), and Weir's own calls are never charged, or a limit could stop Weir.
 *
 * <h2>Design</h2>
 *
 * <p>Each thread has one small {@code int[]} cell per limiter, plus one for Weir's own sections and
 * one scratch cell; each limiter's slot pair holds the cell that stands for it now and its own (a
 * group's call lets its cell stand for each of its config members, see {@link #enterGroup}). A
 * limiter's cell is 1 while an outermost call of it runs on the thread, else 0. {@link #enter} sets
 * it and returns it to the woven method, which keeps it in a local and clears it on every exit with
 * a plain array store ({@code cell[0] = 0}): no method call, so no {@code StackOverflowError} can
 * strike between the body's end and the clearing, and no error thrown anywhere can leave the cell
 * set. A nested call gets the scratch cell, which nothing reads, so its exit changes nothing. The
 * clearing is idempotent, so a path that clears twice is harmless.
 *
 * <p>{@link #enter} writes the cell as its last action before returning, after every call it makes,
 * so an error thrown inside it (a {@code StackOverflowError} on any of its calls) leaves the cell
 * as it was. Weir's own sections work the same way: {@link #enterWeir()} increments last and
 * returns the cell, which the caller decrements in a {@code finally} with a plain array store.
 *
 * <ol>
 *   <li>I1: after a woven method of a config limiter exits, normally or by any throwable, its
 *       thread's cell of that limiter holds what it held before the call (guarded by {@code
 *       OverflowIT.aStackOverflowNeverSwitchesALimitOff})
 *   <li>I2: a call nested in another of its limiter, or made inside Weir's own work, gets the
 *       scratch cell: it is not charged and its exit changes nothing (guarded by {@code
 *       CallDepthTest.nestedCallsAndWeirsOwnWorkGetTheScratchCell})
 *   <li>I3: a cell holds no reference to any application class or loader (it is an {@code int[]})
 * </ol>
 *
 * <p>Thread-confined, so no synchronization.
 */
public final class CallDepth {
  /** Index of the cell counting Weir's own sections on the thread. */
  private static final int WEIR = 0;

  /** Index of the scratch cell that nested calls clear: never read. */
  private static final int SCRATCH = 1;

  /** Index of limiter 0's cell. */
  private static final int FIRST_LIMITER = 2;

  private static final ThreadLocal<int[][]> CELLS =
      new ThreadLocal<int[][]>() {
        @Override
        protected int[][] initialValue() {
          int[][] cells = new int[16][];
          cells[WEIR] = new int[1];
          cells[SCRATCH] = new int[1];
          return cells;
        }
      };

  private CallDepth() {}

  /**
   * Enters a method of the limiter. The caller clears the returned cell ({@code cell[0] = 0}) on
   * every exit of the method, by a plain array store.
   *
   * @param limiterId the limiter
   * @return the limiter's cell, set to 1, if this is the outermost call of the limiter on this
   *     thread and the thread is not inside Weir (the call is charged); otherwise the scratch cell,
   *     which holds 0
   */
  public static int[] enter(int limiterId) {
    int[][] cells = cellsFor(limiterId);
    int slot = FIRST_LIMITER + 2 * limiterId;
    int[] cell = cells[slot];
    if (cell[0] != 0 || cells[WEIR][0] != 0) {
      return cells[SCRATCH];
    }
    int[] own = cells[slot + 1];
    cells[slot] = own; // a group's cell may stand in it since that group's call (enterGroup)
    own[0] = 1; // the last write: nothing after it can throw
    return own;
  }

  /** The thread's cells, grown to hold the limiter's pair (current, own). */
  private static int[][] cellsFor(int limiterId) {
    int[][] cells = CELLS.get();
    int slot = FIRST_LIMITER + 2 * limiterId;
    if (slot + 1 >= cells.length) {
      // System.arraycopy, not Arrays.copyOf: a config limit may name java.util's methods, and
      // nothing here may run one before the call is known to be Weir's own
      int[][] grown = new int[Math.max(slot + 2, cells.length * 2)][];
      System.arraycopy(cells, 0, grown, 0, cells.length);
      cells = grown;
      CELLS.set(cells);
    }
    if (cells[slot] == null) {
      int[] cell = new int[1];
      cells[slot] = cell;
      cells[slot + 1] = cell;
    }
    return cells;
  }

  /**
   * Enters a method that several limits apply to ({@code LimitGroup}), some of them config
   * patterns' limits that charge only their outermost call. The group's own cell stands, for this
   * call, in the slot of every such limit not entered on the thread yet, so that one plain store
   * ({@code cell[0] = 0}) on exit leaves them all; {@link #enter} puts a limit's own cell back when
   * it is next entered alone. The caller clears the returned cell on every exit.
   *
   * @param groupId the group's limiter id
   * @param configIds the ids of its config members
   * @return the group's cell, set to 1, if this is not a call nested in another of the group and
   *     the thread is not inside Weir; otherwise the scratch cell (every config member passes free)
   */
  public static int[] enterGroup(int groupId, int[] configIds) {
    int[][] cells = cellsFor(groupId);
    for (int id : configIds) {
      cells = cellsFor(id); // every allocation first: what follows is plain stores
    }
    int[] group = cells[FIRST_LIMITER + 2 * groupId + 1];
    if (group[0] != 0 || cells[WEIR][0] != 0) {
      return cells[SCRATCH];
    }
    for (int id : configIds) {
      int slot = FIRST_LIMITER + 2 * id;
      if (cells[slot][0] == 0) {
        cells[slot] = group;
      }
    }
    group[0] = 1; // the last write: nothing after it can throw
    return group;
  }

  /**
   * Whether a group's call charges one of its config members: the member was not entered on the
   * thread when the group's call began ({@link #enterGroup} put the group's cell in its slot).
   *
   * @param limiterId the member's id
   * @param cell the cell {@link #enterGroup} returned
   * @return true if the member charges this call
   */
  public static boolean charges(int limiterId, int[] cell) {
    int[][] cells = CELLS.get();
    int slot = FIRST_LIMITER + 2 * limiterId;
    return cell[0] != 0 && slot < cells.length && cells[slot] == cell;
  }

  /**
   * The thread's scratch cell: for a call that is not charged (it holds 0, and clearing it changes
   * nothing).
   *
   * @return the scratch cell
   */
  public static int[] scratch() {
    return CELLS.get()[SCRATCH];
  }

  /**
   * Whether a cell returned by {@link #enter} is charged (the outermost call's own cell).
   *
   * @param cell a cell returned by {@link #enter} on this thread, not yet cleared
   * @return true for the outermost call
   */
  public static boolean isOutermost(int[] cell) {
    return cell[0] != 0;
  }

  /**
   * Starts a section of Weir's own work on this thread: config limits charge nothing until the
   * returned cell is decremented. Sections nest. Use it as
   *
   * <pre>{@code
   * int[] section = CallDepth.enterWeir();
   * try { ... } finally { section[0]--; }
   * }</pre>
   *
   * so that leaving is a plain array store that no {@code StackOverflowError} can prevent.
   *
   * @return the thread's section cell, already incremented
   */
  public static int[] enterWeir() {
    int[] section = CELLS.get()[WEIR];
    section[0]++; // the last write: nothing after it can throw
    return section;
  }
}
