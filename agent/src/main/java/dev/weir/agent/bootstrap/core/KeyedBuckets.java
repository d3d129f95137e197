package dev.weir.agent.bootstrap.core;

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
 * <p><b>The bound.</b> At most {@code maxKeys} keys are held. Past it, a call with a new key is
 * admitted whenever some held key is idle (dropping that key is unobservable), and otherwise
 * limited (fails closed, as nginx does when its zone is full) with a retry-after of exactly the
 * time until the earliest held key goes idle; keys already held are never affected. To find that
 * key without scanning the table on every call, a table at its bound keeps a min-heap of lower
 * bounds on its keys' idle instants ({@link IdleHeap}). An acquire only ever moves a state's idle
 * instant later, so an entry made when a key was inserted stays a lower bound without being touched
 * on the acquire path; an interrupted waiter that gives its permits back moves it earlier, and adds
 * a new entry. A call at the bound looks at the heap's top: if it is later than now, no key is
 * idle; if not, it reads that key's state, and either drops it (idle: room for the caller) or
 * corrects the entry to the state's real idle instant and looks again. A refused call's retry-after
 * is the top once its entry is found exact. Each correction is paid for by an acquire that made the
 * entry stale, so a call costs {@code O(log maxKeys)} amortised, and nothing when the table is
 * below its bound: the heap is built (one pass) when the bound is first reached, and dropped once
 * the keys fall below half of it. Memory is therefore bounded by {@code maxKeys} states and keys,
 * plus the heap (12 bytes an entry, at most twice the keys) near the bound.
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
 *   <li>I4: while the heap exists, every live state has an entry no later than its idle instant; so
 *       a new key is limited at the bound only when no held key is idle, and waiting its
 *       retry-after admits it when nothing else runs (guarded by {@code
 *       KeyedBucketsTest.atTheBoundANewKeyIsAdmittedWheneverAHeldKeyIsIdle} and {@code
 *       KeyedBucketsTest.atTheBoundWaitingExactlyTheRetryAfterAdmits})
 * </ol>
 *
 * <p>Thread-safe. Calls with a known key take no lock and allocate nothing beyond the caller's key
 * string; calls with a new key allocate one state and one map node.
 */
public final class KeyedBuckets {
  /** The default bound on keys of each per-key limiter (the agent's {@code maxKeys}). */
  public static final int DEFAULT_MAX_KEYS = 100_000;

  /** The default bound on keys per limiter: set from the agent's {@code maxKeys} argument. */
  public static volatile int defaultMaxKeys = DEFAULT_MAX_KEYS;

  /** Tables smaller than this are not worth shrinking. */
  private static final int SHRINK_FLOOR = 4096;

  private final NanoClock clock;
  private final int maxKeys;
  private final AtomicInteger keys = new AtomicInteger();
  private final ReentrantLock sweeping = new ReentrantLock();
  private volatile Table current;

  /** Tables replaced by smaller ones, for tests. */
  volatile int shrinks;

  /** Clock reading at or after which a sweep may find an idle state (wrapping compare). */
  private volatile long sweepDueNanos;

  /** Whether {@link #sweepDueNanos} means anything: false while no state is held. */
  private volatile boolean sweepDue;

  private final String limiterName;

  /** Set when keys come from a parameter whose type could not be judged: new keys are checked. */
  private volatile String identitySource;

  /** The first new key that looked like an identity string, or null. */
  private volatile String identityKey;

  /** Whether {@link #identityKey} was reported; read and written by the sweeper only. */
  private boolean identityReported;

  /** Near the bound: lower bounds on the held keys' idle instants; else null. */
  private IdleHeap idle;

  /**
   * While {@link #refuseExact}: the instant the earliest held key goes idle, as the heap's top was
   * last found exact; no held key is idle before it. Written under the lock: {@code refuseExact} is
   * cleared before this is lowered, and set after this is written.
   */
  private volatile long refuseUntilNanos;

  /** The state of the key that goes idle at {@link #refuseUntilNanos}. */
  private volatile BucketState refuseState;

  /**
   * Whether {@link #refuseUntilNanos} holds, as long as {@link #refuseState} still goes idle then:
   * cleared by every entry the heap gains.
   */
  private volatile boolean refuseExact;

  /** Callers between taking a place in {@link #keys} and their key's heap entry. */
  private final AtomicInteger pending = new AtomicInteger();

  /**
   * Guards the sweep schedule, written together, and {@link #idle}: taken once per new key, once
   * per sweep, and by calls at the bound.
   */
  private final Object lock = new Object();

  /**
   * Creates the per-key states of one limiter.
   *
   * @param bucket the settings and arithmetic shared by every key
   * @param clock the limiter's clock
   * @param maxKeys the bound on keys, {@code >= 1}
   * @param limiterName the limiter's name, for warnings
   */
  public KeyedBuckets(GcraBucket bucket, NanoClock clock, int maxKeys, String limiterName) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be >= 1, was " + maxKeys);
    }
    this.current = new Table(null, bucket, 0);
    this.clock = clock;
    this.maxKeys = maxKeys;
    this.limiterName = limiterName;
  }

  /**
   * Looks at each new key from now on, remembering the first that looks like an identity string;
   * {@link #identityWarning()} reports it once.
   *
   * @param keySource the key parameter whose type could not be judged, for the warning
   */
  public void checkForIdentities(String keySource) {
    identitySource = keySource;
  }

  /**
   * The warning about a key that looks like an identity string, once: null before one is seen and
   * after it was reported. Called by the {@link KeySweeper}, off the acquire path.
   *
   * @return the warning, or null
   */
  String identityWarning() {
    String key = identityKey;
    if (key == null || identityReported) {
      return null;
    }
    identityReported = true;
    return "'"
        + limiterName
        + "' keys calls by "
        + identitySource
        + ", and a key looks like an identity string: "
        + key
        + ". If that type's toString() is Object's, every call gets its own bucket and the limit"
        + " does nothing; key on a value that names what to limit (a String or number id, or a"
        + " type whose toString() says it)";
  }

  /**
   * Whether a key looks like {@code Object.toString()}'s {@code ClassName@hash}: a qualified class
   * name (letters, digits, {@code . $ _ / [ ;}) or an array's ({@code [B}), {@code @}, and 6 to 8
   * lowercase hex digits (an identity hash has 7 or 8 nearly always; fewer would take addresses
   * like {@code first.last@cafe} for one).
   */
  static boolean looksLikeIdentity(String key) {
    int at = key.lastIndexOf('@');
    int hexDigits = key.length() - at - 1;
    if (at <= 0 || hexDigits < 6 || hexDigits > 8 || key.indexOf('.') < 0 && key.charAt(0) != '[') {
      return false;
    }
    for (int i = at + 1; i < key.length(); i++) {
      char c = key.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    for (int i = 0; i < at; i++) {
      char c = key.charAt(i);
      if (!Character.isJavaIdentifierPart(c) && c != '.' && c != '/' && c != '[' && c != ';') {
        return false;
      }
    }
    return true;
  }

  /**
   * One table of states, all of one bucket; {@code previous} is being drained into it, or null. A
   * live change makes a table of the new bucket, and the drain converts each state it moves.
   */
  private static final class Table {
    final ConcurrentHashMap<String, BucketState> map = new ConcurrentHashMap<String, BucketState>();

    /** Callers inserting a new state into this table. */
    final AtomicInteger inserters = new AtomicInteger();

    /** Callers moving a state out of this table (while it is the current one's previous). */
    final AtomicInteger movers = new AtomicInteger();

    volatile Table previous;

    /** The largest size seen since this table was made (sweeper only). */
    int peak;

    /** The bucket of every state in this table. */
    final GcraBucket bucket;

    /**
     * The instant of the live change that made this table (states moved in are converted at it).
     */
    final long changedAtNanos;

    Table(Table previous, GcraBucket bucket, long changedAtNanos) {
      this.previous = previous;
      this.bucket = bucket;
      this.changedAtNanos = changedAtNanos;
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
  public BucketState state(String key, long nowNanos) {
    BucketState s = peek(key);
    return s != null ? s : slowState(key, nowNanos);
  }

  /**
   * The key's state if it holds one now, without making one.
   *
   * @param key the key
   * @return the state, or null (a key not held is full: a leaky bucket, empty)
   */
  public BucketState peek(String key) {
    return current.map.get(key);
  }

  /**
   * {@link #state}, after the state it returned turned out retired: waits (briefly) for the key's
   * replacement, or makes a new state if the old one was dropped as idle.
   *
   * @param key the key
   * @param nowNanos the clock's reading
   * @return the live state; {@code null} if the key is new and the bound is reached
   */
  public BucketState slowState(String key, long nowNanos) {
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
      pending.incrementAndGet(); // first: a call at the bound never sees the place taken unseen
      if (keys.incrementAndGet() > maxKeys) {
        keys.decrementAndGet();
        pending.decrementAndGet();
        if (makeRoom(nowNanos) != 0) {
          return null;
        }
        continue;
      }
      BucketState made = insert(t, key, nowNanos);
      if (made != null) {
        return made;
      }
      // the table was replaced meanwhile, or the prior state is being retired: look again
    }
  }

  /**
   * Inserts a new state for {@code key} into {@code t}, for a caller that has taken a place in
   * {@link #keys} and in {@link #pending}: leaves {@code pending} in any case, and gives its place
   * in {@code keys} back unless it inserted the state. Never blocks.
   *
   * @return the new state; the live state another caller inserted first; or null if {@code t} is no
   *     longer current or the state found is being retired (look again)
   */
  private BucketState insert(Table t, String key, long nowNanos) {
    BucketState fresh = t.bucket.newState(nowNanos);
    BucketState prior = null;
    boolean inserted = false;
    try {
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
        inserted(nowNanos, key);
        return fresh;
      }
    } finally {
      pending.decrementAndGet();
    }
    keys.decrementAndGet();
    return prior != null && prior.fullAt != GcraBucket.RETIRED ? prior : null;
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
    if (o.bucket != t.bucket) { // a live change: carried over by its rules, at its instant
      value = t.bucket.converted(o.bucket, value, t.changedAtNanos);
    }
    BucketState copy = new BucketState(value, t.bucket); // same instant, new cell
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
   * At the bound: drops one held key that is idle at {@code nowNanos}, if there is one, so that the
   * caller's new key fits. While no key can be idle before a known instant, answers without a lock;
   * otherwise {@code O(log maxKeys)} amortised under the lock, plus one pass over the table when
   * the bound is first reached.
   *
   * @param nowNanos the caller's clock reading
   * @return 0 if a key was dropped (or room appeared): look again; otherwise the nanoseconds until
   *     the earliest held key goes idle, exact while no other call changes the table, {@code >= 1}
   */
  private long makeRoom(long arrivedNanos) {
    // answered as of now: a call that waited (for the lock, say) is not told to wait that again
    long nowNanos = arrivedNanos + Math.max(0, clock.nanoTime() - arrivedNanos);
    if (refuseExact) {
      BucketState earliest = refuseState;
      long until = refuseUntilNanos;
      long ahead = earliest.bucket.ticksUntilIdle(earliest, nowNanos);
      if (nowNanos - until < 0
          && ahead > 0
          && nowNanos + earliest.bucket.toNanosCeil(ahead) == until) {
        // the earliest key still goes idle then, and no other can go idle sooner: every other
        // entry was later, acquires only move keys later, and anything else clears refuseExact
        return until - nowNanos;
      }
    }
    for (int attempt = 0; ; attempt++) {
      long result = makeRoomLocked(nowNanos, attempt < MAX_LOOKS);
      if (result != LOOK_AGAIN) {
        return result;
      }
      Thread.yield(); // a key is being inserted, moved or removed: it settles at once
    }
  }

  /**
   * A heap of the idle instants of the states of {@code t}, and of the table it drains, if any;
   * dropping the states idle now. Called under the lock.
   */
  private IdleHeap idleHeapOf(Table t, long nowNanos) {
    Table previous = t.previous;
    return IdleHeap.of(previous == null ? null : previous.map, t.map, nowNanos, keys);
  }

  /**
   * Waits, under the lock, up to a millisecond for an inserter to add its key's entry. The lock is
   * released meanwhile, as the inserter needs it.
   *
   * @return false if the caller was interrupted (the flag is kept)
   */
  private boolean awaitEntry() {
    entryWaiters++;
    try {
      lock.wait(1);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      entryWaiters--;
    }
  }

  /** Callers waiting in {@link #awaitEntry}; guarded by the lock. */
  private int entryWaiters;

  /** Result of {@link #makeRoomLocked}: a key is in passage; release the lock and look again. */
  private static final long LOOK_AGAIN = -1;

  /** How often a call at the bound looks again before it answers with what it knows. */
  private static final int MAX_LOOKS = 64;

  private long makeRoomLocked(long arrivedNanos, boolean mayLookAgain) {
    long unsettled = mayLookAgain ? LOOK_AGAIN : MIN_BOUND_RETRY_NANOS;
    synchronized (lock) {
      // as of now, not of the call's arrival: it may have waited for the lock
      long nowNanos = arrivedNanos + Math.max(0, clock.nanoTime() - arrivedNanos);
      if (keys.get() < maxKeys) {
        return 0;
      }
      if (idle == null) {
        idle = idleHeapOf(current, nowNanos); // drops idle keys as it goes
        refuseExact = false;
        if (keys.get() < maxKeys) {
          return 0;
        }
      }
      for (int waits = 0; ; ) {
        if (idle.size() == 0) { // held keys are being inserted: their entries follow at once
          if (pending.get() == 0 || waits++ == MAX_LOOKS || !awaitEntry()) {
            return MIN_BOUND_RETRY_NANOS;
          }
          continue;
        }
        long at = idle.topAt();
        String key = idle.topKey();
        Table owner = current;
        BucketState s = owner.map.get(key);
        if (s == null && owner.previous != null) {
          owner = owner.previous; // not moved yet by a shrink
          s = owner.map.get(key);
        }
        if (s == null) {
          idle.pop(); // dropped already; a key inserted again has an entry of its own
          continue;
        }
        long ahead = s.bucket.retireIfIdle(s, nowNanos);
        if (ahead == GcraBucket.ALREADY_RETIRED) {
          return unsettled; // being removed, or moved to the new table: its entry still holds
        }
        if (ahead == 0) { // retired by this call, which removes it
          idle.pop();
          if (owner.map.remove(key, s)) {
            keys.decrementAndGet();
          }
          return 0;
        }
        long idleAt = nowNanos + s.bucket.toNanosCeil(ahead);
        if (idleAt == at) { // the earliest, and exact: later calls need no lock until then
          refuseUntilNanos = at;
          refuseState = s;
          refuseExact = true;
          return Math.max(1, at - nowNanos);
        }
        idle.replaceTop(idleAt, key); // later than the entry said: an acquire since
      }
    }
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
    synchronized (lock) {
      sweepDue = false; // the loop below finds every state held now; later ones reschedule
    }
    Table t = current;
    int dropped = 0;
    long soonestNanos = 1_000_000_000L;
    int size = 0;
    for (Map.Entry<String, BucketState> e : t.map.entrySet()) {
      BucketState s = e.getValue();
      long ahead = s.bucket.retireIfIdle(s, nowNanos);
      if (ahead == 0) {
        if (t.map.remove(e.getKey(), s)) {
          keys.decrementAndGet();
          dropped++;
        }
      } else if (ahead > 0) { // not retired by another (who removes it)
        size++;
        if (ahead < GcraBucket.NEVER_TICKS) {
          soonestNanos = Math.min(soonestNanos, s.bucket.toNanosCeil(ahead));
        }
      }
    }
    t.peak = Math.max(t.peak, size + dropped);
    synchronized (lock) {
      // keys inserted during the loop scheduled themselves since it began: keep the earlier
      if (size > 0 && (!sweepDue || nowNanos + soonestNanos - sweepDueNanos < 0)) {
        sweepDueNanos = nowNanos + soonestNanos;
        sweepDue = true;
      }
      if (idle != null && keys.get() < maxKeys / 2) {
        refuseExact = false;
        idle = null; // far from the bound again: its memory goes
      }
    }
    if (mayShrink && (t.peak >= SHRINK_FLOOR && size < t.peak / 4 || size == 0 && t.peak > 16)) {
      shrink(t); // an empty table is replaced too: a limiter whose keys have all gone keeps none
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
    moveAll(t, new Table(t, t.bucket, t.changedAtNanos));
    shrinks++;
  }

  /**
   * A live change: moves every live state into a table of {@code next}, converting each by the
   * live-change rules at {@code nowNanos} ({@link GcraBucket#converted}), before returning. Calls
   * meanwhile move the states they need themselves, as during a shrink. The heap of idle instants
   * is dropped (a state's idle instant may now be earlier than its entry) and rebuilt when next
   * needed, and a sweep is due at once.
   *
   * @param next the new bucket
   * @param nowNanos the instant of the change
   */
  public void reshape(GcraBucket next, long nowNanos) {
    sweeping.lock();
    try {
      moveAll(current, new Table(current, next, nowNanos));
      statesChanged(nowNanos);
    } finally {
      sweeping.unlock();
    }
  }

  /**
   * Copies the keys of another limiter's states into this one, each converted by the live-change
   * rules at {@code nowNanos} (see {@code BucketLimiter.continueFrom}), up to the bound; a key held
   * here already is left as it is. The other keeps its states.
   *
   * @param from the other limiter's states
   * @param nowNanos the instant of the change
   */
  public void importFrom(KeyedBuckets from, long nowNanos) {
    sweeping.lock();
    try {
      Table t = current;
      for (Map.Entry<String, BucketState> e : from.current.map.entrySet()) {
        BucketState s = e.getValue();
        long value = s.fullAt;
        if (value == GcraBucket.RETIRED || keys.get() >= maxKeys) {
          continue;
        }
        BucketState copy = new BucketState(t.bucket.converted(s.bucket, value, nowNanos), t.bucket);
        if (t.map.putIfAbsent(e.getKey(), copy) == null) {
          keys.incrementAndGet();
        }
      }
      statesChanged(nowNanos);
    } finally {
      sweeping.unlock();
    }
  }

  /**
   * After states changed wholesale (a live change, an import): the heap of idle instants may hold
   * entries later than a state's idle instant, so it goes (rebuilt when next needed), and a sweep
   * is due at once.
   */
  private void statesChanged(long nowNanos) {
    synchronized (lock) {
      refuseExact = false;
      idle = null;
      sweepDueNanos = nowNanos;
      sweepDue = true;
    }
  }

  /** Publishes {@code n} (draining {@code t}) and moves every live state of {@code t} into it. */
  private void moveAll(Table t, Table n) {
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
  }

  /**
   * Remembers {@code key} for {@link #identityWarning()} if identities are looked for and it is the
   * first key that looks like one. Called for each new key, and for each key too long to be held as
   * it is (whose digest would hide its form) before it is digested.
   *
   * @param key the key as the call gave it
   */
  public void lookForIdentity(String key) {
    if (identitySource != null && identityKey == null && looksLikeIdentity(key)) {
      identityKey = key; // reported by the sweeper, off the caller's path
      KeySweeper.nudge();
    }
  }

  /**
   * A new key was inserted at {@code nowNanos}: its state may be idle again one emission interval
   * later (after a single call), so a sweep is due no later than that; near the bound, the heap
   * learns of it (its idle instant is no earlier than now).
   */
  private void inserted(long nowNanos, String key) {
    lookForIdentity(key);
    long idleAt = nowNanos + current.bucket.intervalNanos();
    synchronized (lock) {
      if (!sweepDue || idleAt - sweepDueNanos < 0) {
        sweepDueNanos = idleAt;
        sweepDue = true;
      }
      if (idle != null) {
        refuseExact = false; // the new key's entry is only a lower bound
        idle.push(nowNanos, key);
        if (entryWaiters > 0) {
          lock.notifyAll();
        }
        if (idle.size() > 2 * keys.get() + 64) {
          idle = idleHeapOf(current, nowNanos); // entries of keys dropped since
        }
      }
    }
  }

  /**
   * An interrupted waiter gave its permits back to {@code key}'s state: its idle instant moved
   * earlier, to no earlier than {@code idleNoEarlierThanNanos}, so the heap needs an entry that
   * says so.
   *
   * @param key the key
   * @param idleNoEarlierThanNanos a clock reading no later than the state's new idle instant
   */
  public void gaveBack(String key, long idleNoEarlierThanNanos) {
    synchronized (lock) {
      if (idle != null) {
        refuseExact = false;
        idle.push(idleNoEarlierThanNanos, key);
      }
    }
  }

  /**
   * The retry-after of a call limited because the bound is reached: the time until the earliest
   * held key goes idle, exact. Drops an idle key instead if one has appeared since the call was
   * limited.
   *
   * @param nowNanos the clock reading the call was limited at
   * @return nanoseconds, {@code >= 1}; 0 if room was made (look the key up again)
   */
  public long retryAfterBoundNanos(long nowNanos) {
    return makeRoom(nowNanos);
  }

  /** The retry-after past the bound while a shrink or an insert is under way. */
  private static final long MIN_BOUND_RETRY_NANOS = 1_000_000L;

  /**
   * Live keys, for tests and diagnostics.
   *
   * @return the number of keys held
   */
  public int size() {
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
