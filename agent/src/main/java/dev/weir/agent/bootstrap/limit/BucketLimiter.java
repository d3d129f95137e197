package dev.weir.agent.bootstrap.limit;

import dev.weir.agent.bootstrap.CallDepth;
import dev.weir.agent.bootstrap.cluster.Backend;
import dev.weir.agent.bootstrap.cluster.ClusterScope;
import dev.weir.agent.bootstrap.core.BucketState;
import dev.weir.agent.bootstrap.core.GcraBucket;
import dev.weir.agent.bootstrap.core.KeyDigest;
import dev.weir.agent.bootstrap.core.KeySweeper;
import dev.weir.agent.bootstrap.core.KeyedBuckets;
import dev.weir.agent.bootstrap.core.LimitRules;
import dev.weir.agent.bootstrap.core.NanoClock;
import java.util.concurrent.TimeUnit;

/**
 * A limiter over one {@link GcraBucket}: the clock read and the decision for the keyless bucket,
 * for per-key buckets ({@link KeyedBuckets}) and for a cluster's ({@link ClusterBucket}), the wait
 * to a deadline for {@code WAIT} and {@code SHAPING}, the counts an operator reads, and live
 * changes.
 *
 * <p><b>Waiting</b> ({@link SlotWaits}) parks ({@link NanoClock#parkNanos}) in a loop until the
 * deadline, so virtual threads do not pin. A waiter that is interrupted keeps its interrupt flag
 * and reports the interruption, so that the woven code throws {@code RateLimitedException} with an
 * {@link InterruptedException} as its cause; its slot goes back when no later call holds a slot
 * after it ({@link GiveBackList}).
 *
 * <p><b>Counts</b> are calls, not permits, since the limiter was created ({@link CallCounts}):
 * {@link #granted()}, {@link #rejected()}, {@link #waited()} and {@link #totalWaitNanos()}. In a
 * dry run ({@link #dryRun()}) every call is admitted at once and counted granted, and the calls the
 * bucket would have limited or made wait are counted rejected or waited too.
 *
 * <p><b>Cluster scope</b>: the bucket is kept by the backend, one exchange per call ({@link
 * ClusterBucket}); the wait, if any, happens here.
 *
 * <p><b>Live changes</b> ({@link #change}) take effect at the instant they are made: the bucket is
 * replaced by one with the new settings and the state is carried over by {@link
 * GcraBucket#takeOver}'s rules (for per-key limiters, each key's, see {@link KeyedBuckets}). A call
 * that was deciding on the old bucket finds it retired and decides again on the new one, so no call
 * is decided on a state that was converted under it.
 *
 * <ol>
 *   <li>I1: {@link #bucket} changes only under this object's lock, after the old bucket's state was
 *       retired and converted into the new one (guarded by {@code
 *       LiveChangeTest.concurrentChangesNeverOverAdmit}).
 *   <li>I2: a change that is refused changes nothing, and a change to the current values changes
 *       nothing (guarded by {@code LiveChangeTest.refusedChangesLeaveEverythingAsItWas} and {@code
 *       LiveChangeTest.writingTheCurrentValueKeepsTheState}).
 * </ol>
 *
 * <p>Thread-safe; the admitted path allocates nothing.
 */
public final class BucketLimiter extends Limiter {
  private volatile GcraBucket bucket;
  private final long permits;
  private final NanoClock clock;
  private final String declared;
  private volatile boolean dryRun;
  private volatile KeyedBuckets keyed;

  /** The cluster path of a cluster-scope limiter; null for a local one. */
  private final ClusterBucket cluster;

  private final CallCounts counts = new CallCounts();

  private final SlotWaits waits;

  /** The first key parameter whose type cannot be judged, or null. */
  private volatile String identitySource;

  /**
   * Creates a limiter that limits.
   *
   * @param name the limiter's name
   * @param origin where it was declared, for messages
   * @param bucket the bucket
   * @param permits permits per call, {@code 1..bucket.capacity()}
   * @param clock the time source the bucket was created with
   */
  public BucketLimiter(
      String name, String origin, GcraBucket bucket, long permits, NanoClock clock) {
    this(name, origin, bucket, permits, clock, false);
  }

  /**
   * Creates a limiter.
   *
   * @param name the limiter's name
   * @param origin where it was declared, for messages
   * @param bucket the bucket
   * @param permits permits per call, {@code 1..bucket.capacity()}
   * @param clock the time source the bucket was created with
   * @param dryRun true to count what would be limited and limit nothing
   */
  public BucketLimiter(
      String name,
      String origin,
      GcraBucket bucket,
      long permits,
      NanoClock clock,
      boolean dryRun) {
    this(name, origin, bucket, permits, clock, dryRun, null);
  }

  /**
   * Creates a limiter, cluster-wide if {@code cluster} is given: its bucket is then kept by the
   * backend, one exchange per call, and {@code bucket} serves as the settings sent and as the local
   * fallback ({@link ClusterScope.OnFailure#LOCAL}).
   *
   * @param name the limiter's name
   * @param origin where it was declared, for messages
   * @param bucket the bucket
   * @param permits permits per call, {@code 1..bucket.capacity()}
   * @param clock the time source the bucket was created with
   * @param dryRun true to count what would be limited and limit nothing
   * @param cluster the backend that keeps the bucket; null for a local limiter
   */
  public BucketLimiter(
      String name,
      String origin,
      GcraBucket bucket,
      long permits,
      NanoClock clock,
      boolean dryRun,
      ClusterScope cluster) {
    super(name, origin);
    this.bucket = bucket;
    this.permits = permits;
    this.clock = clock;
    this.dryRun = dryRun;
    this.cluster = cluster == null ? null : new ClusterBucket(cluster, permits);
    this.waits = new SlotWaits(clock, permits, counts);
    this.declared = SettingsText.of(bucket, permits, dryRun, cluster != null);
  }

  @Override
  public long acquire() {
    return cluster == null ? acquireLocal(null) : acquireShared(null, null);
  }

  /**
   * As {@link #acquire(String)}, but a call that would wait takes its slot and returns at once,
   * holding it: the charge, the counts and the give-back are those of a waiting call. Never blocks.
   *
   * @param key the key; null for the keyless bucket
   * @return the answer
   */
  @Override
  public Reservation reserve(String key) {
    if (key != null && KeyDigest.isLong(key)) {
      key = held(key); // as acquire(String) holds it: the same bucket
    }
    Reservation[] held = new Reservation[1];
    long result;
    if (cluster != null) {
      result = acquireShared(key, held);
    } else {
      result = key == null ? acquireLocal(held) : acquireLocal(key, held);
    }
    if (result == RESERVED) {
      return held[0];
    }
    return result == ADMITTED ? Reservation.ADMITTED : Reservation.limited(result);
  }

  /** Result of a call that holds its slot in {@code held[0]} instead of waiting. */
  private static final long RESERVED = Long.MIN_VALUE + 7;

  /**
   * @param held null to wait for a slot on this thread; else where a held slot is put ({@link
   *     #RESERVED})
   */
  private long acquireLocal(Reservation[] held) {
    GcraBucket b = bucket;
    long now = clock.nanoTime();
    long result = b.acquire(b, now, permits, false);
    if (result == 0 && !dryRun) {
      counts.admit();
      return ADMITTED;
    }
    for (; ; ) {
      result = decide(b, null, now, result, held);
      if (result != GcraBucket.STATE_RETIRED) {
        return result;
      }
      b = replacementOf(b); // a live change retired it: decide again on the new bucket
      now = clock.nanoTime();
      result = b.acquire(b, now, permits, false);
    }
  }

  /**
   * One call of a cluster limiter: one exchange with the backend ({@link ClusterBucket#acquire});
   * the wait, if any, happens here. While the backend fails, the call follows {@code
   * onBackendFailure}.
   *
   * @param key the key value; null for the limiter's one bucket
   * @param held as for {@link #acquireLocal(Reservation[])}
   */
  private long acquireShared(String key, Reservation[] held) {
    GcraBucket b = bucket;
    long answer = cluster.acquire(key, b);
    if (answer == Backend.UNAVAILABLE) {
      switch (cluster.onFailure()) {
        case LOCAL:
          return key == null ? acquireLocal(held) : acquireLocal(key, held);
        case ALLOW:
          counts.admit();
          return ADMITTED;
        default:
          return limited(TimeUnit.SECONDS.toNanos(1));
      }
    }
    return outcome(b, null, null, clock.nanoTime(), answer, held);
  }

  /** The bucket that replaced {@code retired}: published a moment after it was retired. */
  GcraBucket replacementOf(GcraBucket retired) {
    GcraBucket b;
    while ((b = bucket) == retired) {
      Thread.yield();
    }
    return b;
  }

  /**
   * Takes the permits of one call from the bucket of {@code key}: one bucket per distinct key, made
   * full (a leaky bucket: empty) when the key is first seen and dropped once idle again. Waits as
   * {@link #acquire()} does.
   *
   * @param key the key, {@code String.valueOf} of the key argument
   * @return as {@link #acquire()}; a new key past the bound on keys is limited, its retry-after the
   *     time until a held key may go idle
   */
  @Override
  public long acquire(String key) {
    if (key == null) {
      key = "null"; // a toString() that returns null
    } else if (KeyDigest.isLong(key)) {
      key = held(key);
    }
    return cluster == null ? acquireLocal(key, null) : acquireShared(key, null);
  }

  /** The digest a long key is held as; the key itself is looked at for an identity string first. */
  private String held(String key) {
    if (identitySource != null) {
      keyedBuckets().lookForIdentity(key);
    }
    return KeyDigest.digestOf(key);
  }

  /**
   * @param held as for {@link #acquireLocal(Reservation[])}
   */
  private long acquireLocal(String key, Reservation[] held) {
    KeyedBuckets states = keyedBuckets();
    long now = clock.nanoTime();
    BucketState state = states.state(key, now);
    for (; ; ) {
      if (state == null) { // a new key at the bound
        long retryAfter = states.retryAfterBoundNanos(now);
        if (retryAfter != 0) {
          return limited(retryAfter);
        }
        state = states.slowState(key, now); // a held key went idle meanwhile: room for this one
        continue;
      }
      long result = state.bucket.acquire(state, now, permits, false);
      if (result == 0 && !dryRun) {
        counts.admit();
        return ADMITTED;
      }
      result = decide(state, key, now, result, held);
      if (result != GcraBucket.STATE_RETIRED) {
        return result;
      }
      state = states.slowState(key, now);
    }
  }

  @Override
  public void refund(String key) {
    if (dryRun) {
      return; // a dry run may not have taken anything: it admits what it would limit
    }
    if (key != null) {
      key = KeyDigest.of(key);
    }
    if (cluster != null) {
      if (bucket.warmUpNanos() > 0) {
        return; // as GcraBucket.refund: a warm-up keeps what it charged
      }
      if (cluster.refund(key, bucket)) {
        counts.refund();
        return;
      }
      if (cluster.onFailure() != ClusterScope.OnFailure.LOCAL) {
        return;
      }
      // the call was admitted by the local fallback: its permits go back there
    }
    BucketState state;
    if (key == null) {
      state = bucket;
    } else {
      KeyedBuckets states = keyed;
      state = states == null ? null : states.peek(key);
    }
    if (state != null && state.bucket.refund(state, permits)) {
      counts.refund();
    }
  }

  @Override
  public long probe(String key) {
    if (key != null) {
      key = KeyDigest.of(key);
    }
    if (cluster != null) {
      long answer = cluster.probe(key, bucket);
      if (answer != ClusterBucket.ASK_LOCAL) {
        return answer;
      }
    }
    long now = clock.nanoTime();
    if (key == null) {
      GcraBucket b = bucket;
      return b.probeRetryAfterNanos(b, now, permits);
    }
    KeyedBuckets states = keyed;
    BucketState state = states == null ? null : states.peek(key);
    return state == null ? 0 : state.bucket.probeRetryAfterNanos(state, now, permits);
  }

  /**
   * Sets the bound on keys of per-key limiters created from now on (the agent's {@code maxKeys}).
   * Past it, a call with a new key is limited until a held key goes idle; held keys are unaffected.
   *
   * @param maxKeys keys per limiter, {@code >= 1}
   * @throws IllegalArgumentException if {@code maxKeys < 1}
   */
  public static void setMaxKeys(int maxKeys) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be >= 1, was " + maxKeys);
    }
    KeyedBuckets.defaultMaxKeys = maxKeys;
  }

  @Override
  public void keysMayBeIdentities(String keySource) {
    synchronized (this) {
      if (identitySource == null) {
        identitySource = keySource;
      }
    }
    KeyedBuckets states = keyed;
    if (states != null) {
      states.checkForIdentities(identitySource);
    }
  }

  public KeyedBuckets keyedBuckets() {
    KeyedBuckets states = keyed;
    return states != null ? states : createKeyedBuckets();
  }

  private KeyedBuckets createKeyedBuckets() {
    int[] section = CallDepth.enterWeir(); // once per limiter: a thread may start, maps are made
    try {
      return createKeyedBucketsOwn();
    } finally {
      section[0]--;
    }
  }

  private synchronized KeyedBuckets createKeyedBucketsOwn() {
    KeyedBuckets states = keyed;
    if (states == null) {
      boolean background = clock == NanoClock.SYSTEM;
      states = new KeyedBuckets(bucket, clock, KeyedBuckets.defaultMaxKeys, name());
      if (identitySource != null) {
        states.checkForIdentities(identitySource);
      }
      keyed = states;
      if (background) {
        KeySweeper.register(states);
      }
    }
    return states;
  }

  @Override
  synchronized void dropped() {
    KeyedBuckets states = keyed;
    if (states != null) {
      KeySweeper.unregister(states);
    }
  }

  /**
   * The per-key states, for tests and diagnostics.
   *
   * @return the states, or null if no keyed call was made
   */
  public KeyedBuckets keyedStates() {
    return keyed;
  }

  /**
   * The outcome of a call whose first try did not admit it at once (or that a dry run counts): the
   * clock-reading protocol of {@link GcraBucket}, then a wait or a limit, counted. Returns {@link
   * GcraBucket#STATE_RETIRED} if the state was retired meanwhile (nothing taken; look again).
   *
   * @param key the key of a per-key state; null for the keyless bucket
   * @param held as for {@link #acquireLocal(Reservation[])}
   */
  private long decide(BucketState state, String key, long now, long result, Reservation[] held) {
    GcraBucket b = state.bucket;
    if (result == GcraBucket.STALE_CLOCK) {
      now = clock.nanoTime();
      result = b.acquire(state, now, permits, true);
      if (result == GcraBucket.CLOCK_STEPPED_BACK) {
        b.resetAfterClockStep(state, clock.nanoTime());
        now = clock.nanoTime();
        result = b.acquire(state, now, permits, true);
        if (result == GcraBucket.CLOCK_STEPPED_BACK) {
          // readings that keep jumping back and forth: refuse this call rather than spin
          return limited(b.intervalNanos());
        }
      }
    }
    if (result == GcraBucket.STATE_RETIRED) {
      return result;
    }
    return outcome(b, state, key, now, result, held);
  }

  /**
   * What a decided acquire answer means for the call: admitted, limited or a wait, counted (in a
   * dry run, admitted and counted as what it would have been).
   *
   * @param state the local state the answer came from; null for a cluster bucket's
   * @param held as for {@link #acquireLocal(Reservation[])}
   */
  private long outcome(
      GcraBucket b, BucketState state, String key, long now, long result, Reservation[] held) {
    if (dryRun) {
      counts.admitDryRun(result);
      return ADMITTED;
    }
    if (result == 0) {
      counts.admit();
      return ADMITTED;
    }
    if (result < 0) {
      return limited(b.retryAfterNanos(result));
    }
    if (held != null) {
      counts.startWait();
      held[0] = new Reservation(this, b, state, key, now, result, b.toNanosCeil(result), 0);
      return RESERVED;
    }
    return waits.await(b, state, keyed, key, now, result);
  }

  /**
   * Counts a held slot reached ({@link Reservation#admit}): granted and waited, the time since it
   * was taken (forward clock time only) recorded as its wait.
   */
  void admitReserved(Reservation r) {
    waits.admitHeld(r);
  }

  /**
   * Gives a held slot back before it came ({@link Reservation#abandon}), by the rule for
   * interrupted waiters, and counts the call rejected.
   *
   * @return the retry-after for the call's answer, nanoseconds {@code >= 1}
   */
  long abandonReserved(Reservation r) {
    counts.reject();
    return withdrawReserved(r);
  }

  /**
   * Gives a held slot back before it came ({@link Reservation#withdraw}), by the rule for
   * interrupted waiters, and counts the call neither granted nor rejected: it is charged by none.
   *
   * @return the retry-after for the call's answer, nanoseconds {@code >= 1}
   */
  long withdrawReserved(Reservation r) {
    return waits.withdrawHeld(r, keyed);
  }

  /** Counts a call refused because the JVM is shutting down ({@link Draining}). */
  void rejectedWhileDraining() {
    counts.reject();
  }

  /** Counts a limited call: limited, or in a dry run admitted. */
  private long limited(long retryAfterNanos) {
    counts.reject();
    if (dryRun) {
      counts.admit();
      return ADMITTED;
    }
    return retryAfterNanos;
  }

  /**
   * Changes the settings live, at this instant: the rate, the capacity and whether this is a dry
   * run. A new rate or capacity replaces the bucket, carrying its state (each key's, for a per-key
   * limiter) over by the rules of {@link GcraBucket#takeOver}; calls already waiting keep their
   * slots. Values equal to the current ones change nothing. Validated first by {@link
   * #checkChange}; a refused change changes nothing.
   *
   * @param rate permits per {@code per}, {@code > 0} and finite
   * @param per the unit of {@code rate}
   * @param capacity permits, {@code >= 1} and {@code >=} {@link #permits()}
   * @param dryRun true to count what would be limited and limit nothing
   * @return true if anything changed
   * @throws IllegalArgumentException if a value is refused, with {@link #checkChange}'s message
   */
  public synchronized boolean change(double rate, TimeUnit per, long capacity, boolean dryRun) {
    String refused = checkChange(rate, per, capacity);
    if (refused != null) {
      throw new IllegalArgumentException(refused);
    }
    GcraBucket b = bucket;
    boolean reshape =
        capacity != b.capacity() || GcraBucket.perSecond(rate, per) != b.permitsPerSecond();
    if (!reshape && dryRun == this.dryRun) {
      return false;
    }
    if (reshape) {
      GcraBucket next = b.reshaped(rate, per, capacity);
      long now = clock.nanoTime();
      b.takeOver(next, now);
      bucket = next; // I1: published after the old state was retired and converted
      KeyedBuckets states = keyed;
      if (states != null) {
        states.reshape(next, now);
      }
    }
    this.dryRun = dryRun;
    return true;
  }

  /**
   * Whether another limiter treats calls the same way but for rate, capacity and dry run: the same
   * discipline, permits per call, {@code onLimit} and wait bound. Such a limiter's state means the
   * same here, so it can be carried over by the live-change rules ({@link #continueFrom}).
   *
   * @param other another limiter
   * @return true if their state can be carried over
   */
  public boolean sameShape(BucketLimiter other) {
    GcraBucket a = bucket;
    GcraBucket b = other.bucket;
    return a.discipline() == b.discipline()
        && permits == other.permits
        && a.waitOnLimit() == b.waitOnLimit()
        && a.maxWaitNanos() == b.maxWaitNanos()
        && a.warmUpNanos() == b.warmUpNanos();
  }

  /**
   * Takes over the state of a limiter of the same shape ({@link #sameShape}) whose calls come here
   * from now on (a config override that comes or goes), by the live-change rules of {@link
   * GcraBucket#takeOver}, per key too: the calls see one bucket whose settings changed, never a
   * fresh one. Called before the calls are moved here; the other keeps its state.
   *
   * @param from the limiter the calls went to until now
   */
  public synchronized void continueFrom(BucketLimiter from) {
    long now = clock.nanoTime();
    bucket.continueFrom(from.bucket, now);
    KeyedBuckets theirs = from.keyed;
    if (theirs != null) {
      keyedBuckets().importFrom(theirs, now);
    }
  }

  /**
   * Changes the rate live, leaving the capacity; see {@link #change}.
   *
   * @param permitsPerSecond the new rate in permits per second, {@code > 0} and finite
   * @return true if anything changed
   * @throws IllegalArgumentException if the value is refused
   */
  public synchronized boolean setRate(double permitsPerSecond) {
    return change(permitsPerSecond, TimeUnit.SECONDS, bucket.capacity(), dryRun);
  }

  /**
   * Changes the capacity live, leaving the rate; see {@link #change}.
   *
   * @param capacity permits, {@code >= 1} and {@code >=} {@link #permits()}
   * @return true if anything changed
   * @throws IllegalArgumentException if the value is refused
   */
  public synchronized boolean setCapacity(long capacity) {
    GcraBucket b = bucket;
    return change(b.rate(), b.per(), capacity, dryRun);
  }

  /**
   * Switches the dry run on or off live; see {@link #change}.
   *
   * @param dryRun true to count what would be limited and limit nothing
   * @return true if anything changed
   */
  public synchronized boolean setDryRun(boolean dryRun) {
    GcraBucket b = bucket;
    return change(b.rate(), b.per(), b.capacity(), dryRun);
  }

  /**
   * Why a live change to these values would be refused: the one validation of the MBean, the
   * command line and config reload.
   *
   * @param rate permits per {@code per}
   * @param per the unit of {@code rate}
   * @param capacity permits
   * @return null if the change is valid; otherwise a message naming the limiter, the attribute and
   *     the value, such as {@code 'orders': Capacity must be >= 1, was 0}
   */
  public String checkChange(double rate, TimeUnit per, long capacity) {
    if (per == null) {
      return "'" + name() + "': the rate needs a time unit";
    }
    String broken = LimitRules.rate(rate, per);
    if (broken != null) {
      return "'" + name() + "': Rate " + broken;
    }
    broken = LimitRules.liveCapacity(capacity, permits);
    if (broken != null) {
      return "'" + name() + "': Capacity " + broken;
    }
    if (cluster != null) {
      String problem = cluster.problem(bucket.reshaped(rate, per, capacity));
      if (problem != null) {
        return "'" + name() + "': Rate " + rate + " and Capacity " + capacity + ": " + problem;
      }
    }
    return null;
  }

  /**
   * Collects the waits recorded since the last tick into the window of the last minute, and lets go
   * of the count cells of threads gone. Called once a second by Weir's management thread.
   */
  public void tick() {
    counts.tick(clock.nanoTime());
  }

  /**
   * Permits per call.
   *
   * @return permits, {@code >= 1}
   */
  public long permits() {
    return permits;
  }

  /**
   * The time source.
   *
   * @return the clock
   */
  public NanoClock clock() {
    return clock;
  }

  /**
   * The current bucket, for diagnostics and tests; a live change replaces it.
   *
   * @return the bucket
   */
  public GcraBucket bucket() {
    return bucket;
  }

  /**
   * Whether this limiter counts what it would limit and limits nothing.
   *
   * @return true in a dry run
   */
  public boolean dryRun() {
    return dryRun;
  }

  /**
   * The kind, as operators read it.
   *
   * @return {@code token bucket}, {@code leaky bucket SHAPING} or {@code leaky bucket POLICING}
   */
  public String kind() {
    return SettingsText.kind(bucket.discipline());
  }

  /**
   * Calls admitted since creation, at once or after waiting (in a dry run: every call).
   *
   * @return calls
   */
  public long granted() {
    return counts.granted();
  }

  /**
   * Calls limited since creation, including those answered by a fallback and waiters interrupted
   * (in a dry run: those that would have been limited).
   *
   * @return calls
   */
  public long rejected() {
    return counts.rejected();
  }

  /**
   * Calls admitted after waiting since creation (in a dry run: those that would have waited).
   *
   * @return calls
   */
  public long waited() {
    return counts.waited();
  }

  /**
   * The time admitted calls spent waiting, since creation.
   *
   * @return nanoseconds
   */
  public long totalWaitNanos() {
    return counts.totalWaitNanos();
  }

  /**
   * Calls waiting in this limiter now.
   *
   * @return calls, {@code >= 0}
   */
  public int waiting() {
    return counts.waiting();
  }

  /**
   * The permits one call could take at once now: tokens on hand (token bucket), room below the
   * capacity (POLICING), or room left in the queue (SHAPING). For a per-key limiter, what a new key
   * would find.
   *
   * @return permits, {@code 0..capacity}
   */
  public long availablePermits() {
    GcraBucket b = bucket;
    if (cluster != null) {
      long available = cluster.availablePermits(b);
      if (available != ClusterBucket.ASK_LOCAL) {
        return available;
      }
    }
    return keyed != null ? b.capacity() : b.availablePermits(clock.nanoTime());
  }

  /**
   * The MBean's {@code Scope}.
   *
   * @return {@code local}; {@code cluster}; while the backend fails {@code cluster (local
   *     fallback)}, {@code cluster (allowing all)} or {@code cluster (rejecting all)}
   */
  public String scope() {
    return cluster == null ? "local" : cluster.scope().scope();
  }

  /**
   * The cluster scope.
   *
   * @return the backend's part of a cluster limiter; null for a local one
   */
  public ClusterScope cluster() {
    return cluster == null ? null : cluster.scope();
  }

  /**
   * Exchanges with the backend that failed or timed out (cluster scope).
   *
   * @return the count; 0 for a local limiter
   */
  public long backendFailures() {
    return cluster == null ? 0 : cluster.scope().failures();
  }

  /**
   * Keys held now by a per-key limiter.
   *
   * @return keys; 0 for a limiter without keys
   */
  public long keys() {
    KeyedBuckets states = keyed;
    return states == null ? 0 : states.size();
  }

  /**
   * The waits of admitted calls in the last minute.
   *
   * @return {@code {p50, p99, max}} in milliseconds; zeros if no call waited then
   */
  public double[] waitMillisLastMinute() {
    return counts.waitMillisLastMinute(clock.nanoTime());
  }

  /**
   * How many waits since creation were at most each bound, for a Prometheus histogram.
   *
   * @param boundsSeconds the upper bounds, ascending, in seconds
   * @return one cumulative count per bound, then the count of all
   */
  public long[] waitCounts(double[] boundsSeconds) {
    return counts.waitCounts(clock.nanoTime(), boundsSeconds);
  }

  /**
   * The settings it was declared with (live changes aside): methods sharing a name must agree on
   * these.
   *
   * @return for example {@code token bucket 10.0/SECONDS capacity 20 permits 1 REJECT}
   */
  @Override
  public String settings() {
    return declared;
  }

  /**
   * The settings now, live changes included.
   *
   * @return as {@link #settings()}
   */
  public String currentSettings() {
    return SettingsText.of(bucket, permits, dryRun, cluster != null);
  }

  /**
   * The counts so far in one line, for the periodic log lines.
   *
   * @return for example {@code 'db-writes' (dry run): 1200 calls, 85 would have been limited, 0
   *     would have waited}
   */
  public String report() {
    return counts.report(name(), dryRun);
  }

  // ---- for LimitGroup: this limiter as one of several on a call ----

  /**
   * The key as this limiter holds it: {@code "null"} for a null one, the digest of a long one.
   *
   * @param key the call's key; null for the keyless bucket
   * @return the key held; null for the keyless bucket
   */
  String heldKey(String key) {
    if (key != null && cluster != null) {
      cluster.keyUsed(); // a group charging this cluster limit with others: per key from now on
    }
    return key == null ? null : KeyDigest.isLong(key) ? held(key) : key;
  }

  /**
   * The state a call decides on now: the keyless bucket, or the key's state (made if new).
   *
   * @param key a key from {@link #heldKey}; null for the keyless bucket
   * @param nowNanos the clock's reading
   * @param again true after the state read before was found retired
   * @return the state; null for a new key past the bound on keys
   */
  BucketState stateFor(String key, long nowNanos, boolean again) {
    if (key == null) {
      GcraBucket b = bucket;
      return again && b.fullAt == GcraBucket.RETIRED ? replacementOf(b) : b;
    }
    KeyedBuckets states = keyedBuckets();
    return again ? states.slowState(key, nowNanos) : states.state(key, nowNanos);
  }

  /**
   * The counts, for a call decided with other limits.
   *
   * @return this limiter's counts
   */
  CallCounts counts() {
    return counts;
  }
}
