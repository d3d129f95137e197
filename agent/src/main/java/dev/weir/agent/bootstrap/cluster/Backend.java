package dev.weir.agent.bootstrap.cluster;

import dev.weir.agent.bootstrap.core.GcraBucket;

/**
 * Where the buckets of {@code scope: cluster} limiters live: a shared store (Redis) that runs this
 * core's GCRA ({@link GcraBucket}) on a shared state, atomically, on its own clock. Implemented in
 * the agent tier; limiters reach it through their {@link ClusterScope}.
 *
 * <p>Implementations are thread-safe, answer every exchange within their timeout, never queue an
 * exchange while disconnected (they answer {@link #UNAVAILABLE} at once), and log an outage once.
 */
public abstract class Backend {
  /** Answer of {@link #exchange}: the backend failed or did not answer in time. */
  public static final long UNAVAILABLE = Long.MIN_VALUE + 8;

  /** Operation: take the call's permits; answered as {@link GcraBucket#acquire}. */
  public static final char ACQUIRE = 'a';

  /** Operation: the ticks until the call would be admitted, nothing taken. */
  public static final char PROBE = 'p';

  /** Operation: give back the cost of a call admitted a moment ago. */
  public static final char REFUND = 'r';

  /** Operation: the ticks the state is ahead of now (0: idle). */
  public static final char VIEW = 'v';

  /** For subclasses. */
  protected Backend() {}

  /**
   * One exchange with the shared bucket {@code key}, with {@code bucket}'s settings (they travel
   * with each exchange, so every JVM must configure a cluster limit alike).
   *
   * @param scope the limiter's cluster scope, whose {@link ClusterScope#prepared} slot the backend
   *     may use to keep what it derives from the settings
   * @param op {@link #ACQUIRE}, {@link #PROBE}, {@link #REFUND} or {@link #VIEW}
   * @param key the store's key of the bucket
   * @param bucket the settings, in whose ticks the answer comes
   * @param permits the call's permits, {@code 1..bucket.capacity()}
   * @return for {@link #ACQUIRE}: {@code >= 0} admitted after waiting that many ticks; {@code < 0}
   *     limited, admissible after {@code -answer} ticks ({@code <= -2^61}: never); for {@link
   *     #PROBE} and {@link #VIEW} ticks {@code >= 0}; {@link #UNAVAILABLE} if the backend failed or
   *     did not answer in time (then nothing may be assumed about the state)
   */
  public abstract long exchange(
      ClusterScope scope, char op, String key, GcraBucket bucket, long permits);

  /**
   * Charges one call on several shared buckets in one exchange, all or nothing, as {@link
   * SharedCharge#charge} describes: sets each bucket's own wait ({@link SharedCharge#waitNanos(int,
   * long)}) and, when charged, the record that undoes the charges ({@link SharedCharge#charged}).
   * This default reaches no two keys in one exchange.
   *
   * @param call the buckets, keys and permits
   * @param minWaitNanos the earliest departure, nanoseconds from now
   * @param maxWaitNanos the latest departure allowed, nanoseconds from now
   * @return as {@link SharedCharge#charge}
   */
  protected long chargeAll(SharedCharge call, long minWaitNanos, long maxWaitNanos) {
    return SharedCharge.NOT_JOINT;
  }

  /**
   * Undoes the charges of {@link #chargeAll} by {@link
   * dev.weir.agent.bootstrap.core.JointCharge#undo}'s rule, in one exchange; a failure leaves them
   * taken. This default has nothing to undo.
   *
   * @param call the buckets charged
   * @param record what {@link #chargeAll} kept
   */
  protected void undoAll(SharedCharge call, Object record) {}

  /**
   * Whether the backend answers and is used: false from a failed exchange until a background probe
   * gets an answer again, and while it is not used for a reason of its own ({@link
   * #notUsedBecause}). Callers take their fallback at once while it is false.
   *
   * @return true if exchanges are tried
   */
  public abstract boolean answering();

  /**
   * Why the backend, though it answers, is not used now; shown in a cluster limit's {@code Scope}.
   *
   * @return a few words, as {@code Redis evicts keys}; null when it is used, or does not answer
   */
  public String notUsedBecause() {
    return null;
  }

  /**
   * Whether the backend answers, waiting for the outcome of the first connect if it is under way
   * (at most the exchange timeout), so that the calls made as the application starts find the
   * backend rather than the fallback.
   *
   * @return true if exchanges are tried
   */
  public boolean awaitAnswering() {
    return answering();
  }
}
