package dev.weir.agent.bootstrap;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The per-key states of one limiter ({@code @LimitKey}, or {@code key:} in the config file): one
 * {@link BucketState} per distinct key, all sharing the settings and arithmetic of one {@link
 * GcraBucket}, like the per-client zones of nginx {@code limit_req}.
 *
 * <h2>Design</h2>
 *
 * <p><b>Lookup.</b> States live in a {@link ConcurrentHashMap} from the key ({@code String.valueOf}
 * of the argument) to a bare 24-byte state. A call finds its state with one {@code get} and then
 * takes permits with the bucket's CAS, exactly as a keyless call does.
 *
 * <p><b>Dropping idle keys.</b> A state whose bucket is full again (a leaky bucket: drained)
 * carries no information: a new state made now would be identical, so dropping it cannot be
 * observed. {@link #sweep} marks such a state retired with a CAS from the idle value it checked to
 * {@link GcraBucket#RETIRED}, then removes it. The CAS is what makes the drop safe: a call that
 * read the state before it was retired either took its permits first (the retiring CAS then fails,
 * the state is not idle any more and stays) or finds the marker and looks the key up again. A state
 * that still limits is never dropped. The background {@link KeySweeper} sweeps each table once its
 * earliest live state may have gone idle.
 *
 * <p><b>The bound.</b> At most {@code maxKeys} keys are held. A call with a new key that finds the
 * table full first sweeps it (one sweep at a time, only once some state may be idle); if no key can
 * be dropped the call is limited (fails closed, as nginx does when its zone is full), with a
 * retry-after of the time until the earliest held key may go idle. Keys already held are never
 * affected. Memory is therefore bounded by {@code maxKeys} states and keys.
 *
 * <p><b>Shrinking.</b> A {@code ConcurrentHashMap} never shrinks its table, so once most keys have
 * gone, the sweeper moves the live states to a new, small table. A new table is published with the
 * old one as {@code previous}; a move claims the old state with a CAS to the retired marker
 * (capturing its exact value), puts a copy into the new table, then removes the old entry. Callers
 * and the sweeper move alike, and the claim decides who does. New states are inserted only into the
 * current table, by callers counted in {@code inserters}; callers moving a state out of the old
 * table are counted in its {@code movers}. The sweeper drains the old table only after its last
 * inserter has left, and unlinks it only after its last mover has put its copy; a caller creates a
 * state in the new table only after checking the old one with no inserter left. So no key ever has
 * two live states, and a claimed state's copy is never put into a table that is no longer current.
 *
 * <ol>
 *   <li>I1: a key has at most one live (not retired) state, and every live state is reachable from
 *       {@link #current} (guarded by {@code KeyedBucketsTest.concurrentCallsWithSweepsAndShrinks})
 *   <li>I2: a state is retired only by a CAS from a value that is idle at a fresh reading, or by a
 *       move that copies the value it retired (guarded by {@code
 *       KeyedBucketsTest.dropsOnlyIdleStates})
 *   <li>I3: the live keys never exceed {@code maxKeys} (guarded by {@code
 *       KeyedBucketsTest.boundLimitsNewKeysOnly})
 * </ol>
 *
 * <p>Thread-safe. Calls with a known key take no lock and allocate nothing beyond the caller's key
 * string; calls with a new key allocate one state and one map node.
 */
final class KeyedBuckets {
  /** The default bound on keys per limiter: set from the agent's {@code maxKeys} argument. */
  static volatile int defaultMaxKeys = BucketLimiter.DEFAULT_MAX_KEYS;

  /** Tables smaller than this are not worth shrinking. */
  private static final int SHRINK_FLOOR = 4096;

  private final GcraBucket bucket;
  private final NanoClock clock;
  private final int maxKeys;
  private final boolean background;
  private final AtomicInteger keys = new AtomicInteger();
  private final ReentrantLock sweeping = new ReentrantLock();
  private volatile Table current = new Table(null);

  /** Tables replaced by smaller ones, for tests. */
  volatile int shrinks;

  /** Clock reading at or after which a sweep may find an idle state (wrapping compare). */
  private volatile long sweepDueNanos;

  /** Whether {@link #sweepDueNanos} means anything: false while no state is held. */
  private volatile boolean sweepDue;

  /** The key whose state may go idle at {@link #sweepDueNanos}, or null if unknown. */
  private String soonestKey;

  /** Guards the three fields above together: taken once per new key and once per sweep. */
  private final Object sweepDueLock = new Object();

  /**
   * Creates the per-key states of one limiter.
   *
   * @param bucket the settings and arithmetic shared by every key
   * @param clock the limiter's clock
   * @param maxKeys the bound on keys, {@code >= 1}
   * @param background true if the {@link KeySweeper} thread sweeps this table: a call that finds
   *     the bound reached then wakes it rather than sweeping on the caller's thread
   */
  KeyedBuckets(GcraBucket bucket, NanoClock clock, int maxKeys, boolean background) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be >= 1, was " + maxKeys);
    }
    this.bucket = bucket;
    this.clock = clock;
    this.maxKeys = maxKeys;
    this.background = background;
  }

  /** One table of states; {@code previous} is being drained into it, or null. */
  private static final class Table {
    final ConcurrentHashMap<String, BucketState> map = new ConcurrentHashMap<String, BucketState>();

    /** Callers inserting a new state into this table. */
    final AtomicInteger inserters = new AtomicInteger();

    /** Callers moving a state out of this table (while it is the current one's previous). */
    final AtomicInteger movers = new AtomicInteger();

    volatile Table previous;

    /** The largest size seen since this table was made (sweeper only). */
    int peak;

    Table(Table previous) {
      this.previous = previous;
    }
  }

  /**
   * The live state of {@code key}, made full (a leaky bucket: empty) if the key is new. Never
   * blocks, except for a short spin while the sweeper moves that very key.
   *
   * @param key the key
   * @param nowNanos the clock's reading
   * @return the state; {@code null} if the key is new and the bound is reached
   */
  BucketState state(String key, long nowNanos) {
    BucketState s = current.map.get(key);
    return s != null ? s : slowState(key, nowNanos);
  }

  /**
   * {@link #state}, after the state it returned turned out retired: waits (briefly) for the key's
   * replacement, or makes a new state if the old one was dropped as idle.
   *
   * @param key the key
   * @param nowNanos the clock's reading
   * @return the live state; {@code null} if the key is new and the bound is reached
   */
  BucketState slowState(String key, long nowNanos) {
    for (; ; ) {
      Table t = current;
      BucketState s = t.map.get(key);
      if (s != null) {
        if (s.fullAt != GcraBucket.RETIRED) {
          return s;
        }
        Thread.yield(); // retired as idle: its retirer removes it next
        continue;
      }
      Table old = t.previous;
      if (old != null) {
        awaitInserters(old);
        old.movers.incrementAndGet();
        try {
          BucketState o = old.map.get(key);
          if (o != null) {
            BucketState moved = move(t, old, key, o);
            if (moved != null) {
              return moved;
            }
          }
        } finally {
          old.movers.decrementAndGet();
        }
        if (old.map.containsKey(key)) {
          Thread.yield(); // being moved by another thread: its copy appears in t next
          continue;
        }
      }
      if (keys.incrementAndGet() > maxKeys) {
        keys.decrementAndGet();
        if (!makeRoom(nowNanos)) {
          return null;
        }
        continue;
      }
      BucketState fresh = bucket.newState(nowNanos);
      BucketState prior = null;
      boolean inserted = false;
      t.inserters.incrementAndGet();
      try {
        if (current == t) {
          prior = t.map.putIfAbsent(key, fresh);
          inserted = prior == null;
        }
      } finally {
        t.inserters.decrementAndGet();
      }
      if (inserted) {
        sweepNoLaterThan(nowNanos, key);
        return fresh;
      }
      keys.decrementAndGet();
      if (prior != null && prior.fullAt != GcraBucket.RETIRED) {
        return prior;
      }
      // the table was replaced meanwhile, or the prior state is being retired: look again
    }
  }

  /**
   * Moves {@code o} from {@code old} into {@code t}.
   *
   * @return the live state now in {@code t}; null if another thread holds the move (or {@code o}
   *     was dropped as idle) and the caller should look again
   */
  private BucketState move(Table t, Table old, String key, BucketState o) {
    long value = GcraBucket.claim(o);
    if (value == GcraBucket.RETIRED) {
      return null;
    }
    BucketState copy = new BucketState(value); // same instant, new cell
    BucketState prior = t.map.putIfAbsent(key, copy);
    old.map.remove(key, o);
    if (prior != null) {
      // unreachable by I1 (creators look in the old table, with no inserter left, before they
      // create); were it reached, keep the fuller of the two rather than fail the caller
      GcraBucket.atLeast(prior, value);
      return prior;
    }
    return copy;
  }

  private static void awaitInserters(Table old) {
    while (old.inserters.get() != 0) {
      Thread.yield(); // a caller between its check of the current table and its insert
    }
  }

  private static void awaitMovers(Table old) {
    while (old.movers.get() != 0) {
      Thread.yield(); // a caller between its claim of a state and its copy's insert
    }
  }

  /**
   * At the bound: sweeps (or has the sweeper sweep) if some state may be idle by now. Returns true
   * only if this call made room; a woken sweeper makes it for later calls, so a caller never waits
   * for a sweep of the whole table.
   */
  private boolean makeRoom(long nowNanos) {
    if (sweepDue && nowNanos - sweepDueNanos < 0) {
      return false;
    }
    if (!sweeping.tryLock()) {
      return false; // a sweep is making room
    }
    try {
      if (dropSoonest(clock.nanoTime())) {
        if (background) {
          KeySweeper.wake(); // for the rest of the table
        }
        return true;
      }
      if (background) {
        KeySweeper.wake();
        return false;
      }
      return sweepLocked(clock.nanoTime(), false) > 0;
    } finally {
      sweeping.unlock();
    }
  }

  /**
   * Drops the one state the last sweep (or insert) named as going idle first, if it has: room for
   * one key in constant time, so that a call limited at the bound is admitted when it retries after
   * its retry-after. Called under the sweep lock.
   */
  private boolean dropSoonest(long nowNanos) {
    String key;
    synchronized (sweepDueLock) {
      key = soonestKey;
    }
    if (key == null) {
      return false;
    }
    BucketState s = current.map.get(key);
    if (s == null || bucket.retireIfIdle(s, nowNanos) != 0 || !current.map.remove(key, s)) {
      return false;
    }
    keys.decrementAndGet();
    synchronized (sweepDueLock) {
      if (key.equals(soonestKey)) {
        soonestKey = null; // which key is next is for the next sweep to find: due now
        sweepDueNanos = nowNanos;
      }
    }
    return true;
  }

  /**
   * Drops every idle state and, if most of the table has gone, moves the rest to a smaller table.
   * Does nothing if another sweep is running. Called by the {@link KeySweeper}.
   *
   * @param nowNanos a fresh reading of the clock
   * @return the number of keys dropped
   */
  int sweep(long nowNanos) {
    if (!sweeping.tryLock()) {
      return 0;
    }
    try {
      return sweepLocked(nowNanos, true);
    } finally {
      sweeping.unlock();
    }
  }

  /** Sweeps if a state may have gone idle by now on this table's clock. */
  void sweepIfDue() {
    long now = clock.nanoTime();
    if (sweepDue(now)) {
      sweep(now);
    }
  }

  /**
   * Whether a sweep could drop a key now.
   *
   * @param nowNanos the clock's reading
   * @return true if some state may have gone idle by {@code nowNanos}
   */
  boolean sweepDue(long nowNanos) {
    return sweepDue && nowNanos - sweepDueNanos >= 0;
  }

  private int sweepLocked(long nowNanos, boolean mayShrink) {
    synchronized (sweepDueLock) {
      sweepDue = false; // the loop below finds every state held now; later ones reschedule
      soonestKey = null;
    }
    Table t = current;
    int dropped = 0;
    long soonest = GcraBucket.NEVER_TICKS;
    String soonestKeyFound = null;
    int size = 0;
    for (Map.Entry<String, BucketState> e : t.map.entrySet()) {
      BucketState s = e.getValue();
      long ahead = bucket.retireIfIdle(s, nowNanos);
      if (ahead == 0) {
        if (t.map.remove(e.getKey(), s)) {
          keys.decrementAndGet();
          dropped++;
        }
      } else {
        size++;
        if (ahead < soonest) {
          soonest = ahead;
          soonestKeyFound = e.getKey();
        }
      }
    }
    t.peak = Math.max(t.peak, size + dropped);
    long tpn = bucket.ticksPerNano();
    long soonestNanos =
        soonest >= GcraBucket.NEVER_TICKS ? 1_000_000_000L : (soonest + tpn - 1) / tpn;
    synchronized (sweepDueLock) {
      // keys inserted during the loop scheduled themselves since it began: keep the earlier
      if (size > 0 && (!sweepDue || nowNanos + soonestNanos - sweepDueNanos < 0)) {
        sweepDueNanos = nowNanos + soonestNanos;
        soonestKey = soonestKeyFound;
        sweepDue = true;
      }
    }
    if (mayShrink && t.peak >= SHRINK_FLOOR && size < t.peak / 4) {
      shrink(t);
    }
    return dropped;
  }

  /** Moves every live state into a new table now, whatever its size: for tests. */
  void shrinkNow() {
    sweeping.lock();
    try {
      shrink(current);
    } finally {
      sweeping.unlock();
    }
  }

  /** Moves every live state of {@code t} into a new table. Called under the sweep lock. */
  private void shrink(Table t) {
    Table n = new Table(t);
    current = n;
    awaitInserters(t);
    for (Map.Entry<String, BucketState> e : t.map.entrySet()) {
      BucketState o = e.getValue();
      if (o.fullAt != GcraBucket.RETIRED) {
        move(n, t, e.getKey(), o);
      }
    }
    // a caller that claimed a state before the loop reached it may not have put its copy yet;
    // until it has, the copy's key must stay findable through n.previous
    awaitMovers(t);
    n.peak = n.map.size();
    n.previous = null;
    shrinks++;
  }

  /**
   * A new key was inserted at {@code nowNanos}: its state may be idle again one emission interval
   * later (after a single call), so a sweep is due no later than that.
   */
  private void sweepNoLaterThan(long nowNanos, String key) {
    long idleAt = nowNanos + bucket.intervalNanos();
    synchronized (sweepDueLock) {
      if (!sweepDue || idleAt - sweepDueNanos < 0) {
        sweepDueNanos = idleAt;
        soonestKey = key;
        sweepDue = true;
      }
    }
  }

  /**
   * The retry-after of a call limited because the bound is reached: the time until the earliest
   * held key may go idle and be dropped.
   *
   * @param nowNanos the clock's reading
   * @return nanoseconds, {@code >= 1}
   */
  long retryAfterBoundNanos(long nowNanos) {
    long wait = sweepDue ? sweepDueNanos - nowNanos : 0;
    return Math.max(MIN_BOUND_RETRY_NANOS, wait);
  }

  /** The shortest retry-after past the bound: about one sweep of a full table. */
  private static final long MIN_BOUND_RETRY_NANOS = 1_000_000L;

  /**
   * Live keys, for tests and diagnostics.
   *
   * @return the number of keys held
   */
  int size() {
    return keys.get();
  }

  /**
   * The state table's capacity is not exposed by {@code ConcurrentHashMap}; this is the largest
   * number of keys the current table has held, for tests.
   *
   * @return the current table's peak
   */
  int currentPeak() {
    return Math.max(current.peak, current.map.size());
  }
}
