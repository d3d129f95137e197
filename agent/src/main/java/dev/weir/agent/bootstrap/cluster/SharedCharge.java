package dev.weir.agent.bootstrap.cluster;

import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.JointCharge;

/**
 * The cluster limits of one call that several limits apply to, charged in one exchange with their
 * backend, all or nothing ({@link JointCharge}'s rules on the backend's state and clock): every
 * bucket is planned, the call gets one departure, the latest any of them needs (and no earlier than
 * the caller's own limits need), and every bucket is charged at it, or none is when a wait is
 * beyond the call's bound. The charges can be undone in one more exchange ({@link #undo}), exactly
 * where no later charge stands, by {@link JointCharge#undo}'s rule.
 *
 * <p>On a Redis Cluster, where the keys of different limits live in different slots, the backend
 * charges the slots in turn to the same effect (see the Redis backend's {@code SlotCharges}).
 * Limits on different backends, or a backend that cannot charge several keys, answer {@link
 * #NOT_JOINT}: the caller then reserves each limit in turn and releases the reservations on a
 * refusal.
 *
 * <p>Not thread-safe: one call's work on one thread, reused by its next call ({@link #clear}).
 */
public final class SharedCharge {
  /** Answer of {@link #charge}: refused by the waits; nothing charged. */
  public static final long REFUSED = -1;

  /**
   * Answer of {@link #charge}: the backend cannot charge these limits together; nothing charged.
   */
  public static final long NOT_JOINT = Long.MIN_VALUE + 9;

  /** Answer of {@link #charge}: the backend failed or did not answer in time. */
  public static final long UNAVAILABLE = Backend.UNAVAILABLE;

  private final ClusterScope[] scopes;
  private final String[] keys;
  private final GcraBucket[] buckets;
  private final long[] permits;
  private final long[] waits;
  private int n;

  /** What the backend needs to undo the charges of the last admitted exchange; else null. */
  private Object record;

  /**
   * Room for the cluster limits of one call.
   *
   * @param capacity the most limits, {@code >= 1}
   */
  public SharedCharge(int capacity) {
    scopes = new ClusterScope[capacity];
    keys = new String[capacity];
    buckets = new GcraBucket[capacity];
    permits = new long[capacity];
    waits = new long[capacity];
  }

  /**
   * Adds a cluster limit of the call.
   *
   * @param scope the limit's cluster scope
   * @param key the key value of a per-key limit; null for its one bucket
   * @param bucket the limit's settings now
   * @param permits the call's permits on it, {@code 1..bucket.capacity()}
   */
  public void add(ClusterScope scope, String key, GcraBucket bucket, long permits) {
    scopes[n] = scope;
    keys[n] = scope.key(key);
    buckets[n] = bucket;
    this.permits[n] = permits;
    n++;
  }

  /**
   * Charges the call on every limit added, at one departure, or on none. Blocks for one exchange,
   * bounded by the backend's timeout.
   *
   * @param minWaitNanos the earliest departure, nanoseconds from now, {@code >= 0}
   * @param maxWaitNanos the latest departure the call's limits allow (the shortest of their wait
   *     bounds), nanoseconds from now, {@code >= 0}
   * @return {@code >= 0}: charged on each, departing that many nanoseconds from now; {@link
   *     #REFUSED} (each limit's own wait is then {@link #waitNanos}); {@link #NOT_JOINT} or {@link
   *     #UNAVAILABLE}, nothing charged (an answer lost to a timeout may have been charged: less is
   *     admitted, never more)
   */
  public long charge(long minWaitNanos, long maxWaitNanos) {
    record = null;
    Backend backend = scopes[0].backend();
    for (int i = 1; i < n; i++) {
      if (scopes[i].backend() != backend) {
        return NOT_JOINT;
      }
    }
    if (!backend.awaitAnswering()) {
      return UNAVAILABLE; // each limit alone then follows its onBackendFailure, counted there
    }
    int[] section = CallDepth.enterWeir(); // the client's sockets are never charged
    try {
      return backend.chargeAll(this, minWaitNanos, maxWaitNanos);
    } finally {
      section[0]--;
    }
  }

  /**
   * Undoes the charges of the last {@link #charge} that admitted the call, exactly where no later
   * charge stands, otherwise by {@link JointCharge#undo}'s rule (less is admitted, never more).
   * Blocks for one exchange; a failed one leaves the charges taken.
   */
  public void undo() {
    Object r = record;
    record = null;
    if (r == null) {
      return;
    }
    int[] section = CallDepth.enterWeir();
    try {
      scopes[0].backend().undoAll(this, r);
    } finally {
      section[0]--;
    }
  }

  /** Forgets the limits added, for the thread's next call. */
  public void clear() {
    for (int i = 0; i < n; i++) {
      scopes[i] = null;
      keys[i] = null;
      buckets[i] = null;
    }
    n = 0;
    record = null;
  }

  /**
   * The limits added.
   *
   * @return how many
   */
  public int size() {
    return n;
  }

  /**
   * The store's key of limit {@code i}.
   *
   * @param i {@code 0..size()-1}
   * @return the key
   */
  public String key(int i) {
    return keys[i];
  }

  /**
   * The cluster scope of limit {@code i}.
   *
   * @param i {@code 0..size()-1}
   * @return its scope
   */
  public ClusterScope scope(int i) {
    return scopes[i];
  }

  /**
   * The settings of limit {@code i}.
   *
   * @param i {@code 0..size()-1}
   * @return its bucket
   */
  public GcraBucket bucket(int i) {
    return buckets[i];
  }

  /**
   * The call's permits on limit {@code i}.
   *
   * @param i {@code 0..size()-1}
   * @return permits
   */
  public long permits(int i) {
    return permits[i];
  }

  /**
   * Limit {@code i}'s own wait in the last exchange: the backend sets it.
   *
   * @param i {@code 0..size()-1}
   * @return nanoseconds {@code >= 0}; {@link Long#MAX_VALUE} for never
   */
  public long waitNanos(int i) {
    return waits[i];
  }

  /**
   * Sets limit {@code i}'s own wait; for the backend.
   *
   * @param i {@code 0..size()-1}
   * @param nanos nanoseconds {@code >= 0}; {@link Long#MAX_VALUE} for never
   */
  public void waitNanos(int i, long nanos) {
    waits[i] = nanos;
  }

  /**
   * Keeps what undoes the charges just made; for the backend.
   *
   * @param value its record of the states before and after each charge
   */
  public void charged(Object value) {
    record = value;
  }
}
